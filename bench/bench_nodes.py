"""Benchmarks of a site of several nodes (issue 12), on one machine, with a throwaway
PostgreSQL and redis-server started here as the tests start them.

1. A slap's round trip (send, ``events`` back) through the table's owner node, through
   another node (relayed through Redis to the owner and back), and a bare WebSocket echo on
   the same stack, same run. The table's computer players never move.
2. Tables held: bot-only Slapjack tables (2 to 4 real computer players, every speed), every
   action committed to PostgreSQL as at a live table; the most tables (from a ladder) whose
   event-lag p99 stays under 50 ms, on one node and spread over three node processes. The
   figure is the ratio; it is bounded by the machine's cores (printed).
3. Take-over: the owner of a table in play is killed (SIGKILL); the time until a page that
   reconnects to another node (retrying every 0.2 s, as the pages do) receives the first
   event of its next move from the new owner.

Run: ``.venv/bin/python bench/bench_nodes.py [--quick]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import signal
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
sys.path.insert(0, HERE)

import websockets  # noqa: E402
from bench_server import run_tables, serve_bench_app  # noqa: E402
from figures import latency_us  # noqa: E402
from servers import new_database, postgres_server, redis_server  # noqa: E402


def start_nodes(count: int, db: str, redis: str) -> tuple[list[str], list[Any]]:
    ctx = multiprocessing.get_context("spawn")
    urls, procs = [], []
    for _ in range(count):
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        urls.append(f"ws://127.0.0.1:{sock.getsockname()[1]}")
        proc = ctx.Process(target=serve_bench_app, args=(sock, db, redis), daemon=True)
        proc.start()
        procs.append(proc)
        sock.close()
    for url in urls:  # until each node answers its health check (bounded)
        deadline = time.monotonic() + 60
        while True:
            try:
                import httpx

                if httpx.get(url.replace("ws", "http") + "/health", timeout=2).is_success:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("a node did not start")
            time.sleep(0.2)
    return urls, procs


async def round_trips(owner: str, other: str, rounds: int) -> dict[str, Any]:
    times: dict[str, list[float]] = {"echo": [], "owner": [], "relayed": []}
    origin = owner.replace("ws", "http")
    async with websockets.connect(owner + "/echo", compression=None,
                                  origin=origin) as echo, \
            websockets.connect(owner + "/ws", compression=None,
                               origin=origin) as here:
        await here.send(json.dumps({"type": "start", "game": "slapjack", "players": 2,
                                    "level": "normal"}))
        welcome = json.loads(await here.recv())
        await here.recv()  # state
        async with websockets.connect(other + "/ws", compression=None,
                                      origin=other.replace("ws", "http")
                                      ) as there:
            await there.send(json.dumps({"type": "watch", "table": welcome["table"]}))
            await there.recv()
            await there.recv()
            # the same seat through another node: a second page of it, relayed
            await there.send(json.dumps({"type": "resume", "token": welcome["token"]}))
            while json.loads(await there.recv())["type"] != "state":
                pass
            slap = json.dumps({"type": "action", "action": {"type": "slap"}})
            for i in range(rounds):
                for kind, ws in (("echo", echo), ("relayed", there)):
                    t = time.perf_counter()
                    await ws.send(slap)
                    while True:
                        reply = await ws.recv()
                        if kind == "echo" or '"events"' in str(reply):
                            break
                    if i >= rounds // 10:
                        times[kind].append(time.perf_counter() - t)
    async with websockets.connect(owner + "/ws", compression=None,
                                  origin=origin) as here:
        await here.send(json.dumps({"type": "resume", "token": welcome["token"]}))
        while json.loads(await here.recv())["type"] != "state":
            pass
        for i in range(rounds):
            t = time.perf_counter()
            await here.send(slap)
            while '"events"' not in str(await here.recv()):
                pass
            if i >= rounds // 10:
                times["owner"].append(time.perf_counter() - t)
    out: dict[str, Any] = {}
    for kind, values in times.items():
        out[kind] = latency_us(values)
    return out


def load_node(db: str, tables: int, seconds: float, seed: int,
              results: Any) -> None:
    """A child process: ``tables`` bot-only tables, every table and action stored in ``db``
    (each room's journal, as at a live table)."""
    from parlour.store import open_store

    result = asyncio.run(run_tables(tables, seconds, seed, store=open_store(db), warmup=3.0))
    results.put(result)


def held(db: str, nodes: int, ladder: list[int], seconds: float) -> tuple[int, list[Any]]:
    """The most tables from ``ladder`` held at lag p99 < 50 ms over ``nodes`` processes."""
    ctx = multiprocessing.get_context("spawn")
    best, seen = 0, []
    for total in ladder:
        queue = ctx.Queue()
        procs = [ctx.Process(target=load_node, args=(db, total // nodes, seconds, 100 * total
                                                     + n, queue)) for n in range(nodes)]
        for proc in procs:
            proc.start()
        results = [queue.get(timeout=seconds * 4 + 120) for _ in procs]
        for proc in procs:
            proc.join(30)
        p99 = max(r["lag_p99_ms"] for r in results)
        seen.append({"tables": total, "lag_p99_ms": round(p99, 1),
                     "moves_per_s": sum(r["moves_per_s"] for r in results)})
        print(f"  {nodes} node(s), {total} tables: lag p99 {p99:.1f} ms, "
              f"{seen[-1]['moves_per_s']} moves/s", flush=True)
        if p99 >= 50:
            break
        best = total
    return best, seen


def take_over(db: str, redis: str) -> float:
    """Seconds from an owner's SIGKILL to the first event from the new owner."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    fast = os.path.join(HERE, "..", "tests", "fast_server.py")
    procs = [subprocess.Popen([sys.executable, fast, db, redis], stdout=subprocess.PIPE,
                              text=True, env=env) for _ in range(2)]
    try:
        urls = [p.stdout.readline().strip().rstrip("/") for p in procs if p.stdout]
        return asyncio.run(_take_over(urls, procs[0]))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait(10)


async def _take_over(urls: list[str], owner: Any) -> float:
    a, b = (u.replace("http", "ws") + "/ws" for u in urls)
    async with websockets.connect(a, origin=urls[0]) as ws:
        await ws.send(json.dumps({"type": "start", "game": "slapjack", "players": 2}))
        welcome = json.loads(await ws.recv())
        await ws.recv()
        # a move first: a table against the computer nobody played is not kept
        await ws.send(json.dumps({"type": "action", "action": {"type": "flip"}}))
        while json.loads(await ws.recv())["type"] != "events":
            pass
    await asyncio.sleep(0.5)
    killed = time.perf_counter()
    owner.send_signal(signal.SIGKILL)
    while True:
        try:
            async with websockets.connect(b, origin=urls[1]) as ws:
                await ws.send(json.dumps({"type": "resume", "token": welcome["token"]}))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                    if message["type"] == "state":
                        view = message["view"]
                        if view["turn"] == 0:
                            await ws.send(json.dumps({"type": "action",
                                                      "action": {"type": "flip"}}))
                    if message["type"] == "events":
                        return time.perf_counter() - killed
        except (TimeoutError, websockets.ConnectionClosed, OSError):
            await asyncio.sleep(0.2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--part", choices=("all", "round-trip", "held", "take-over"),
                        default="all", help="run one part only")
    args = parser.parse_args()
    rounds = 300 if args.quick else 2000
    seconds = 4.0 if args.quick else 10.0
    ladder = [100, 200, 400] if args.quick else [200, 400, 800, 1600, 3200]
    random.seed(1)
    out: dict[str, Any] = {"cores": os.cpu_count()}
    with ExitStack() as stack:
        pg = stack.enter_context(postgres_server())
        redis = stack.enter_context(redis_server())
        db = new_database(pg, "bench_nodes")
        if args.part in ("all", "round-trip"):
            round_trip(db, redis, rounds, out)
        if args.part in ("all", "held"):
            held_both(db, ladder, seconds, out)
        if args.part in ("all", "take-over"):
            db2 = new_database(pg, "bench_takeover")
            moved = [take_over(db2, redis) for _ in range(1 if args.quick else 3)]
            out["take_over_s"] = moved
            print(f"SIGKILL of an owner to the first event from the new owner: "
                  f"{', '.join(f'{m:.2f}' for m in moved)} s", flush=True)
    print(json.dumps(out))
    return 0


def round_trip(db: str, redis: str, rounds: int, out: dict[str, Any]) -> None:
    urls, procs = start_nodes(2, db, redis)
    try:
        trip = asyncio.run(round_trips(urls[0], urls[1], rounds))
    finally:
        for proc in procs:
            proc.terminate()
            proc.join(10)
    out["round_trip"] = trip
    echo = trip["echo"]["median_us"]
    print(f"slap round trip, median (p99): owner {trip['owner']['median_us']:.0f} us "
          f"({trip['owner']['p99_us']:.0f}), through another node "
          f"{trip['relayed']['median_us']:.0f} us ({trip['relayed']['p99_us']:.0f}), "
          f"echo {echo:.0f} us; ratios to echo: owner "
          f"{trip['owner']['median_us'] / echo:.2f}, relayed "
          f"{trip['relayed']['median_us'] / echo:.2f}", flush=True)


def held_both(db: str, ladder: list[int], seconds: float, out: dict[str, Any]) -> None:
    one, one_seen = held(db, 1, ladder, seconds)
    three, three_seen = held(db, 3, ladder, seconds)
    out["held"] = {"one_node": one, "three_nodes": three, "one_seen": one_seen,
                   "three_seen": three_seen}
    print(f"tables held at lag p99 < 50 ms ({os.cpu_count()} cores): one node {one}, "
          f"three nodes {three} (ratio {three / one if one else float('nan'):.2f})",
          flush=True)


if __name__ == "__main__":
    sys.exit(main())
