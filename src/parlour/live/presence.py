"""Who is at a table, over time: the timers that react when people come and go.

At a table with friends, a person whose last connection dropped has ``takeover`` seconds
(a reload, the step from the waiting room to the game page) before a computer player takes
their seat; when they come back the computer stops. A table where no person seat has
anybody closes: at once if they all said they were leaving, after ``grace`` seconds if
someone only dropped. The lobby says what taking over and closing mean; this module only
keeps the time. A table nobody played (no person's move, not started) does not wait: against
the computer it closes as soon as its person is gone, with friends after ``takeover``
seconds (a reload of the waiting room).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from parlour.live.room import Room


class Presence:
    """The presence timers of one room."""

    def __init__(self, room: Room, *, takeover: float, grace: float,
                 take_over: Callable[[Room, int], None], close: Callable[[Room], None]) -> None:
        self.room = room
        self.takeover = takeover
        self.grace = grace
        self._take_over = take_over
        self._close = close
        self._takers: dict[int, asyncio.TimerHandle] = {}
        self._expiry: asyncio.TimerHandle | None = None
        self._seen = False  # anybody was at the room since it came into memory

    def back(self, seat: int) -> None:
        """Someone is at ``seat`` again: nothing is taken over or closed for now."""
        self._seen = True
        self.room.seats[seat].left = False
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        timer = self._takers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    def gone(self, seat: int) -> None:
        """Nobody is at ``seat`` any more (dropped, or left)."""
        room = self.room
        loop = asyncio.get_running_loop()
        table = room.table
        if (room.friends and table is not None and seat not in table.computers
                and seat not in self._takers):
            self._takers[seat] = loop.call_later(self.takeover, self._due, seat)
        people = room.people()
        if any(room.present(s) for s in people):
            return
        if all(room.seats[s].left for s in people):
            self._close(room)
        elif not room.played and not room.friends and self._seen:
            # nobody played it: it is left for good at once (a reload deals a new game), so
            # that opening and dropping tables holds nothing, in memory or in a store (but a
            # table brought back from the store waits for its person like any other)
            for s in people:
                room.seats[s].left = True
            self._close(room)
        elif self._expiry is None:
            # a waiting room nobody is in lasts a reload's time; a played table its grace
            wait = self.grace if room.played else self.takeover
            self._expiry = loop.call_later(wait, self._close, room)

    def now(self, seat: int) -> None:
        """Take ``seat`` over at once (its person left)."""
        self._due(seat)

    def _due(self, seat: int) -> None:
        timer = self._takers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self._take_over(self.room, seat)

    def cancel(self) -> None:
        """Stops every timer (the room closes)."""
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        for timer in self._takers.values():
            timer.cancel()
        self._takers.clear()
