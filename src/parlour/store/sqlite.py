"""The store on SQLite: one file (or ``:memory:``), kept by one server at a time.

What SQLite needs of its own: the file is locked for the server that opened it, the
connection is in autocommit mode so transactions are ``BEGIN``/``COMMIT`` said by hand
(``sqlite3``'s implicit ones would open before a plain read), and tables are clustered on
their primary key (``WITHOUT ROWID``). The SQL itself is :class:`~parlour.store.Store`'s.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import IO

from parlour.store.store import Store, StoreError


class SqliteStore(Store):
    """A :class:`~parlour.store.Store` in a SQLite file; made by :meth:`open`."""

    _without_rowid = " WITHOUT ROWID"
    _conn: sqlite3.Connection

    def __init__(self, conn: sqlite3.Connection, where: str, *,
                 lock: IO[bytes] | None = None) -> None:
        self._lock = lock
        """The file's lock against a second server (held until :meth:`close`)."""
        super().__init__(conn, where)

    @classmethod
    def open(cls, path: str) -> SqliteStore:
        """The store in the file ``path`` (made if new), or :class:`StoreError`."""
        lock = None
        try:
            if path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                lock = _lock_for_one_server(path)
            conn = sqlite3.connect(path, timeout=2.0, isolation_level=None,
                                   check_same_thread=False)
            conn.execute("PRAGMA page_size = 1024")  # small rows: less space per finished game
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if path != ":memory:" and str(mode).lower() != "wal":
                raise StoreError(f"{path}: cannot use write-ahead logging (journal mode {mode})")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = OFF")
            return cls(conn, path, lock=lock)
        except BaseException as exc:
            if lock is not None:
                lock.close()
            if isinstance(exc, sqlite3.DatabaseError):
                raise StoreError(f"{path}: cannot open the database ({exc})") from None
            if isinstance(exc, OSError):
                raise StoreError(f"{path}: {exc.strerror or exc}") from None
            raise

    def _ready(self) -> None:
        pass  # a file does not go away while its server holds it open

    def _transaction(self) -> _Transaction:
        return _Transaction(self._conn)

    def close(self) -> None:
        super().close()
        if self._lock is not None:
            # after the connection: closing any descriptor of the file drops the process's
            # POSIX locks on it, SQLite's own included
            self._lock.close()


class _Transaction:
    """``BEGIN``/``COMMIT`` (or ``ROLLBACK`` on an exception) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __enter__(self) -> None:
        self._conn.execute("BEGIN")

    def __exit__(self, kind: object, *rest: object) -> None:
        self._conn.execute("COMMIT" if kind is None else "ROLLBACK")


def _lock_for_one_server(path: str) -> IO[bytes] | None:
    """Locks the file (made if new) for this server until its store closes, before anything
    reads or writes it: a second server on the same file would resume the same tables and
    play them twice, so it is refused. The lock is ``flock``'s, which SQLite's own
    (``fcntl``) locks ignore: another program may still read the file, and back it up,
    while the server runs."""
    try:
        import fcntl
    except ImportError:  # not on this system: nothing to lock with
        return None
    lock = open(path, "ab")  # noqa: SIM115 - held until the store closes
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise StoreError(f"{path}: in use by another server (a second `parlour serve`?): a "
                         "SQLite database belongs to one server at a time; for several, use "
                         "PostgreSQL") from None
    return lock
