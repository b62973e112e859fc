"""The store on SQLite and on a throwaway PostgreSQL: what goes in comes back, migrations
open older databases, bad files are one-line errors, and games kept by the lobby replay to
exactly where they were."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import Instant, SteppedClock, command, quick_decks, quick_players

from parlour.bots import make_player
from parlour.bots.base import ComputerPlayer
from parlour.games import replay
from parlour.live import Lobby
from parlour.store import StoredSeat, StoredTable, StoreError, open_store, token_hash
from parlour.store.migrations import MIGRATIONS


def _table(ident: str = "t1") -> StoredTable:
    return StoredTable(ident, "slapjack", 2, {}, "normal", friends=True, seed=None,
                       decks=[["AS", "KD"]],
                       seats=[StoredSeat("Ann", "person", token_hash("ann")),
                              StoredSeat("Open seat", "open")])


def test_a_table_its_seats_and_its_actions_come_back_as_they_went_in(db: str) -> None:
    store = open_store(db)
    store.new_table(_table())
    store.add_action("t1", 0, {"type": "flip", "player": 0}, t=0.25)
    store.add_action("t1", 1, {"type": "flip", "player": 1}, t=0.5, shuffles=[["AS", "KD"]])
    store.set_seats("t1", [StoredSeat("Ann", "person", token_hash("ann")),
                           StoredSeat("Bob", "person", token_hash("bob"))], host=1)
    store.close()
    again = open_store(db)  # a new process on the same database
    kept = again.table("t1")
    assert kept is not None
    assert kept.actions == [{"type": "flip", "player": 0}, {"type": "flip", "player": 1}]
    assert kept.times == [0.25, 0.5] and kept.shuffles == [["AS", "KD"]]
    assert [s.name for s in kept.seats] == ["Ann", "Bob"] and kept.host == 1
    assert again.find_token(token_hash("bob")) == ("t1", 1)
    assert again.find_token(token_hash("nobody")) is None
    assert list(again.unfinished()) == ["t1"]
    again.add_action("t1", 2, {"type": "flip", "player": 0}, t=1.0,
                     outcome={"winner": 0, "termination": "all_cards"})
    finished = again.table("t1")
    assert finished is not None and finished.phase == "finished"
    assert finished.outcome == {"winner": 0, "termination": "all_cards"}
    assert list(again.unfinished()) == []
    again.close()


def test_an_action_number_is_kept_once(db: str) -> None:
    store = open_store(db)
    store.new_table(_table())
    store.add_action("t1", 0, {"type": "flip", "player": 0}, t=0.1)
    import psycopg

    with pytest.raises((sqlite3.IntegrityError, psycopg.errors.UniqueViolation)):
        store.add_action("t1", 0, {"type": "flip", "player": 1}, t=0.2)
    kept = store.table("t1")
    assert kept is not None and kept.actions == [{"type": "flip", "player": 0}]
    store.close()


def test_tables_nobody_came_back_to_expire(db: str) -> None:
    store = open_store(db)
    store.new_table(_table("old"))
    assert store.expire(before=0.0) == 0  # touched after the epoch: kept
    assert store.expire(before=10**12) == 1
    assert store.table("old").phase == "left"  # type: ignore[union-attr]
    assert store.find_token(token_hash("ann")) is None  # its token no longer seats anyone
    # a game played on long after its row last changed (a move does not touch the row):
    # its last move counts, so a server killed mid-game does not lose it as untouched
    store.new_table(_table("long"))
    store._run("UPDATE parlour_tables SET created = 1000, updated = 1000 WHERE id = 'long'")
    store.add_action("long", 0, {"type": "flip", "player": 0}, t=5000.0)
    assert store.table("long").touched == 6000.0  # type: ignore[union-attr]
    assert store.expire(before=5999.0) == 0 and store.table("long").phase == "playing"  # type: ignore[union-attr]
    assert store.expire(before=6001.0) == 1
    store.close()


def test_the_sites_open_tables_are_those_waiting_with_a_free_seat(db: str) -> None:
    store = open_store(db)
    for ident, phase, seats, created in (
            ("full", "waiting", ["person", "person"], 1.0),
            ("open", "waiting", ["person", "open", "open"], 3.0),
            ("older", "waiting", ["open", "person"], 2.0),
            ("started", "playing", ["person", "open"], 0.5)):
        table = dataclasses.replace(_table(ident), phase=phase, created=created, host=1,
                                    players=len(seats))
        table.seats = [StoredSeat(f"{ident}{n}", kind) for n, kind in enumerate(seats)]
        store.new_table(table)
    listed = store.waiting_tables()
    assert [(t.id, t.free, t.host, t.players) for t in listed] == [
        ("older", 1, "older1", 2), ("open", 2, "open1", 3)]
    assert [t.id for t in store.waiting_tables(limit=1)] == ["older"]
    store.close()


def test_the_store_keeps_token_hashes_never_tokens(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    store = open_store(path)
    store.new_table(_table())
    store.close()
    raw = path.read_bytes() + (tmp_path / "p.db-wal").read_bytes() if (
        tmp_path / "p.db-wal").exists() else path.read_bytes()
    assert b"ann" not in raw.replace(b"Ann", b"")
    assert token_hash("ann").encode() in raw


def test_a_database_from_before_a_migration_opens_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE parlour_schema (version INTEGER NOT NULL)")
    conn.execute("INSERT INTO parlour_schema VALUES (1)")
    for statement in MIGRATIONS[0]:
        conn.execute(statement.format(without_rowid=" WITHOUT ROWID"))
    conn.execute("INSERT INTO parlour_tables VALUES ('old', 'slapjack', 2, '{}', 'easy', 0,"
                 " NULL, 0, 'playing', 1.0, 2.0, '[]', '[]', NULL, NULL)")
    conn.commit()
    conn.close()
    store = open_store(path)
    assert store.version == len(MIGRATIONS)
    kept = store.table("old")
    assert kept is not None and kept.level == "easy" and kept.rematch is None
    store.set_rematch("old", "new")
    assert store.table("old").rematch == "new"  # type: ignore[union-attr]
    store.close()


def test_a_sqlite_file_clusters_its_tables_on_their_keys(tmp_path: Path) -> None:
    """The migrations' ``{without_rowid}`` is SQLite's own: every table but the schema's
    version is ``WITHOUT ROWID`` (less space per finished game)."""
    path = tmp_path / "k.db"
    open_store(path).close()
    conn = sqlite3.connect(path)
    made = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"))
    conn.close()
    assert sorted(made) == ["parlour_actions", "parlour_schema", "parlour_seats",
                            "parlour_tables"]
    assert sorted(name for name, sql in made.items() if sql.endswith("WITHOUT ROWID")) == [
        "parlour_actions", "parlour_seats", "parlour_tables"]


def test_a_file_that_is_not_a_database_is_one_line_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database" * 100)
    with pytest.raises(StoreError) as exc:
        open_store(path)
    message = str(exc.value)
    assert str(path) in message and "\n" not in message


def test_an_unreachable_postgresql_is_one_line_without_the_password() -> None:
    from servers import free_port

    with pytest.raises(StoreError) as exc:
        open_store(f"postgresql://ann:hunter2@127.0.0.1:{free_port()}/parlour")
    message = str(exc.value)
    assert "hunter2" not in message and "127.0.0.1" in message and "\n" not in message


@pytest.mark.parametrize("game", ["slapjack", "splunk", "slabberjan"])
def test_a_game_the_lobby_kept_replays_from_the_store_to_where_it_was(
        db: str, game: str, clock: SteppedClock) -> None:
    """Computer players play a whole game at a table (on virtual time, at the game's own
    pacing); the store's record replays to the same end, and the lobby of a new process
    brings the finished table back for viewing."""
    store = open_store(db)
    lobby = Lobby(clock=clock, store=store,
                  players=quick_players if game == "slapjack" else _fast(game),
                  decks=quick_decks if game == "slapjack" else None)
    seating = lobby.open(command(type="start", game=game, level="hard"))
    table = seating.room.table
    assert table is not None
    table.seat_computer(0, _fast(game)(game, "hard", 0))  # the person's seat plays itself
    assert clock.run(lambda: table.over, max_calls=100_000) is None
    kept = store.table(seating.room.id)
    assert kept is not None and kept.phase == "finished"
    replayed = replay(kept.record())
    assert replayed.view(None) == seating.room.game.view(None)
    assert kept.outcome == seating.room.game.outcome.to_json()  # type: ignore[union-attr]
    lobby.close()
    store.close()


async def test_a_game_nobody_has_moved_at_yet_comes_back_by_its_token(db: str) -> None:
    """A person saw the deal, then the server stopped (or the table was put away) before
    their first move: their token brings the same deal back, it is not dropped as unplayed."""
    lobby = Lobby(store=open_store(db), players=quick_players, decks=quick_decks)
    seating = lobby.open(command(type="start", game="slapjack", players=2))
    dealt = seating.room.game.view(0)
    lobby.close()  # a restart: the table stays in the store as it is
    assert len(lobby) == 0
    back = lobby.find(seating.token)
    assert back is not None and back.room.game.view(0) == dealt
    assert lobby.store.table(seating.room.id).phase == "playing"  # type: ignore[union-attr]
    lobby.close()


async def test_a_start_the_store_cannot_keep_changes_no_seat_and_can_be_tried_again(
        db: str) -> None:
    lobby = Lobby(store=open_store(db), players=quick_players, decks=quick_decks)
    host = lobby.create(command(type="create", game="slapjack", players=3, name="Ann"))
    before = [(seat.name, seat.kind) for seat in host.room.seats]
    keep = lobby.store.set_seats

    def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("the disk is full")

    lobby.store.set_seats = broken  # type: ignore[method-assign]
    with pytest.raises(OSError):
        host.room.begin(host)
    assert [(seat.name, seat.kind) for seat in host.room.seats] == before
    assert not host.room.started
    lobby.store.set_seats = keep  # type: ignore[method-assign]
    table = host.room.begin(host)  # the retry fills the free seats with computers that play
    assert sorted(table.computers) == [1, 2]
    lobby.close()


def _fast(game: str) -> Callable[..., ComputerPlayer[Any]]:
    def make(name: str, level: str, seat: int, *, seed: int | None = None
             ) -> ComputerPlayer[Any]:
        return Instant(make_player(name, level, seat, seed=seed))

    return make


async def test_a_move_the_database_cannot_keep_is_told_to_nobody_and_the_game_comes_back(
) -> None:
    """PostgreSQL stops mid-game: the next move is refused with ``unavailable``, nobody is
    told of it, and once the database is back the seat resumes the game as the database
    holds it."""
    import asyncio

    from conftest import FAST_PACING, Inbox, act, quick_decks, quick_players
    from servers import postgres_server, postgres_start, postgres_stop

    with postgres_server() as url:
        lobby = Lobby(store=open_store(url), players=quick_players, decks=quick_decks,
                      pacing=FAST_PACING)
        seating = lobby.open(command(type="start", game="slapjack", players=2))
        seen = Inbox()
        lobby.attach(seating.token, seen)
        room = seating.room
        assert act(room, 0, {"type": "flip"}) is None
        await asyncio.sleep(0.1)  # the computer flips back
        # what people were told is on the database server; on its disk within 3 WAL-writer
        # rounds (0.6 s): a crash of the database machine itself may lose that moment
        await asyncio.sleep(1.0)
        flips = seen.messages[-1]["view"]["flips"]
        told = len(seen.messages)
        postgres_stop(url)
        try:
            reason = act(room, 0, {"type": "flip"}) if seen.messages[-1]["view"]["turn"] == 0 \
                else act(room, 0, {"type": "slap"})
            assert reason is not None and "could not be saved" in reason
            await asyncio.sleep(0.05)
            assert [m["type"] for m in seen.messages[told:]] == ["error"]  # nobody told
            assert seen.messages[-1]["code"] == "unavailable"
            assert len(lobby) == 0  # out of memory: the store is the truth
        finally:
            postgres_start(url)
        back = Inbox()  # the store reconnects by itself
        lobby.attach(seating.token, back)
        assert back.messages[0]["view"]["flips"] == flips
        lobby.close()


def test_nodes_starting_at_once_on_a_new_postgresql_database_migrate_it_once(
        postgres: str) -> None:
    """Several processes open one new database at the same moment: one migrates it, the
    others wait for it and find it done."""
    import subprocess
    import sys

    from servers import new_database

    url = new_database(postgres, "racing")
    code = ("import sys; from parlour.store import open_store; "
            "print(open_store(sys.argv[1]).version)")
    procs = [subprocess.Popen([sys.executable, "-c", code, url], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [proc.communicate(timeout=60) for proc in procs]
    assert [out.strip() for out, _ in outs] == [str(len(MIGRATIONS))] * 4, outs
