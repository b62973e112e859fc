"""One game with some seats learning and the others our computer players, on virtual time.

This is the shared core of every environment. The computer players are driven exactly as
in a simulation or at a live table: :class:`~parlour.bots.scheduler.Scheduler` on a
:class:`~parlour.bots.scheduler.VirtualClock` (their reaction and thinking times, and the
game's pacing, such as J10's pause after a pile is taken). A learning seat's action goes
through :meth:`Scheduler.act`, the checked path a person's click takes at a live table, so
the computer players react to it as they would to a person.

Seeds: one integer makes a whole episode: the game's own seed (the deal and every shuffle),
every computer player's seed, and the tie-break order of the seats (who goes first when
two actions fall on the same instant: ruling J3's "the earlier slap wins", with a seeded
order for exact ties, as :func:`parlour.bots.arena.play` does).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from parlour.bots import make_player
from parlour.bots.base import AnyPlayer
from parlour.bots.scheduler import Scheduler, VirtualClock
from parlour.engine import Action, Event, Game
from parlour.games import game_class


def agent_name(seat: int) -> str:
    """The PettingZoo agent of ``seat``."""
    return f"seat_{seat}"


def seat_of(agent: str) -> int:
    return int(agent.removeprefix("seat_"))


def learning_seats(players: int, opponents: Mapping[int, Any]) -> list[int]:
    """The seats that learn: every seat ``opponents`` (our computer players) leaves."""
    for seat in opponents:
        if not 0 <= seat < players:
            raise ValueError(f"no seat {seat} at a {players}-player table")
    learners = [s for s in range(players) if s not in opponents]
    if not learners:
        raise ValueError("every seat is a computer player: no agent would learn")
    return learners


def derive(seed: int, *parts: object) -> int:
    """A seed for one part of an episode, stable across runs and platforms."""
    return random.Random(":".join(map(str, ("parlour-env", seed, *parts)))).getrandbits(63)


class Table:
    """A game in play: learning seats, computer seats, the clock, and what each seat saw."""

    def __init__(self, game: str, players: int, options: Mapping[str, Any],
                 opponents: Mapping[int, str], seed: int, *,
                 decks: Sequence[Sequence[str]] = (),
                 shuffles: Sequence[Sequence[str]] = ()) -> None:
        cls = game_class(game)
        self.game: Game = cls(players, seed=derive(seed, "game"), options=dict(options),
                              decks=decks, shuffles=shuffles)
        self.players = players
        self.clock = VirtualClock()
        order = list(range(players))
        random.Random(derive(seed, "ties")).shuffle(order)
        #: seat -> its rank when actions fall on the same instant (lower goes first)
        self.tie_rank = {seat: i for i, seat in enumerate(order)}
        self.bots: dict[int, AnyPlayer] = {
            seat: make_player(game, level, seat, seed=derive(seed, "seat", seat))
            for seat, level in opponents.items()}
        #: every event so far, in order (a seat's share is ``seen(seat)``)
        self.events: list[Event] = list(self.game.events)
        self.scheduler = Scheduler(self.game, self.bots, self.clock, order=self.tie_rank,
                                   notify=self._notify)
        self.scheduler.start()

    def _notify(self, action: Action, events: Sequence[Event]) -> None:
        self.events.extend(events)

    @property
    def over(self) -> bool:
        return self.game.outcome is not None

    def view(self, seat: int) -> Mapping[str, Any]:
        return self.game.view(seat)

    def seen(self, seat: int, since: int = 0) -> list[dict[str, Any]]:
        """The events from index ``since`` on, as ``seat`` was told them."""
        return [e.seen_by(seat) for e in self.events[since:]]

    def act(self, seat: int, obj: Mapping[str, Any]) -> bool:
        """``seat`` takes the action ``obj`` (JSON without ``player``), checked; ``False`` if
        the rules refuse it now (nothing changes then)."""
        from parlour.engine import GameError

        try:
            self.scheduler.act(self.game.parse_action(obj, player=seat))
        except GameError:
            return False
        return True

    def run_until(self, done: Callable[[], bool], max_calls: int = 100_000) -> str | None:
        """Lets the computer players act, earliest first, until ``done()``."""
        return self.clock.run(lambda: self.over or done(), max_calls=max_calls)

    def advance(self, until: float) -> None:
        """Virtual time moves on to ``until``; every computer move due by then is made (in
        time order, ties by seat rank), and the clock then reads exactly ``until``."""
        # A marker due at ``until`` after every seat's move at that instant: running until
        # it fires makes every move due by then, and nothing later. (VirtualClock.run's
        # own ``max_time`` would drop the first callback due after it.)
        reached: list[bool] = []
        marker = self.clock.call_at(until, lambda: reached.append(True),
                                    order=len(self.tie_rank) + 1)
        self.clock.run(lambda: self.over or bool(reached))
        if not reached:  # the game ended first: the marker is not needed
            marker.cancel()

    def close(self) -> None:
        self.scheduler.close()
