"""Where tables and finished games are kept: one interface, :class:`Store`, over SQLite
(the default, a file) and PostgreSQL (by URL, shared by several servers).

A store holds a table's row (game, options, seed, the chance outcomes of its deal, phase,
outcome), its seats (names, kinds and the SHA-256 of each seat token: a stolen database
does not seat anybody) and every applied action with the chance outcomes it drew. A game
is exactly that history (the engine replays it), so nothing else is stored.

:class:`Store` is the whole interface and holds all the SQL, written once in the drivers'
common subset with ``?`` placeholders. Its two kinds differ only in how they talk to their
database: :class:`~parlour.store.sqlite.SqliteStore` (``sqlite3``: a file locked for one
server, ``BEGIN``/``COMMIT`` by hand, ``WITHOUT ROWID`` tables) and
:class:`~parlour.store.postgres.PostgresStore` (``psycopg``: ``%s`` placeholders, an
advisory lock around migrations, a new connection after the database restarted).
:func:`open_store` picks one from the target; callers only ever see :class:`Store`.

Every write is one transaction, committed before the call returns: the live tables call
:meth:`Store.add_action` before any seat is told of the action, so a ``kill -9`` loses
nothing anybody has seen. SQLite runs in WAL mode with ``synchronous=NORMAL``: a commit
reaches the operating system at once (safe against a killed process) and the disk at the
next checkpoint (an operating system crash may lose the last moments, never corrupt);
PostgreSQL runs with ``synchronous_commit = off`` for the same promise. A SQLite file is
locked for the one server that opened it until it closes (a second is refused at start-up
with a one-line error; other programs may still read it); several servers share PostgreSQL.

>>> from parlour.store.sqlite import SqliteStore
>>> store = SqliteStore.open(":memory:")
>>> store.new_table(StoredTable("t1", "slapjack", 2, {}, "normal", friends=False, seed=None,
...     decks=[["AS"]], seats=[StoredSeat("You", "person", token_hash("secret"))]))
>>> store.add_action("t1", 0, {"type": "flip", "player": 0}, t=0.5)
>>> kept = store.table("t1")
>>> kept.actions, kept.phase, store.find_token(token_hash("secret"))
([{'type': 'flip', 'player': 0}], <Phase.PLAYING: 'playing'>, ('t1', 0))
>>> store.close()
"""

from __future__ import annotations

import hashlib
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from parlour.store.migrations import pending
from parlour.store.phase import Phase
from parlour.wire import dumps, loads


class StoreError(Exception):
    """The database cannot be used: the message is one line naming the file and why."""


def token_hash(token: str) -> str:
    """What the store keeps of a seat token (a token is a secret; its hash is not)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class StoredSeat:
    name: str
    kind: str
    token_hash: str | None = None
    left: bool = False


@dataclass(frozen=True, slots=True)
class WaitingTable:
    """A table with friends waiting for its start, as the site's list shows it."""

    id: str
    game: str
    players: int
    level: str
    host: str
    free: int


@dataclass
class StoredTable:
    """A table as the store keeps it; ``actions`` (JSON, in order) and the chance
    outcomes are enough to rebuild the game exactly."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    level: str
    friends: bool
    seed: int | None
    decks: list[list[Any]] = field(default_factory=list)
    shuffles: list[list[Any]] = field(default_factory=list)
    seats: list[StoredSeat] = field(default_factory=list)
    host: int = 0
    phase: Phase = Phase.PLAYING
    created: float = 0.0
    updated: float = 0.0
    finished: float | None = None
    outcome: dict[str, Any] | None = None
    reason: str | None = None
    rematch: str | None = None
    actions: list[Any] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    """When each action was applied, in seconds after the table opened."""

    @property
    def seeded(self) -> bool:
        return self.seed is not None

    @property
    def touched(self) -> float:
        """When somebody was last at the table: its last move, or the last change of its
        row (seats, phase, a visit), whichever came later. A move does not touch the row
        (that would cost a second write per move), so both are read."""
        return max(self.updated, self.created + (self.times[-1] if self.times else 0.0))

    def record(self) -> dict[str, Any]:
        """The game record (``shared/spec/records.md``): every chance outcome explicit."""
        return {"game": self.game, "players": self.players, "options": dict(self.options),
                "seed": self.seed, "decks": self.decks, "shuffles": self.shuffles,
                "actions": list(self.actions)}


class Cursor(Protocol):
    """A DB-API cursor (PEP 249), as much of it as the store uses: ``sqlite3``'s and
    ``psycopg``'s. A row's values are whatever its SQL selects (``Any``)."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Sequence[Any] | None: ...

    def fetchall(self) -> Sequence[Sequence[Any]]: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]], /) -> object: ...


class Connection(Protocol):
    """A DB-API connection (PEP 249), as much of it as the store uses: ``sqlite3``'s and
    ``psycopg``'s (``execute`` on the connection is an extension both have)."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Cursor: ...

    def cursor(self) -> Cursor: ...

    def close(self) -> None: ...


class Store(ABC):
    """Tables, seats and actions in one database; see the module docstring.

    A kind of store says how to talk to its database (the hooks under *plumbing*); the SQL
    is all here. Not thread-safe: one event loop (one thread) uses a store.
    """

    _without_rowid: ClassVar[str] = ""
    """What a migration's ``{without_rowid}`` becomes (see :mod:`parlour.store.migrations`)."""

    def __init__(self, conn: Connection, where: str) -> None:
        self._conn = conn
        self.where = where
        """The file or the database URL (without its password), for messages."""
        # every move runs it: written once, in this driver's placeholders
        self._insert_action = self._sql("INSERT INTO parlour_actions (table_id, n, action, t,"
                                        " decks, shuffles) VALUES (?, ?, ?, ?, ?, ?)")
        self._migrate()

    # -- plumbing: what each kind of store says for itself ---------------------------------

    def _sql(self, sql: str) -> str:
        """``sql`` in this driver's placeholders (written with ``?``)."""
        return sql

    @abstractmethod
    def _ready(self) -> None:
        """Called before each statement outside a transaction (and by a transaction as it
        begins): a kind whose database may go away and come back replaces a broken
        connection here."""

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[object]:
        """A context in which every statement commits together, or none does."""

    def _migration_lock(self) -> AbstractContextManager[object]:
        """Held while the schema is migrated: a kind several servers share makes one of
        them migrate while the others wait."""
        return nullcontext()

    def close(self) -> None:
        self._conn.close()

    # -- statements and the schema ---------------------------------------------------------

    def _run(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        self._ready()
        return self._conn.execute(self._sql(sql), params)

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any]:
        """The one row ``sql`` selects (an aggregate, or what the schema always holds)."""
        row = self._run(sql, params).fetchone()
        if row is None:
            raise StoreError(f"{self.where}: {sql!r} selected no row")
        return row

    def _many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self._conn.cursor().executemany(self._sql(sql), rows)

    def _migrate(self) -> None:
        with self._migration_lock():
            with self._transaction():
                self._run("CREATE TABLE IF NOT EXISTS parlour_schema"
                          " (version INTEGER NOT NULL)")
                row = self._run("SELECT version FROM parlour_schema").fetchone()
                if row is None:
                    self._run("INSERT INTO parlour_schema (version) VALUES (0)")
                    version = 0
                else:
                    version = int(row[0])
            for number, statements in pending(version):
                with self._transaction():
                    for statement in statements:
                        self._run(statement.format(without_rowid=self._without_rowid))
                    self._run("UPDATE parlour_schema SET version = ?", (number,))

    @property
    def version(self) -> int:
        return int(self._one("SELECT version FROM parlour_schema")[0])

    # -- writing -----------------------------------------------------------------------------

    def new_table(self, table: StoredTable) -> None:
        """Keeps a table as it opens (its deal included) with its seats."""
        now = time.time()
        table.created = table.created or now
        with self._transaction():
            self._run(
                "INSERT INTO parlour_tables (id, game, players, options, level, friends, seed,"
                " host, phase, created, updated, decks, shuffles, outcome, reason, rematch,"
                " finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table.id, table.game, table.players, dumps(table.options), table.level,
                 int(table.friends), table.seed, table.host, Phase(table.phase).value,
                 table.created, now,
                 dumps(table.decks), dumps(table.shuffles),
                 None if table.outcome is None else dumps(table.outcome), table.reason,
                 table.rematch, table.finished))
            self._write_seats(table.id, table.seats)

    def _write_seats(self, table_id: str, seats: Sequence[StoredSeat]) -> None:
        self._run("DELETE FROM parlour_seats WHERE table_id = ?", (table_id,))
        self._many("INSERT INTO parlour_seats (table_id, seat, name, kind, token_hash,"
                   " left_table) VALUES (?, ?, ?, ?, ?, ?)",
                   [(table_id, n, s.name, s.kind, s.token_hash, int(s.left))
                    for n, s in enumerate(seats)])

    def set_seats(self, table_id: str, seats: Sequence[StoredSeat], *, host: int = 0,
                  level: str | None = None) -> None:
        """Who sits where now (and the host, and the computer players' speed)."""
        with self._transaction():
            self._write_seats(table_id, seats)
            self._run("UPDATE parlour_tables SET host = ?, updated = ?,"
                      " level = COALESCE(?, level) WHERE id = ?",
                      (host, time.time(), level, table_id))

    def add_action(self, table_id: str, n: int, action: Any, *, t: float,
                   decks: Sequence[Sequence[Any]] = (), shuffles: Sequence[Sequence[Any]] = (),
                   outcome: dict[str, Any] | None = None) -> None:
        """Keeps action number ``n`` (from 0) with the chance outcomes it drew; with an
        ``outcome`` the game is over and the table is finished, in the same commit.

        The common case is one statement, committed on its own (the slap round trip pays
        for it): the table's row is touched when it is put away or finishes, not per move.
        """
        insert = self._insert_action
        row = (table_id, n, dumps(action), t, dumps(decks) if decks else None,
               dumps(shuffles) if shuffles else None)
        if outcome is None:
            self._ready()
            self._conn.execute(insert, row)
            return
        now = time.time()
        with self._transaction():
            self._conn.execute(insert, row)
            self._run("UPDATE parlour_tables SET phase = 'finished', updated = ?,"
                      " finished = ?, outcome = ? WHERE id = ?",
                      (now, now, dumps(outcome), table_id))

    def touch(self, table_id: str) -> None:
        """Somebody was at the table just now (its people left it for a while)."""
        self._run("UPDATE parlour_tables SET updated = ? WHERE id = ?", (time.time(), table_id))

    def set_phase(self, table_id: str, phase: Phase, *, reason: str | None = None) -> None:
        """``playing`` (the host started), ``left`` (abandoned by its people), ``closed``
        (cannot go on: ``reason`` says why)."""
        self._run("UPDATE parlour_tables SET phase = ?, updated = ?,"
                  " reason = COALESCE(?, reason) WHERE id = ?",
                  (Phase(phase).value, time.time(), reason, table_id))

    def set_rematch(self, table_id: str, rematch: str) -> None:
        self._run("UPDATE parlour_tables SET rematch = ? WHERE id = ?", (rematch, table_id))

    # -- reading -----------------------------------------------------------------------------

    _COLUMNS = ("id, game, players, options, level, friends, seed, host, phase, created,"
                " updated, decks, shuffles, outcome, reason, rematch, finished")

    def _table_from(self, row: Sequence[Any]) -> StoredTable:
        (ident, game, players, options, level, friends, seed, host, phase, created, updated,
         decks, shuffles, outcome, reason, rematch, finished) = row
        return StoredTable(
            ident, game, int(players), loads(options), level, bool(friends), seed,
            loads(decks), loads(shuffles), host=int(host), phase=Phase(phase),
            created=float(created), updated=float(updated),
            finished=None if finished is None else float(finished),
            outcome=None if outcome is None else loads(outcome), reason=reason,
            rematch=rematch)

    def table(self, table_id: str, *, actions: bool = True) -> StoredTable | None:
        """The table ``table_id`` with its seats and (``actions``) its whole history."""
        row = self._run(f"SELECT {self._COLUMNS} FROM parlour_tables WHERE id = ?",
                        (table_id,)).fetchone()
        if row is None:
            return None
        table = self._table_from(row)
        table.seats = [StoredSeat(name, kind, token, bool(left)) for name, kind, token, left
                       in self._run("SELECT name, kind, token_hash, left_table FROM"
                                    " parlour_seats WHERE table_id = ? ORDER BY seat",
                                    (table_id,)).fetchall()]
        if actions:
            for action, t, decks, shuffles in self._run(
                    "SELECT action, t, decks, shuffles FROM parlour_actions"
                    " WHERE table_id = ? ORDER BY n", (table_id,)).fetchall():
                table.actions.append(loads(action))
                table.times.append(float(t))
                if decks is not None:
                    table.decks += loads(decks)
                if shuffles is not None:
                    table.shuffles += loads(shuffles)
        return table

    def find_token(self, hashed: str) -> tuple[str, int] | None:
        """The table and seat of an unfinished or finished table whose token hashes so."""
        row = self._run("SELECT s.table_id, s.seat FROM parlour_seats s JOIN parlour_tables t"
                        " ON t.id = s.table_id WHERE s.token_hash = ?"
                        " AND t.phase IN ('waiting', 'playing', 'finished')",
                        (hashed,)).fetchone()
        return None if row is None else (row[0], int(row[1]))

    def unfinished(self) -> Iterator[str]:
        """The ids of every table still waiting or in play, oldest first."""
        rows = self._run("SELECT id FROM parlour_tables WHERE phase IN ('waiting', 'playing')"
                         " ORDER BY created").fetchall()
        return iter([row[0] for row in rows])

    def expire(self, before: float) -> int:
        """Unfinished tables nobody touched since ``before`` (:attr:`StoredTable.touched`)
        are left: their tokens stop working. Returns how many."""
        return self._run(
            "UPDATE parlour_tables SET phase = 'left', reason = 'nobody came back to it'"
            " WHERE phase IN ('waiting', 'playing') AND updated < ? AND created + COALESCE("
            "(SELECT MAX(t) FROM parlour_actions WHERE table_id = parlour_tables.id), 0) < ?",
            (before, before)).rowcount

    def ping(self) -> bool:
        """Whether the database answers."""
        try:
            return bool(self._one("SELECT 1")[0] == 1)
        except Exception:
            return False

    def waiting_tables(self, limit: int = 100) -> list[WaitingTable]:
        """Tables with friends waiting for their start that have a free seat, oldest first
        (the site's list of open tables, whichever node holds them): one query."""
        rows = self._run(
            "SELECT t.id, t.game, t.players, t.level, h.name,"
            " SUM(CASE WHEN s.kind = 'open' THEN 1 ELSE 0 END) AS free"
            " FROM parlour_tables t JOIN parlour_seats s ON s.table_id = t.id"
            " LEFT JOIN parlour_seats h ON h.table_id = t.id AND h.seat = t.host"
            " WHERE t.phase = 'waiting' AND t.friends = 1"
            " GROUP BY t.id, t.game, t.players, t.level, h.name, t.created"
            " HAVING SUM(CASE WHEN s.kind = 'open' THEN 1 ELSE 0 END) > 0"
            " ORDER BY t.created LIMIT ?", (limit,)).fetchall()
        return [WaitingTable(ident, game, int(players), level, host or "", int(free))
                for ident, game, players, level, host, free in rows]


def without_password(url: str) -> str:
    """``url`` fit for messages and logs: its password, if any, as ``***``."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))
