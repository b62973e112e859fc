"""Slabberjan's smaller variants (option ``variant``): fewer kinds of piece, the same rules.

Scenario tests from stacked decks of the small variant's 12 pieces (the four matadors, a
6 and the fool, two of each): what a short bag and a lone plain kind mean for S5, S7, S8,
S10 and S11."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from parlour.engine import Event, RecordError
from parlour.games import replay
from parlour.games.slabberjan import (
    MATADORS,
    PIECES,
    VARIANT_PIECES,
    VARIANTS,
    Draw,
    Slabberjan,
    Stand,
    Swap,
)

SMALL = VARIANT_PIECES["small"]


def small_deck(hands: Sequence[str], dealer: int, bag: Sequence[str] = ()) -> list[str]:
    """A small-variant deck dealing ``hands[seat]`` (the dealer's left first), then
    ``bag``, then the rest."""
    n = len(hands)
    top = [hands[(dealer + 1 + i) % n] for i in range(n)] + list(bag)
    rest = Counter(SMALL)
    rest.subtract(top)
    assert min(rest.values()) >= 0
    return top + sorted(rest.elements())


def small_game(hands: Sequence[str], dealer: int = 0, bag: Sequence[str] = (),
               later: Sequence[list[str]] = (), **options: Any) -> Slabberjan:
    return Slabberjan(len(hands), seed=0, options={"dealer": dealer, "variant": "small",
                                                   **options},
                      decks=[small_deck(hands, dealer, bag), *later])


def act(game: Slabberjan, *kinds: str) -> list[Event]:
    cls = {"swap": Swap, "stand": Stand, "draw": Draw}
    events: list[Event] = []
    for kind in kinds:
        assert game.turn is not None
        events += game.apply(cls[kind](game.turn))
    return events


def payers(events: Sequence[Event]) -> list[int]:
    return sorted(e.data["player"] for e in events if e.type == "pay")


def test_each_variant_keeps_the_matadors_and_the_fool_two_of_each() -> None:
    assert VARIANTS["full"][0] == "knight" and VARIANT_PIECES["full"] == PIECES
    for kinds in VARIANTS.values():
        assert set(kinds) >= MATADORS and kinds[-1] == "fool"
        assert list(kinds) == sorted(kinds, key=VARIANTS["full"].index)  # high to low
    assert len(SMALL) == 12 and len(VARIANT_PIECES["medium"]) == 18


def test_the_small_variant_deals_only_its_pieces_and_refuses_a_full_deck() -> None:
    game = Slabberjan(4, seed=3, options={"variant": "small"})
    assert Counter(game.hands + game.bag_left) == Counter(SMALL)
    assert game.view(0)["variant"] == "small"
    with pytest.raises(RecordError):
        Slabberjan(2, decks=[list(PIECES)], options={"variant": "small", "dealer": 0})


def test_bad_variants_and_too_many_players_are_refused_with_a_clear_message() -> None:
    with pytest.raises(RecordError, match="variant' must be one of 'full', 'medium', 'small'"):
        Slabberjan(2, seed=0, options={"variant": "tiny"})
    with pytest.raises(RecordError, match="12 pieces: at most 12 players, not 13"):
        Slabberjan(13, seed=0, options={"variant": "small"})
    Slabberjan(12, seed=0, options={"variant": "small"})  # every piece dealt, no bag


def test_s10_the_small_variants_lone_plain_kind_pays_below_every_matador() -> None:
    """Three seats: a 6 beside two matadors is the lowest and pays alone."""
    game = small_game(["6", "cat", "knight"], dealer=2)
    events = act(game, "swap", "stand", "stand")  # seat 0's 6 meets the cat: meow
    assert payers(events) == [0, 0]  # the meow, then the 6 is the lowest at the reveal
    assert game.chips == [1, 3, 3]


def test_s10_at_two_seats_a_fool_makes_both_pay() -> None:
    game = small_game(["fool", "6"], dealer=1, bag=["6"], free_choice=True)
    events = act(game, "stand", "stand")  # seat 0 holds the fool, seat 1 a 6
    assert payers(events) == [0, 1] and game.chips == [2, 2]


def test_s7_fool_over_fool_redeals_from_the_same_short_bag() -> None:
    redeal = small_deck(["6", "knight"], dealer=1)
    game = small_game(["fool", "fool"], dealer=1, later=[redeal])
    events = act(game, "swap")
    assert [e.data["words"] for e in events if e.type == "announce"] == ["fool over fool"]
    assert game.hands == ["6", "knight"] and game.deals == 2 and game.round == 1
    assert Counter(game.hands + game.bag_left) == Counter(SMALL)


def test_s8_a_dealer_drawing_from_the_short_bag_meets_the_matadors_in_it() -> None:
    """The small bag is mostly matadors: an inn is set aside and the next piece drawn, a
    knight costs the dealer a chip and it keeps its piece."""
    game = small_game(["6", "fool"], dealer=1, bag=["inn", "knight"], free_choice=True)
    events = act(game, "stand", "draw")
    words = [e.data["words"] for e in events if e.type == "announce"]
    assert words == ["go by the Inn", "cut short"]
    assert game.reveal is not None and game.reveal["pieces"] == ["6", "fool"]
    assert payers(events) == [0, 1, 1]  # the knight's chip, then both (a fool at two)


def test_s11_a_seat_with_no_chip_left_is_out_in_the_small_variant_too() -> None:
    game = small_game(["6", "cat", "bird"], dealer=2, chips=1,
                      later=[small_deck(["6", "knight", "bird"], dealer=0)])
    act(game, "swap", "stand", "stand")  # the meow takes seat 0's chip, then it pays again
    assert game.out == [True, False, False]
    assert json.loads(json.dumps(game.record()))["options"]["variant"] == "small"
    again = replay(json.loads(json.dumps(game.record())))
    assert again.events == game.events
