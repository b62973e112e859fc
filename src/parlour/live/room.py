"""One table's life, owned in one place: seats and tokens, phase, presence, the game and
its computers, the journal, and what every connection is told.

A room goes through the phases of :class:`~parlour.store.Phase` (the store's own
vocabulary): ``WAITING`` (a table with friends before the host starts it), ``PLAYING`` and
``FINISHED`` (over; people may still look at it). It leaves memory (:meth:`Room.close`)
when nobody is at it, when its people leave, or when the store could not keep a move;
its tokens are refused from then on, until a token or a spectator brings it back from the
store (:mod:`parlour.live.lobby`).

A move is :meth:`Room.commit`: checked and applied by the live
:class:`~parlour.live.table.Table` (which holds slap races open for lag, ruling J3), then
:meth:`Room.applied` journals it before anyone is told; the table tells every seat through
:func:`~parlour.live.table.message_for`, and the computers are asked after that. Every
change of seats or phase is one method here that journals once. What a room needs from
the server hosting it (the journal, the clock, the token index, computer players) comes
in as a :class:`Hosting`: nothing here reaches back into the lobby.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.bots.base import AnyPlayer
from parlour.bots.scheduler import Clock
from parlour.engine import Action, Event, Game, GameSpec, Pacing
from parlour.live.connections import Connections
from parlour.live.journal import Journal
from parlour.live.names import same_name
from parlour.live.presence import Presence
from parlour.live.protocol import LobbyState, Refused, SeatInfo, Welcome, error
from parlour.live.seats import Link, Places, Seat, Seating, SeatKind, Send
from parlour.live.table import Table
from parlour.store import Phase, token_hash

__all__ = ["Hosting", "Link", "Phase", "Room", "Seat", "SeatKind", "Seating"]


@dataclass
class Hosting:
    """What a room needs from the server that holds it (the lobby gives every room one).

    ``computer(room, seat, seed)`` makes a computer player for a seat; ``table_clock(room)``
    the clock its computers take turns on; ``gone(room)`` is told once the room has left
    memory (the lobby's registry, caps and leases let go of it)."""

    journal: Journal
    clock: Clock
    places: Places
    computer: Callable[[Room, int, int | None], AnyPlayer]
    table_clock: Callable[[Room], Clock]
    gone: Callable[[Room], None]
    pacing: Mapping[str, Pacing]
    on_lag: Callable[[float], None] | None = None
    takeover: float = 3.0
    grace: float = 30.0


class Room(Connections):
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
        self.links: list[Link] = []
        self.followers: list[Send] = []
        # how many of the game's chance outcomes the journal has written
        self.kept_decks = 0
        self.kept_shuffles = 0
        self._hosting = hosting
        self._clock = hosting.clock
        self._journal = hosting.journal
        self._reacted: dict[int, float] = {}  # each seat's last reaction (Connections)
        self.presence = Presence(self, hosting.clock, takeover=hosting.takeover,
                                 grace=hosting.grace)
        self._played = False

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
        return self.played or any(link.seat is not None for link in self.links)

    def mine(self, seating: Seating) -> None:
        """Raises ``bad_token`` unless ``seating`` is a seat of this room now."""
        if (self.closed or seating.room is not self
                or self.seats[seating.seat].token_hash != token_hash(seating.token)):
            raise Refused("unknown or expired seat token", "bad_token")

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

    # -- the game -----------------------------------------------------------------------------

    def start(self, computers: Mapping[int, AnyPlayer]) -> Table:
        """The table comes to life with ``computers`` at their seats (the phase is already
        ``PLAYING`` or ``FINISHED``)."""
        hosting = self._hosting
        table = Table(self.game, computers, hosting.pacing.get(self.spec.name),
                      level=self.level, on_lag=hosting.on_lag, on_change=self.applied,
                      clock=self.presence.table_clock(hosting.table_clock(self)))
        self.table = table
        if not table.over:
            table.start()
        return table

    def commit(self, seat: int, action: Action) -> None:
        """A person's move at ``seat``. The table checks it (a refused move changes nothing
        and raises :class:`Refused`) and applies it, at once or once a slap race it is in
        is settled; :meth:`applied` journals it before the table tells every seat (a move
        the store could not keep is told to nobody, and refused ``unavailable``); the
        computers are asked after that."""
        table = self.table
        if table is None or self.closed:
            raise Refused("start or resume a started table before acting", "no_table")
        table.act(seat, action)

    def applied(self, action: Action, events: Sequence[Event]) -> bool:
        """An action was just applied (a person's or a computer's), before anybody is told:
        journaled, and the phase follows. ``False`` if the store could not keep it: the
        table takes no more moves and nobody is told; the room leaves memory on the
        clock's next turn (the store is the truth) and comes back from it when its people
        reconnect."""
        if not self._journal.played(self, action):
            if self.table is not None:
                self.table.close()
            clock = self._hosting.clock
            clock.call_at(clock.now(), self._unkept)
            return False
        if self.game.outcome is not None and self.phase is Phase.PLAYING:
            self.phase = Phase.FINISHED
        return True

    def _unkept(self) -> None:
        for link in list(self.links):
            link.send(error("unavailable", "the game could not be saved just now: "
                                           "reconnecting"))
        self.close(left=False)

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
        self._journal.seated(self)
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
        self._journal.seated(self)
        for link in [link for link in self.links if link.seat == seat]:
            self._evict(link, "removed", "the host gave your seat back to the table")
        self.tell_followers()

    def begin(self, seating: Seating) -> Table:
        """The host starts the game: every free seat gets a computer player."""
        self._host_before_start(seating, "starts the game")
        free, before = self.free(), list(self.seats)
        for s in free:
            self.seats[s] = Seat(f"Computer {s}", "computer")
        try:
            self._journal.seated(self)
            self._journal.phase(self, Phase.PLAYING)
        except Exception:
            self.seats[:] = before  # not stored: the room is as it was, and begin may be retried
            raise
        self.phase = Phase.PLAYING
        table = self.start({s: self._hosting.computer(self, s, None) for s in free})
        for link in self.links:
            if link.play:
                link.unwatch = table.watch(link.seat, link.send)
        for s in self.people():
            if not self.present(s):
                self.presence.gone(s)
        self.tell_followers()
        self.tell_seats()
        return table

    def leave(self, seat: int) -> None:
        """The person at ``seat`` is done with it. Against the computer the table closes
        now; with friends, before the start the seat is free again (the host's role passes
        on), after it a computer plays the seat at once; a table nobody is left at closes
        now."""
        self._unlink(lambda link: link.seat == seat)
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
        self._journal.seated(self)
        self.presence.gone(seat)
        self.presence.now(seat)

    def take_over(self, seat: int) -> None:
        """A computer plays ``seat`` until its person is back (presence's timer ran out)."""
        table = self.table
        if (self.closed or table is None or self.present(seat) or table.over
                or seat in table.computers):
            return
        table.seat_computer(seat, self._hosting.computer(self, seat, None))
        self.tell_seats()

    # -- leaving memory -----------------------------------------------------------------------

    def _put_away_if_empty(self) -> None:
        if not self.closed and not self.links and not self.followers and (
                self.phase is Phase.FINISHED or not self.people()):
            self.put_away()

    def put_away(self) -> None:
        """Nobody is at the room: out of memory, kept in the store as it is (unless every
        person said they were leaving: then it is left for good)."""
        people = self.people()
        left = bool(people) and all(self.seats[s].left for s in people)
        if not left:
            self._journal.touched(self)  # the keep period runs from now
        self.close(left=left)

    def close(self, *, left: bool) -> None:
        """Takes the room out of memory; ``left``: its people are done with it (an
        unfinished game is abandoned and its tokens stop working)."""
        if self.closed:
            return
        if left and not self.game.outcome:
            self._journal.phase(self, Phase.LEFT)
        self.closed = True
        if self.table is not None:
            self.table.close()
        self.presence.cancel()
        for seat in self.seats:
            if seat.token_hash is not None:
                self._hosting.places.drop(seat.token_hash, self.id)
        self._hosting.gone(self)
        self.tell_followers()
        self.followers.clear()
        self.links.clear()
