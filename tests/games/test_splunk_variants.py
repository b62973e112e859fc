"""Splunk's small deck (option ``variant``): Aces to Fives, and a call's line at 11 (P4)."""

from __future__ import annotations

import pytest

from parlour.engine import RecordError
from parlour.engine.cards import standard_deck
from parlour.games.splunk import Call, Play, Splunk, variant_deck


def small(top: list[str]) -> Splunk:
    """A small game dealt ``top`` first (one card at a time from seat 0), seat 0 first."""
    rest = [c for c in variant_deck("small", False) if c not in top]
    return Splunk(2, decks=[top + rest], options={"first": 0, "variant": "small"})


def test_the_small_deck_is_twenty_cards_ten_each_and_says_its_line() -> None:
    game = Splunk(2, seed=1, options={"variant": "small"})
    view = game.view(0)
    assert [p["cards"] for p in view["players"]] == [8, 8]  # 10 each, two bases down
    assert view["target"] == 11 and view["variant"] == "small"
    assert len(variant_deck("small", True)) == 22
    with pytest.raises(RecordError):
        Splunk(2, decks=[standard_deck()], options={"variant": "small"})


def test_p4_a_called_stack_over_eleven_goes_to_the_accused() -> None:
    # bases: seat 0 lays 5S (stack 0) and 4S (stack 1); seat 1 lays 5H and 4H
    game = small(["5S", "5H", "4S", "4H", "3S", "AH", "4D"])
    game.apply(Play(0, stack=0))  # 3S on the 5S base: 8
    game.apply(Play(1, stack=0))  # AH: 9, not over 11
    events = game.apply(Call(0))
    call = next(e.public() for e in events if e.type == "call")
    assert (call["total"], call["over"], call["taker"]) == (9, False, 0)
    game = small(["5S", "5H", "4S", "4H", "3S", "AH", "5D", "4D"])
    game.apply(Play(0, stack=0))  # 3S: 8
    game.apply(Play(1, stack=0))  # AH: 9
    game.apply(Play(0, stack=0))  # 5D: 14, over 11 (the full game's 21 would not be)
    events = game.apply(Call(1))
    call = next(e.public() for e in events if e.type == "call")
    assert (call["total"], call["over"], call["taker"]) == (14, True, 0)
