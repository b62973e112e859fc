"""A player on the far side of a network, on a live table with a virtual clock: how races
at latency are measured without waiting for them (``bench/bench_lag.py`` and the lag
columns of the calibration in ``docs/bots.md``).

The player is any computer player (usually a modelled person, :mod:`parlour.bots.person`)
seated as a *person*: the table tells it what its seat is told, which reaches it
``delay + jitter`` later; it decides as it would at the table; its move leaves after its
reaction time and reaches the table ``delay + jitter`` later again, where it is taken in
exactly as a person's move from a socket (:meth:`Room.commit`, at a room of its own:
:meth:`Room.alone`). A newer message reaching it
before its move has left replaces the move, as a person who sees the card covered does not
slap. With ``pings``, the table measures the seat as the server does over a socket (a ping a
second, answered at once, both ways delayed), so the races are settled by reaction time
(:mod:`parlour.live.lag`); without, the table knows nothing of the delay and settles by
arrival, as it did before issue 18.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping
from typing import Any

from parlour.bots.base import AnyPlayer
from parlour.bots.scheduler import Timer, VirtualClock
from parlour.engine import Game
from parlour.live.protocol import Refused
from parlour.live.room import Room
from parlour.live.seats import Message
from parlour.live.table import Table

__all__ = ["RemoteSeat", "play_at_lag"]

#: Seconds between two pings of a measured seat (as ``web.connection.PING_EVERY``).
PING_EVERY = 1.0


class RemoteSeat:
    """``player`` at ``room``'s seat ``player.seat`` (a person's seat there), ``delay``
    (+ up to ``jitter``, drawn from ``rng``) away each way on ``clock``."""

    def __init__(self, room: Room, clock: VirtualClock, player: AnyPlayer, *, delay: float,
                 jitter: float, rng: random.Random, pings: bool) -> None:
        assert room.table is not None, "a started room"
        self.room, self.table, self.clock, self.player = room, room.table, clock, player
        self.seat = player.seat
        self.delay, self.jitter, self.rng = delay, jitter, rng
        self._planned: Timer | None = None
        self._last_in = 0.0  # a stream keeps its order: nothing overtakes what went before
        self._last_out = 0.0
        room.attach(room.give_seat(self.seat), self._told)
        if pings:
            clock.call_at(clock.now(), self._ping)

    def _way(self, last: float) -> float:
        return max(last, self.clock.now() + self.delay + self.rng.uniform(0.0, self.jitter))

    def _told(self, message: Message) -> None:
        if "view" not in message:
            return
        self._last_in = when = self._way(self._last_in)
        view, events = message["view"], message["events"]
        self.clock.call_at(when, lambda: self._sees(view, events))

    def _sees(self, view: Mapping[str, Any], events: list[dict[str, Any]]) -> None:
        if self._planned is not None:
            self._planned.cancel()  # it sees something new before its move has left
            self._planned = None
        if self.table.closed or self.table.over:
            return
        decision = self.player.decide(view, events)
        if decision is None:
            return
        action = decision.action
        self._planned = self.clock.call_at(self.clock.now() + max(0.0, decision.delay),
                                           lambda: self._sends(action))

    def _sends(self, action: Any) -> None:
        self._planned = None
        self._last_out = when = self._way(self._last_out)
        self.clock.call_at(when, lambda: self._arrives(action))

    def _arrives(self, action: Any) -> None:
        if self.table.closed or self.table.over:
            return
        with contextlib.suppress(Refused):  # as a page would be told; nothing changes
            self.room.commit(self.seat, action)

    def _ping(self) -> None:
        if self.table.closed or self.table.over:
            return
        sent = self.clock.now()
        back = sent + 2 * self.delay + self.rng.uniform(0, self.jitter) + self.rng.uniform(
            0, self.jitter)
        self.clock.call_at(back, lambda: self.room.sample_lag(self.seat, back - sent))
        # the first pings quicker, as the server's (an estimate for the first race)
        self.clock.call_at(sent + (PING_EVERY / 4 if sent < 2.0 else PING_EVERY), self._ping)


def play_at_lag(game: Game, computers: Mapping[int, AnyPlayer], remote: AnyPlayer, *,
                delay: float, jitter: float = 0.0, pings: bool = True, seed: int = 0,
                level: str = "normal", max_time: float = 3600.0,
                max_calls: int = 1_000_000) -> Table:
    """Plays ``game`` to its end on a virtual clock: ``computers`` at their seats in the
    server (held to the pauses of ``level``), ``remote`` at its seat ``delay`` away (see
    :class:`RemoteSeat`), at a room of its own. The table (its game, its ``held`` settle
    times) is returned, closed."""
    clock = VirtualClock()
    room = Room.alone(game, computers, clock=clock, level=level)
    RemoteSeat(room, clock, remote, delay=delay, jitter=jitter, rng=random.Random(seed),
               pings=pings)
    clock.run(lambda: game.outcome is not None, max_time=max_time, max_calls=max_calls)
    room.close(left=False)
    assert room.table is not None
    return room.table
