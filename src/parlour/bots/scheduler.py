"""Computer players on a clock: one scheduler for simulations and for live tables.

After the setup and after every applied action (a computer's or a person's), every computer
player whose view changed is asked ``decide(view(seat), events as seat sees them)``. Its
answer is put on the clock at ``then + delay``, where ``then`` is the moment of the change
it answers, and replaces whatever that seat had pending (an answer of ``None`` just drops
it), so a slap planned for a card that has since been covered never happens. A game's
:class:`~parlour.engine.Pacing` holds some actions back after some events (ruling J10:
after a pile is taken a computer waits before flipping), at each computer's own speed.

A computer's reaction is timed from what it reacts to, never from the latest message
(issue 22: a person who sent a stale slap every 100 ms re-timed every computer's slap from
that moment, so no computer ever slapped):

- an action that changes nothing a computer sees (a stale slap, a slap at an empty pile)
  is not put to it at all: its pending move keeps its time and its generator is not drawn
  again (its events reach it with the next change it does see);
- an answer that repeats the pending move keeps the earlier of the two times, so being
  asked again about an unrelated change never postpones a slap at the card on top.

A refused action changes nothing and reaches no computer either. So nothing a person sends
that changes nothing moves any computer's timer.

Who applies a computer's move is its *referee*: by default the scheduler itself
(:meth:`Scheduler.play`: the checked :meth:`~parlour.engine.Game.apply`, then
:meth:`Scheduler.changed`), which is all a simulation needs; a live table's room is the
referee there (:meth:`parlour.live.room.Room.commit`: it admits, applies, stores and tells
every move, a person's or a computer's, and hands each change back through ``changed``).

The clock is an interface with two implementations: :class:`VirtualClock`, which jumps from
one due decision to the next (a simulation plays a whole game at once), and the live table's
asyncio clock (:mod:`parlour.live.table`). So a simulation runs under exactly the pacing of
a live table.

>>> from parlour.bots import make_player
>>> from parlour.games import new_game
>>> game = new_game("slapjack", players=2, seed=5)
>>> clock = VirtualClock()
>>> bots = {s: make_player("slapjack", "hard", s, seed=s) for s in (0, 1)}
>>> scheduler = Scheduler(game, bots, clock)
>>> scheduler.start()
>>> clock.run(lambda: game.outcome is not None)
>>> game.outcome is not None and clock.now() > 0
True
"""

from __future__ import annotations

import heapq
import itertools
import logging
from collections.abc import Callable, Mapping, Sequence, Set
from typing import Protocol

from parlour.bots.base import AnyPlayer
from parlour.engine import Action, Event, Game, GameError, Pacing
from parlour.wire import dumps

log = logging.getLogger(__name__)

_NOBODY: frozenset[int] = frozenset()


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """What the scheduler needs of a clock: the time, and a callback at a time. ``order``
    breaks ties between callbacks due at the same instant (a virtual clock uses it; the real
    clock's instants never tie)."""

    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], None], order: int = 0) -> Timer: ...


class _VirtualTimer:
    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class VirtualClock:
    """A clock that jumps: :meth:`run` calls each callback at its time, no waiting."""

    def __init__(self) -> None:
        self._now = 0.0
        self._queue: list[tuple[float, int, int, _VirtualTimer]] = []
        self._count = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None], order: int = 0) -> Timer:
        timer = _VirtualTimer(callback)
        heapq.heappush(self._queue, (when, order, next(self._count), timer))
        return timer

    def pending(self) -> bool:
        queue = self._queue
        while queue and queue[0][3].cancelled:
            heapq.heappop(queue)
        return bool(queue)

    def run(self, done: Callable[[], bool], *, max_time: float = float("inf"),
            max_calls: int | None = None) -> str | None:
        """Calls what is due, earliest first, until ``done()``; returns why it stopped
        early: ``"stall"`` (nothing is pending), ``"max_time"`` (the next is due after
        ``max_time``) or ``"max_calls"``, else ``None``."""
        calls = 0
        while not done():
            if max_calls is not None and calls >= max_calls:
                return "max_calls"
            if not self.pending():
                return "stall"
            if self._queue[0][0] > max_time:
                return "max_time"  # it stays due: a later run (a longer max_time) calls it
            when, _, _, timer = heapq.heappop(self._queue)
            self._now = when
            calls += 1
            timer.callback()
        return None

    def run_before(self, until: float, done: Callable[[], bool]) -> bool:
        """Calls what is due before ``until`` (not at it), earliest first, until ``done()``;
        ``True`` if it got there (the clock then reads ``until``; what is due exactly at
        ``until`` stays due), ``False`` if ``done()`` stopped it first (the clock reads
        the time of the last call). An environment's tick runs on it: it is what a marker
        timer due at ``until`` ahead of every other callback at that instant did, without
        a timer a tick."""
        queue = self._queue
        pop = heapq.heappop
        while not done():
            while queue and queue[0][3].cancelled:
                pop(queue)
            if not queue or queue[0][0] >= until:
                self._now = until
                return True
            when, _, _, timer = pop(queue)
            self._now = when
            timer.callback()
        return False


#: Handed each computer move as it falls due, with that time (its credit in a race): it
#: applies the move, or refuses it, and tells the scheduler (:meth:`Scheduler.changed`,
#: :meth:`Scheduler.spent`).
Referee = Callable[[Action, float], None]


class Scheduler:
    """Runs one game's computer players on a clock; see the module docstring.

    ``level``, when given, is the speed whose pause every computer player is held to (a live
    table's one speed); else each is held to its own ``level``. ``order`` ranks the seats to
    break ties between decisions due at the same instant. ``referee`` is handed each
    computer move when it falls due (:data:`Referee`); by default the scheduler applies it
    itself (:meth:`play`). ``strict``: a computer player
    whose choice the rules refuse, or that fails, raises (simulations and tests: it is a
    bug); else it is logged and the table goes on (live tables). ``turn_based``: a computer
    with no legal action and no pending move is not asked until it has a legal action (it
    is given the events of the meantime then): for a game whose players answer only on
    their own turn and remember only the events (Slabberjan), where asking every seat after
    every change was most of a step's time; a race's players are asked as they were.
    """

    def __init__(
        self,
        game: Game,
        computers: Mapping[int, AnyPlayer],
        clock: Clock,
        *,
        pacing: Pacing | None = None,
        level: str | None = None,
        order: Mapping[int, int] | None = None,
        on_lag: Callable[[float], None] | None = None,
        strict: bool = True,
        ask_later: bool = False,
        referee: Referee | None = None,
        turn_based: bool = False,
    ) -> None:
        for seat in computers:
            if not 0 <= seat < game.players:
                raise ValueError(f"no seat {seat} at a {game.players}-player table")
        self.game = game
        self.computers = dict(computers)
        self.clock = clock
        self.pacing = pacing if pacing is not None else game.spec.pacing
        self.level = level
        self.order = dict(order or {})
        self.on_lag = on_lag
        self.strict = strict
        self.ask_later = ask_later
        self.referee: Referee = referee if referee is not None else self.play
        self.turn_based = turn_based
        self.closed = False
        self._pending: dict[int, Timer] = {}
        # per seat: the pending move and when it is due (a repeat keeps the earlier time)
        self._planned: dict[int, tuple[Action, float]] = {}
        # per seat: the view it last decided on, encoded (unchanged: it is not asked; kept
        # as the view itself where the game tells changes from the events, and encoded only
        # if it is ever compared), and the events it has not been given yet (they come with
        # its next question; kept as events, and made into what the seat sees only when it
        # is asked)
        self._seen: dict[int, str | Mapping[str, object]] = {}
        self._untold: dict[int, list[Event]] = {}
        self._hold_until: dict[int, float] = {}
        # ask_later: the events the computer players have not been asked about yet, when
        # the first of them happened (their moves are timed from then), and the computer
        # seats whose own move is among them (asked whatever their view: it was spent)
        self._unasked: list[Event] = []
        self._unasked_at: float | None = None
        self._movers: set[int] = set()

    # -- life --------------------------------------------------------------------------------

    def start(self) -> None:
        """The computer players see everything so far (the deal)."""
        self._ask_all(self.game.events)

    def close(self) -> None:
        """Stops every pending computer move; no more are made."""
        self.closed = True
        self._cancel_all()

    # -- moves -------------------------------------------------------------------------------

    def act(self, action: Action) -> list[Event]:
        """Applies an action, checked, and lets everyone react (:meth:`changed`);
        :class:`GameError` if the rules refuse it (nothing changed then, and no computer
        player hears of it). The path of every move where the scheduler is the referee
        (simulations, environments)."""
        events = self.game.apply(action)
        self.changed(action, events)
        return events

    def _fire(self, seat: int, action: Action, due: float) -> None:
        if self._unasked:
            # a change nobody has been asked about yet may void this move (a covered card,
            # a pile just taken): ask first, then act only if the answer still stands
            self._ask_unasked()
            if self._planned.get(seat) != (action, due):
                return  # superseded: the new answer has its own timer
        self._pending.pop(seat, None)
        self._planned.pop(seat, None)
        if self.on_lag is not None:
            self.on_lag(self.clock.now() - due)
        if self.closed or self.game.outcome is not None:
            return
        self.referee(action, due)

    def play(self, action: Action, due: float = 0.0) -> None:
        """The referee of a scheduler that has none of its own: applies a computer
        player's move now (:meth:`act`); one the rules refuse changes nothing (and raises
        if ``strict``)."""
        if self.closed or self.game.outcome is not None:
            return
        try:
            self.act(action)
        except GameError:
            if self.strict:
                raise
            self.spent(action.player)

    def spent(self, seat: int) -> None:
        """The referee refused ``seat``'s move: its answer went stale in a way the rules
        refuse (a decision is superseded on every change, so this is rare). Nothing
        changed, so nobody needs telling; its move is spent, and it is asked again on the
        next change."""
        self._seen.pop(seat, None)

    def changed(self, action: Action, events: Sequence[Event]) -> None:
        """``action`` was just applied, with ``events``: every computer player whose view
        changed is asked what it would do now (at once, or on the clock's next turn if
        ``ask_later``)."""
        movers = {action.player} if action.player in self.computers else _NOBODY
        if self.ask_later:
            self._ask_soon(events, movers)
            return
        # even at the end: every player sees how the game ended
        self._ask_all(events, movers=movers, one_action=True)
        if self.game.winner is not None:  # over (no Outcome made to say so)
            self._cancel_all()

    # -- asking the computer players -------------------------------------------------------------

    def _ask_soon(self, events: Sequence[Event], movers: Set[int]) -> None:
        """``ask_later``: the computer players are asked on the clock's next turn, not before
        the caller returns, so that a person's move is answered before a table of computer
        players thinks about it (up to milliseconds at 41 seats). Their answers are timed
        from the moment of the change, however late they are asked; a pending move that
        falls due meanwhile asks first (:meth:`_fire`); changes that come meanwhile are
        asked about together."""
        self._unasked += events
        if movers:
            self._movers |= movers
        if self._unasked_at is None:
            self._unasked_at = now = self.clock.now()
            self.clock.call_at(now, self._ask_unasked)

    def _ask_unasked(self) -> None:
        if self._unasked_at is None:
            return  # asked already, by a move that fell due first
        events, self._unasked = self._unasked, []
        movers, self._movers = self._movers, set()
        now, self._unasked_at = self._unasked_at, None
        self._ask_all(events, now, movers)  # even at the end: every player sees how it ended
        if self.game.outcome is not None:
            self._cancel_all()

    def _ask_all(self, events: Sequence[Event], now: float | None = None,
                 movers: Set[int] = frozenset(), one_action: bool = False) -> None:
        if self.closed or not self.computers:
            return
        if now is None:
            now = self.clock.now()
        pacing = self.pacing
        after = pacing.after
        for event in events:  # a loop, not any() over a generator: this runs after every move
            if event.type in after:
                for seat, player in self.computers.items():
                    level = self.level if self.level is not None else player.level
                    self._hold_until[seat] = now + pacing.pause_for(level)
                break
        game = self.game
        turn_based = self.turn_based
        # What the events say of the views (``Game.views_changed``): ``False``, nobody's
        # changed; ``True``, everybody's did (one action's events only: two actions may undo
        # each other); ``None``, compare each seat's view with the one it decided on
        changed = game.views_changed(events)
        if changed and not one_action:
            changed = None
        seen = self._seen
        for seat, player in self.computers.items():
            if turn_based and seat not in self._pending and not game.legal_json(seat):
                # nothing to do and nothing to cancel (a seat that has just moved has no
                # move pending either): its answer would be None. It is asked at its next
                # legal action whatever its view is then (as it would be: that view
                # differs from this one)
                seen.pop(seat, None)
                if events and player.reads_events:
                    self._untold.setdefault(seat, []).extend(events)
                continue
            if changed is False and seat not in movers and seat in seen:
                # nothing it can see has changed: its answer (and its timer) stands
                if events and player.reads_events:
                    self._untold.setdefault(seat, []).extend(events)
                continue
            view = game.view(seat)
            if changed is None:
                shown = dumps(view)
                last = seen.get(seat)
                if last is not None and not isinstance(last, str):
                    last = dumps(last)
                if seat not in movers and last == shown:
                    # nothing it can see has changed: its answer (and its timer) stands
                    if events and player.reads_events:
                        self._untold.setdefault(seat, []).extend(events)
                    continue
                seen[seat] = shown
            else:
                seen[seat] = view  # it differs from the one before: no need to encode it
            if not player.reads_events:
                self._ask(seat, player, view, [], now)
                continue
            untold = self._untold.pop(seat, None)
            # a loop, not a list comprehension (a function made and called each time): this
            # runs after every move
            told: list[dict[str, object]] = []
            for event in (*untold, *events) if untold else events:
                told.append(event.seen_by(seat))
            self._ask(seat, player, view, told, now)

    def _ask(self, seat: int, player: AnyPlayer, view: Mapping[str, object],
             seen: list[dict[str, object]], now: float) -> None:
        try:
            decision = player.decide(view, seen)
        except Exception:
            if self.strict:
                raise
            # A faulty computer player must not stop the table or the server.
            log.exception("computer player at seat %d failed", seat)
            decision = None
        planned = self._planned.pop(seat, None)
        old = self._pending.pop(seat, None)
        if decision is None or decision.action.player != seat:
            if old is not None:
                old.cancel()
            return
        action = decision.action
        # comparisons, not min and max (a builtin call costs several times as much, and
        # this runs after every move); each keeps the first of a tie, as they did
        delay = decision.delay
        due = now + (delay if delay > 0.0 else 0.0)
        if planned is not None and planned[0] == action and planned[1] < due:
            due = planned[1]  # the same move: timed from what it first answered
        if action.type in self.pacing.held:
            hold = self._hold_until.get(seat, 0.0)
            if hold > due:
                due = hold
        if old is not None and planned is not None and planned == (action, due):
            self._pending[seat], self._planned[seat] = old, planned  # it stands as it was
            return
        if old is not None:
            old.cancel()
        self._planned[seat] = (action, due)
        self._pending[seat] = self.clock.call_at(
            due, lambda: self._fire(seat, action, due), self.order.get(seat, seat))

    def _cancel_all(self) -> None:
        for timer in self._pending.values():
            timer.cancel()
        self._pending.clear()
        self._planned.clear()

    # -- seats changing hands ---------------------------------------------------------------------

    def seat_computer(self, seat: int, player: AnyPlayer) -> None:
        """A computer player takes over ``seat`` from the game as it is now."""
        if not 0 <= seat < self.game.players:
            raise ValueError(f"no seat {seat} at a {self.game.players}-player table")
        self.computers[seat] = player
        if not self.closed and self.game.outcome is None:
            view = self.game.view(seat)
            self._seen[seat] = dumps(view)
            self._untold.pop(seat, None)
            self._ask(seat, player, view, [], self.clock.now())

    def seat_person(self, seat: int) -> None:
        """The seat's person is back: its computer player stops, its pending move with it."""
        self.computers.pop(seat, None)
        self._planned.pop(seat, None)
        self._seen.pop(seat, None)
        self._untold.pop(seat, None)
        timer = self._pending.pop(seat, None)
        if timer is not None:
            timer.cancel()
