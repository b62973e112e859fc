"""A live table: one game on the real clock, with people and computer players at its seats.

- Players: any game of :mod:`parlour.games`; each seat is a person (moves arrive through
  :meth:`Table.act`) or a computer player (:class:`~parlour.bots.base.AnyPlayer`).
  Anyone may also watch a seat, or watch as a spectator (seat ``None``).
- Clock: asyncio. Moves are applied in the order they arrive, but for races (ruling J3:
  the earlier slap wins, meaning the earlier reaction): a slap or a Splunk call is
  credited at its arrival less its seat's measured delay (a computer's at its decision
  time), and held for a short settle window so that one pressed earlier but arriving
  later can still win (:mod:`parlour.live.lag`); with no delay to allow for, the window is
  nothing. An action carrying ``at`` that lost the race is ignored by the rules without a
  penalty (J6).
- Computer players: the :class:`~parlour.bots.scheduler.Scheduler` that simulations use,
  on an asyncio clock: after every change each computer seat whose view changed is asked
  what to do (on the clock's next turn, once the people have been told), timed from the
  change it answers; a newer answer supersedes an older one, and the game's pacing holds
  some actions back (J10). What changes nothing (a stale slap) moves no computer's timer.
- Seats changing hands: a computer player may take over a person's seat
  (:meth:`Table.seat_computer`, from the game as it is now) and hand it back
  (:meth:`Table.seat_person`); the lobby decides when (tables with friends).
- Information: :func:`message_for` is the one place where game state and events become what
  a seat is told (ruling G3); every message a table sends goes through it.
- Bad input: every move is applied with the checked :meth:`~parlour.engine.Game.apply`, so a
  refused move changes nothing (G1) and comes back as the reason.

The table imports nothing of the web: the web layer gives it one ``send`` callback per
watcher and forwards what people do.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from parlour.bots.base import AnyPlayer
from parlour.bots.scheduler import Clock, Scheduler, Timer
from parlour.engine import Action, Event, Game, GameError, Pacing
from parlour.live.lag import HUMAN_FLOOR, RACES, SeatLag
from parlour.live.protocol import ConnectionState, GameMessage, Refused, error

Message = Mapping[str, Any]
Send = Callable[[Message], None]
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
    and here only ``game.view(seat)`` and ``event.seen_by(seat)`` are used.
    """
    return {"type": "events" if kind == "events" else "state",
            "events": [e.seen_by(seat) for e in events], "view": game.view(seat)}


class Table:
    """One game being played live; see the module docstring.

    ``on_change`` is told of every applied action before anybody else (the room journals
    it and keeps its phase) and answers ``False`` if it was not kept: then nobody is told
    of it and the table takes no more moves (:attr:`unkept`). ``aim_once``: one slap per
    target and seat (a person's double tap or a flood of slaps at one card costs
    nothing), see :meth:`act`.
    """

    def __init__(
        self,
        game: Game,
        computers: Mapping[int, AnyPlayer],
        pacing: Pacing | None = None,
        *,
        level: str | None = None,
        on_lag: Callable[[float], None] | None = None,
        on_change: Callable[[Action, Sequence[Event]], bool | None] | None = None,
        aim_once: bool = True,
        clock: Clock | None = None,
    ) -> None:
        self.game = game
        self.pacing = pacing if pacing is not None else game.spec.pacing
        self.level = level
        self.closed = False
        self.unkept = False
        """``on_change`` could not keep a move (the store is down): the table is closed,
        nobody was told of it."""
        self.aim_once = aim_once
        self._on_change = on_change
        self._watchers: dict[int | None, list[Send]] = {}
        # per person seat: the latest `at` it aimed actions at, and what it aimed at there
        self._aimed: dict[int, tuple[int, set[tuple[Any, ...]]]] = {}
        # `clock`: the lobby's, which takes every table's computer moves in turns
        self.clock: Clock = clock or AsyncioClock()
        self.scheduler = Scheduler(game, computers, self.clock, pacing=self.pacing,
                                   level=level, notify=self._changed, on_lag=on_lag,
                                   strict=False, ask_later=True, referee=self._computer_move)
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
        self._watchers.clear()

    @property
    def over(self) -> bool:
        return self.game.outcome is not None

    @property
    def computers(self) -> Mapping[int, AnyPlayer]:
        return self.scheduler.computers

    def watch(self, seat: int | None, send: Send) -> Callable[[], None]:
        """Sends ``seat``'s state now and its messages from now on; returns the way to stop."""
        if seat is not None and not 0 <= seat < self.game.players:
            raise ValueError(f"no seat {seat} at a {self.game.players}-player table")
        self._watchers.setdefault(seat, []).append(send)
        send(message_for(self.game, seat, (), kind="state"))
        if self._shown:  # what is known of everyone's connection (kept across reconnects)
            send(self._connections())

        def unwatch() -> None:
            senders = self._watchers.get(seat, [])
            if send in senders:
                senders.remove(send)

        return unwatch

    def watched(self, seat: int | None) -> bool:
        return bool(self._watchers.get(seat))

    # -- moves ---------------------------------------------------------------------------

    def act(self, seat: int, action: Action) -> None:
        """Applies a person's move for ``seat``; :class:`~parlour.live.protocol.Refused`
        (code ``refused``) says why not, and a refused move changes nothing. A move that
        merely lost a race (a Splunk call after a slap settled the play) is answered
        ``stale``: too late, not wrong.

        One action per target and seat: a second slap at the same target (the same card,
        and in Splunk the same stack at the same play) is refused before the rules see it,
        so a double tap or a flood of slaps costs one card at most; a slap at another
        stack at the same play is another target and goes to the rules.
        """
        if self.closed:
            raise Refused("this table is closed", "closed")
        if seat in self.scheduler.computers:
            raise Refused("a computer player has this seat now", "refused")
        if action.player != seat:
            raise Refused("that is not your seat", "refused")
        aimed = self._aim(action)
        if aimed is not None:
            at, target = aimed
            last = self._aimed.get(seat)
            if last is not None and last[0] == at and target in last[1]:
                raise Refused("you already did that at this card", "refused")
        racing = action.type in RACES and self._races_for(action)
        lag = self.lags.get(seat) if racing else None
        if lag is not None:
            lag.responded(self.clock.now() - self._target_time)  # its quota's evidence
        if self._race is not None or (racing and self._lagging()):
            credit = now = self.clock.now()
            if racing and lag is not None:
                # the earlier reaction, never sooner than a person can react (lag.py)
                floor = self._target_time + HUMAN_FLOOR
                credit = max(now - lag.compensation(), min(now, floor))
            self._aimed_now(seat, aimed)
            self._enter(action, credit, person=True)
            return
        self._apply(action)
        self._aimed_now(seat, aimed)

    def _apply(self, action: Action) -> None:
        """A person's move, applied now; :class:`Refused` says why not."""
        try:
            self.scheduler.act(action)
        except GameError as exc:
            late = self.game.late(action)
            if late is not None:
                raise Refused(late, "stale") from None
            raise Refused(str(exc), "refused") from None
        if self.unkept:
            raise Refused("the game could not be saved just now: reconnecting", "unavailable")

    def _aimed_now(self, seat: int, aimed: tuple[int, tuple[Any, ...]] | None) -> None:
        if aimed is not None:
            at, target = aimed
            last = self._aimed.get(seat)
            if last is None or last[0] != at:
                self._aimed[seat] = (at, {target})
            else:
                last[1].add(target)

    # -- races (J3: the earlier reaction wins; lag.py) ----------------------------------------

    def sample_lag(self, seat: int, round_trip: float) -> None:
        """A ping to ``seat``'s person was answered after ``round_trip`` seconds. When what
        the page shows changes, every watcher is told each seat's connection."""
        lag = self.lags.setdefault(seat, SeatLag())
        lag.sample(round_trip)
        shown = (round(lag.one_way * 1000), lag.fair)
        before = self._shown.get(seat)
        if before is None or before[1] != shown[1] or abs(before[0] - shown[0]) >= 5:
            self._shown[seat] = shown
            message = self._connections()
            for senders in list(self._watchers.values()):
                for send in list(senders):
                    send(message)

    def _connections(self) -> ConnectionState:
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

    def _computer_move(self, action: Action, due: float) -> None:
        if self._race is None and not (action.type in RACES and self._lagging()):
            self.scheduler.play(action)
            return
        self._enter(action, due, person=False)

    def _enter(self, action: Action, credit: float, *, person: bool) -> None:
        """A move joins the open race (a race one for the card on top: by its credit), or
        opens one, or waits for it to be settled (everything else, in order of arrival)."""
        race = self._race
        if race is None:
            race = self._race = _Race(self.clock.now())
        if action.type in RACES and self._races_for(action):
            race.entries.append((credit, len(race.entries), action, person))
            race.seats.add(action.player)
        else:
            race.after.append((action, person))
        self._settle_or_wait()

    def _settle_or_wait(self) -> None:
        race = self._race
        assert race is not None
        if not race.entries:  # nothing races yet: what waits for it goes now
            self._settle()
            return
        best = min(credit for credit, _, _, _ in race.entries)
        wait = [lag.window() for seat, lag in self.lags.items()
                if seat not in race.seats and seat not in self.scheduler.computers
                and self.watched(seat)]
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
        moves = [(a, p) for _, _, a, p in sorted(race.entries, key=lambda e: e[:2])]
        for action, person in moves + race.after:
            if self.closed:
                return  # the store could not keep a move (the lobby closed the table)
            if not person:
                self.scheduler.play(action)
                continue
            try:
                self._apply(action)
            except Refused as exc:  # told now: the move was taken in, and settled later
                for send in list(self._watchers.get(action.player, ())):
                    send(error(exc.code, exc.reason, "action"))

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

    # -- after every change ----------------------------------------------------------------

    def _changed(self, action: Action, events: Sequence[Event]) -> None:
        if self._on_change is not None and self._on_change(action, events) is False:
            # not kept (the store is down): nobody may be told of it, nor play on after it
            self.unkept = True
            self.close()
            return
        game = self.game
        if self.pacing.at_field is not None:
            target = self._target_now()
            if target != self._target:  # a new card to race for: its time is now
                self._target, self._target_time = target, self.clock.now()
        for seat, senders in list(self._watchers.items()):
            if senders:
                message = message_for(game, seat, events)
                for send in list(senders):
                    send(message)

    # -- seats changing hands ----------------------------------------------------------------

    def seat_computer(self, seat: int, player: AnyPlayer) -> None:
        """A computer player takes over ``seat`` (its person has gone) from the game as it
        is now; moves people send for the seat are refused meanwhile."""
        self._aimed.pop(seat, None)
        self.scheduler.seat_computer(seat, player)

    def seat_person(self, seat: int) -> None:
        """The seat's person is back: its computer player stops, its pending move with it."""
        self.scheduler.seat_person(seat)


class _Race:
    """A race being held open: its entries (credit, arrival order, action, whether a
    person's), the seats in it, and the moves that wait for it to be settled."""

    __slots__ = ("after", "entries", "opened", "seats", "timer")

    def __init__(self, opened: float) -> None:
        self.opened = opened
        self.entries: list[tuple[float, int, Action, bool]] = []
        self.seats: set[int] = set()
        self.after: list[tuple[Action, bool]] = []
        self.timer: Timer | None = None
