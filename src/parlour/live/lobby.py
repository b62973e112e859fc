"""The lobby: opens live tables, hands out seat tokens, and lets dropped people come back.

A person who opens a table gets a seat and a secret seat token. Whoever holds the token is
that seat: a browser that lost its connection (a reload, a flaky phone network) presents the
token again within the grace period and is back at its seat, with the game as it is now.
When nobody has held any person seat of a table for the whole grace period, the table is
closed and its computer players stop.

Today a table seats one person (seat 0, who flips first) and computer players; the seating
is kept per seat so that tables with several people and spectators fit the same lobby.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.bots import LEVELS, ComputerPlayer, make_player
from parlour.engine import GameError
from parlour.games import game_class
from parlour.live.pacing import PACING, Pacing
from parlour.live.table import Send, Table

Decks = Callable[[str, int], Sequence[Sequence[str]]]
MakePlayer = Callable[..., ComputerPlayer]


class LobbyError(ValueError):
    """A table cannot be opened or joined; the message says why."""


@dataclass
class Seating:
    """A person's place: which table, which seat, and the token that proves it."""

    table_id: str
    table: Table
    game: str
    seat: int
    token: str
    level: str
    seats: list[dict[str, Any]]
    _watches: list[tuple[Send, Callable[[], None]]] = field(default_factory=list, repr=False)

    def describe(self) -> dict[str, Any]:
        """The seating as the ``welcome`` message gives it (no game state)."""
        return {"table": self.table_id, "game": self.game, "seat": self.seat,
                "token": self.token, "level": self.level, "players": len(self.seats),
                "seats": self.seats}


class Lobby:
    """Every open live table of one server."""

    def __init__(
        self,
        *,
        grace: float = 30.0,
        max_tables: int = 1000,
        pacing: Mapping[str, Pacing] = PACING,
        players: MakePlayer = make_player,
        decks: Decks | None = None,
        on_lag: Callable[[float], None] | None = None,
    ) -> None:
        """``players`` builds computer players (``make_player``'s signature); ``decks``, for
        tests, gives the stacked decks of each new game; ``on_lag`` receives how late each
        computer move ran, in seconds."""
        self.grace = grace
        self.max_tables = max_tables
        self.pacing = pacing
        self._players = players
        self._decks = decks
        self._on_lag = on_lag
        self._tables: dict[str, Table] = {}
        self._seatings: dict[str, Seating] = {}
        self._expiry: dict[str, asyncio.TimerHandle] = {}

    @property
    def games(self) -> tuple[str, ...]:
        """The games that can be played live."""
        return tuple(self.pacing)

    def __len__(self) -> int:
        return len(self._tables)

    def open(self, game: str, players: int, level: str, *, seed: int | None = None,
             options: object = None) -> Seating:
        """Opens a table: a person at seat 0, computer players of ``level`` at the others.

        ``options`` are the game's options (``shared/spec/records.md``), checked by the game.
        """
        pacing = self.pacing.get(game) if isinstance(game, str) else None
        if pacing is None:
            raise LobbyError(f"{game!r} cannot be played here (try: {', '.join(self.pacing)})")
        low, high = pacing.seats
        if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
            raise LobbyError(f"{game} is played here by {low} to {high} players, not {players!r}")
        if level not in LEVELS:
            raise LobbyError(f"unknown level {level!r} (expected one of: {', '.join(LEVELS)})")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise LobbyError(f"'seed' must be an integer, not {seed!r}")
        if len(self._tables) >= self.max_tables:
            raise LobbyError("the server is full; try again in a minute")
        if options is not None and not isinstance(options, dict):
            raise LobbyError(f"'options' must be an object, not {options!r}")
        if seed is None:
            seed = secrets.randbelow(2**31)
        decks = self._decks(game, players) if self._decks is not None else ()
        try:
            state = game_class(game)(players, seed=seed, decks=decks, options=options)
        except GameError as exc:
            raise LobbyError(str(exc)) from None
        rng = random.Random(seed)
        computers = {s: self._players(game, level, s, seed=rng.randrange(2**31))
                     for s in range(1, players)}
        table = Table(state, computers, pacing, level=level, on_lag=self._on_lag)
        table_id = secrets.token_urlsafe(6)
        seats = [{"name": "You", "kind": "person"}] + [
            {"name": f"Computer {s}", "kind": "computer", "level": level}
            for s in range(1, players)]
        seating = Seating(table_id, table, game, 0, secrets.token_urlsafe(18), level, seats)
        self._tables[table_id] = table
        self._seatings[seating.token] = seating
        table.start()
        return seating

    def find(self, token: object) -> Seating | None:
        """The seating that ``token`` names, if it is still open."""
        return self._seatings.get(token) if isinstance(token, str) else None

    def attach(self, token: object, send: Send) -> Seating:
        """Joins the seat that ``token`` names; its current state is sent at once."""
        seating = self.find(token)
        if seating is None:
            raise LobbyError("unknown or expired seat token")
        timer = self._expiry.pop(seating.token, None)
        if timer is not None:
            timer.cancel()
        seating._watches.append((send, seating.table.watch(seating.seat, send)))
        return seating

    def detach(self, seating: Seating, send: Send) -> None:
        """A connection left its seat; the seat waits ``grace`` seconds for it to come back."""
        for watch in [w for w in seating._watches if w[0] == send]:
            watch[1]()
            seating._watches.remove(watch)
        if seating.table.watched(seating.seat):
            return
        if seating.token in self._seatings and seating.token not in self._expiry:
            loop = asyncio.get_running_loop()
            self._expiry[seating.token] = loop.call_later(self.grace, self.leave, seating.token)

    def leave(self, token: str) -> None:
        """The person is done with the table: it closes now."""
        seating = self._seatings.pop(token, None)
        timer = self._expiry.pop(token, None)
        if timer is not None:
            timer.cancel()
        if seating is None:
            return
        seating.table.close()
        self._tables.pop(seating.table_id, None)

    def close(self) -> None:
        """Closes every table (server shutdown)."""
        for token in list(self._seatings):
            self.leave(token)
