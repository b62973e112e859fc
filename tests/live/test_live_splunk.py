"""Splunk at a live table, with its real pacing (its spec's): after a call or a
slap, a computer player that would play at once waits a speed-dependent pause, so that a
person can read who took the stack and see the new base; its slaps are never held."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from conftest import act

from parlour.bots.base import ComputerPlayer, Decision
from parlour.engine.cards import standard_deck
from parlour.games.splunk import SPEC, Call, Play, Slap, Splunk
from parlour.live import Refused, Table
from parlour.live.protocol import Act, action_for, parse_message

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


def table_for(game: Splunk, computer: ComputerPlayer) -> tuple[Table, list[dict[str, Any]]]:
    """A started table, the person at seat 0, and the events the person is told, each with
    the loop time it was told at (``"told"``)."""
    table = Table(game, {1: computer}, level="normal")
    seen: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()

    def tell(message: dict[str, Any]) -> None:
        seen.extend({**event, "told": loop.time()} for event in message["events"])

    table.watch(0, tell)
    table.start()
    return table, seen


async def until(check: Any) -> None:
    for _ in range(300):  # bounded: three seconds at most
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("it did not happen")


async def asked(table: Table, seat: int) -> None:
    """Waits for the computer at ``seat`` to be asked about the latest change (on the
    clock's turn after the people are told) and to have a move pending."""
    await until(lambda: seat in table.scheduler._pending)  # type: ignore[attr-defined]


async def due_after(table: Table, seat: int, event: dict[str, Any]) -> float:
    """How long after ``event`` was told the computer's pending move is due."""
    await asked(table, seat)
    when: float = table.scheduler._pending[seat].when()  # type: ignore[attr-defined]
    return when - float(event["told"])


async def test_after_a_slap_the_computer_waits_before_its_play() -> None:
    # the person's 9 of Spades, then the computer's 9 of Hearts on the same stack: a pair
    game = Splunk(2, decks=[dealt(["2C", "3C", "9S"], ["4C", "5C", "9H"])],
                  options={"first": 0})
    table, seen = table_for(game, Instant(1))
    assert act(table, 0, {"type": "play", "stack": 3}) is None
    await until(lambda: game.plays == 2)
    assert game.view(None)["slap_kind"] == "pair"
    assert act(table, 0, {"type": "slap", "stack": 3, "at": 2}) is None
    # the computer took the stack (23 + 3 cards) and plays next: at once if it could, but
    # it waits the pause
    assert game.turn == 1 and len(game.piles[1]) == 26
    slap = next(e for e in seen if e["type"] == "slap")
    assert await due_after(table, 1, slap) >= PAUSE - 1e-6
    table.close()


async def test_after_a_call_the_computer_waits_before_its_play() -> None:
    class Caller(Instant):
        calls = True

    game = Splunk(2, decks=[dealt(["2C", "3C", "4S"], ["4C", "5C"])], options={"first": 0})
    table, seen = table_for(game, Caller(1))
    assert act(table, 0, {"type": "play", "stack": 0}) is None
    await until(lambda: any(e["type"] == "call" for e in seen))
    call = next(e for e in seen if e["type"] == "call")
    # 2 and 4 are not over 21: the caller takes the stack and, having lost, plays next
    assert (call["total"], call["taker"], game.turn) == (6, 1, 1)
    assert await due_after(table, 1, call) >= PAUSE - 1e-6
    table.close()


async def test_a_computer_slap_is_never_held() -> None:
    class Slapper(Instant):
        slaps = True

    game = Splunk(2, decks=[dealt(["2C", "3C", "9S", "9D"], ["4C", "5C", "2H"])],
                  options={"first": 0})
    table, seen = table_for(game, Slapper(1))
    assert act(table, 0, {"type": "play", "stack": 0}) is None  # the 9 of Spades
    await until(lambda: game.plays == 2)  # the computer's 2 of Hearts on stack 4
    assert act(table, 0, {"type": "call"}) is None  # 5 + 2: a wrong call, the person plays
    assert game.turn == 0
    # the 9 of Diamonds on the 9 of Spades, within the pause after the call: the computer's
    # slap is a race, and goes at once
    assert act(table, 0, {"type": "play", "stack": 0}) is None
    await until(lambda: any(e["type"] == "slap" for e in seen))
    play = [e for e in seen if e["type"] == "play"][-1]
    slap = next(e for e in seen if e["type"] == "slap")
    assert slap["player"] == 1 and slap["told"] - play["told"] < 0.1
    table.close()


def test_the_easier_the_speed_the_longer_the_pause() -> None:
    pause = SPEC.pacing.pause_for
    assert 0 < pause("hard") < pause("normal") < pause("easy")


def refusal(table: Table, seat: int, action: dict[str, Any]) -> tuple[str, str] | None:
    """``(code, reason)`` of a person's refused move, ``None`` if it was applied."""
    try:
        parsed = parse_message({"type": "action", "action": action})
        assert isinstance(parsed, Act)
        table.act(seat, action_for(parsed, table.game.spec, seat))
    except Refused as exc:
        return exc.code, exc.reason
    return None


async def test_a_right_slap_on_another_stack_at_the_same_play_is_accepted() -> None:
    """The one-slap filter keys on what a slap aims at, the stack and the play: a wrong slap
    on one stack does not block the right one on the open pair, as the rules allow."""
    game = Splunk(2, decks=[dealt(["2C", "3C", "9S"], ["4C", "5C", "9H"])],
                  options={"first": 0})
    table, seen = table_for(game, Instant(1))
    assert act(table, 0, {"type": "play", "stack": 3}) is None
    await until(lambda: game.plays == 2)
    assert game.view(None)["slap_open"] == 3
    assert act(table, 0, {"type": "slap", "stack": 0, "at": 2}) is None  # wrong: no pair
    assert [e["type"] for e in seen][-2:] == ["wrong_slap", "base"]
    again = refusal(table, 0, {"type": "slap", "stack": 0, "at": 2})
    assert again is not None and again[0] == "refused" and "already" in again[1]
    assert act(table, 0, {"type": "slap", "stack": 3, "at": 2}) is None  # the pair
    slap = next(e for e in seen if e["type"] == "slap")
    assert (slap["player"], slap["stack"], slap["kind"]) == (0, 3, "pair")
    table.close()


async def test_a_call_that_lost_the_race_to_a_slap_is_told_too_late_not_refused() -> None:
    class Slapper(Instant):
        slaps = True

    game = Splunk(2, decks=[dealt(["2C", "3C", "9S"], ["4C", "5C", "9H"])],
                  options={"first": 0})
    table, seen = table_for(game, Slapper(1))
    early = refusal(table, 0, {"type": "call"})  # nothing to call yet: simply not allowed
    assert early is not None and early[0] == "refused" and "nobody has played" in early[1]
    assert act(table, 0, {"type": "play", "stack": 3}) is None
    await until(lambda: any(e["type"] == "slap" for e in seen))  # the computer was faster
    late = refusal(table, 0, {"type": "call"})
    assert late is not None and late[0] == "stale" and late[1].startswith("too late")
    # a late slap at the same play is ignored as stale too: the same answer, in the events
    assert act(table, 0, {"type": "slap", "stack": 3, "at": 2}) is None
    assert seen[-1]["type"] == "slap_ignored" and seen[-1]["reason"] == "stale"
    table.close()
