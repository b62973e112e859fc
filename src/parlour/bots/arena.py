"""The virtual clock: computer players play a whole game against each other, no waiting.

This is the event-driven driver of simulations and tests; a live table drives the same
:meth:`~parlour.bots.base.ComputerPlayer.decide` on the real clock. After the setup and after
every applied action, every computer player is asked ``decide(view(seat), events seen by
seat)``. Its answer is scheduled at ``now + delay`` and replaces whatever that seat had
pending (an answer of ``None`` just drops it), so a slap that was planned for a card which has
since been covered never happens. The earliest pending decision is then applied through the
checked :meth:`~parlour.engine.Game.apply`: an illegal choice by a computer player is a bug
and surfaces as :class:`~parlour.engine.IllegalAction`, never as a corrupted game.

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

from parlour.bots.base import ComputerPlayer
from parlour.engine import Action, Event, Game

#: Called after every applied action with (virtual time, the action, its events, the game).
Observer = Callable[[float, Action, list[Event], Game], None]


@dataclass(slots=True)
class GameResult:
    """How one game between computer players went."""

    winner: int | None
    """The winning seat, or ``None`` if the game was stopped unfinished."""
    actions: int
    time: float
    """Virtual seconds from the deal to the last action."""
    tiebreak: list[int]
    """Seats in the order that breaks ties between decisions due at the same instant."""
    stopped: str | None = None
    """Why an unfinished game was stopped: ``"max_actions"``, ``"max_time"`` or ``"stall"``."""
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return self.winner is not None


def play(
    game: Game,
    players: Sequence[ComputerPlayer],
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
    rank = {seat: i for i, seat in enumerate(order)}
    pending: dict[int, tuple[float, int, Action]] = {}
    now = 0.0

    def ask(events: Sequence[Event]) -> None:
        for seat, player in enumerate(players):
            decision = player.decide(game.view(seat), [e.seen_by(seat) for e in events])
            if decision is None:
                pending.pop(seat, None)
            else:
                pending[seat] = (now + max(decision.delay, 0.0), rank[seat], decision.action)

    ask(game.events)
    stopped: str | None = None
    while game.outcome is None:
        if len(game.history) >= max_actions:
            stopped = "max_actions"
            break
        if not pending:
            stopped = "stall"
            break
        seat = min(pending, key=lambda s: pending[s][:2])
        when, _, action = pending.pop(seat)
        if when > max_time:
            stopped = "max_time"
            break
        now = when
        events = game.apply(action)
        if observer is not None:
            observer(now, action, events, game)
        ask(events)
    outcome = game.outcome
    return GameResult(outcome.winner if outcome else None, len(game.history), now, order, stopped)
