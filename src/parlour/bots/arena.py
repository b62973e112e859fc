"""The arena: computer players play a whole game against each other on a virtual clock.

This is the driver of simulations and tests: the :class:`~parlour.bots.scheduler.Scheduler`
of a live table, on a :class:`~parlour.bots.scheduler.VirtualClock` that jumps from one due
decision to the next, so a game is played under exactly a live table's pacing without the
waiting. Every decision is applied through the checked :meth:`~parlour.engine.Game.apply`:
an illegal choice by a computer player is a bug and surfaces as
:class:`~parlour.engine.IllegalAction`, never as a corrupted game.

Two decisions due at the same instant are ordered by a per-game permutation of the seats
drawn from ``tiebreak_seed`` and returned in :attr:`GameResult.tiebreak`, so a game is
reproducible from its seeds. A game is stopped and reported unfinished when it reaches
``max_actions`` actions or ``max_time`` virtual seconds, or when nobody has anything left to
do (a stall), rather than looping forever.

>>> from parlour.bots import make_player
>>> from parlour.games import new_game
>>> game = new_game("slapjack", players=2, seed=5)
>>> bots = [make_player("slapjack", "hard", 0, seed=1), make_player("slapjack", "easy", 1, seed=2)]
>>> result = play(game, bots, tiebreak_seed=0)
>>> result.finished, result.winner == game.outcome.winner, result.actions == len(game.history)
(True, True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.bots.base import AnyPlayer
from parlour.bots.scheduler import Scheduler, VirtualClock
from parlour.engine import Action, Event, Game

#: Called after every applied action with (virtual time, the action, its events, the game).
Observer = Callable[[float, Action, Sequence[Event], Game], None]


@dataclass(slots=True)
class GameResult:
    """How one game between computer players went."""

    winner: int | None
    """The winning seat, or ``None``: a draw, or a game stopped unfinished."""
    actions: int
    time: float
    """Virtual seconds from the deal to the last action."""
    tiebreak: list[int]
    """Seats in the order that breaks ties between decisions due at the same instant."""
    stopped: str | None = None
    """Why an unfinished game was stopped: ``"max_actions"``, ``"max_time"`` or ``"stall"``."""
    stats: dict[str, Any] = field(default_factory=dict)
    draw: bool = False
    """The game ended with no winner."""

    @property
    def finished(self) -> bool:
        return self.winner is not None or self.draw


def play(
    game: Game,
    players: Sequence[AnyPlayer],
    *,
    tiebreak_seed: int | None = None,
    max_actions: int = 100_000,
    max_time: float = 1e6,
    observer: Observer | None = None,
) -> GameResult:
    """Plays ``game`` to its end (or a cap) with one computer player per seat."""
    n = game.players
    if len(players) != n or any(p.seat != s for s, p in enumerate(players)):
        raise ValueError(f"need one computer player per seat, seats 0..{n - 1} in order")
    order = list(range(n))
    random.Random(tiebreak_seed).shuffle(order)
    clock = VirtualClock()

    def observed(action: Action, due: float) -> None:
        # the scheduler's own path (Scheduler.play, strict), with the observer told of
        # each change before the computers are asked about it
        events = game.apply(action)  # a computer's illegal choice is a bug: it raises
        if observer is not None:
            observer(clock.now(), action, events, game)
        scheduler.changed(action, events)

    scheduler = Scheduler(game, dict(enumerate(players)), clock,
                          order={seat: i for i, seat in enumerate(order)},
                          referee=None if observer is None else observed)
    scheduler.start()
    start = len(game.history)
    stopped = clock.run(lambda: game.outcome is not None, max_time=max_time,
                        max_calls=max_actions - start)
    if stopped == "max_calls" or (game.outcome is None and len(game.history) >= max_actions):
        stopped = "max_actions"
    scheduler.close()
    outcome = game.outcome
    return GameResult(outcome.winner if outcome else None, len(game.history), clock.now(),
                      order, stopped, draw=outcome is not None and outcome.draw)
