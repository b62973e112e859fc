"""Benchmarks of the live server: a slap's round trip, and many bot-only tables at once.

1. Round trip: a browser-like client (``websockets``) sends a slap and waits for the event it
   causes, through the whole server path (uvicorn, the socket endpoint, JSON, the checked
   ``apply``, ``message_for``, the seat's queue). The baseline is a bare WebSocket echo on
   the same stack (same uvicorn, same app, same process, same run). The server runs in a
   child process so that client and server do not share a GIL. Target: median at most 1.5
   times the echo. The slap is aimed at an empty pile, which the rules answer with a
   ``slap_ignored`` event; the one-slap-per-card filter is off for this table so that every
   slap reaches the rules.
2. Load: 200 bot-only tables (2 to 4 computer players, every speed, real computer players)
   on one asyncio loop in one process, each a room of its own (every move on the path of a
   live move, ``Room.commit``, its journal in an in-memory SQLite database), each seat
   watched by a sender that JSON-encodes its messages as the socket would; a finished game
   is replaced by a new one. Event lag is how late each computer move ran after the moment
   it was due. Target: 99th percentile under 50 ms.

The server keeps its games as ``parlour serve`` does: every action committed to the store
before its event goes out. ``--store sqlite`` (the default: a SQLite file in a temporary
directory), ``--store postgresql`` (a throwaway PostgreSQL cluster, started here as the
tests start it) or ``--store memory`` (an in-memory SQLite database: the cost of the rest).

Run: ``.venv/bin/python bench/bench_server.py`` (``--quick`` for a short run). The page
screenshots are ``scripts/screenshots.py``'s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import uvicorn
import websockets
from fastapi import WebSocket
from figures import latency_us, percentile
from starlette.websockets import WebSocketDisconnect

from parlour.bots import LEVELS, make_player
from parlour.bots.base import ComputerPlayer, Decision
from parlour.games import GAMES, new_game
from parlour.live import Lobby, Room
from parlour.live.table import AsyncioClock
from parlour.store import Store, open_store
from parlour.web import Limits, create_app
from parlour.web.guard import Gate
from parlour.web.server import config

PACING = {name: cls.spec.pacing for name, cls in GAMES.items()}


class Idle(ComputerPlayer):
    """Never moves: the round-trip table belongs to the benchmark's client alone."""

    game = "slapjack"
    level = "normal"

    def decide(self, view: dict[str, Any], events: Sequence[dict[str, Any]]) -> Decision | None:
        return None


def idle(game: str, level: str, seat: int, *, seed: int | None = None) -> Idle:
    return Idle(seat, seed=seed)


async def echo(ws: WebSocket) -> None:
    """The baseline: a bare WebSocket echo on the same stack."""
    await ws.accept()
    try:
        while True:
            await ws.send_text(await ws.receive_text())
    except WebSocketDisconnect:
        return


def serve_bench_app(sock: socket.socket, db: str, redis: str | None = None) -> None:
    """The child process: the real app with its store at ``db`` (one-slap filter off, no
    rate limits; with ``redis``, a node of a site), as ``parlour serve`` serves it, plus a
    bare echo route."""
    pacing = {"slapjack": replace(PACING["slapjack"], at_field=None)}
    lobby = Lobby(players=idle, pacing=pacing, store=open_store(db))
    app = create_app(lobby=lobby, limits=Limits(rate=None), redis=redis,
                     gate=None if redis else Gate(rate=None))
    app.add_api_websocket_route("/echo", echo)
    uvicorn.Server(config(app)).run(sockets=[sock])


async def round_trips(url: str, rounds: int, block: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"echo": [], "slap": []}
    async with websockets.connect(url + "/echo", compression=None) as echo, \
            websockets.connect(url + "/ws", compression=None) as game:
        await game.send(json.dumps({"type": "start", "game": "slapjack", "players": 2,
                                    "level": "normal", "seed": 1}))
        await game.recv()  # welcome
        await game.recv()  # state
        slap = json.dumps({"type": "action", "action": {"type": "slap"}})
        # An echo of the same size as the slap's answer, so both carry the same bytes back.
        answer_size = 0
        await game.send(slap)
        answer_size = len(await game.recv())
        ping = json.dumps({"type": "echo", "pad": "x" * max(0, answer_size - 26)})
        for _ in range(50):  # warm up both paths
            await echo.send(ping)
            await echo.recv()
            await game.send(slap)
            await game.recv()
        for _ in range(rounds // block):
            for kind, ws, text in (("echo", echo, ping), ("slap", game, slap)):
                for _ in range(block):
                    t0 = time.perf_counter()
                    await ws.send(text)
                    reply = await ws.recv()
                    times[kind].append(time.perf_counter() - t0)
                    if kind == "slap":
                        assert '"slap_ignored"' in str(reply), reply
    return times


def bench_round_trip(rounds: int, db: str) -> dict[str, Any]:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    ctx = multiprocessing.get_context("spawn")
    child = ctx.Process(target=serve_bench_app, args=(sock, db), daemon=True)
    child.start()
    url = f"ws://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        times = asyncio.run(round_trips(url, rounds, block=100))
    finally:
        child.terminate()
        child.join(10)
        sock.close()
    out: dict[str, Any] = {"rounds": rounds}
    for kind, values in times.items():
        out[kind] = latency_us(values)
    out["ratio_median"] = out["slap"]["median_us"] / out["echo"]["median_us"]
    return out


async def run_tables(count: int, seconds: float, seed: int, store: Store | None = None,
                     warmup: float = 0.0) -> dict[str, Any]:
    """``count`` bot-only tables for ``seconds``, each a room of its own whose journal
    commits every action to ``store`` before anyone is told (an in-memory SQLite database by
    default: ``bench_nodes`` gives its PostgreSQL); lags of the first ``warmup`` seconds are
    not counted (other processes starting on the same cores)."""
    rng = random.Random(seed)
    lags: list[float] = []
    counted_from = asyncio.get_running_loop().time() + warmup
    kept = store if store is not None else open_store(":memory:")
    clock = AsyncioClock()

    def lag(late: float) -> None:
        if asyncio.get_running_loop().time() >= counted_from:
            lags.append(late)
    moves = 0
    games = 0
    encoded = 0
    rooms: list[Room] = []

    def sender(message: Mapping[str, Any]) -> None:
        nonlocal encoded
        encoded += len(json.dumps(message, separators=(",", ":")))

    def open_table() -> Room:
        players = rng.randint(2, 4)
        level = rng.choice(LEVELS)
        game_seed = rng.randrange(2**31)
        game = new_game("slapjack", players=players, seed=game_seed)
        bots = {s: make_player("slapjack", level, s, seed=game_seed + s) for s in range(players)}
        room = Room.alone(game, bots, clock=clock, pacing=PACING["slapjack"], level=level,
                          on_lag=lag, store=kept)
        for s in range(players):
            room.attach(room.give_seat(s), sender)
        return room

    loop = asyncio.get_running_loop()
    rooms = [open_table() for _ in range(count)]
    start = loop.time()
    seconds += warmup
    cpu0 = time.process_time()
    while loop.time() - start < seconds:
        await asyncio.sleep(0.25)
        for i, room in enumerate(rooms):
            if room.game.outcome is not None:
                moves += len(room.game.history)
                games += 1
                room.close(left=False)
                rooms[i] = open_table()
    elapsed = loop.time() - start
    cpu = time.process_time() - cpu0
    moves += sum(len(r.game.history) for r in rooms)
    for room in rooms:
        room.close(left=False)
    lags.sort()
    return {"tables": count, "seconds": round(elapsed, 1), "moves": moves,
            "moves_per_s": round(moves / elapsed), "games_finished": games,
            "cpu_share": round(cpu / elapsed, 3), "lag_samples": len(lags),
            "lag_p50_ms": lags[len(lags) // 2] * 1e3,
            "lag_p99_ms": percentile(lags, 0.99) * 1e3, "lag_max_ms": lags[-1] * 1e3,
            "bytes_encoded": encoded}


@contextmanager
def store_at(kind: str) -> Iterator[str]:
    """Where the benchmark's server keeps its games: a temporary SQLite file, a throwaway
    PostgreSQL server, or memory."""
    if kind == "memory":
        yield ":memory:"
    elif kind == "sqlite":
        with tempfile.TemporaryDirectory() as home:
            yield os.path.join(home, "bench.db")
    else:
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
        from servers import postgres_server

        with postgres_server() as url:
            yield url


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short run (smoke test)")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=4000)
    parser.add_argument("--store", choices=("sqlite", "postgresql", "memory"),
                        default="sqlite", help="where the server keeps its games (sqlite)")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.rounds = 5.0, 600
    with store_at(args.store) as db:
        trip = bench_round_trip(args.rounds, db)
    print(f"slap round trip: median {trip['slap']['median_us']:.0f} us, "
          f"p99 {trip['slap']['p99_us']:.0f} us; echo median {trip['echo']['median_us']:.0f} us,"
          f" p99 {trip['echo']['p99_us']:.0f} us; ratio {trip['ratio_median']:.2f} "
          f"(target <= 1.5) over {trip['rounds']} round trips each, store: {args.store}")
    load = asyncio.run(run_tables(args.tables, args.seconds, seed=1))
    print(f"{load['tables']} bot-only tables for {load['seconds']} s: {load['moves']} moves "
          f"({load['moves_per_s']}/s), {load['games_finished']} games finished, "
          f"CPU {load['cpu_share']:.0%}; event lag p50 {load['lag_p50_ms']:.2f} ms, "
          f"p99 {load['lag_p99_ms']:.2f} ms (target < 50), max {load['lag_max_ms']:.1f} ms")
    print(json.dumps({"round_trip": trip, "tables": load}))
    ok = trip["ratio_median"] <= 1.5 and load["lag_p99_ms"] < 50
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
