"""A live table's clockwork: one game on the clock, the computer players at its seats, and
the books that admit a person's move.

A table applies, stores and tells nothing: every move, a person's or a computer's, is
:meth:`parlour.live.room.Room.commit`, which asks the table at its first step and hands it
the change at its last. The table holds:

- The computer players: the :class:`~parlour.bots.scheduler.Scheduler` that simulations
  use, on the room's clock: after every change each computer seat whose view changed is
  asked what to do (on the clock's next turn, once the people have been told), timed from
  the change it answers; a newer answer supersedes an older one, and the game's pacing
  holds some actions back (J10). What changes nothing (a stale slap) moves no computer's
  timer. The room is their referee: a move that falls due goes to ``Room.commit``.
- Admission (:meth:`Table.admit`): the seat is the person's (not a computer's now), one
  action per target and seat (a double tap or a flood of slaps at one card costs one card
  at most), and one of each action per view version (a page's double press is ``stale``).
- The race book (ruling J3: the earlier slap wins, meaning the earlier reaction): a slap
  or a Splunk call is credited at its arrival less its seat's measured delay (a computer's
  at its decision time), and held for a short settle window so that one pressed earlier
  but arriving later can still win (:mod:`parlour.live.lag`); with no delay to allow for,
  the window is nothing. Each settled move goes back to the room, to be committed in the
  order the race settled. An action carrying ``at`` that lost the race is ignored by the
  rules without a penalty (J6).
- Seats changing hands: a computer player may take over a person's seat
  (:meth:`Table.seat_computer`, from the game as it is now) and hand it back
  (:meth:`Table.seat_person`); the room decides when.

:func:`message_for` is the one place where game state and events become what a seat is
told (ruling G3): the room tells every page through it.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from parlour.bots.base import AnyPlayer
from parlour.bots.scheduler import Clock, Scheduler, Timer
from parlour.engine import Action, Event, Game, Pacing
from parlour.live.lag import HUMAN_FLOOR, RACES, SeatLag
from parlour.live.protocol import ConnectionState, GameMessage, Refused
from parlour.wire import dumps

_UNKNOWN = object()


class AsyncioClock:
    """The scheduler's clock on the running event loop."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def call_at(self, when: float, callback: Callable[[], None], order: int = 0) -> Timer:
        return asyncio.get_running_loop().call_at(when, callback)


def message_for(game: Game, seat: int | None, events: Iterable[Event],
                kind: str = "events") -> GameMessage:
    """What ``seat`` (``None``: a spectator) is told about ``events`` and the game now.

    This is the secrecy boundary: nothing about a game leaves a table except through here,
    and here only ``game.view(seat)`` and ``event.seen_by(seat)`` are used. ``version`` is
    the view's: the number of actions applied so far (a page sends each action at most once
    per version, and the table answers a repeat ``stale``: :meth:`Table.admit`).
    """
    return {"type": "events" if kind == "events" else "state",
            "events": [e.seen_by(seat) for e in events], "view": game.view(seat),
            "version": len(game.history)}


class Admitted(NamedTuple):
    """A move the table admitted (the first step of ``Room.commit``): the action, whether a
    person's, and for a computer's the time it fell due (its credit in a race). ``aim``: a
    person's action with an ``at``, the card it aims at and what it aims at there (it
    counts at that card once applied or held: one a seat). A named tuple, not a frozen
    dataclass: one is made for every move, and a tuple costs about half as much to make."""

    action: Action
    person: bool
    due: float | None = None
    aim: tuple[int, tuple[Any, ...]] | None = None


class Table:
    """One game being played live; see the module docstring.

    ``referee(action, due)`` is handed each computer move as it falls due and
    ``settle(move)`` each move the race book held, in the order the race settled (the room
    commits both). ``watched(seat)``: whether a page shows the seat (a race waits only for
    a seat someone is at). ``aim_once``: one slap per target and seat (:meth:`admit`).
    """

    def __init__(
        self,
        game: Game,
        computers: Mapping[int, AnyPlayer],
        pacing: Pacing | None = None,
        *,
        referee: Callable[[Action, float], None],
        settle: Callable[[Admitted], None],
        watched: Callable[[int], bool],
        level: str | None = None,
        on_lag: Callable[[float], None] | None = None,
        aim_once: bool = True,
        clock: Clock | None = None,
    ) -> None:
        self.game = game
        self.pacing = pacing if pacing is not None else game.spec.pacing
        self.level = level
        self.closed = False
        self.aim_once = aim_once
        self._settled = settle
        self._watched = watched
        # per person seat: the latest `at` it aimed actions at, and what it aimed at there
        self._aimed: dict[int, tuple[int, set[tuple[Any, ...]]]] = {}
        # per person seat: the latest view version it sent actions at, and those actions
        self._sent: dict[int, tuple[int, set[str]]] = {}
        self.clock: Clock = clock or AsyncioClock()
        self.scheduler = Scheduler(game, computers, self.clock, pacing=self.pacing,
                                   level=level, on_lag=on_lag, strict=False, ask_later=True,
                                   referee=referee)
        #: each seat's measured network delay (kept across reconnects: the seat's, not the
        #: socket's)
        self.lags: dict[int, SeatLag] = {}
        self._shown: dict[int, tuple[int, bool]] = {}  # what the pages were last told
        # the card races are run for: its `at` and when it was played
        self._target: Any = None if self.pacing.at_field is None else self._target_now()
        self._target_time = 0.0  # set by start(), inside the event loop
        self._race: _Race | None = None
        #: how long each settled race was held after its first slap (seconds; the latest)
        self.held: deque[float] = deque(maxlen=10_000)

    # -- life ----------------------------------------------------------------------------

    def start(self) -> None:
        """Starts the clock: the computer players see the deal. Call inside the event loop."""
        self._target_time = self.clock.now()
        self.scheduler.start()

    def close(self) -> None:
        """Stops every pending computer move; the table takes no more moves."""
        self.closed = True
        if self._race is not None and self._race.timer is not None:
            self._race.timer.cancel()
        self._race = None
        self.scheduler.close()

    @property
    def over(self) -> bool:
        return self.game.outcome is not None

    @property
    def computers(self) -> Mapping[int, AnyPlayer]:
        return self.scheduler.computers

    # -- admitting a move ----------------------------------------------------------------

    def admit(self, seat: int, action: Action, version: int | None = None, *,
              due: float | None = None) -> Admitted:
        """Whether ``action`` may be put to the rules now: the :class:`Admitted` move, or
        :class:`~parlour.live.protocol.Refused` (and nothing changed). A computer's move
        (``due``: when it fell due) was asked for by the scheduler, and is admitted as it
        is. A person's:

        - the seat is theirs: not a computer's now, and the action is the seat's;
        - one of each action per view ``version`` (the ``version`` of the message the page
          acted on, when it says): the same action again at the same version is a repeat
          (a double press, two taps), answered ``stale``;
        - one action per target and seat: a second slap at the same target (the same card,
          and in Splunk the same stack at the same play) is refused before the rules see
          it, so a flood of slaps costs one card at most; a slap at another stack at the
          same play is another target and goes to the rules.
        """
        if due is not None:
            return Admitted(action, person=False, due=due)
        if seat in self.scheduler.computers:
            raise Refused("a computer player has this seat now", "refused")
        if action.player != seat:
            raise Refused("that is not your seat", "refused")
        if version is not None:
            shown = dumps(action.for_seat())
            sent = self._sent.get(seat)
            if sent is None or sent[0] != version:
                self._sent[seat] = (version, {shown})
            elif shown in sent[1]:
                raise Refused("you sent that already at this view of the game", "stale")
            else:
                sent[1].add(shown)
        aim = self._aim(action)
        if aim is not None:
            at, target = aim
            last = self._aimed.get(seat)
            if last is not None and last[0] == at and target in last[1]:
                raise Refused("you already did that at this card", "refused")
        return Admitted(action, person=True, aim=aim)

    def _aim(self, action: Action) -> tuple[int, tuple[Any, ...]] | None:
        """The resolved ``at`` of ``action`` and what it aims at there (its type and every
        other field: the stack, in Splunk), if it carries an ``at``; ``None`` for everything
        else."""
        if not self.aim_once or not hasattr(action, "at"):
            return None
        at = action.at
        if at is None and self.pacing.at_field is not None:
            at = self.game.view(None).get(self.pacing.at_field)
        if not isinstance(at, int):
            return None
        shape = action.for_seat()
        shape.pop("at", None)
        return at, tuple(sorted(shape.items()))

    def _aimed_now(self, seat: int, aim: tuple[int, tuple[Any, ...]] | None) -> None:
        if aim is not None:
            at, target = aim
            last = self._aimed.get(seat)
            if last is None or last[0] != at:
                self._aimed[seat] = (at, {target})
            else:
                last[1].add(target)

    # -- the race book (J3: the earlier reaction wins; lag.py) ---------------------------------

    def hold(self, move: Admitted) -> bool:
        """Whether ``move`` waits in the race book: a race for the card on top held open
        for a slower connection, or a move that arrived while one is open (it waits its
        turn). A held move goes to ``settle`` once the race is settled; else it is
        committed now."""
        action = move.action
        if not move.person:
            if self._race is None and not (action.type in RACES and self._lagging()):
                return False
            self._enter(move, self.clock.now() if move.due is None else move.due)
            return True
        racing = action.type in RACES and self._races_for(action)
        lag = self.lags.get(action.player) if racing else None
        if lag is not None:
            lag.responded(self.clock.now() - self._target_time)  # its quota's evidence
        if self._race is None and not (racing and self._lagging()):
            return False
        credit = now = self.clock.now()
        if racing and lag is not None:
            # the earlier reaction, never sooner than a person can react (lag.py)
            floor = self._target_time + HUMAN_FLOOR
            credit = max(now - lag.compensation(), min(now, floor))
        self._aimed_now(action.player, move.aim)
        self._enter(move, credit)
        return True

    def sample_lag(self, seat: int, round_trip: float) -> ConnectionState | None:
        """A ping to ``seat``'s person was answered after ``round_trip`` seconds. When what
        a page shows of the connections changes, the ``connection`` message to tell every
        page (else ``None``)."""
        lag = self.lags.setdefault(seat, SeatLag())
        lag.sample(round_trip)
        shown = (round(lag.one_way * 1000), lag.fair)
        before = self._shown.get(seat)
        if before is None or before[1] != shown[1] or abs(before[0] - shown[0]) >= 5:
            self._shown[seat] = shown
            return self.connection_state()
        return None

    def connection_state(self) -> ConnectionState | None:
        """What is known of every seat's connection (kept across reconnects), if anything."""
        if not self._shown:
            return None
        return {"type": "connection",
                "seats": [{"seat": s, "ms": ms, "fair": fair}
                          for s, (ms, fair) in sorted(self._shown.items())]}

    def _target_now(self) -> Any:
        """The view's ``at_field`` now (the card races are for). Slapjack and Splunk keep it
        as an attribute of that name, read directly: this runs after every change, on the
        round trip of every move, where a whole view would cost more than the rest."""
        field = self.pacing.at_field
        assert field is not None
        value = getattr(self.game, field, _UNKNOWN)
        return self.game.view(None).get(field) if value is _UNKNOWN else value

    def _lagging(self) -> bool:
        """Whether any person's delay is allowed for (else races go by arrival)."""
        return any(lag.window() > 0.0 for seat, lag in self.lags.items()
                   if seat not in self.scheduler.computers)

    def _races_for(self, action: Action) -> bool:
        """Whether ``action`` races for the card on top now (not at an older one)."""
        at = getattr(action, "at", None)
        return at is None or at == self._target

    def _enter(self, move: Admitted, credit: float) -> None:
        """A move joins the open race (a race one for the card on top: by its credit), or
        opens one, or waits for it to be settled (everything else, in order of arrival)."""
        race = self._race
        if race is None:
            race = self._race = _Race(self.clock.now())
        action = move.action
        if action.type in RACES and self._races_for(action):
            race.entries.append((credit, len(race.entries), move))
            race.seats.add(action.player)
        else:
            race.after.append(move)
        self._settle_or_wait()

    def _settle_or_wait(self) -> None:
        race = self._race
        assert race is not None
        if not race.entries:  # nothing races yet: what waits for it goes now
            self._settle()
            return
        best = min(credit for credit, _, _ in race.entries)
        wait = [lag.window() for seat, lag in self.lags.items()
                if seat not in race.seats and seat not in self.scheduler.computers
                and self._watched(seat)]
        deadline = best + max(wait, default=0.0)
        if deadline <= self.clock.now():
            self._settle()
            return
        if race.timer is not None:
            race.timer.cancel()
        race.timer = self.clock.call_at(deadline, self._settle)

    def _settle(self) -> None:
        race, self._race = self._race, None
        if race is None or self.closed:
            return
        if race.timer is not None:
            race.timer.cancel()
        if race.entries:
            self.held.append(self.clock.now() - race.opened)
        settled = [move for _, _, move in sorted(race.entries, key=lambda e: e[:2])]
        for move in settled + race.after:
            if self.closed:
                return  # the store could not keep a move (the room closed the table)
            self._settled(move)

    # -- after every change ----------------------------------------------------------------

    def moved(self, move: Admitted, events: Sequence[Event]) -> None:
        """The last step of a move (``Room.commit``), once everybody was told: a person's
        slap counts at its card, a new card to race for is timed from now, and the
        computer players are asked about the change (on the clock's next turn)."""
        if move.person:
            self._aimed_now(move.action.player, move.aim)
        if self.pacing.at_field is not None:
            target = self._target_now()
            if target != self._target:  # a new card to race for: its time is now
                self._target, self._target_time = target, self.clock.now()
        self.scheduler.changed(move.action, events)

    # -- seats changing hands ----------------------------------------------------------------

    def seat_computer(self, seat: int, player: AnyPlayer) -> None:
        """A computer player takes over ``seat`` (its person has gone) from the game as it
        is now; moves people send for the seat are refused meanwhile."""
        self._aimed.pop(seat, None)
        self._sent.pop(seat, None)
        self.scheduler.seat_computer(seat, player)

    def seat_person(self, seat: int) -> None:
        """The seat's person is back: its computer player stops, its pending move with it."""
        self.scheduler.seat_person(seat)


class _Race:
    """A race being held open: its entries (credit, arrival order, move), the seats in it,
    and the moves that wait for it to be settled."""

    __slots__ = ("after", "entries", "opened", "seats", "timer")

    def __init__(self, opened: float) -> None:
        self.opened = opened
        self.entries: list[tuple[float, int, Admitted]] = []
        self.seats: set[int] = set()
        self.after: list[Admitted] = []
        self.timer: Timer | None = None
