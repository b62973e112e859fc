"""The lobby: opens live tables, seats people with secret tokens, and lets them come back.

Two kinds of table, one set of rules for who is there:

- A table against the computer (:meth:`Lobby.open`): one person at seat 0, computer players
  at the others, dealt at once.
- A table with friends (:meth:`Lobby.create`): the creator takes seat 0 and is the host;
  others take free seats by the table's link (:meth:`Lobby.sit`); the host sets the computer
  speed and starts (:meth:`Lobby.begin`), and every seat still free gets a computer player.
  Anyone may watch (:meth:`Lobby.watch`): a spectator is told the public view only.

A seat token is the seat: whoever presents it (a reload, a flaky phone network, the game
page after the waiting room) is back at the seat, with the game as it is now. Who is
connected, and what happens when they go, is :mod:`parlour.live.presence`'s; a room's
seats and phase are :mod:`parlour.live.room`'s.

Nothing is lost (the store, :mod:`parlour.store`, through :mod:`parlour.live.keeper`):
every room is stored as it opens, its seats as they change and every action before anyone
is told of it. A room nobody is at for ``grace`` seconds is put away: out of memory, in
the store. A seat token (the store keeps its hash) brings its room back, on this server
or after a restart, for ``keep`` seconds after the last move; a finished table stays in
the store for its replay, and a finished table with friends offers a rematch with the
same seats and tokens.

The lobby takes commands already parsed by :mod:`parlour.live.protocol`; everything it
refuses raises :class:`~parlour.live.protocol.Refused` and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from parlour.bots import AnyPlayer, make_player
from parlour.engine import Action, Event, Game, GameError, GameSpec, Pacing
from parlour.games import game_class
from parlour.live.caps import Budgets, TableCaps, Turns, listed
from parlour.live.keeper import Unresumable, keep_new, keep_play, keep_seats, rebuild
from parlour.live.names import same_name
from parlour.live.presence import Presence
from parlour.live.protocol import Create, Reaction, Refused, Start, error
from parlour.live.room import Link, Phase, Room, Seat, Seating
from parlour.live.table import Send, Table
from parlour.store import Store, StoredTable, open_store, token_hash

log = logging.getLogger(__name__)

#: How long an unfinished table waits for its people, in seconds after its last change.
KEEP = 7 * 24 * 3600.0
#: Seconds a seat waits between two quick reactions (``slow_down`` meanwhile).
REACT_EVERY = 1.5

Decks = Callable[[str, int], Sequence[Sequence[str]]]
MakePlayer = Callable[..., AnyPlayer]

__all__ = ["Lobby", "Refused", "Room", "Seating"]


class Lobby:
    """Every open table of one server."""

    def __init__(
        self,
        *,
        grace: float = 30.0,
        takeover: float = 3.0,
        max_tables: int = 1000,
        max_links: int = 200,
        tables_per_address: int | None = 10,
        listed_per_address: int = 3,
        listed: int = 50,
        budgets: Budgets | None = None,
        pacing: Mapping[str, Pacing] | None = None,
        players: MakePlayer = make_player,
        decks: Decks | None = None,
        on_lag: Callable[[float], None] | None = None,
        store: Store | None = None,
        keep: float = KEEP,
    ) -> None:
        """``players`` builds computer players (``make_player``'s signature); ``decks``, for
        tests, gives the stacked decks of each new game; ``pacing``, for tests, replaces a
        game's pacing (shorter pauses); ``on_lag`` receives how late each computer move
        ran, in seconds. ``takeover``: how long a dropped person's seat waits before a
        computer plays it (a reload should not hand a move to the computer); ``max_links``:
        connections per table that hold no seat (spectators, waiting-room visitors: they
        never crowd out the seats); ``max_tables`` and ``tables_per_address``: tables in all
        and per client address; ``listed_per_address`` and ``listed``: places in the public
        list of open tables; ``budgets``: the computer players' CPU time
        (:mod:`parlour.live.caps`). ``store``: where tables are kept (by default an
        in-memory SQLite database, gone with the process); ``keep``: how long an unfinished
        table waits for its people."""
        self.grace = grace
        self.takeover = takeover
        self.max_tables = max_tables
        self.max_links = max_links
        self.caps = TableCaps(total=max_tables, per_address=tables_per_address)
        self.listed_per_address = listed_per_address
        self.listed = listed
        self.budgets = budgets if budgets is not None else Budgets()
        self.turns = Turns()
        self._reacted: dict[str, dict[int, float]] = {}  # per table, each seat's last reaction
        self.pacing = dict(pacing or {})
        self._players = players
        self._decks = decks
        self._on_lag = on_lag
        self.store = store if store is not None else open_store(":memory:")
        self.keep = keep
        self._rooms: dict[str, Room] = {}
        self._presence: dict[str, Presence] = {}
        # token hash -> (room id, seat), for every seat of every room in memory
        self._places: dict[str, tuple[str, int]] = {}
        self.on_room: Callable[[str, bool], None] | None = None
        """Told of every table this lobby takes into memory (``True``) or lets go of: the
        node's leases follow (:mod:`parlour.web.relay`)."""

    def __len__(self) -> int:
        return len(self._rooms)

    # -- opening ---------------------------------------------------------------------------

    def _new_game(self, spec: GameSpec, players: int, options: Mapping[str, Any],
                  seed: int | None, owner: str | None) -> Game:
        # tables nobody played and nobody is at do not count (they close within seconds)
        self.caps.admit(owner or "", lambda ident: self._rooms[ident].holds_slot())
        if len(self._rooms) >= 2 * self.max_tables:
            raise Refused("the server is full; try again in a minute", "full")
        decks = self._decks(spec.name, players) if self._decks is not None else ()
        try:  # no seed: every chance outcome comes from the operating system's generator
            return game_class(spec.name)(players, seed=seed, decks=decks, options=options)
        except GameError as exc:
            raise Refused(str(exc)) from None

    def table_ids(self) -> list[str]:
        """The tables in memory now."""
        return list(self._rooms)

    def let_go(self, table_id: str) -> None:
        """Another node owns ``table_id``: out of memory here, as it is in the store."""
        room = self._rooms.get(table_id)
        if room is not None:
            self._close(room, left=False)

    def _add(self, room: Room) -> None:
        self._rooms[room.id] = room
        if self.on_room is not None:
            self.on_room(room.id, True)
        self.caps.add(room.owner or "", room.id)
        self._presence[room.id] = Presence(room, takeover=self.takeover, grace=self.grace,
                                           take_over=self._take_over, close=self._put_away)

    def _computer(self, room: Room, seat: int, seed: int | None) -> AnyPlayer:
        player = self._players(room.spec.name, room.level, seat, seed=seed)
        return self.budgets.player(player, room.id, room.owner)

    def _start(self, room: Room, computers: Mapping[int, AnyPlayer]) -> Table:
        store = self.store

        def changed(action: Action, events: Sequence[Event]) -> None:
            try:
                keep_play(store, room, action)
            except Exception:
                # Not stored, so nobody may be told of it: the table leaves memory (the
                # store is the truth) and comes back from it when its people reconnect.
                log.exception("table %s: an action could not be stored", room.id)
                # no further move may be stored on top of the missing one: the table takes
                # none from now on, and leaves memory on the loop's next turn
                if room.table is not None:
                    room.table.close()
                asyncio.get_running_loop().call_soon(self._unkept, room)
                raise Refused("the game could not be saved just now: reconnecting",
                              "unavailable") from None
            if room.game.outcome is not None and room.phase is Phase.PLAYING:
                room.phase = Phase.FINISHED

        table = Table(room.game, computers, self.pacing.get(room.spec.name), level=room.level,
                      on_lag=self._on_lag, on_change=changed,
                      clock=self._presence[room.id].table_clock(self.turns.clock(room.owner)))
        room.table = table
        if room.phase is Phase.WAITING:
            room.phase = Phase.PLAYING
        if not table.over:
            table.start()
        return table

    def _seat(self, room: Room, seat: int) -> Seating:
        seating = Seating(room, seat, secrets.token_urlsafe(18))
        hashed = token_hash(seating.token)
        room.seats[seat].token_hash = hashed
        self._places[hashed] = (room.id, seat)
        return seating

    def open(self, command: Start, owner: str | None = None) -> Seating:
        """Opens a table against the computer: a person at seat 0, computer players at the
        others, dealt at once. A ``seed`` deals a chosen game (and seeds the computers):
        "play this deal again"; without one, nothing at the table is predictable. ``owner``:
        the client address opening it (its caps count it)."""
        game = self._new_game(command.spec, command.players, command.options, command.seed,
                              owner)
        seats = [Seat("You", "person")] + [Seat(f"Computer {s}", "computer")
                                           for s in range(1, command.players)]
        room = Room(secrets.token_urlsafe(6), game, command.level, seats, friends=False,
                    seeded=command.seed is not None, owner=owner)
        seating = self._seat(room, 0)
        room.phase = Phase.PLAYING
        keep_new(self.store, room)
        self._add(room)
        self._start(room, {s: self._computer(room, s, _derived(command.seed, s))
                           for s in range(1, command.players)})
        return seating

    def create(self, command: Create, owner: str | None = None) -> Seating:
        """Creates a table with friends: its creator at seat 0 as the host, the other seats
        free until the host starts. The game (options included) is dealt now, at random."""
        game = self._new_game(command.spec, command.players, command.options, None, owner)
        seats = [Seat(command.name, "person")] + [Seat("Open seat", "open")
                                                  for _ in range(1, command.players)]
        room = Room(secrets.token_urlsafe(6), game, command.level, seats, friends=True,
                    owner=owner)
        seating = self._seat(room, 0)
        keep_new(self.store, room)
        self._add(room)
        return seating

    def room(self, table_id: str) -> Room:
        """The table ``table_id`` names, brought back from the store if it was put away."""
        room = self._rooms.get(table_id)
        if room is None:
            room = self._bring_back(table_id)
        if room is None:
            raise Refused("no such table (it may have closed)", "unknown_table")
        return room

    def sit(self, table_id: str, name: str, seat: int | None = None) -> Seating:
        """Takes a free seat (``seat``, or the first free one) before the start; every
        check comes first, so a refused ``sit`` takes nothing."""
        room = self.room(table_id)
        if room.started:
            raise Refused("the game has started: you can watch it", "started")
        free = room.free()
        if seat is None:
            if not free:
                raise Refused("every seat is taken", "full")
            seat = free[0]
        if not 0 <= seat < room.players:
            raise Refused(f"no seat {seat} at this {room.players}-seat table")
        if seat not in free:
            raise Refused(f"seat {seat} is taken", "taken")
        if any(s.kind == "person" and same_name(s.name, name) for s in room.seats):
            raise Refused("someone at this table already has that name: choose another",
                          "same_name")
        room.seats[seat] = Seat(name, "person")
        seating = self._seat(room, seat)
        keep_seats(self.store, room)
        room.tell_followers()
        return seating

    def set_level(self, seating: Seating, level: str) -> None:
        """The host sets the computer players' speed (before the start)."""
        room = self._mine(seating)
        if seating.seat != room.host:
            raise Refused("only the host sets the speed", "not_host")
        if room.started:
            raise Refused("the game has started", "started")
        room.level = level
        keep_seats(self.store, room)
        room.tell_followers()

    def remove(self, seating: Seating, seat: int) -> None:
        """The host frees another person's seat before the start: its token is refused from
        now on, and its connections are told (``removed``)."""
        room = self._mine(seating)
        if seating.seat != room.host:
            raise Refused("only the host removes someone from a seat", "not_host")
        if room.started:
            raise Refused("the game has started", "started")
        if not 0 <= seat < room.players:
            raise Refused(f"no seat {seat} at this {room.players}-seat table")
        if seat == seating.seat:
            raise Refused("that is your own seat: leave the table instead")
        hashed = room.seats[seat].token_hash
        if room.seats[seat].kind != "person" or hashed is None:
            raise Refused(f"nobody sits at seat {seat}", "open_seat")
        self._places.pop(hashed, None)
        room.seats[seat] = Seat("Open seat", "open")
        keep_seats(self.store, room)
        for link in [link for link in room.links if link.seat == seat]:
            self._evict(room, link, "removed", "the host gave your seat back to the table")
        room.tell_followers()

    def _evict(self, room: Room, link: Link, code: str, reason: str) -> None:
        """Takes ``link``'s seat from it, and tells it why."""
        self._unlink(room, lambda other: other is link)
        link.send(error(code, reason))
        if link.evicted is not None:
            link.evicted(code)

    def begin(self, seating: Seating) -> Table:
        """The host starts the game: every free seat gets a computer player."""
        room = self._mine(seating)
        if seating.seat != room.host:
            raise Refused("only the host starts the game", "not_host")
        if room.started:
            raise Refused("the game has started", "started")
        free, before = room.free(), list(room.seats)
        for s in free:
            room.seats[s] = Seat(f"Computer {s}", "computer")
        try:
            keep_seats(self.store, room)
            self.store.set_phase(room.id, Phase.PLAYING.value)
        except Exception:
            room.seats[:] = before  # not stored: the room is as it was, and begin may be retried
            raise
        table = self._start(room, {s: self._computer(room, s, None) for s in free})
        for link in room.links:
            if link.play:
                link.unwatch = table.watch(link.seat, link.send)
        presence = self._presence[room.id]
        for s in room.people():
            if not room.present(s):
                presence.gone(s)
        room.tell_followers()
        room.tell_seats()
        return table

    def rematch(self, seating: Seating) -> Seating:
        """At a finished table with friends: the table that plays it again, with the same
        seats, people and tokens, waiting for the host to start it (made by whoever asks
        first; later askers join it)."""
        room = seating.room
        if room.rematch is not None and room.rematch in self._rooms and self._places.get(
                token_hash(seating.token)) == (room.rematch, seating.seat):
            return Seating(self._rooms[room.rematch], seating.seat, seating.token)
        room = self._mine(seating)
        if not room.friends:
            raise Refused("a rematch is for tables with friends: start a new game",
                          "no_rematch")
        if room.phase is not Phase.FINISHED:
            raise Refused("the game is not over yet", "not_over")
        if room.rematch is None:
            game = self._new_game(room.spec, room.players, room.options, None, room.owner)
            seats = [Seat(seat.name, seat.kind, seat.token_hash) if seat.kind == "person"
                     else Seat("Open seat", "open") for seat in room.seats]
            again = Room(secrets.token_urlsafe(6), game, room.level, seats, friends=True,
                         owner=room.owner)
            again.host = room.host if seats[room.host].kind == "person" else again.people()[0]
            keep_new(self.store, again)
            self._add(again)
            for s in again.people():
                hashed = again.seats[s].token_hash
                assert hashed is not None
                self._places[hashed] = (again.id, s)
            room.rematch = again.id
            self.store.set_rematch(room.id, again.id)
            offer = {"type": "rematch", "table": again.id}
            for link in list(room.links):
                link.send(offer)
            room.tell_followers()
        return Seating(self._rooms[room.rematch], seating.seat, seating.token)

    def _mine(self, seating: Seating) -> Room:
        room = seating.room
        place = self._places.get(token_hash(seating.token))
        if room.closed or place != (room.id, seating.seat):
            raise Refused("unknown or expired seat token", "bad_token")
        return room

    # -- who is there -------------------------------------------------------------------------

    def seats_here(self, token: str) -> bool:
        """Whether ``token`` names a seat of a table in memory here (no store is asked)."""
        return token_hash(token) in self._places

    def find(self, token: str) -> Seating | None:
        """The seat that ``token`` names, its room brought back from the store if it was put
        away (or the server restarted); ``None`` if it names none."""
        hashed = token_hash(token)
        place = self._places.get(hashed)
        if place is None:
            found = self.store.find_token(hashed)
            if found is None or self._bring_back(found[0]) is None:
                return None
            place = self._places.get(hashed)
            if place is None:
                return None
        room = self._rooms.get(place[0])
        return None if room is None else Seating(room, place[1], token)

    def room_for_watcher(self, table_id: str) -> Room:
        """The table ``table_id`` names, if it can take one more connection that holds no
        seat (a spectator, a waiting-room visitor): those have their own cap, so they never
        crowd out the seats."""
        room = self.room(table_id)
        if room.watchers() >= self.max_links:
            raise Refused("this table has as many spectators and visitors as it can take",
                          "full")
        return room

    def _link(self, room: Room, link: Link) -> None:
        room.links.append(link)
        if link.play and room.table is not None:
            link.unwatch = room.table.watch(link.seat, link.send)

    def attach(self, token: str, send: Send, *, play: bool = True, welcome: bool = False,
               evicted: Callable[[str], None] | None = None) -> Seating:
        """Joins the seat that ``token`` names. ``play``: a game page, sent the current
        state at once (or at the start) and every change; else a waiting room holding the
        seat. A computer playing the seat meanwhile stops. ``welcome``: send the ``welcome``
        message first (once the seat is surely had). One game page and one waiting room
        per seat: an older connection of the same kind at the seat (another device or tab)
        is told ``elsewhere`` and ``evicted`` from it."""
        seating = self.find(token)
        if seating is None:
            raise Refused("unknown or expired seat token", "bad_token")
        room = seating.room
        self._presence[room.id].back(seating.seat)
        for link in [link for link in room.links
                     if link.seat == seating.seat and link.play == play and link.send != send]:
            self._evict(room, link, "elsewhere",
                        "your seat was taken up on another device or tab")
        table = room.table
        if table is not None and room.friends and seating.seat in table.computers:
            table.seat_person(seating.seat)
            room.tell_seats()
        if welcome:
            send(seating.welcome())
        self._link(room, Link(seating.seat, send, play, evicted=evicted))
        return seating

    def detach(self, seating: Seating, send: Send) -> None:
        """A connection left its seat (see :mod:`parlour.live.presence` for what follows)."""
        room = seating.room
        self._unlink(room, lambda link: link.seat == seating.seat and link.send == send)
        if not room.closed and not room.present(seating.seat):
            self._presence[room.id].gone(seating.seat)

    def _unlink(self, room: Room, which: Callable[[Link], bool]) -> None:
        for link in [link for link in room.links if which(link)]:
            if link.unwatch is not None:
                link.unwatch()
            room.links.remove(link)

    def _take_over(self, room: Room, seat: int) -> None:
        table = room.table
        if (room.closed or table is None or room.present(seat) or table.over
                or seat in table.computers):
            return
        table.seat_computer(seat, self._computer(room, seat, None))
        room.tell_seats()

    def react(self, seating: Seating, reaction: str) -> None:
        """A quick reaction (a checked code) from ``seating``'s seat at a table with friends,
        to every game page and spectator there; one a seat every :data:`REACT_EVERY`
        seconds."""
        room = seating.room
        if not room.friends:
            raise Refused("reactions are for tables with friends", "no_reactions")
        now = time.monotonic()
        reacted = self._reacted.setdefault(room.id, {})
        if now - reacted.get(seating.seat, -REACT_EVERY) < REACT_EVERY:
            raise Refused(f"one reaction every {REACT_EVERY:g} seconds", "slow_down")
        reacted[seating.seat] = now
        message: Reaction = {"type": "reaction", "seat": seating.seat, "reaction": reaction}
        for link in list(room.links):
            if link.play:
                link.send(message)

    def leave(self, token: str) -> None:
        """The person is done with the seat. Against the computer the table closes now; with
        friends, before the start the seat is free again (the host's role passes on), after
        it a computer plays the seat at once; a table nobody is left at closes now."""
        place = self._places.get(token_hash(token))
        room = self._rooms.get(place[0]) if place is not None else None
        if place is None or room is None:
            return
        seat = place[1]
        self._unlink(room, lambda link: link.seat == seat)
        if not room.friends:
            self._close(room, left=True)
            return
        if not room.started:
            self._places.pop(token_hash(token), None)
            room.seats[seat] = Seat("Open seat", "open")
            people = room.people()
            if not people:
                self._close(room, left=True)
                return
            if room.host == seat:
                room.host = people[0]
            keep_seats(self.store, room)
            room.tell_followers()
            return
        room.seats[seat].left = True
        keep_seats(self.store, room)
        presence = self._presence[room.id]
        presence.gone(seat)
        presence.now(seat)

    # -- spectators and waiting rooms -----------------------------------------------------------

    def watch(self, table_id: str, send: Send) -> Room:
        """A spectator: ``welcome`` (seat ``None``), then the public view now (or at the
        start) and every change."""
        room = self.room_for_watcher(table_id)
        send(room.welcome(None, None))
        self._link(room, Link(None, send, True))
        return room

    def unwatch(self, room: Room, send: Send) -> None:
        self._unlink(room, lambda link: link.seat is None and link.send == send)
        self._put_away_if_empty(room)

    def follow(self, table_id: str, send: Send) -> Room:
        """A waiting room page: ``lobby`` messages now and on every change of the seats."""
        room = self.room(table_id)
        if send not in room.followers:
            if not any(link.send == send and link.seat is not None for link in room.links):
                self.room_for_watcher(table_id)  # a visitor; a seat's waiting room always fits
            room.followers.append(send)
        send(room.summary())
        return room

    def unfollow(self, room: Room, send: Send) -> None:
        if send in room.followers:
            room.followers.remove(send)
        self._put_away_if_empty(room)

    def open_tables(self) -> list[dict[str, Any]]:
        """Tables with friends that have not started and have a free seat, oldest first: at
        most ``listed_per_address`` of one client address's and ``listed`` in all. The only
        text a person typed that it shows is the host's name (``people`` holds it alone)."""
        rooms = sorted((r for r in self._rooms.values()
                        if r.friends and r.phase is Phase.WAITING and r.free()),
                       key=lambda r: r.created)
        entries = [{"table": r.id, "game": r.spec.name, "players": r.players,
                    "free": len(r.free()), "level": r.level, "host": r.seats[r.host].name,
                    "people": [r.seats[r.host].name]} for r in rooms]
        return listed(entries, [r.owner or "" for r in rooms],
                      per_address=self.listed_per_address, limit=self.listed)

    def site_tables(self) -> list[dict[str, Any]]:
        """The open tables of every node sharing this lobby's store (several nodes), in the
        form of :meth:`open_tables`."""
        return [{"table": t.id, "game": t.game, "players": t.players, "free": t.free,
                 "level": t.level, "host": t.host, "people": [t.host]}
                for t in self.store.waiting_tables(limit=self.listed)]

    # -- the store: putting away, bringing back ------------------------------------------------

    def _bring_back(self, table_id: str) -> Room | None:
        """The stored table ``table_id`` in memory again (its game replayed from its record,
        its computers playing on, its presence timers running); ``None`` if it is not
        there, no longer waits for anybody, or cannot be played on (then it is closed with
        the reason)."""
        stored = self.store.table(table_id)
        if stored is None or stored.phase not in ("waiting", "playing", "finished"):
            return None
        if stored.phase != "finished" and stored.touched < time.time() - self.keep:
            self.store.set_phase(table_id, "left", reason="nobody came back to it")
            return None
        if len(self._rooms) >= self.max_tables:
            raise Refused("the server is full; try again in a minute", "full")
        try:
            game = rebuild(stored)
        except Unresumable as exc:
            log.warning("table %s cannot be resumed: %s", table_id, exc)
            self.store.set_phase(table_id, "closed", reason=str(exc))
            return None
        room = _room_from(stored, game)
        self._add(room)
        for s, seat in enumerate(room.seats):
            if seat.token_hash is not None and seat.kind == "person":
                self._places[seat.token_hash] = (room.id, s)
        if room.started:
            self._start(room, {s: self._computer(room, s, None)
                               for s, seat in enumerate(room.seats) if seat.kind == "computer"})
        # nobody is here yet, whatever the phase: the take-over and grace timers run until
        # they come back, so a room brought back for nothing is put away again
        presence = self._presence[room.id]
        for s in room.people():
            presence.gone(s)
        return room

    def resume_all(self) -> tuple[int, int]:
        """At start-up: checks that every unfinished stored table can be played on (its game
        replays), closing with the reason those that cannot, and lets go of those nobody
        came back to for ``keep`` seconds. Tables stay in the store until a person (a
        token) or a spectator comes for them. Returns (resumable, closed)."""
        self.store.expire(time.time() - self.keep)
        resumable = closed = 0
        for table_id in self.store.unfinished():
            stored = self.store.table(table_id)
            if stored is None:
                continue
            try:
                rebuild(stored)
                resumable += 1
            except Unresumable as exc:
                log.warning("table %s cannot be resumed: %s", table_id, exc)
                self.store.set_phase(table_id, "closed", reason=str(exc))
                closed += 1
        return resumable, closed

    def _put_away_if_empty(self, room: Room) -> None:
        if not room.closed and not room.links and not room.followers and (
                room.phase is Phase.FINISHED or not room.people()):
            self._put_away(room)

    def _put_away(self, room: Room) -> None:
        """Nobody is at ``room``: out of memory, kept in the store as it is (unless every
        person said they were leaving: then it is left for good)."""
        people = room.people()
        left = bool(people) and all(room.seats[s].left for s in people)
        if not left:
            self.store.touch(room.id)  # the keep period runs from now
        self._close(room, left=left)

    def _unkept(self, room: Room) -> None:
        """An action of ``room`` could not be stored: its people are told and it leaves
        memory, to come back from the store as it was before that action."""
        for link in list(room.links):
            link.send(error("unavailable", "the game could not be saved just now: "
                                           "reconnecting"))
        self._close(room, left=False)

    def forget(self) -> None:
        """Lets go of every room (server shutdown): they stay in the store as they are."""
        for room in list(self._rooms.values()):
            self._close(room, left=False)

    # -- closing ----------------------------------------------------------------------------

    def _close(self, room: Room, *, left: bool) -> None:
        """Takes ``room`` out of memory; ``left``: its people are done with it (an unfinished
        game is abandoned and its tokens stop working)."""
        if room.closed:
            return
        if left and not room.game.outcome:
            self.store.set_phase(room.id, "left")
        room.phase = Phase.CLOSED
        if room.table is not None:
            room.table.close()
        self._reacted.pop(room.id, None)
        presence = self._presence.pop(room.id, None)
        if presence is not None:
            presence.cancel()
        for seat in room.seats:
            if seat.token_hash is not None and self._places.get(seat.token_hash, ("",))[0] \
                    == room.id:
                del self._places[seat.token_hash]
        self._rooms.pop(room.id, None)
        if self.on_room is not None:
            self.on_room(room.id, False)
        self.caps.remove(room.id)
        self.budgets.forget(room.id, room.owner)
        room.tell_followers()
        room.followers.clear()
        room.links.clear()

    def close(self) -> None:
        """Closes every table (server shutdown): they stay in the store as they are, to be
        resumed by the next server on the same database."""
        self.forget()


def _room_from(stored: StoredTable, game: Game) -> Room:
    seats = [Seat(s.name, s.kind, s.token_hash, s.left) for s in stored.seats]  # type: ignore[arg-type]
    room = Room(stored.id, game, stored.level, seats, friends=stored.friends,
                seeded=stored.seeded)
    room.host = stored.host
    room.created = stored.created
    room.rematch = stored.rematch
    room.phase = {"waiting": Phase.WAITING, "playing": Phase.PLAYING,
                  "finished": Phase.FINISHED}[stored.phase]
    outcomes = game.chance.outcomes()
    room.kept_decks = len(outcomes["decks"])
    room.kept_shuffles = len(outcomes["shuffles"])
    return room


def _derived(seed: int | None, seat: int) -> int | None:
    """A seeded game's computer players are seeded too (the same game again); else they
    draw from the operating system."""
    return None if seed is None else random.Random(f"{seed}:{seat}").getrandbits(63)
