"""The store's schema, as numbered migrations: a newer Parlour opens an older database.

Each migration is a list of SQL statements written for both SQLite and PostgreSQL (their
common subset: TEXT, INTEGER, BIGINT, DOUBLE PRECISION); ``{without_rowid}`` becomes
SQLite's ``WITHOUT ROWID`` (a table clustered on its primary key) and nothing on
PostgreSQL. The database's version is the number of migrations applied, kept in
``parlour_schema``; :func:`pending` lists what a database at ``version`` still needs.
Never edit a released migration: add the next one.

>>> [version for version, _ in pending(1)] == list(range(2, len(MIGRATIONS) + 1))
True
"""

from __future__ import annotations

MIGRATIONS: list[list[str]] = [
    # 1: tables with their seats and every applied action
    [
        """CREATE TABLE parlour_tables (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            players INTEGER NOT NULL,
            options TEXT NOT NULL,
            level TEXT NOT NULL,
            friends INTEGER NOT NULL,
            seed BIGINT,
            host INTEGER NOT NULL,
            phase TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            updated DOUBLE PRECISION NOT NULL,
            decks TEXT NOT NULL,
            shuffles TEXT NOT NULL,
            outcome TEXT,
            reason TEXT
        ){without_rowid}""",
        "CREATE INDEX parlour_tables_phase ON parlour_tables (phase, updated)",
        """CREATE TABLE parlour_seats (
            table_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            token_hash TEXT,
            left_table INTEGER NOT NULL,
            PRIMARY KEY (table_id, seat)
        ){without_rowid}""",
        "CREATE INDEX parlour_seats_token ON parlour_seats (token_hash)",
        """CREATE TABLE parlour_actions (
            table_id TEXT NOT NULL,
            n INTEGER NOT NULL,
            action TEXT NOT NULL,
            t DOUBLE PRECISION NOT NULL,
            decks TEXT,
            shuffles TEXT,
            PRIMARY KEY (table_id, n)
        ){without_rowid}""",
    ],
    # 2: rematches: a finished friends' table points at the table that plays it again
    [
        "ALTER TABLE parlour_tables ADD COLUMN rematch TEXT",
        "ALTER TABLE parlour_tables ADD COLUMN finished DOUBLE PRECISION",
        "CREATE INDEX parlour_tables_finished ON parlour_tables (finished)",
    ],
]


def pending(version: int) -> list[tuple[int, list[str]]]:
    """The migrations a database at ``version`` still needs, numbered from 1."""
    return [(n, MIGRATIONS[n - 1]) for n in range(version + 1, len(MIGRATIONS) + 1)]
