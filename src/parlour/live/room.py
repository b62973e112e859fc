"""One table of the lobby: who sits where, who is connected, and where it is in its life.

A room goes through explicit phases: ``WAITING`` (a table with friends before the host
starts it), ``PLAYING``, ``FINISHED`` (the game is over; people may still look at it) and
``CLOSED`` (gone: its tokens are refused). The live :class:`~parlour.live.table.Table`
exists from the start of play on.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from parlour.engine import Game, GameSpec
from parlour.live.protocol import LobbyState, SeatInfo, Welcome
from parlour.live.table import Send, Table

SeatKind = Literal["person", "computer", "open"]


class Phase(enum.Enum):
    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"
    CLOSED = "closed"


@dataclass
class Seat:
    """Who sits at one seat: a person, a computer, or nobody yet (``open``, before the
    start)."""

    name: str
    kind: SeatKind
    token_hash: str | None = None
    """The SHA-256 of the seat's token (the token itself is only ever with its person)."""
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
    evicted: Callable[[str], None] | None = None
    """Told (with the code, ``elsewhere`` or ``removed``) when the lobby takes the seat
    from this connection."""


class Room:
    """One table of the lobby; see the module docstring. ``game`` is the game itself (dealt
    when the room opens, so its options are checked at once), ``spec`` what game it is."""

    def __init__(self, ident: str, game: Game, level: str, seats: list[Seat], *,
                 friends: bool, seeded: bool = False, owner: str | None = None) -> None:
        self.id = ident
        self.game = game
        self.spec: GameSpec = game.spec
        self.level = level
        self.seats = seats
        self.friends = friends
        self.seeded = seeded
        """The deal was asked for by seed (a game against the computer played again)."""
        self.host = 0
        self.phase = Phase.WAITING
        self.table: Table | None = None
        self.created = time.time()
        self.links: list[Link] = []
        self.followers: list[Send] = []
        self.rematch: str | None = None
        """The table that plays this one again (friends, once it is over)."""
        # how many of the game's chance outcomes the store has (see parlour.live.keeper)
        self.kept_decks = 0
        self.kept_shuffles = 0
        self.owner = owner
        """The client address that opened the table (its caps count it)."""
        self._played = False

    @property
    def options(self) -> dict[str, Any]:
        """The options people chose (the chance ones, drawn, are not shown before the end)."""
        return {opt.name: self.game.options[opt.name] for opt in self.spec.options
                if not opt.chance}

    @property
    def started(self) -> bool:
        return self.phase in (Phase.PLAYING, Phase.FINISHED)

    @property
    def closed(self) -> bool:
        return self.phase is Phase.CLOSED

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

    def watchers(self) -> int:
        """Connections that hold no seat: spectators and waiting-room visitors."""
        seated = {link.send for link in self.links if link.seat is not None}
        return (sum(link.seat is None for link in self.links)
                + sum(send not in seated for send in self.followers))

    def present(self, seat: int) -> bool:
        return any(link.seat == seat for link in self.links)

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

    def welcome(self, seat: int | None, token: str | None) -> Welcome:
        """The ``welcome`` message for ``seat`` (no game state)."""
        return {"type": "welcome", "table": self.id, "game": self.spec.name, "seat": seat,
                "token": token, "level": self.level, "players": self.players,
                "seats": self.seat_list(), "started": self.started, "friends": self.friends,
                "host": seat is not None and seat == self.host, "options": self.options,
                "phase": self.phase.value, "seeded": self.seeded, "rematch": self.rematch}

    def summary(self) -> LobbyState:
        """The ``lobby`` message: the waiting room as everybody sees it."""
        return {"type": "lobby", "table": self.id, "game": self.spec.name,
                "players": self.players, "level": self.level, "options": self.options,
                "seats": self.seat_list(), "host": self.host, "phase": self.phase.value,
                "started": self.started, "closed": self.closed, "free": len(self.free()),
                "rematch": self.rematch, "outcome": self.outcome()}

    def outcome(self) -> dict[str, Any] | None:
        """How the game ended, once it has."""
        outcome = self.game.outcome
        return None if outcome is None else outcome.to_json()

    def tell_followers(self) -> None:
        summary = self.summary()
        for send in list(self.followers):
            send(summary)

    def tell_seats(self) -> None:
        # Who sits where is public: every game page and spectator is told.
        message = {"type": "seats", "seats": self.seat_list()}
        for link in list(self.links):
            if link.play:
                link.send(message)


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
