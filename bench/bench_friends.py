"""Load benchmark of tables with friends: many tables, two people's sockets each, one server.

The server (the real app on uvicorn, default limits, one process) runs in a child process on
127.0.0.1; scripted people connect over real WebSockets from ``--workers`` client processes. The
receiving stamp is taken in a client process, so a busy machine's scheduling shows in the
figures as well as the server's own work. At each table one person creates a
two-seat Slapjack table with friends, the other takes the free seat, the host starts, and
both resume their seats on the same sockets. Then they play like quick people: a flip a
moment after their turn comes, a slap at every Jack after a reaction time (both slap: a
race the server settles).

Event lag: from the moment the server starts to apply a person's action (stamped in the
server process, just before ``Room.commit``) to the moment the *other* person's socket
receives the ``events`` message about it (stamped in the client right after ``recv``). Both
stamps are ``time.monotonic()``, one clock for every process of the machine. The n-th
``events`` message a seat receives is the n-th change of its table (no computer players
here), which is how client and server stamps are matched; the ``flips`` count each side
saw is checked on every match.

Bounded: ``--seconds`` of play and at most ``--moves`` actions per person.

Run: ``.venv/bin/python bench/bench_friends.py`` (``--quick`` for a 5-second smoke run).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import socket
import sys
import time
from collections.abc import Sequence
from typing import Any

import httpx
import uvicorn
import websockets
from figures import percentile

from parlour.engine import Action
from parlour.live import Lobby, Room
from parlour.web import create_app
from parlour.web.guard import Gate
from parlour.web.server import config

# -- the server (child process) ------------------------------------------------------------------


def serve(sock: socket.socket) -> None:
    """The real app, plus a route that hands out the server's stamps and CPU time."""
    stamps: list[tuple[str, int, int, int, float]] = []
    # every client here is 127.0.0.1: the per-address caps stand aside, as for many addresses
    lobby = Lobby(grace=60.0, max_tables=1000, tables_per_address=None)
    app = create_app(lobby=lobby, gate=Gate(per_address=1000, idle_per_address=1000,
                                            rate=None, connect_rate=1000.0,
                                            connect_burst=1000))
    commit = Room.commit

    def stamped(self: Room, seat: int, action: Action, version: int | None = None,
                **settled: Any) -> None:
        t0 = time.monotonic()
        commit(self, seat, action, version, **settled)
        if not settled:  # a person's move as it arrives (not one the race book settles)
            game = self.game
            stamps.append((self.id, len(game.history), seat, game.view(None)["flips"], t0))

    Room.commit = stamped  # type: ignore[method-assign]

    @app.get("/bench/stamps")
    async def give() -> dict[str, Any]:
        return {"stamps": stamps, "cpu": time.process_time(), "wall": time.monotonic()}

    uvicorn.Server(config(app)).run(sockets=[sock])


# -- the people (worker processes) ---------------------------------------------------------------


class Person:
    """One scripted person's socket: plays its seat, stamps every ``events`` it receives."""

    def __init__(self, ws: Any, rng: random.Random, max_moves: int) -> None:
        self.ws = ws
        self.rng = rng
        self.seat = -1
        self.table = ""
        self.received = 0  # `events` messages since the state: the table's change count
        self.records: list[tuple[str, int, int, float]] = []  # table, change, flips, t
        self.moves = 0
        self.max_moves = max_moves
        self.timer: asyncio.TimerHandle | None = None
        self.over = False

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def expect(self, kind: str) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await self.ws.recv())
            if message["type"] == kind:
                return message
            if message["type"] == "error":
                raise RuntimeError(f"{kind} expected, got {message}")

    def plan(self, view: dict[str, Any]) -> None:
        """Decides the next move from the view, like a quick person would."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if view["winner"] is not None:
            self.over = True
            return
        if self.moves >= self.max_moves or view["players"][self.seat]["out"]:
            return
        loop = asyncio.get_running_loop()
        action: dict[str, Any] | None = None
        if view["slappable"]:
            action, wait = {"type": "slap", "at": view["flips"]}, self.rng.uniform(0.2, 0.5)
        elif view["turn"] == self.seat:
            action, wait = {"type": "flip"}, self.rng.uniform(0.15, 0.35)
        if action is not None:
            message = {"type": "action", "action": action}
            self.timer = loop.call_later(wait, lambda: asyncio.ensure_future(self.act(message)))

    async def act(self, message: dict[str, Any]) -> None:
        self.moves += 1
        try:
            await self.send(message)
        except websockets.ConnectionClosed:
            self.over = True

    async def play(self, until: float) -> None:
        loop = asyncio.get_running_loop()
        while not self.over:
            left = until - loop.time()
            if left <= 0:
                break
            try:
                raw = await asyncio.wait_for(self.ws.recv(), left)
            except (TimeoutError, websockets.ConnectionClosed):
                break
            now = time.monotonic()
            message = json.loads(raw)
            if message["type"] == "state":
                self.plan(message["view"])
            elif message["type"] == "events":
                self.received += 1
                self.records.append((self.table, self.received,
                                     message["view"]["flips"], now))
                self.plan(message["view"])
        if self.timer is not None:
            self.timer.cancel()


async def one_table(url: str, rng: random.Random, until: float, max_moves: int,
                    ready: asyncio.Event) -> list[tuple[str, int, int, int, float]]:
    async with websockets.connect(url, max_size=2**20) as a, \
            websockets.connect(url, max_size=2**20) as b:
        host, friend = Person(a, rng, max_moves), Person(b, rng, max_moves)
        await host.send({"type": "create", "game": "slapjack", "players": 2,
                         "level": "normal", "name": "Host"})
        seated = await host.expect("seated")
        await friend.send({"type": "sit", "table": seated["table"], "name": "Friend"})
        sat = await friend.expect("seated")
        await ready.wait()  # every table is seated: start them together
        await host.send({"type": "begin"})
        # Both take their seats before either plays, so both count changes from the deal.
        for person, token in ((host, seated["token"]), (friend, sat["token"])):
            await person.send({"type": "resume", "token": token})
            welcome = await person.expect("welcome")
            person.seat, person.table = welcome["seat"], welcome["table"]
        await asyncio.gather(host.play(until), friend.play(until))
        return [(t, n, person.seat, flips, at) for person in (host, friend)
                for t, n, flips, at in person.records]


async def worker_main(url: str, tables: int, seconds: float, max_moves: int,
                      seed: int, start_at: float) -> list[tuple[str, int, int, int, float]]:
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    ready = asyncio.Event()
    # wait for every worker's tables before starting play: the clock is shared
    until = loop.time() + (start_at - time.monotonic()) + seconds
    tasks = [asyncio.create_task(one_table(url, random.Random(rng.random()), until, max_moves,
                                           ready)) for _ in range(tables)]
    await asyncio.sleep(max(0.0, start_at - time.monotonic()))
    ready.set()
    records: list[tuple[str, int, int, int, float]] = []
    for got in await asyncio.gather(*tasks):
        records.extend(got)
    return records


def worker(args: tuple[str, int, float, int, int, float]) -> list[tuple[str, int, int, int,
                                                                        float]]:
    return asyncio.run(worker_main(*args))


# -- the run -------------------------------------------------------------------------------------


def run(tables: int, seconds: float, max_moves: int, workers: int) -> dict[str, Any]:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(1024)
    port = sock.getsockname()[1]
    child = multiprocessing.get_context("fork").Process(target=serve, args=(sock,), daemon=True)
    child.start()
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                cpu0 = httpx.get(base + "/bench/stamps", timeout=2).json()["cpu"]
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.05)
        shares = [tables // workers + (1 if i < tables % workers else 0) for i in range(workers)]
        start_at = time.monotonic() + 3.0  # time for every socket to connect and sit
        jobs = [(base.replace("http", "ws") + "/ws", n, seconds, max_moves, 1000 + i, start_at)
                for i, n in enumerate(shares) if n]
        with multiprocessing.get_context("fork").Pool(len(jobs)) as pool:
            received = [r for part in pool.map(worker, jobs) for r in part]
        server = httpx.get(base + "/bench/stamps", timeout=10).json()
    finally:
        child.terminate()
        child.join(10)
        sock.close()
    stamps = {(t, n): (seat, flips, at) for t, n, seat, flips, at in server["stamps"]}
    lags: list[float] = []
    mismatched = 0
    for t, n, seat, flips, at in received:
        stamp = stamps.get((t, n))
        if stamp is None or stamp[1] != flips:
            mismatched += 1
            continue
        if stamp[0] != seat:  # the other person's action reaching this socket
            lags.append(at - stamp[2])
    lags.sort()
    played = max(1e-9, seconds)
    return {"tables": tables, "sockets": 2 * tables, "seconds": seconds,
            "actions": len(server["stamps"]),
            "actions_per_s": round(len(server["stamps"]) / played),
            "server_cpu_share": round((server["cpu"] - cpu0) / (played + 3.0), 3),
            "lag_samples": len(lags), "unmatched": mismatched,
            "lag_p50_ms": percentile(lags, 0.5) * 1e3, "lag_p99_ms": percentile(lags, 0.99) * 1e3,
            "lag_max_ms": lags[-1] * 1e3 if lags else float("nan"),
            "lag_over_50ms": sum(1 for lag in lags if lag > 0.05)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--moves", type=int, default=1000, help="most actions per person")
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument("--quick", action="store_true", help="5 seconds (smoke run)")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds = 5.0
    result = run(args.tables, args.seconds, args.moves, args.workers)
    print(f"{result['tables']} tables with friends, {result['sockets']} people's sockets, "
          f"{result['seconds']:.0f} s: {result['actions']} actions "
          f"({result['actions_per_s']}/s), server CPU {result['server_cpu_share']:.0%} of a "
          f"core; event lag to the other person's socket p50 {result['lag_p50_ms']:.2f} ms, "
          f"p99 {result['lag_p99_ms']:.2f} ms, max {result['lag_max_ms']:.1f} ms, "
          f"{result['lag_over_50ms']} over 50 ms ({result['lag_samples']} samples, "
          f"{result['unmatched']} unmatched)")
    print(json.dumps(result))
    return 0 if result["lag_samples"] and not result["unmatched"] else 1


if __name__ == "__main__":
    sys.exit(main())
