"""Issue 22's cheat, on the live table with a virtual clock: nothing a person sends that
changes nothing (a stale slap, a refused action, a repeated one) moves a computer player's
timer or draws its generator again. Before the fix a stale slap every 100 ms re-timed a
Hard computer's slap from that moment, so it never slapped and the person's own slap two
seconds later took the pile.

The same over the real socket, for every game, is ``test_stall_socket.py``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest
from conftest import act, room_of, seat_page

from parlour.bots import make_player
from parlour.bots.base import AnyPlayer, ComputerPlayer, Decision, ReactionTime
from parlour.bots.scheduler import VirtualClock
from parlour.bots.slapjack import PROFILES, SlapjackPlayer
from parlour.engine import Action
from parlour.engine.cards import standard_deck
from parlour.games import new_game
from parlour.live import Room


def deck_starting(*cards: str) -> list[str]:
    return list(cards) + [c for c in standard_deck() if c not in cards]


class Exact(SlapjackPlayer):
    """Hard, but it slaps every Jack exactly 0.2 s after it sees it."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat, level="hard", seed=1)
        self.profile = replace(PROFILES["hard"], jack_miss=0.0, wrong_face=0.0,
                               wrong_other=0.0,
                               reaction_time=ReactionTime(floor=0.1, median=0.2, spread=0.0))


Moves = list[tuple[float, Action, list[dict[str, Any]]]]


def live(game_cards: list[str], computers: dict[int, AnyPlayer]
         ) -> tuple[Room, VirtualClock, Moves]:
    """A room on a virtual clock, and every move as a spectator is told of it (when, the
    action, its events)."""
    clock = VirtualClock()
    moves: Moves = []
    game = new_game("slapjack", players=2, decks=[game_cards])
    room = room_of(game, computers, clock, level="hard")

    def spectator(message: dict[str, Any]) -> None:
        if message["type"] == "events":  # told as the action is applied: the latest
            moves.append((clock.now(), game.history[-1], message["events"]))

    room.watch(spectator)
    return room, clock, moves


def every(clock: VirtualClock, period: float, until: float, do: Callable[[], object]) -> None:
    """``do()`` every ``period`` seconds from ``period`` to ``until`` on ``clock``."""
    k = 1
    while k * period <= until:
        clock.call_at(k * period, do)
        k += 1


@pytest.mark.parametrize("noise", [None, "stale", "refused", "repeated"])
def test_hard_slaps_a_jack_0_2_s_after_it_lands_whatever_the_person_sends(
        noise: str | None) -> None:
    # seat 0 (the person) flips the Jack of Spades at t = 0; seat 1 is the computer
    room, clock, moves = live(deck_starting("5S", "2H", "JS"), {1: Exact(1)})
    act(room, 0, {"type": "flip"})  # 5S at t = 0
    clock.run(lambda: len(moves) >= 2, max_time=5)  # the computer flips 2H
    clock.run(lambda: False, max_time=clock.now() + 0.5)  # 2H is left alone
    landed = clock.now()
    assert act(room, 0, {"type": "flip"}) is None  # the Jack, at `landed`
    sent: list[str | None] = []
    stale = iter([1, 2] * 20)  # at the 5S, at the 2H: long gone (never twice in a row,
    # which the table would refuse as a repeat)
    message: Callable[[], dict[str, Any]] | None = {
        "stale": lambda: {"type": "slap", "at": next(stale)},
        "refused": lambda: {"type": "slap", "at": 99},  # a card not flipped yet (J6)
        "repeated": lambda: {"type": "slap", "at": 2}}.get(noise or "")
    if message is not None:
        if noise == "repeated":  # once (stale), and then again and again: refused
            assert act(room, 0, {"type": "slap", "at": 2}) is None
        every(clock, 0.1, 3.0, lambda: sent.append(act(room, 0, message())))
    # the person's own slap two seconds later
    clock.call_at(landed + 2.0, lambda: sent.append(act(room, 0, {"type": "slap", "at": 3})))
    clock.run(lambda: False, max_time=landed + 3.0)
    takes = [(t, a.player) for t, a, events in moves
             if any(e["type"] == "take" for e in events)]
    assert takes == [(pytest.approx(landed + 0.2), 1)], moves
    if noise == "stale":
        assert sent[:2] == [None, None]  # applied, and ignored by the rules
        assert any(e["type"] == "slap_ignored" for _, _, events in moves for e in events)
    elif noise is not None:
        assert all(s is not None for s in sent[:-1])  # refused, every one


class Counting(ComputerPlayer[Any]):
    """Counts how often a real computer player is asked and what it answers."""

    def __init__(self, inner: AnyPlayer) -> None:
        super().__init__(inner.seat, level=inner.level, seed=0)
        self.inner, self.game, self.rng = inner, inner.game, inner.rng
        self.answers: list[Decision | None] = []

    def decide(self, view: Any, events: Sequence[dict[str, Any]]) -> Decision | None:
        answer = self.inner.decide(view, events)
        self.answers.append(answer)
        return answer


def test_a_stale_slap_draws_no_computer_generator_and_the_record_is_the_same() -> None:
    """Two seeded Normal computers and a person who flips at once and never slaps, with
    and without a stale slap every 50 ms: the computers are asked the same questions, give
    the same answers, and the game is the same game (the record with the noise is the
    record without it, plus the ignored slaps themselves)."""

    def play(noisy: bool) -> tuple[list[dict[str, Any]], list[list[Decision | None]]]:
        clock = VirtualClock()
        game = new_game("slapjack", players=3, seed=11)
        bots = {s: Counting(make_player("slapjack", "normal", s, seed=s)) for s in (1, 2)}
        room = room_of(game, bots, clock, level="normal")

        def person() -> None:
            if game.outcome is None and game.view(0)["turn"] == 0:
                act(room, 0, {"type": "flip"})

        ticks = iter(range(10**6))

        def noise() -> None:
            flips = game.view(0)["flips"]
            if game.outcome is None and flips >= 2:
                # at one of the two cards before the top, in turn: always stale, never
                # the same twice in a row (the table refuses a repeat before the rules)
                act(room, 0, {"type": "slap", "at": flips - 1 - next(ticks) % 2})

        seat_page(room, 0, lambda message: clock.call_at(clock.now() + 0.01, person))
        if noisy:
            every(clock, 0.05, 120.0, noise)
        clock.run(lambda: game.outcome is not None or clock.now() > 120.0, max_calls=20_000)
        record = game.record()["actions"]
        return record, [b.answers for b in bots.values()]

    quiet, asked_quiet = play(False)
    noisy, asked_noisy = play(True)
    def ignored(action: dict[str, Any]) -> bool:
        return action["player"] == 0 and action["type"] == "slap"

    assert not any(map(ignored, quiet)) and sum(map(ignored, noisy)) > 100
    assert [a for a in noisy if not ignored(a)] == quiet
    assert asked_noisy == asked_quiet
