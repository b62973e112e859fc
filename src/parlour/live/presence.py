"""Who is at a table, over time: the timers that react when people come and go.

At a table with friends, a person whose last connection dropped has ``takeover`` seconds
(a reload, the step from the waiting room to the game page) before a computer player takes
their seat; when they come back the computer stops. A table where no person seat has
anybody closes: at once if they all said they were leaving, after ``grace`` seconds if
someone only dropped. The room says what taking over and closing mean; this module only
keeps the time. A table nobody played (no person's move, not started) does not wait: against
the computer it closes as soon as its person is gone, with friends after ``takeover``
seconds (a reload of the waiting room).

A table where no person seat has anybody does not play on meanwhile: its computer players'
moves are held (:class:`HeldClock`) until someone is back, and then come
:data:`RESUME_AFTER` seconds later, so that a tab closed right after a flip finds, when it
comes back, the table where it left it (no Jack flipped and taken while nobody looked).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from parlour.bots.scheduler import Clock, Timer

if TYPE_CHECKING:
    from parlour.live.room import Room

#: Seconds between a person's return to a held table and its next computer move.
RESUME_AFTER = 1.0


class _HeldTimer:
    """A callback of a :class:`HeldClock`: the timer under it now, and whether it is off."""

    __slots__ = ("callback", "cancelled", "timer")

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False
        self.timer: Timer | None = None

    def cancel(self) -> None:
        self.cancelled = True
        if self.timer is not None:
            self.timer.cancel()


class HeldClock:
    """A table's clock that can be held: while held, a callback that falls due waits, and
    runs :data:`RESUME_AFTER` seconds after :meth:`release` (in the order they fell due)."""

    def __init__(self, inner: Clock) -> None:
        self.inner = inner
        self.held = False
        self._waiting: list[tuple[_HeldTimer, int]] = []

    def now(self) -> float:
        return self.inner.now()

    def call_at(self, when: float, callback: Callable[[], None], order: int = 0) -> Timer:
        handle = _HeldTimer(callback)

        def due() -> None:
            if handle.cancelled:
                return
            if self.held:
                self._waiting.append((handle, order))
            else:
                handle.callback()
        handle.timer = self.inner.call_at(when, due, order)
        return handle

    def hold(self) -> None:
        self.held = True

    def release(self) -> None:
        if not self.held:
            return
        self.held = False
        waiting, self._waiting = self._waiting, []
        when = self.inner.now() + RESUME_AFTER
        for handle, order in waiting:
            if not handle.cancelled:
                handle.timer = self.inner.call_at(when, handle.callback, order)


class Presence:
    """The presence timers of one room, on ``clock`` (asyncio's, or a virtual one in
    tests): what falls due is the room's :meth:`~parlour.live.room.Room.take_over`,
    and :meth:`~parlour.live.room.Room.put_away`."""

    def __init__(self, room: Room, clock: Clock, *, takeover: float, grace: float) -> None:
        self.room = room
        self.takeover = takeover
        self.grace = grace
        self._clock_now = clock
        self._takers: dict[int, Timer] = {}
        self._expiry: Timer | None = None
        self._seen = False  # anybody was at the room since it came into memory
        self.clock: HeldClock | None = None  # the table's, once it is started

    def _later(self, delay: float, callback: Callable[[], None]) -> Timer:
        clock = self._clock_now
        return clock.call_at(clock.now() + delay, callback)

    def table_clock(self, inner: Clock) -> HeldClock:
        """The clock for this room's table: held from when no person seat has anybody (a
        table starts with its person on the way: it is not held before they ever came)."""
        self.clock = HeldClock(inner)
        return self.clock

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
        if self.clock is not None:
            self.clock.release()

    def gone(self, seat: int) -> None:
        """Nobody is at ``seat`` any more (dropped, or left)."""
        room = self.room
        table = room.table
        if (room.friends and table is not None and seat not in table.computers
                and seat not in self._takers):
            self._takers[seat] = self._later(self.takeover, lambda: self._due(seat))
        people = room.people()
        if any(room.present(s) for s in people):
            return
        if self.clock is not None:
            self.clock.hold()  # nobody is looking: the computers wait for them
        if all(room.seats[s].left for s in people):
            room.put_away()
        elif not room.played and not room.friends and self._seen:
            # nobody played it: it is left for good at once (a reload deals a new game), so
            # that opening and dropping tables holds nothing, in memory or in a store (but a
            # table brought back from the store waits for its person like any other)
            for s in people:
                room.seats[s].left = True
            room.put_away()
        elif self._expiry is None:
            # a waiting room nobody is in lasts a reload's time; a played table its grace
            wait = self.grace if room.played else self.takeover
            self._expiry = self._later(wait, room.put_away)

    def now(self, seat: int) -> None:
        """Take ``seat`` over at once (its person left)."""
        self._due(seat)

    def _due(self, seat: int) -> None:
        timer = self._takers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self.room.take_over(seat)

    def cancel(self) -> None:
        """Stops every timer (the room closes)."""
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        for timer in self._takers.values():
            timer.cancel()
        self._takers.clear()
