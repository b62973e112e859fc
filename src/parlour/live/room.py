"""One table's life, owned in one place: seats and tokens, phase, presence, the game and
its computers, the journal, and what every connection is told.

A room goes through the phases of :class:`~parlour.store.Phase` (the store's own
vocabulary): ``WAITING`` (a table with friends before the host starts it), ``PLAYING`` and
``FINISHED`` (over; people may still look at it). It leaves memory (:meth:`Room.close`)
when nobody is at it, when its people leave, or when the store could not keep a move;
its tokens are refused from then on, until a token or a spectator brings it back from the
store (:mod:`parlour.live.lobby`).

Every move, a person's or a computer's, is :meth:`Room.commit`: admitted by the table
(:mod:`parlour.live.table`: the seat's right, one slap per card, one action per view
version, slap races held open for lag, ruling J3), applied by the rules, kept by the
journal before anyone is told, told to every page through
:func:`~parlour.live.table.message_for`, and handed back to the table, whose computers are
asked about it. Every change of seats or phase is one method here that journals once.

A room owns its parts, none of which knows it: its connections
(:mod:`parlour.live.connections`: who is connected, and telling them), its presence timers
(:mod:`parlour.live.presence`; the policy of who is away is :meth:`Room.gone`), its
journal (:mod:`parlour.live.journal`) and, once started, its table
(:mod:`parlour.live.table`). What a room needs from the server hosting it (the
store, the clock, the token index, computer players) comes in as a :class:`Hosting`:
nothing here reaches back into the lobby.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from parlour.bots.base import AnyPlayer
from parlour.bots.scheduler import Clock
from parlour.engine import Action, Game, GameError, GameSpec, Pacing
from parlour.live.connections import Connections
from parlour.live.journal import Journal
from parlour.live.names import same_name
from parlour.live.presence import Presence
from parlour.live.protocol import LobbyState, Refused, SeatInfo, Welcome, error
from parlour.live.seats import Link, Places, Seat, SeatKind, Send
from parlour.live.table import Admitted, Table, message_for
from parlour.store import Phase, Store, open_store, token_hash

__all__ = ["Hosting", "Link", "Phase", "Room", "Seat", "SeatKind", "Seating"]


@dataclass
class Hosting:
    """What a room needs from the server that holds it (the lobby gives every room one).

    ``store`` keeps every room (each room writes it through its own journal);
    ``computer(room, seat, seed)`` makes a computer player for a seat; ``table_clock(room)``
    the clock its computers take turns on; ``gone(room)`` is told once the room has left
    memory (the lobby's registry, caps and leases let go of it)."""

    store: Store
    clock: Clock
    places: Places
    computer: Callable[[Room, int, int | None], AnyPlayer]
    table_clock: Callable[[Room], Clock]
    gone: Callable[[Room], None]
    pacing: Mapping[str, Pacing]
    on_lag: Callable[[float], None] | None = None
    takeover: float = 3.0
    grace: float = 30.0


@dataclass
class Seating:
    """A person's place: which room, which seat, and the token that proves it."""

    room: Room = field(repr=False)
    seat: int
    token: str

    @property
    def table_id(self) -> str:
        return self.room.id

    @property
    def game(self) -> str:
        return self.room.spec.name

    @property
    def level(self) -> str:
        return self.room.level

    def welcome(self) -> Welcome:
        return self.room.welcome(self.seat, self.token)


class Room:
    """One table; see the module docstring. ``game`` is the game itself (dealt when the room
    opens, so its options are checked at once), ``spec`` what game it is."""

    def __init__(self, ident: str, game: Game, level: str, seats: list[Seat], *,
                 friends: bool, hosting: Hosting, seeded: bool = False,
                 owner: str | None = None, phase: Phase = Phase.WAITING,
                 created: float | None = None) -> None:
        self.id = ident
        self.game = game
        self.spec: GameSpec = game.spec
        self.level = level
        self.seats = seats
        self.friends = friends
        self.seeded = seeded
        """The deal was asked for by seed (a game against the computer played again)."""
        self.owner = owner
        """The client address that opened the table (its caps count it)."""
        self.host = 0
        self.phase = phase
        self.closed = False
        """Out of memory: its tokens are refused here (the store may bring it back)."""
        self.created = time.time() if created is None else created
        self.rematch: str | None = None
        """The table that plays this one again (friends, once it is over)."""
        self.table: Table | None = None
        self.connections = Connections()
        self.journal = Journal(hosting.store, ident, game, self.created)
        self.presence = Presence(hosting.clock, take_over=self.take_over,
                                 put_away=self.put_away)
        self._hosting = hosting
        self._clock = hosting.clock
        self._played = False

    @classmethod
    def alone(cls, game: Game, computers: Mapping[int, AnyPlayer], *, clock: Clock,
              pacing: Pacing | None = None, level: str = "normal",
              on_lag: Callable[[float], None] | None = None,
              store: Store | None = None) -> Room:
        """A started room of its own, outside any lobby: ``game`` with ``computers`` at
        their seats and people at the others (:meth:`give_seat` seats one), on ``clock``,
        its journal in ``store`` (by default an in-memory one of its own). For what drives
        one table directly: a far seat (:mod:`parlour.live.remote`), benchmarks and
        tests."""

        def no_computer(room: Room, seat: int, seed: int | None) -> AnyPlayer:
            raise RuntimeError("a room of its own seats no new computer player")

        hosting = Hosting(
            store=open_store(":memory:") if store is None else store, clock=clock,
            places=Places(),
            computer=no_computer, table_clock=lambda room: clock, gone=lambda room: None,
            pacing={} if pacing is None else {game.spec.name: pacing}, on_lag=on_lag)
        seats = [Seat(f"Computer {s}", "computer") if s in computers
                 else Seat(f"Person {s}", "person") for s in range(game.players)]
        room = cls(secrets.token_urlsafe(6), game, level, seats, friends=False,
                   hosting=hosting, phase=Phase.PLAYING)
        room.opened()
        room.start(computers)
        return room

    # -- what it is ---------------------------------------------------------------------------

    @property
    def options(self) -> dict[str, Any]:
        """The options people chose (the chance ones, drawn, are not shown before the end)."""
        return {opt.name: self.game.options[opt.name] for opt in self.spec.options
                if not opt.chance}

    @property
    def started(self) -> bool:
        return self.phase.started

    @property
    def players(self) -> int:
        return len(self.seats)

    def free(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if seat.kind == "open"]

    def people(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if seat.kind == "person"]

    @property
    def played(self) -> bool:
        """Someone played here: the host started it, or a person made a move."""
        if not self._played:
            if self.friends:
                self._played = self.started
            elif self.table is not None:
                people = set(self.people())
                self._played = any(a.player in people for a in self.game.history)
        return self._played

    def holds_slot(self) -> bool:
        """Whether the table counts against the caps: played, or a person is at it."""
        return self.played or any(link.seat is not None for link in self.connections.links)

    def mine(self, seating: Seating) -> None:
        """Raises ``bad_token`` unless ``seating`` is a seat of this room now."""
        if (self.closed or seating.room is not self
                or self.seats[seating.seat].token_hash != token_hash(seating.token)):
            raise Refused("unknown or expired seat token", "bad_token")

    def present(self, seat: int) -> bool:
        """Whether any connection holds ``seat``."""
        return self.connections.present(seat)

    def watchers(self) -> int:
        """Connections that hold no seat: spectators and waiting-room visitors."""
        return self.connections.watchers()

    # -- what people are told -----------------------------------------------------------------

    def seat_list(self) -> list[SeatInfo]:
        """The seats as every message gives them: names and kinds, never a token."""
        table = self.table
        result: list[SeatInfo] = []
        for s, seat in enumerate(self.seats):
            entry: SeatInfo = {"name": seat.name, "kind": seat.kind}
            if seat.kind == "computer":
                entry["level"] = self.level
            elif seat.kind == "person" and table is not None and s in table.computers:
                entry["away"] = True  # a computer plays it until the person is back
                entry["level"] = self.level
            result.append(entry)
        return result

    def _phase_shown(self) -> str:
        return Phase.CLOSED.value if self.closed else self.phase.value

    def welcome(self, seat: int | None, token: str | None) -> Welcome:
        """The ``welcome`` message for ``seat`` (no game state)."""
        return {"type": "welcome", "table": self.id, "game": self.spec.name, "seat": seat,
                "token": token, "level": self.level, "players": self.players,
                "seats": self.seat_list(), "started": self.started, "friends": self.friends,
                "host": seat is not None and seat == self.host, "options": self.options,
                "phase": self._phase_shown(), "seeded": self.seeded,
                "rematch": self.rematch}

    def summary(self) -> LobbyState:
        """The ``lobby`` message: the waiting room as everybody sees it."""
        outcome = self.game.outcome
        return {"type": "lobby", "table": self.id, "game": self.spec.name,
                "players": self.players, "level": self.level, "options": self.options,
                "seats": self.seat_list(), "host": self.host, "phase": self._phase_shown(),
                "started": self.started, "closed": self.closed, "free": len(self.free()),
                "rematch": self.rematch,
                "outcome": None if outcome is None else outcome.to_json()}

    def tell_followers(self) -> None:
        """Every waiting room page: the room as it is now."""
        self.connections.tell_followers(self.summary())

    def tell_seats(self) -> None:
        # Who sits where is public: every game page and spectator is told.
        self.connections.tell_pages({"type": "seats", "seats": self.seat_list()})

    def _show(self, link: Link) -> None:
        """A game page's start: its seat's whole view now, and every seat's connection if
        anything is known of them (kept across reconnects)."""
        table = self.table
        if table is None or not link.play:
            return
        link.send(message_for(self.game, link.seat, (), kind="state"))
        known = table.connection_state()
        if known is not None:
            link.send(known)

    # -- the game -----------------------------------------------------------------------------

    def start(self, computers: Mapping[int, AnyPlayer]) -> Table:
        """The table comes to life with ``computers`` at their seats (the phase is already
        ``PLAYING`` or ``FINISHED``). The room is the referee of its computers' moves."""
        hosting = self._hosting
        table = Table(self.game, computers, hosting.pacing.get(self.spec.name),
                      level=self.level, on_lag=hosting.on_lag,
                      clock=self.presence.table_clock(hosting.table_clock(self)),
                      referee=self._computer_moved, settle=self._settled,
                      watched=self.connections.watching)
        self.table = table
        if not table.over:
            table.start()
        return table

    def commit(self, seat: int, action: Action, version: int | None = None, *,
               due: float | None = None, admitted: Admitted | None = None) -> None:
        """The path of every move at this table, a person's or a computer's.

        A person's move comes with the ``version`` of the view it was made on (if the page
        says); a computer's with ``due``, when it fell due (the scheduler hands it here);
        a move the race book held comes back ``admitted``, once its race is settled. A
        move refused raises :class:`Refused` with the reason, and changed nothing.
        """
        table = self.table
        if table is None or self.closed:
            raise Refused("start or resume a started table before acting", "no_table")
        if table.closed:
            raise Refused("this table is closed", "closed")
        # 1. Admit: the seat's right to act, one of each action per view version, one slap
        #    per card and seat. A race for the card on top is held open while a slower
        #    connection could still win it (J3): the race book brings it back here, settled.
        move = admitted
        if move is None:
            move = table.admit(seat, action, version, due=due)
            if table.hold(move):
                return
        # 2. The checked apply: a move the rules refuse changes nothing; one that merely
        #    lost a race is too late, not wrong (P5).
        game = self.game
        try:
            events = game.apply(action)
        except GameError as exc:
            late = game.late(action)
            if late is not None:
                raise Refused(late, "stale") from None
            raise Refused(str(exc), "refused") from None
        # 3. The journal, before anybody is told. A move the store could not keep is told
        #    to nobody: the table takes no more moves, and the room leaves memory on the
        #    clock's next turn (the store is the truth; its people's tokens bring it back).
        if not self.journal.played(action):
            table.close()
            self._clock.call_at(self._clock.now(), self._unkept)
            raise Refused("the game could not be saved just now: reconnecting", "unavailable")
        if game.outcome is not None and self.phase is Phase.PLAYING:
            self.phase = Phase.FINISHED
        # 4. Tell every game page and spectator what its seat may know of the change, each
        #    through the one secrecy boundary.
        for shown, sends in self.connections.pages().items():
            message = message_for(game, shown, events)
            for send in sends:
                send(message)
        # 5. Hand the change back to the table: the card races are run for, and the
        #    computers asked what they would do now (on the clock's next turn).
        table.moved(move, events)

    def _computer_moved(self, action: Action, due: float) -> None:
        """The scheduler's referee: a computer's move fell due at ``due``. Committed as any
        move; one refused is spent (the computer is asked again at the next change)."""
        try:
            self.commit(action.player, action, due=due)
        except Refused:
            if self.table is not None:
                self.table.scheduler.spent(action.player)

    def _settled(self, move: Admitted) -> None:
        """The race book settled a move it held: committed now. A person's refusal is told
        to the seat's pages (the move was taken in, and settled later); a computer's is
        spent."""
        action = move.action
        try:
            self.commit(action.player, action, admitted=move)
        except Refused as exc:
            if move.person:
                self.connections.tell_seat(action.player,
                                           error(exc.code, exc.reason, "action"))
            elif self.table is not None:
                self.table.scheduler.spent(action.player)

    def _unkept(self) -> None:
        self.connections.tell_all(error("unavailable", "the game could not be saved just "
                                                       "now: reconnecting"))
        self.close(left=False)

    def sample_lag(self, seat: int, round_trip: float) -> None:
        """A ping to ``seat``'s page came back after ``round_trip`` seconds: the table
        measures each seat's delay for its races (:mod:`parlour.live.lag`), and the pages
        are told each seat's connection when what they show of it changes."""
        table = self.table
        if table is None or table.closed:
            return
        shown = table.sample_lag(seat, round_trip)
        if shown is not None:
            self.connections.tell_pages(shown)

    # -- the journal --------------------------------------------------------------------------

    def opened(self) -> None:
        """Stores the room as it opens, before anybody hears of it."""
        self.journal.opened(level=self.level, friends=self.friends, seats=self.seats,
                            host=self.host, phase=self.phase)

    def _seated(self) -> None:
        self.journal.seated(self.seats, host=self.host, level=self.level)

    def offer_rematch(self, again: str) -> None:
        """The table ``again`` plays this one again: kept, and offered to everybody here."""
        self.rematch = again
        self.journal.rematch(again)
        self.connections.tell_all({"type": "rematch", "table": again})
        self.tell_followers()

    # -- seats --------------------------------------------------------------------------------

    def give_seat(self, seat: int) -> Seating:
        """A new secret token for ``seat``, indexed."""
        seating = Seating(self, seat, secrets.token_urlsafe(18))
        hashed = token_hash(seating.token)
        self.seats[seat].token_hash = hashed
        self._hosting.places.add(hashed, self.id, seat)
        return seating

    def index_seats(self) -> None:
        """Every person seat's token in the server's index (a room coming into memory)."""
        for s in self.people():
            hashed = self.seats[s].token_hash
            if hashed is not None:
                self._hosting.places.add(hashed, self.id, s)

    def sit(self, name: str, seat: int | None = None) -> Seating:
        """Takes a free seat (``seat``, or the first free one) before the start; every
        check comes first, so a refused ``sit`` takes nothing."""
        if self.started:
            raise Refused("the game has started: you can watch it", "started")
        free = self.free()
        if seat is None:
            if not free:
                raise Refused("every seat is taken", "full")
            seat = free[0]
        if not 0 <= seat < self.players:
            raise Refused(f"no seat {seat} at this {self.players}-seat table")
        if seat not in free:
            raise Refused(f"seat {seat} is taken", "taken")
        if any(s.kind == "person" and same_name(s.name, name) for s in self.seats):
            raise Refused("someone at this table already has that name: choose another",
                          "same_name")
        self.seats[seat] = Seat(name, "person")
        seating = self.give_seat(seat)
        self._seats_changed()
        return seating

    def _seats_changed(self) -> None:
        self._seated()
        self.tell_followers()

    def _host_before_start(self, seating: Seating, what: str) -> None:
        self.mine(seating)
        if seating.seat != self.host:
            raise Refused(f"only the host {what}", "not_host")
        if self.started:
            raise Refused("the game has started", "started")

    def set_level(self, seating: Seating, level: str) -> None:
        """The host sets the computer players' speed (before the start)."""
        self._host_before_start(seating, "sets the speed")
        self.level = level
        self._seats_changed()

    def remove(self, seating: Seating, seat: int) -> None:
        """The host frees another person's seat before the start: its token is refused from
        now on, and its connections are told (``removed``)."""
        self._host_before_start(seating, "removes someone from a seat")
        if not 0 <= seat < self.players:
            raise Refused(f"no seat {seat} at this {self.players}-seat table")
        if seat == seating.seat:
            raise Refused("that is your own seat: leave the table instead")
        hashed = self.seats[seat].token_hash
        if self.seats[seat].kind != "person" or hashed is None:
            raise Refused(f"nobody sits at seat {seat}", "open_seat")
        self._hosting.places.drop(hashed)
        self.seats[seat] = Seat("Open seat", "open")
        self._seated()
        for link in [link for link in self.connections.links if link.seat == seat]:
            self.connections.evict(link, "removed", "the host gave your seat back to the table")
        self.tell_followers()

    def begin(self, seating: Seating) -> Table:
        """The host starts the game: every free seat gets a computer player."""
        self._host_before_start(seating, "starts the game")
        free, before = self.free(), list(self.seats)
        for s in free:
            self.seats[s] = Seat(f"Computer {s}", "computer")
        try:
            self._seated()
            self.journal.phase(Phase.PLAYING)
        except Exception:
            self.seats[:] = before  # not stored: the room is as it was, and begin may be retried
            raise
        self.phase = Phase.PLAYING
        table = self.start({s: self._hosting.computer(self, s, None) for s in free})
        for link in list(self.connections.links):
            self._show(link)
        for s in self.people():
            if not self.present(s):
                self.gone(s)
        self.tell_followers()
        self.tell_seats()
        return table

    def leave(self, seat: int) -> None:
        """The person at ``seat`` is done with it. Against the computer the table closes
        now; with friends, before the start the seat is free again (the host's role passes
        on), after it a computer plays the seat at once; a table nobody is left at closes
        now."""
        self.connections.drop(lambda link: link.seat == seat)
        if not self.friends:
            self.close(left=True)
            return
        if not self.started:
            hashed = self.seats[seat].token_hash
            if hashed is not None:
                self._hosting.places.drop(hashed, self.id)
            self.seats[seat] = Seat("Open seat", "open")
            people = self.people()
            if not people:
                self.close(left=True)
                return
            if self.host == seat:
                self.host = people[0]
            self._seats_changed()
            return
        self.seats[seat].left = True
        self._seated()
        self.gone(seat)
        self.presence.take_over_now(seat)

    def take_over(self, seat: int) -> None:
        """A computer plays ``seat`` until its person is back (its take-over timer ran out,
        or its person left)."""
        table = self.table
        if (self.closed or table is None or self.present(seat) or table.over
                or seat in table.computers):
            return
        table.seat_computer(seat, self._hosting.computer(self, seat, None))
        self.tell_seats()

    # -- connections --------------------------------------------------------------------------

    def attach(self, seating: Seating, send: Send, *, play: bool = True,
               welcome: bool = False, evicted: Callable[[str], None] | None = None) -> None:
        """A connection takes up ``seating`` (see :meth:`parlour.live.lobby.Lobby.attach`)."""
        seat = seating.seat
        self.seats[seat].left = False
        self.presence.back(seat)
        connections = self.connections
        for link in [link for link in connections.links
                     if link.seat == seat and link.play == play and link.send != send]:
            connections.evict(link, "elsewhere", "your seat was taken up on another device or tab")
        table = self.table
        if table is not None and self.friends and seat in table.computers:
            table.seat_person(seat)
            self.tell_seats()
        if welcome:
            send(seating.welcome())
        self._link(Link(seat, send, play, evicted=evicted))

    def detach(self, seating: Seating, send: Send) -> None:
        """A connection left its seat (see :meth:`gone` for what follows)."""
        self.connections.drop(lambda link: link.seat == seating.seat and link.send == send)
        if not self.closed and not self.present(seating.seat):
            self.gone(seating.seat)

    def watch(self, send: Send) -> None:
        """A spectator: ``welcome`` (seat ``None``), then the public view now (or at the
        start) and every change."""
        send(self.welcome(None, None))
        self._link(Link(None, send, True))

    def unwatch(self, send: Send) -> None:
        self.connections.drop(lambda link: link.seat is None and link.send == send)
        self._put_away_if_empty()

    def follow(self, send: Send) -> None:
        """A waiting room page: ``lobby`` messages now and on every change of the seats."""
        self.connections.follow(send)
        send(self.summary())

    def unfollow(self, send: Send) -> None:
        self.connections.unfollow(send)
        self._put_away_if_empty()

    def _link(self, link: Link) -> None:
        self.connections.add(link)
        self._show(link)

    def react(self, seating: Seating, reaction: str) -> None:
        """A quick reaction (a checked code) from ``seating``'s seat at a table with friends,
        to every game page and spectator there; one a seat every
        :data:`~parlour.live.connections.REACT_EVERY` seconds."""
        if not self.friends:
            raise Refused("reactions are for tables with friends", "no_reactions")
        self.connections.may_react(seating.seat, self._clock.now())
        self.connections.tell_pages({"type": "reaction", "seat": seating.seat,
                                     "reaction": reaction})

    # -- presence: who is away, and when the table is put away --------------------------------

    def gone(self, seat: int) -> None:
        """Nobody is at ``seat`` any more (dropped, or left).

        At a table with friends, a person whose last connection dropped has ``takeover``
        seconds (a reload, the step from the waiting room to the game page) before a
        computer player takes their seat (:meth:`take_over`); when they come back the
        computer stops. A table where no person seat has anybody holds its computers'
        moves (:class:`~parlour.live.presence.HeldClock`) and closes: at once if they all
        said they were leaving, after ``grace`` seconds if someone only dropped. A table
        nobody played (no person's move, not started) does not wait: against the computer
        it closes as soon as its person is gone, with friends after ``takeover`` seconds (a
        reload of the waiting room)."""
        hosting, presence = self._hosting, self.presence
        table = self.table
        if self.friends and table is not None and seat not in table.computers:
            presence.take_over_after(seat, hosting.takeover)
        people = self.people()
        if any(self.present(s) for s in people):
            return
        presence.hold()  # nobody is looking: the computers wait for them
        if all(self.seats[s].left for s in people):
            self.put_away()
        elif not self.played and not self.friends and presence.seen:
            # nobody played it: it is left for good at once (a reload deals a new game), so
            # that opening and dropping tables holds nothing, in memory or in a store (but a
            # table brought back from the store waits for its person like any other)
            for s in people:
                self.seats[s].left = True
            self.put_away()
        else:
            # a waiting room nobody is in lasts a reload's time; a played table its grace
            presence.put_away_after(hosting.grace if self.played else hosting.takeover)

    # -- leaving memory -----------------------------------------------------------------------

    def _put_away_if_empty(self) -> None:
        connections = self.connections
        if not self.closed and not connections.links and not connections.followers and (
                self.phase is Phase.FINISHED or not self.people()):
            self.put_away()

    def put_away(self) -> None:
        """Nobody is at the room: out of memory, kept in the store as it is (unless every
        person said they were leaving: then it is left for good)."""
        people = self.people()
        left = bool(people) and all(self.seats[s].left for s in people)
        if not left:
            self.journal.touched()  # the keep period runs from now
        self.close(left=left)

    def close(self, *, left: bool) -> None:
        """Takes the room out of memory; ``left``: its people are done with it (an
        unfinished game is abandoned and its tokens stop working)."""
        if self.closed:
            return
        if left and not self.game.outcome:
            self.journal.phase(Phase.LEFT)
        self.closed = True
        if self.table is not None:
            self.table.close()
        self.presence.cancel()
        for seat in self.seats:
            if seat.token_hash is not None:
                self._hosting.places.drop(seat.token_hash, self.id)
        self._hosting.gone(self)
        self.tell_followers()
        self.connections.clear()
