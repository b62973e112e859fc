"""Opening a store by where it is: a PostgreSQL URL or a SQLite file (the two kinds of
:class:`~parlour.store.store.Store`)."""

from __future__ import annotations

from pathlib import Path

from parlour.store.postgres import PostgresStore
from parlour.store.sqlite import SqliteStore
from parlour.store.store import Store


def open_store(target: str | Path) -> Store:
    """The store at ``target``: a ``postgresql://`` (or ``postgres://``) URL, or a SQLite
    file (``:memory:`` for one that lives as long as the process). Raises
    :class:`StoreError` (one line, naming the database) if it cannot be used."""
    text = str(target)
    if text.startswith(("postgresql://", "postgres://")):
        return PostgresStore.open(text)
    return SqliteStore.open(text)
