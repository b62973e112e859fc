"""Durable tables and finished games: SQLite by default, PostgreSQL by URL, behind the one
interface :class:`Store` (see :mod:`parlour.store.store`).

The store sits above the engine and below the live tables: it knows records, seats and
actions as JSON, nothing of the lobby or the web.
"""

from parlour.store.opening import open_store
from parlour.store.phase import Phase
from parlour.store.store import (
    Store,
    StoredSeat,
    StoredTable,
    StoreError,
    WaitingTable,
    token_hash,
    without_password,
)

__all__ = [
    "Phase",
    "Store",
    "StoreError",
    "StoredSeat",
    "StoredTable",
    "WaitingTable",
    "open_store",
    "token_hash",
    "without_password",
]
