"""Splunk at a live table, with its real pacing (its spec's): after a call or a
slap, a computer player that would play at once waits a speed-dependent pause, so that a
person can read who took the stack and see the new base; its slaps are never held."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from conftest import SteppedClock, act, refusal, room_of, seat_page

from parlour.bots.base import ComputerPlayer, Decision
from parlour.engine.cards import standard_deck
from parlour.games.splunk import SPEC, Call, Play, Slap, Splunk
from parlour.live import Room

PAUSE = SPEC.pacing.pause_for("normal")


class Instant(ComputerPlayer):
    """Plays on stack 4 (index 3) at once, calls every call at once if ``calls``, slaps
    every open slap at once if ``slaps``."""

    game = "splunk"
    level = "normal"
    calls = False
    slaps = False

    def decide(self, view: dict[str, Any], events: Sequence[dict[str, Any]]) -> Decision | None:
        me = self.seat
        if view["winner"] is not None:
            return None
        if self.slaps and view["slap_open"] is not None:
            return Decision(Slap(me, view["slap_open"], at=view["plays"]), 0.0)
        last = view["last_play"]
        if self.calls and last is not None and view["stacks"][last["stack"]]["call_open"]:
            return Decision(Call(me), 0.0)
        if view["turn"] == me:
            return Decision(Play(me, 3), 0.0)
        return None


def dealt(person: list[str], computer: list[str]) -> list[str]:
    """A deck whose deal gives seat 0 ``person`` and seat 1 ``computer`` on top (each
    player's first two cards are their bases)."""
    rest = [c for c in standard_deck() if c not in person + computer]
    n = 26 - len(person)
    deck = [card for pair in zip(person + rest[:n], computer + rest[n:], strict=True)
            for card in pair]
    assert sorted(deck) == sorted(standard_deck())
    return deck


def table_for(game: Splunk, computer: ComputerPlayer, clock: SteppedClock
              ) -> tuple[Room, list[dict[str, Any]]]:
    """A started room on a virtual clock, the person at seat 0, and the events the person is
    told, each with the time it was told at (``"told"``)."""
    room = room_of(game, {1: computer}, clock)
    seen: list[dict[str, Any]] = []

    def tell(message: dict[str, Any]) -> None:
        seen.extend({**event, "told": clock.now()} for event in message.get("events", ()))

    seat_page(room, 0, tell)
    return room, seen


def until(clock: SteppedClock, check: Callable[[], bool]) -> None:
    """Moves virtual time on until ``check()`` (within a minute of it)."""
    assert clock.run(check, max_time=clock.now() + 60.0) is None, "it did not happen"


def due_after(room: Room, clock: SteppedClock, seat: int, event: dict[str, Any]) -> float:
    """How long after ``event`` was told the computer's pending move is due, once it has
    been asked about the latest change (on the clock's turn after the people are told)."""
    table = room.table
    assert table is not None
    until(clock, lambda: seat in table.scheduler._planned)
    return table.scheduler._planned[seat][1] - float(event["told"])


def test_after_a_slap_the_computer_waits_before_its_play(clock: SteppedClock) -> None:
    # the person's 9 of Spades, then the computer's 9 of Hearts on the same stack: a pair
    game = Splunk(2, decks=[dealt(["2C", "3C", "9S"], ["4C", "5C", "9H"])],
                  options={"first": 0})
    room, seen = table_for(game, Instant(1), clock)
    assert act(room, 0, {"type": "play", "stack": 3}) is None
    until(clock, lambda: game.plays == 2)
    assert game.view(None)["slap_kind"] == "pair"
    assert act(room, 0, {"type": "slap", "stack": 3, "at": 2}) is None
    # the computer took the stack (23 + 3 cards) and plays next: at once if it could, but
    # it waits the pause
    assert game.turn == 1 and len(game.piles[1]) == 26
    slap = next(e for e in seen if e["type"] == "slap")
    assert due_after(room, clock, 1, slap) == pytest.approx(PAUSE)


def test_after_a_call_the_computer_waits_before_its_play(clock: SteppedClock) -> None:
    class Caller(Instant):
        calls = True

    game = Splunk(2, decks=[dealt(["2C", "3C", "4S"], ["4C", "5C"])], options={"first": 0})
    room, seen = table_for(game, Caller(1), clock)
    assert act(room, 0, {"type": "play", "stack": 0}) is None
    until(clock, lambda: any(e["type"] == "call" for e in seen))
    call = next(e for e in seen if e["type"] == "call")
    # 2 and 4 are not over 21: the caller takes the stack and, having lost, plays next
    assert (call["total"], call["taker"], game.turn) == (6, 1, 1)
    assert due_after(room, clock, 1, call) == pytest.approx(PAUSE)


def test_a_computer_slap_is_never_held(clock: SteppedClock) -> None:
    class Slapper(Instant):
        slaps = True

    game = Splunk(2, decks=[dealt(["2C", "3C", "9S", "9D"], ["4C", "5C", "2H"])],
                  options={"first": 0})
    room, seen = table_for(game, Slapper(1), clock)
    assert act(room, 0, {"type": "play", "stack": 0}) is None  # the 9 of Spades
    until(clock, lambda: game.plays == 2)  # the computer's 2 of Hearts on stack 4
    assert act(room, 0, {"type": "call"}) is None  # 5 + 2: a wrong call, the person plays
    assert game.turn == 0
    # the 9 of Diamonds on the 9 of Spades, within the pause after the call: the computer's
    # slap is a race, and goes at once
    assert act(room, 0, {"type": "play", "stack": 0}) is None
    until(clock, lambda: any(e["type"] == "slap" for e in seen))
    play = [e for e in seen if e["type"] == "play"][-1]
    slap = next(e for e in seen if e["type"] == "slap")
    assert slap["player"] == 1 and slap["told"] == play["told"]


def test_the_easier_the_speed_the_longer_the_pause() -> None:
    pause = SPEC.pacing.pause_for
    assert 0 < pause("hard") < pause("normal") < pause("easy")


def test_a_right_slap_on_another_stack_at_the_same_play_is_accepted(
        clock: SteppedClock) -> None:
    """The one-slap filter keys on what a slap aims at, the stack and the play: a wrong slap
    on one stack does not block the right one on the open pair, as the rules allow."""
    game = Splunk(2, decks=[dealt(["2C", "3C", "9S"], ["4C", "5C", "9H"])],
                  options={"first": 0})
    room, seen = table_for(game, Instant(1), clock)
    assert act(room, 0, {"type": "play", "stack": 3}) is None
    until(clock, lambda: game.plays == 2)
    assert game.view(None)["slap_open"] == 3
    assert act(room, 0, {"type": "slap", "stack": 0, "at": 2}) is None  # wrong: no pair
    assert [e["type"] for e in seen][-2:] == ["wrong_slap", "base"]
    again = refusal(room, 0, {"type": "slap", "stack": 0, "at": 2})
    assert again is not None and again[0] == "refused" and "already" in again[1]
    assert act(room, 0, {"type": "slap", "stack": 3, "at": 2}) is None  # the pair
    slap = next(e for e in seen if e["type"] == "slap")
    assert (slap["player"], slap["stack"], slap["kind"]) == (0, 3, "pair")


def test_a_call_that_lost_the_race_to_a_slap_is_told_too_late_not_refused(
        clock: SteppedClock) -> None:
    class Slapper(Instant):
        slaps = True

    game = Splunk(2, decks=[dealt(["2C", "3C", "9S"], ["4C", "5C", "9H"])],
                  options={"first": 0})
    room, seen = table_for(game, Slapper(1), clock)
    early = refusal(room, 0, {"type": "call"})  # nothing to call yet: simply not allowed
    assert early is not None and early[0] == "refused" and "nobody has played" in early[1]
    assert act(room, 0, {"type": "play", "stack": 3}) is None
    until(clock, lambda: any(e["type"] == "slap" for e in seen))  # the computer was faster
    late = refusal(room, 0, {"type": "call"})
    assert late is not None and late[0] == "stale" and late[1].startswith("too late")
    # a late slap at the same play is ignored as stale too: the same answer, in the events
    assert act(room, 0, {"type": "slap", "stack": 3, "at": 2}) is None
    assert seen[-1]["type"] == "slap_ignored" and seen[-1]["reason"] == "stale"
