"""The lobby: opens live tables, seats people with secret tokens, and lets them come back.

Two kinds of table, one set of rules for who is there:

- A table against the computer (:meth:`Lobby.open`): one person at seat 0, computer players
  at the others, dealt at once.
- A table with friends (:meth:`Lobby.create`): the creator takes seat 0 and is the host;
  others take free seats by the table's link (:meth:`Lobby.sit`); the host sets the computer
  speed and starts (:meth:`Lobby.begin`), and every seat still free gets a computer player.
  Anyone may watch (:meth:`Lobby.watch`): a spectator is told the public view only.

A seat token is the seat: whoever presents it (a reload, a flaky phone network, the game
page after the waiting room) is back at the seat, with the game as it is now. At a table
with friends, a seat whose person has gone (left, or dropped for ``takeover`` seconds) is
played by a computer player at the table's speed until the person comes back with the
token; then the computer stops. A table where no person seat has anybody is closed: at
once if they all left, after ``grace`` seconds if someone only dropped.

Everything here runs on the event loop's thread; nothing a caller passes can raise anything
but :class:`LobbyError`.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.bots import LEVELS, ComputerPlayer, make_player
from parlour.engine import Game, GameError
from parlour.games import game_class
from parlour.live.pacing import PACING, Pacing
from parlour.live.table import Send, Table

Decks = Callable[[str, int], Sequence[Sequence[str]]]
MakePlayer = Callable[..., ComputerPlayer]

#: Longest name a person may give, in characters.
NAME_MAX = 24


class LobbyError(ValueError):
    """A table cannot be opened, joined or changed; the message says why. ``code`` is the
    protocol's error code for it."""

    def __init__(self, reason: str, code: str = "bad_request") -> None:
        super().__init__(reason)
        self.code = code


@dataclass
class Seat:
    """Who sits at one seat: ``kind`` is ``person``, ``computer`` or ``open`` (not yet
    taken, before the start)."""

    name: str
    kind: str
    token: str | None = None
    left: bool = False
    """The person said they are leaving (rather than dropping)."""


@dataclass(eq=False)
class Link:
    """One connection at a room: its seat (``None``: a spectator), and whether it gets the
    game's messages (a game page) or only holds the seat (the waiting room)."""

    seat: int | None
    send: Send
    play: bool
    unwatch: Callable[[], None] | None = None


class Room:
    """One table of the lobby: its seats, who is connected, and (once started) the live
    :class:`~parlour.live.Table`."""

    def __init__(self, ident: str, game: Game, name: str, level: str, options: object,
                 seats: list[Seat], *, seed: int, friends: bool) -> None:
        self.id = ident
        self.seed = seed
        self.state = game
        self.game = name
        self.level = level
        self.options = options
        self.seats = seats
        self.friends = friends
        self.host = 0
        self.table: Table | None = None
        self.closed = False
        self.created = time.time()
        self.links: list[Link] = []
        self.followers: list[Send] = []
        self.takers: dict[int, asyncio.TimerHandle] = {}
        self.expiry: asyncio.TimerHandle | None = None

    @property
    def started(self) -> bool:
        return self.table is not None

    @property
    def players(self) -> int:
        return len(self.seats)

    def free(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if seat.kind == "open"]

    def present(self, seat: int) -> bool:
        return any(link.seat == seat for link in self.links)

    def seat_list(self) -> list[dict[str, Any]]:
        """The seats as every message gives them: names and kinds, never a token."""
        table = self.table
        result = []
        for s, seat in enumerate(self.seats):
            entry: dict[str, Any] = {"name": seat.name, "kind": seat.kind}
            if seat.kind == "computer":
                entry["level"] = self.level
            elif seat.kind == "person" and table is not None and s in table.computers:
                entry["away"] = True  # a computer plays it until the person is back
                entry["level"] = self.level
            result.append(entry)
        return result

    def describe(self, seat: int | None, token: str | None) -> dict[str, Any]:
        """The ``welcome`` message's fields for ``seat`` (no game state)."""
        return {"table": self.id, "game": self.game, "seat": seat, "token": token,
                "level": self.level, "players": self.players, "seats": self.seat_list(),
                "started": self.started, "friends": self.friends,
                "host": seat is not None and seat == self.host}

    def summary(self) -> dict[str, Any]:
        """The ``lobby`` message: the waiting room as everybody sees it."""
        return {"type": "lobby", "table": self.id, "game": self.game,
                "players": self.players, "level": self.level, "options": self.options,
                "seats": self.seat_list(), "host": self.host, "started": self.started,
                "closed": self.closed, "free": len(self.free())}


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
        return self.room.game

    @property
    def level(self) -> str:
        return self.room.level

    @property
    def table(self) -> Table:
        """The live table; :class:`LobbyError` before the host starts it."""
        if self.room.table is None:
            raise LobbyError("the table has not started yet", "not_started")
        return self.room.table

    def describe(self) -> dict[str, Any]:
        """The seating as the ``welcome`` message gives it (no game state)."""
        return self.room.describe(self.seat, self.token)


def _check_name(name: object) -> str:
    if not isinstance(name, str):
        raise LobbyError(f"'name' must be a string, not {name!r}")
    # No control or format characters (no invisible names, no line breaks).
    cleaned = "".join(c for c in name if unicodedata.category(c)[0] != "C")
    cleaned = " ".join(cleaned.split())
    if not cleaned:
        raise LobbyError("type a name to take a seat")
    if len(cleaned) > NAME_MAX:
        raise LobbyError(f"a name may be at most {NAME_MAX} characters")
    return cleaned


class Lobby:
    """Every open table of one server."""

    def __init__(
        self,
        *,
        grace: float = 30.0,
        takeover: float = 3.0,
        max_tables: int = 1000,
        max_links: int = 200,
        pacing: Mapping[str, Pacing] = PACING,
        players: MakePlayer = make_player,
        decks: Decks | None = None,
        on_lag: Callable[[float], None] | None = None,
    ) -> None:
        """``players`` builds computer players (``make_player``'s signature); ``decks``, for
        tests, gives the stacked decks of each new game; ``on_lag`` receives how late each
        computer move ran, in seconds. ``takeover``: how long a dropped person's seat waits
        before a computer plays it (a reload should not hand a move to the computer);
        ``max_links``: connections per table (people's pages, waiting rooms, spectators)."""
        self.grace = grace
        self.takeover = takeover
        self.max_tables = max_tables
        self.max_links = max_links
        self.pacing = pacing
        self._players = players
        self._decks = decks
        self._on_lag = on_lag
        self._rooms: dict[str, Room] = {}
        self._seatings: dict[str, Seating] = {}

    @property
    def games(self) -> tuple[str, ...]:
        """The games that can be played live."""
        return tuple(self.pacing)

    def __len__(self) -> int:
        return len(self._rooms)

    # -- opening ---------------------------------------------------------------------------

    def _new_game(self, game: object, players: object, level: object, seed: object,
                  options: object) -> tuple[Game, str, int, str, int]:
        pacing = self.pacing.get(game) if isinstance(game, str) else None
        if pacing is None or not isinstance(game, str):
            raise LobbyError(f"{game!r} cannot be played here (try: {', '.join(self.pacing)})")
        low, high = pacing.seats
        if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
            raise LobbyError(f"{game} is played here by {low} to {high} players, not {players!r}")
        if not isinstance(level, str) or level not in LEVELS:
            raise LobbyError(f"unknown level {level!r} (expected one of: {', '.join(LEVELS)})")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise LobbyError(f"'seed' must be an integer, not {seed!r}")
        if len(self._rooms) >= self.max_tables:
            raise LobbyError("the server is full; try again in a minute", "full")
        if options is not None and not isinstance(options, dict):
            raise LobbyError(f"'options' must be an object, not {options!r}")
        if seed is None:
            seed = secrets.randbelow(2**31)
        decks = self._decks(game, players) if self._decks is not None else ()
        try:
            state = game_class(game)(players, seed=seed, decks=decks, options=options)
        except GameError as exc:
            raise LobbyError(str(exc)) from None
        return state, game, players, level, seed

    def _computer(self, room: Room, seat: int, seed: int) -> ComputerPlayer:
        return self._players(room.game, room.level, seat, seed=seed)

    def _start(self, room: Room, computers: Mapping[int, ComputerPlayer]) -> Table:
        table = Table(room.state, computers, self.pacing[room.game], level=room.level,
                      on_lag=self._on_lag)
        room.table = table
        table.start()
        return table

    def _seat(self, room: Room, seat: int) -> Seating:
        seating = Seating(room, seat, secrets.token_urlsafe(18))
        room.seats[seat].token = seating.token
        self._seatings[seating.token] = seating
        return seating

    def open(self, game: str, players: int, level: str, *, seed: int | None = None,
             options: object = None) -> Seating:
        """Opens a table against the computer: a person at seat 0, computer players of
        ``level`` at the others, dealt at once.

        ``options`` are the game's options (``shared/spec/records.md``), checked by the game.
        """
        state, game, players, level, seed = self._new_game(game, players, level, seed, options)
        seats = [Seat("You", "person")] + [Seat(f"Computer {s}", "computer")
                                           for s in range(1, players)]
        room = Room(secrets.token_urlsafe(6), state, game, level, options, seats,
                    seed=seed, friends=False)
        self._rooms[room.id] = room
        seating = self._seat(room, 0)
        rng = random.Random(seed)
        self._start(room, {s: self._computer(room, s, rng.randrange(2**31))
                           for s in range(1, players)})
        return seating

    def create(self, game: object, players: object, level: object, *, name: object,
               seed: object = None, options: object = None) -> Seating:
        """Creates a table with friends: its creator at seat 0 as the host, the other seats
        free until the host starts. The game (options included) is checked now."""
        who = _check_name(name)
        state, game, players, level, seed = self._new_game(game, players, level, seed,
                                                           options)
        seats = [Seat(who, "person")] + [Seat("Open seat", "open") for _ in range(1, players)]
        room = Room(secrets.token_urlsafe(6), state, game, level, options, seats,
                    seed=seed, friends=True)
        self._rooms[room.id] = room
        return self._seat(room, 0)

    def room(self, table_id: object) -> Room:
        """The open table ``table_id`` names."""
        room = self._rooms.get(table_id) if isinstance(table_id, str) else None
        if room is None:
            raise LobbyError("no such table (it may have closed)", "unknown_table")
        return room

    def sit(self, table_id: object, name: object, seat: object = None) -> Seating:
        """Takes a free seat (``seat``, or the first free one) before the start."""
        room = self.room(table_id)
        who = _check_name(name)
        if room.started:
            raise LobbyError("the game has started: you can watch it", "started")
        free = room.free()
        if seat is None:
            if not free:
                raise LobbyError("every seat is taken", "full")
            seat = free[0]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < room.players:
            raise LobbyError(f"no seat {seat!r} at this {room.players}-seat table")
        if seat not in free:
            raise LobbyError(f"seat {seat} is taken", "taken")
        room.seats[seat] = Seat(who, "person")
        seating = self._seat(room, seat)
        self._tell_followers(room)
        return seating

    def set_level(self, seating: Seating, level: object) -> None:
        """The host sets the computer players' speed (before the start)."""
        room = self._mine(seating)
        if seating.seat != room.host:
            raise LobbyError("only the host sets the speed", "not_host")
        if room.started:
            raise LobbyError("the game has started", "started")
        if not isinstance(level, str) or level not in LEVELS:
            raise LobbyError(f"unknown level {level!r} (expected one of: {', '.join(LEVELS)})")
        room.level = level
        self._tell_followers(room)

    def begin(self, seating: Seating) -> Table:
        """The host starts the game: every free seat gets a computer player."""
        room = self._mine(seating)
        if seating.seat != room.host:
            raise LobbyError("only the host starts the game", "not_host")
        if room.started:
            raise LobbyError("the game has started", "started")
        rng = random.Random(room.seed)
        computers: dict[int, ComputerPlayer] = {}
        for s in room.free():
            room.seats[s] = Seat(f"Computer {s}", "computer")
            computers[s] = self._computer(room, s, rng.randrange(2**31))
        table = self._start(room, computers)
        for link in room.links:
            if link.play:
                link.unwatch = table.watch(link.seat, link.send)
        for s, seat in enumerate(room.seats):
            if seat.kind == "person" and not room.present(s):
                self._drop(room, s)
        self._tell_followers(room)
        self._tell_seats(room)
        return table

    def _mine(self, seating: Seating) -> Room:
        room = seating.room
        if room.closed or self._seatings.get(seating.token) is not seating:
            raise LobbyError("unknown or expired seat token", "bad_token")
        return room

    # -- who is there -------------------------------------------------------------------------

    def find(self, token: object) -> Seating | None:
        """The seating that ``token`` names, if it is still open."""
        return self._seatings.get(token) if isinstance(token, str) else None

    def _room_for_one_more(self, room: Room) -> None:
        if len(room.links) + len(room.followers) >= self.max_links:
            raise LobbyError("this table has too many connections", "full")

    def _link(self, room: Room, link: Link) -> None:
        room.links.append(link)
        if link.play and room.table is not None:
            link.unwatch = room.table.watch(link.seat, link.send)

    def attach(self, token: object, send: Send, *, play: bool = True,
               welcome: bool = False) -> Seating:
        """Joins the seat that ``token`` names. ``play``: a game page, sent the current
        state at once (or at the start) and every change; else a waiting room holding the
        seat. A computer playing the seat meanwhile stops. ``welcome``: send the ``welcome``
        message first (once the seat is surely had)."""
        seating = self.find(token)
        if seating is None:
            raise LobbyError("unknown or expired seat token", "bad_token")
        room = seating.room
        self._room_for_one_more(room)
        room.seats[seating.seat].left = False
        if room.expiry is not None:
            room.expiry.cancel()
            room.expiry = None
        timer = room.takers.pop(seating.seat, None)
        if timer is not None:
            timer.cancel()
        table = room.table
        if table is not None and room.friends and seating.seat in table.computers:
            table.seat_person(seating.seat)
            self._tell_seats(room)
        if welcome:
            send({"type": "welcome", **seating.describe()})
        self._link(room, Link(seating.seat, send, play))
        return seating

    def detach(self, seating: Seating, send: Send) -> None:
        """A connection left its seat. At a table with friends a computer plays the seat
        after ``takeover`` seconds; with nobody at any person seat, the table closes after
        ``grace`` seconds."""
        room = seating.room
        self._unlink(room, lambda link: link.seat == seating.seat and link.send == send)
        if not room.closed and not room.present(seating.seat):
            self._drop(room, seating.seat)

    def _unlink(self, room: Room, which: Callable[[Link], bool]) -> None:
        for link in [link for link in room.links if which(link)]:
            if link.unwatch is not None:
                link.unwatch()
            room.links.remove(link)

    def _drop(self, room: Room, seat: int) -> None:
        loop = asyncio.get_running_loop()
        table = room.table
        if (room.friends and table is not None and seat not in table.computers
                and seat not in room.takers):
            room.takers[seat] = loop.call_later(self.takeover, self._take_over, room, seat)
        people = [s for s, p in enumerate(room.seats) if p.kind == "person"]
        if any(room.present(s) for s in people):
            return
        if all(room.seats[s].left for s in people):
            self._close(room)
        elif room.expiry is None:
            room.expiry = loop.call_later(self.grace, self._close, room)

    def _take_over(self, room: Room, seat: int) -> None:
        timer = room.takers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        table = room.table
        if (room.closed or table is None or room.present(seat) or table.over
                or seat in table.computers):
            return
        table.seat_computer(seat, self._computer(room, seat, secrets.randbelow(2**31)))
        self._tell_seats(room)

    def leave(self, token: str) -> None:
        """The person is done with the seat. Against the computer the table closes now; with
        friends, before the start the seat is free again (the host's role passes on), after
        it a computer plays the seat at once; a table nobody is left at closes now."""
        seating = self._seatings.get(token)
        if seating is None:
            return
        room = seating.room
        seat = seating.seat
        self._unlink(room, lambda link: link.seat == seat)
        if not room.friends:
            self._close(room)
            return
        if not room.started:
            del self._seatings[token]
            room.seats[seat] = Seat("Open seat", "open")
            people = [s for s, p in enumerate(room.seats) if p.kind == "person"]
            if not people:
                self._close(room)
                return
            if room.host == seat:
                room.host = people[0]
            self._tell_followers(room)
            return
        room.seats[seat].left = True
        timer = room.takers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self._drop(room, seat)
        self._take_over(room, seat)

    # -- spectators and waiting rooms -----------------------------------------------------------

    def watch(self, table_id: object, send: Send) -> Room:
        """A spectator: ``welcome`` (seat ``None``), then the public view now (or at the
        start) and every change."""
        room = self.room(table_id)
        self._room_for_one_more(room)
        send({"type": "welcome", **room.describe(None, None)})
        self._link(room, Link(None, send, True))
        return room

    def unwatch(self, room: Room, send: Send) -> None:
        self._unlink(room, lambda link: link.seat is None and link.send == send)

    def follow(self, table_id: object, send: Send) -> Room:
        """A waiting room page: ``lobby`` messages now and on every change of the seats."""
        room = self.room(table_id)
        if send not in room.followers:
            self._room_for_one_more(room)
            room.followers.append(send)
        send(room.summary())
        return room

    def unfollow(self, room: Room, send: Send) -> None:
        if send in room.followers:
            room.followers.remove(send)

    def _tell_followers(self, room: Room) -> None:
        summary = room.summary()
        for send in list(room.followers):
            send(summary)

    def _tell_seats(self, room: Room) -> None:
        # Who sits where is public: every game page and spectator is told.
        message = {"type": "seats", "seats": room.seat_list()}
        for link in list(room.links):
            if link.play:
                link.send(message)

    def open_tables(self) -> list[dict[str, Any]]:
        """Tables with friends that have not started and have a free seat, oldest first."""
        rooms = sorted((r for r in self._rooms.values()
                        if r.friends and not r.started and r.free()), key=lambda r: r.created)
        return [{"table": r.id, "game": r.game, "players": r.players, "free": len(r.free()),
                 "level": r.level, "host": r.seats[r.host].name,
                 "people": [s.name for s in r.seats if s.kind == "person"]} for r in rooms]

    # -- closing ----------------------------------------------------------------------------

    def _close(self, room: Room) -> None:
        if room.closed:
            return
        room.closed = True
        if room.table is not None:
            room.table.close()
        if room.expiry is not None:
            room.expiry.cancel()
        for timer in room.takers.values():
            timer.cancel()
        room.takers.clear()
        for seat in room.seats:
            if seat.token is not None:
                self._seatings.pop(seat.token, None)
        self._rooms.pop(room.id, None)
        self._tell_followers(room)
        room.followers.clear()
        room.links.clear()

    def close(self) -> None:
        """Closes every table (server shutdown)."""
        for room in list(self._rooms.values()):
            self._close(room)
