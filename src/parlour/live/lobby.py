"""The lobby: opens live tables, seats people with secret tokens, and lets them come back.

Two kinds of table, one set of rules for who is there:

- A table against the computer (:meth:`Lobby.open`): one person at seat 0, computer players
  at the others, dealt at once.
- A table with friends (:meth:`Lobby.create`): the creator takes seat 0 and is the host;
  others take free seats by the table's link (:meth:`Lobby.sit`); the host sets the computer
  speed and starts (:meth:`Lobby.begin`), and every seat still free gets a computer player.
  Anyone may watch (:meth:`Lobby.watch`): a spectator is told the public view only.

A seat token is the seat: whoever presents it (a reload, a flaky phone network, the game
page after the waiting room) is back at the seat, with the game as it is now. The lobby is
a registry: it admits new tables (the caps of :mod:`parlour.live.caps`), makes their rooms,
keeps the one token index (:class:`~parlour.live.seats.Places`) and finds rooms by id or
token, in memory or in the store. Everything that happens at one table is its
:class:`~parlour.live.room.Room`'s.

Nothing is lost (the store, :mod:`parlour.store`, through :mod:`parlour.live.journal`):
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

import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from parlour.bots import AnyPlayer, make_player
from parlour.bots.scheduler import Clock
from parlour.engine import Game, GameError, GameSpec, Pacing
from parlour.engine.seeds import derived_seed
from parlour.games import game_class
from parlour.live.caps import Budgets, TableCaps, Turns
from parlour.live.journal import Unresumable, rebuild
from parlour.live.listing import open_tables, site_tables
from parlour.live.protocol import Create, Refused, Start
from parlour.live.room import Hosting, Phase, Room, Seat, Seating
from parlour.live.seats import Places, Send
from parlour.live.table import AsyncioClock
from parlour.store import Store, StoredTable, open_store, token_hash

log = logging.getLogger(__name__)

#: How long an unfinished table waits for its people, in seconds after its last change.
KEEP = 7 * 24 * 3600.0

Decks = Callable[[str, int], Sequence[Sequence[str]]]
MakePlayer = Callable[..., AnyPlayer]

__all__ = ["Lobby", "Refused", "Room", "Seating"]


class Lobby:
    """Every open table of one server: the registry of its rooms."""

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
        clock: Clock | None = None,
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
        table waits for its people; ``clock``: the rooms' presence timers, reactions and
        computer moves (asyncio's by default; a virtual clock in tests)."""
        self.max_tables = max_tables
        self.max_links = max_links
        self.caps = TableCaps(total=max_tables, per_address=tables_per_address)
        self.listed_per_address = listed_per_address
        self.listed = listed
        self.budgets = budgets if budgets is not None else Budgets()
        self.turns = Turns(clock)
        self._players = players
        self._decks = decks
        self.store = store if store is not None else open_store(":memory:")
        self.keep = keep
        self.places = Places()
        self._rooms: dict[str, Room] = {}
        self.hosting = Hosting(
            store=self.store, clock=clock or AsyncioClock(), places=self.places,
            computer=self._computer, table_clock=lambda room: self.turns.clock(room.owner),
            gone=self._gone, pacing=dict(pacing or {}), on_lag=on_lag, takeover=takeover,
            grace=grace)
        self.on_room: Callable[[str, bool], None] | None = None
        """Told of every table this lobby takes into memory (``True``) or lets go of: the
        node's leases follow (:mod:`parlour.web.relay`)."""

    def __len__(self) -> int:
        return len(self._rooms)

    def table_ids(self) -> list[str]:
        """The tables in memory now."""
        return list(self._rooms)

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

    def _new_room(self, game: Game, level: str, seats: list[Seat], *, friends: bool,
                  owner: str | None, seeded: bool = False,
                  phase: Phase = Phase.WAITING) -> Room:
        return Room(secrets.token_urlsafe(6), game, level, seats, friends=friends,
                    hosting=self.hosting, seeded=seeded, owner=owner, phase=phase)

    def _add(self, room: Room) -> None:
        self._rooms[room.id] = room
        if self.on_room is not None:
            self.on_room(room.id, True)
        self.caps.add(room.owner or "", room.id)

    def _gone(self, room: Room) -> None:
        """``room`` has left memory (:meth:`Room.close`)."""
        self._rooms.pop(room.id, None)
        if self.on_room is not None:
            self.on_room(room.id, False)
        self.caps.remove(room.id)
        self.budgets.forget(room.id, room.owner)

    def _computer(self, room: Room, seat: int, seed: int | None) -> AnyPlayer:
        player = self._players(room.spec.name, room.level, seat, seed=seed)
        return self.budgets.player(player, room.id, room.owner)

    def open(self, command: Start, owner: str | None = None) -> Seating:
        """Opens a table against the computer: a person at seat 0, computer players at the
        others, dealt at once. A ``seed`` deals a chosen game (and seeds the computers):
        "play this deal again"; without one, nothing at the table is predictable. ``owner``:
        the client address opening it (its caps count it)."""
        game = self._new_game(command.spec, command.players, command.options, command.seed,
                              owner)
        seats = [Seat("You", "person")] + [Seat(f"Computer {s}", "computer")
                                           for s in range(1, command.players)]
        room = self._new_room(game, command.level, seats, friends=False, owner=owner,
                              seeded=command.seed is not None, phase=Phase.PLAYING)
        seating = room.give_seat(0)
        room.opened()
        self._add(room)
        room.start({s: self._computer(room, s, _derived(command.seed, s))
                    for s in range(1, command.players)})
        return seating

    def create(self, command: Create, owner: str | None = None) -> Seating:
        """Creates a table with friends: its creator at seat 0 as the host, the other seats
        free until the host starts. The game (options included) is dealt now, at random."""
        game = self._new_game(command.spec, command.players, command.options, None, owner)
        seats = [Seat(command.name, "person")] + [Seat("Open seat", "open")
                                                  for _ in range(1, command.players)]
        room = self._new_room(game, command.level, seats, friends=True, owner=owner)
        seating = room.give_seat(0)
        room.opened()
        self._add(room)
        return seating

    def rematch(self, seating: Seating) -> Seating:
        """At a finished table with friends: the table that plays it again, with the same
        seats, people and tokens, waiting for the host to start it (made by whoever asks
        first; later askers join it)."""
        room = seating.room
        if room.rematch is not None and room.rematch in self._rooms and self.places.get(
                token_hash(seating.token)) == (room.rematch, seating.seat):
            return Seating(self._rooms[room.rematch], seating.seat, seating.token)
        room.mine(seating)
        if not room.friends:
            raise Refused("a rematch is for tables with friends: start a new game",
                          "no_rematch")
        if room.phase is not Phase.FINISHED:
            raise Refused("the game is not over yet", "not_over")
        again = room.rematch
        if again is None:
            game = self._new_game(room.spec, room.players, room.options, None, room.owner)
            seats = [Seat(seat.name, seat.kind, seat.token_hash) if seat.kind == "person"
                     else Seat("Open seat", "open") for seat in room.seats]
            fresh = self._new_room(game, room.level, seats, friends=True, owner=room.owner)
            fresh.host = room.host if seats[room.host].kind == "person" else fresh.people()[0]
            fresh.opened()
            self._add(fresh)
            fresh.index_seats()
            room.offer_rematch(fresh.id)
            again = fresh.id
        return Seating(self._rooms[again], seating.seat, seating.token)

    # -- finding rooms and seats -----------------------------------------------------------

    def room(self, table_id: str) -> Room:
        """The table ``table_id`` names, brought back from the store if it was put away."""
        room = self._rooms.get(table_id)
        if room is None:
            room = self._bring_back(table_id)
        if room is None:
            raise Refused("no such table (it may have closed)", "unknown_table")
        return room

    def room_for_watcher(self, table_id: str) -> Room:
        """The table ``table_id`` names, if it can take one more connection that holds no
        seat (a spectator, a waiting-room visitor): those have their own cap, so they never
        crowd out the seats."""
        room = self.room(table_id)
        if room.watchers() >= self.max_links:
            raise Refused("this table has as many spectators and visitors as it can take",
                          "full")
        return room

    def seats_here(self, token: str) -> bool:
        """Whether ``token`` names a seat of a table in memory here (no store is asked)."""
        return token_hash(token) in self.places

    def find(self, token: str) -> Seating | None:
        """The seat that ``token`` names, its room brought back from the store if it was put
        away (or the server restarted); ``None`` if it names none."""
        hashed = token_hash(token)
        place = self.places.get(hashed)
        if place is None:
            found = self.store.find_token(hashed)
            if found is None or self._bring_back(found[0]) is None:
                return None
            place = self.places.get(hashed)
            if place is None:
                return None
        room = self._rooms.get(place[0])
        return None if room is None else Seating(room, place[1], token)

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
        seating.room.attach(seating, send, play=play, welcome=welcome, evicted=evicted)
        return seating

    def leave(self, token: str) -> None:
        """The person is done with the seat ``token`` names (:meth:`Room.leave`)."""
        place = self.places.get(token_hash(token))
        room = self._rooms.get(place[0]) if place is not None else None
        if place is not None and room is not None:
            room.leave(place[1])

    def watch(self, table_id: str, send: Send) -> Room:
        """A spectator at ``table_id`` (:meth:`Room.watch`), within the watchers' cap."""
        room = self.room_for_watcher(table_id)
        room.watch(send)
        return room

    def follow(self, table_id: str, send: Send) -> Room:
        """A waiting room page at ``table_id`` (:meth:`Room.follow`); a visitor holding no
        seat there counts against the watchers' cap (a seat's waiting room always fits)."""
        room = self.room(table_id)
        if not room.connections.holds(send):
            self.room_for_watcher(table_id)
        room.follow(send)
        return room

    # -- lists ------------------------------------------------------------------------------

    def open_tables(self) -> list[dict[str, Any]]:
        """This server's tables with friends waiting for people (:func:`open_tables`)."""
        return open_tables(self._rooms.values(), per_address=self.listed_per_address,
                           limit=self.listed)

    def site_tables(self) -> list[dict[str, Any]]:
        """The open tables of every node sharing this lobby's store (several nodes), in the
        form of :meth:`open_tables`."""
        return site_tables(self.store, limit=self.listed)

    # -- the store: bringing back, letting go ------------------------------------------------

    def _bring_back(self, table_id: str) -> Room | None:
        """The stored table ``table_id`` in memory again (its game replayed from its record,
        its computers playing on, its presence timers running); ``None`` if it is not
        there, no longer waits for anybody, or cannot be played on (then it is closed with
        the reason)."""
        stored = self.store.table(table_id)
        if stored is None or not stored.phase.resumable:
            return None
        if stored.phase is not Phase.FINISHED and stored.touched < time.time() - self.keep:
            self.store.set_phase(table_id, Phase.LEFT, reason="nobody came back to it")
            return None
        if len(self._rooms) >= self.max_tables:
            raise Refused("the server is full; try again in a minute", "full")
        game = self._rebuilt(stored)
        if game is None:
            return None
        room = self._room_from(stored, game)
        self._add(room)
        room.index_seats()
        if room.started:
            room.start({s: self._computer(room, s, None)
                        for s, seat in enumerate(room.seats) if seat.kind == "computer"})
        # nobody is here yet, whatever the phase: the take-over and grace timers run until
        # they come back, so a room brought back for nothing is put away again
        for s in room.people():
            room.gone(s)
        return room

    def _rebuilt(self, stored: StoredTable) -> Game | None:
        """The game of ``stored`` played to its last move; ``None`` if it cannot be (it is
        closed with the reason)."""
        try:
            return rebuild(stored)
        except Unresumable as exc:
            log.warning("table %s cannot be resumed: %s", stored.id, exc)
            self.store.set_phase(stored.id, Phase.CLOSED, reason=str(exc))
            return None

    def _room_from(self, stored: StoredTable, game: Game) -> Room:
        seats = [Seat(s.name, s.kind, s.token_hash, s.left)  # type: ignore[arg-type]
                 for s in stored.seats]
        room = Room(stored.id, game, stored.level, seats, friends=stored.friends,
                    hosting=self.hosting, seeded=stored.seeded, phase=stored.phase,
                    created=stored.created)
        room.host = stored.host
        room.rematch = stored.rematch
        return room

    def resume_all(self) -> tuple[int, int]:
        """At start-up: checks that every unfinished stored table can be played on (its game
        replays), closing with the reason those that cannot, and lets go of those nobody
        came back to for ``keep`` seconds. Tables stay in the store until a person (a
        token) or a spectator comes for them. Returns (resumable, closed)."""
        self.store.expire(time.time() - self.keep)
        tables = [t for t in map(self.store.table, self.store.unfinished()) if t is not None]
        resumable = sum(self._rebuilt(stored) is not None for stored in tables)
        return resumable, len(tables) - resumable

    def let_go(self, table_id: str) -> None:
        """Another node owns ``table_id``: out of memory here, as it is in the store."""
        room = self._rooms.get(table_id)
        if room is not None:
            room.close(left=False)

    def close(self) -> None:
        """Lets go of every room (server shutdown): they stay in the store as they are, to
        be resumed by the next server on the same database."""
        for room in list(self._rooms.values()):
            room.close(left=False)


def _derived(seed: int | None, seat: int) -> int | None:
    """A seeded game's computer players are seeded too (the same game again); else they
    draw from the operating system."""
    return None if seed is None else derived_seed(seed, seat)
