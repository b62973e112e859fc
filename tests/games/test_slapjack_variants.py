"""Slapjack's small deck (option ``variant``): the same rules on 16 cards."""

from __future__ import annotations

import pytest

from parlour.engine import RecordError
from parlour.engine.cards import standard_deck
from parlour.games.slapjack import Flip, Slap, Slapjack, variant_deck


def test_the_small_deck_is_tens_to_kings_and_deals_eight_each_at_two() -> None:
    deck = variant_deck("small")
    assert sorted({c[0] for c in deck}) == ["J", "K", "Q", "T"] and len(deck) == 16
    game = Slapjack(2, seed=4, options={"variant": "small"})
    assert [p["cards"] for p in game.view(None)["players"]] == [8, 8]
    with pytest.raises(RecordError):
        Slapjack(2, decks=[standard_deck()], options={"variant": "small"})


def test_j4_j5_on_the_small_deck_a_jack_wins_the_pile_and_a_queen_costs_a_card() -> None:
    # dealt one at a time from seat 0: seat 0 gets QS, JS, ...; seat 1 gets TS, KS, ...
    deck = ["QS", "TS", "JS", "KS"] + [c for c in variant_deck("small")
                                       if c not in ("QS", "TS", "JS", "KS")]
    game = Slapjack(2, decks=[deck], options={"variant": "small"})
    game.apply(Flip(0))  # QS
    game.apply(Slap(1, at=1))  # wrong: seat 1 gives seat 0 its top card (TS)
    assert [p["cards"] for p in game.view(None)["players"]] == [8, 7]
    game.apply(Flip(1))  # KS
    game.apply(Flip(0))  # JS
    game.apply(Slap(1, at=3))  # the Jack: seat 1 takes the pile of three
    assert [p["cards"] for p in game.view(None)["players"]] == [7, 9]
    assert game.view(None)["pile"] == 0 and game.turn == 1
