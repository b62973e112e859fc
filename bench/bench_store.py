"""Benchmarks of the store (issue 11): what keeping every move costs, and what it holds.

1. Actions committed per second on one table, and round-robin over 200 tables (each
   :meth:`Store.add_action` is a commit, as at a live table). Baseline in the same run: the
   same loop on an in-memory SQLite store (the cost of our code and the driver without a
   file).
2. Time to resume 1,000 unfinished tables at start-up (:meth:`Lobby.resume_all`: every
   record replayed, checked) and to bring one back when its person returns.
3. Database bytes per finished game, for each game, against the size of its record as
   JSON (the baseline: what a file of records would take).

Games are real: played to the end by the computer players (``parlour simulate``'s
``play``). Run: ``.venv/bin/python bench/bench_store.py [--postgres] [--quick]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_server import store_at

from parlour.bots import make_player
from parlour.bots.arena import play
from parlour.games import new_game
from parlour.live import Lobby
from parlour.store import Store, StoredSeat, StoredTable, open_store, token_hash


def finished_game(name: str, seed: int, players: int = 2) -> dict[str, Any]:
    game = new_game(name, players=players, seed=seed)
    bots = [make_player(name, "normal", s, seed=seed * 10 + s) for s in range(players)]
    play(game, bots, tiebreak_seed=seed)
    record = game.record()
    record["outcome"] = game.outcome.to_json() if game.outcome else None
    return record


def keep(store: Store, ident: str, record: dict[str, Any], *, finish: bool) -> None:
    seats = [StoredSeat(f"P{s}", "person", token_hash(f"{ident}:{s}"))
             for s in range(record["players"])]
    store.new_table(StoredTable(ident, record["game"], record["players"], record["options"],
                                "normal", friends=False, seed=None, decks=record["decks"],
                                shuffles=record["shuffles"], seats=seats))
    actions = record["actions"]
    for n, action in enumerate(actions):
        last = finish and n == len(actions) - 1
        store.add_action(ident, n, action, t=n * 0.5,
                         outcome=record["outcome"] if last else None)


def commits_per_second(kind: str, count: int, tables: int) -> float:
    with store_at(kind) as db:
        store = open_store(db)
        for t in range(tables):
            store.new_table(StoredTable(f"t{t}", "slapjack", 2, {}, "normal", friends=False,
                                        seed=None))
        action = {"type": "slap", "player": 0, "at": 12}
        start = time.perf_counter()
        for n in range(count):
            store.add_action(f"t{n % tables}", n // tables, action, t=float(n))
        elapsed = time.perf_counter() - start
        store.close()
    return count / elapsed


def resume_time(kind: str, tables: int, records: list[dict[str, Any]]) -> dict[str, float]:
    with store_at(kind) as db:
        store = open_store(db)
        for t in range(tables):
            record = records[t % len(records)]
            half = {**record, "actions": record["actions"][:len(record["actions"]) // 2]}
            keep(store, f"r{t}", half, finish=False)
        store.close()
        store = open_store(db)
        lobby = Lobby(store=store)
        start = time.perf_counter()
        resumable, closed = lobby.resume_all()
        resumed = time.perf_counter() - start
        assert (resumable, closed) == (tables, 0), (resumable, closed)

        async def bring_back() -> float:  # the live table needs the event loop
            start = time.perf_counter()
            seating = lobby.find("r7:0")
            back = time.perf_counter() - start
            assert seating is not None and seating.room.table is not None
            lobby.close()
            return back

        back = asyncio.run(bring_back())
        store.close()
    return {"resume_all_s": resumed, "per_table_ms": resumed / tables * 1e3,
            "bring_back_one_ms": back * 1e3}


def bytes_per_game(records: list[dict[str, Any]]) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as home:
        path = os.path.join(home, "size.db")
        store = open_store(path)
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        empty = os.path.getsize(path)  # the schema alone
        for i, record in enumerate(records):
            keep(store, f"g{i}", record, finish=True)
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store._conn.execute("VACUUM")
        size = os.path.getsize(path) - empty
        store.close()
    as_json = sum(len(json.dumps(r, separators=(",", ":"))) for r in records)
    return {"bytes_per_game": size / len(records), "json_bytes_per_game": as_json / len(records),
            "actions_per_game": sum(len(r["actions"]) for r in records) / len(records)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", action="store_true",
                        help="also measure on a throwaway PostgreSQL server")
    parser.add_argument("--quick", action="store_true", help="a short run")
    args = parser.parse_args()
    count = 2000 if args.quick else 20000
    kinds = ["memory", "sqlite"] + (["postgresql"] if args.postgres else [])
    out: dict[str, Any] = {}
    for kind in kinds:
        one = commits_per_second(kind, count, 1)
        many = commits_per_second(kind, count, 200)
        out[kind] = {"commits_per_s_one_table": round(one),
                     "commits_per_s_200_tables": round(many)}
        print(f"{kind:10s} actions committed a second: one table {one:,.0f}, "
              f"200 tables {many:,.0f}")
    base = out["memory"]["commits_per_s_one_table"]
    for kind in kinds[1:]:
        print(f"{kind:10s} one table, ratio to in-memory: "
              f"{out[kind]['commits_per_s_one_table'] / base:.2f}")
    games = 10 if args.quick else 40
    records = {name: [finished_game(name, seed) for seed in range(games)]
               for name in ("slapjack", "splunk", "slabberjan")}
    for kind in kinds[1:]:
        resume = resume_time(kind, 100 if args.quick else 1000, records["slapjack"]
                             + records["splunk"] + records["slabberjan"])
        out[kind]["resume"] = resume
        print(f"{kind:10s} resume {100 if args.quick else 1000} unfinished tables at start-up:"
              f" {resume['resume_all_s']:.2f} s ({resume['per_table_ms']:.2f} ms a table); "
              f"bring one back: {resume['bring_back_one_ms']:.1f} ms")
    for name, games_of in records.items():
        size = bytes_per_game(games_of)
        out.setdefault("bytes", {})[name] = size
        print(f"{name:10s} SQLite bytes per finished game: {size['bytes_per_game']:,.0f} "
              f"(record as JSON {size['json_bytes_per_game']:,.0f}, ratio "
              f"{size['bytes_per_game'] / size['json_bytes_per_game']:.2f}; "
              f"{size['actions_per_game']:.0f} actions)")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
