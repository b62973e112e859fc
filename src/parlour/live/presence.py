"""Who is at a table, over time: the timers that react when people come and go.

:class:`Presence` keeps a room's presence timers (a seat's take-over, the room's put-away)
and its table's :class:`HeldClock`; what falls due is its callbacks', and nothing here
knows a room. The policy (who is away, after how long a computer takes a seat, when a
table nobody is at is put away) is the room's: :meth:`parlour.live.room.Room.gone`.

A table where no person seat has anybody does not play on meanwhile: its computer players'
moves are held (:class:`HeldClock`) until someone is back, and then come
:data:`RESUME_AFTER` seconds later, so that a tab closed right after a flip finds, when it
comes back, the table where it left it (no Jack flipped and taken while nobody looked).
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.bots.scheduler import Clock, Timer

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
    """The presence timers of one room, on ``clock`` (asyncio's, or a virtual one in tests):
    a seat's take-over timer calls ``take_over(seat)``, the room's put-away timer calls
    ``put_away()``. The room says when each starts and what they mean."""

    def __init__(self, clock: Clock, *, take_over: Callable[[int], None],
                 put_away: Callable[[], None]) -> None:
        self._clock_now = clock
        self._take_over = take_over
        self._put_away = put_away
        self._takers: dict[int, Timer] = {}
        self._expiry: Timer | None = None
        self.seen = False
        """Anybody was at the room since it came into memory."""
        self.clock: HeldClock | None = None  # the table's, once it is started

    def _later(self, delay: float, callback: Callable[[], None]) -> Timer:
        clock = self._clock_now
        return clock.call_at(clock.now() + delay, callback)

    def table_clock(self, inner: Clock) -> HeldClock:
        """The clock for the room's table, held by :meth:`hold` (a table starts with its
        person on the way: it is not held before they ever came)."""
        self.clock = HeldClock(inner)
        return self.clock

    def back(self, seat: int) -> None:
        """Someone is at ``seat`` again: its take-over and the put-away are off, and the
        table's clock runs."""
        self.seen = True
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        self.stop(seat)
        if self.clock is not None:
            self.clock.release()

    def take_over_after(self, seat: int, delay: float) -> None:
        """``take_over(seat)`` in ``delay`` seconds, unless its timer runs already."""
        if seat not in self._takers:
            self._takers[seat] = self._later(delay, lambda: self.take_over_now(seat))

    def take_over_now(self, seat: int) -> None:
        """``take_over(seat)`` now (its timer, if any, is done)."""
        self.stop(seat)
        self._take_over(seat)

    def stop(self, seat: int) -> None:
        """``seat``'s take-over timer is off."""
        timer = self._takers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    def hold(self) -> None:
        """Nobody is looking: the table's computers wait for them (:class:`HeldClock`)."""
        if self.clock is not None:
            self.clock.hold()

    def put_away_after(self, delay: float) -> None:
        """``put_away()`` in ``delay`` seconds, unless its timer runs already."""
        if self._expiry is None:
            self._expiry = self._later(delay, self._put_away)

    def cancel(self) -> None:
        """Stops every timer (the room closes)."""
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        for timer in self._takers.values():
            timer.cancel()
        self._takers.clear()
