"""The store on PostgreSQL: one database shared by every server of a site.

What PostgreSQL needs of its own: ``%s`` placeholders, the driver's transactions, an
advisory lock so that servers starting together on a new database migrate it once, commits
that return before the server's disk has them (``synchronous_commit = off``, the same
promise as SQLite's WAL with ``synchronous=NORMAL``), and a new connection once the
database is back after a restart. The SQL itself is :class:`~parlour.store.Store`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING

from parlour.store.store import Store, StoreError, without_password

if TYPE_CHECKING:  # imported when a store is opened: SQLite users never load the driver
    import psycopg
    from psycopg.rows import TupleRow

#: advisory lock held while the schema is migrated (any number, fixed)
MIGRATION_LOCK = 7_461_102

#: a commit returns once the server has it, its disk a moment later
COMMIT_SOON = "SET synchronous_commit TO off"


class PostgresStore(Store):
    """A :class:`~parlour.store.Store` in a PostgreSQL database; made by :meth:`open`."""

    _conn: psycopg.Connection[TupleRow]

    def __init__(self, conn: psycopg.Connection[TupleRow], where: str, *,
                 connect: Callable[[], psycopg.Connection[TupleRow]]) -> None:
        self._connect = connect
        """Makes a new connection: a database that restarted is used again."""
        super().__init__(conn, where)

    @classmethod
    def open(cls, url: str) -> PostgresStore:
        """The store at ``url``, or :class:`StoreError` naming it without its password."""
        import psycopg

        where = without_password(url)

        def connect(durable: bool = False) -> psycopg.Connection[TupleRow]:
            # a commit has reached the database server when it returns (a killed Parlour
            # loses nothing) and its disk a moment later (WAL writer): milliseconds per move
            conn = psycopg.connect(url, autocommit=True, connect_timeout=5)
            if not durable:
                conn.execute(COMMIT_SOON)
            return conn

        try:
            # migrations commit durably; then every move commits without waiting for the disk
            store = cls(connect(durable=True), where, connect=connect)
            store._conn.execute(COMMIT_SOON)
            return store
        except psycopg.Error as exc:
            text = str(exc).strip()
            first = text.splitlines()[0] if text else type(exc).__name__
            raise StoreError(f"{where}: {first}") from None

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s")

    def _ready(self) -> None:
        # the call that found the connection broken has already failed, so replacing it
        # before the next use writes nothing twice
        if self._conn.closed or self._conn.broken:
            self._conn = self._connect()

    def _transaction(self) -> AbstractContextManager[object]:
        self._ready()
        transaction: AbstractContextManager[object] = self._conn.transaction()
        return transaction

    @contextmanager
    def _migration_lock(self) -> Iterator[None]:
        # several nodes starting at once on a new database: one migrates, the others wait
        self._conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        try:
            yield
        finally:
            self._conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
