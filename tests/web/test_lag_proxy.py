"""Slap races at network latency, over the real socket (issue 18): scripted people play
Slapjack at a table with friends, each through a delaying proxy on 127.0.0.1 (a fixed
delay plus a bounded jitter each way, ``lagproxy.py``). The server measures each
connection's delay with its pings and settles every race by reaction time (ruling J3,
``parlour.live.lag``).

No assertion reads a wall clock: each person's reaction times are drawn from a seeded
generator and the outcomes are counted, with wide intervals where they are statistics.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import websockets
from conftest import crowd, running
from lagproxy import delaying_proxy

from parlour.live import Lobby
from parlour.live.lag import CAP_ONE_WAY
from parlour.web import create_app

#: the 99.9% normal quantile: a fair share falls outside its interval once in a thousand
Z = 3.29
#: races are counted once the server has had time to measure (its first pings come every
#: quarter of a second)
WARM_UP = 2.5


def interval(wins: int, n: int, z: float = Z) -> tuple[float, float]:
    """Wilson's interval for a share of ``wins`` in ``n``."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


Reaction = Callable[[], float]


class Person:
    """A scripted person at one seat: flips at once on its turn (but never onto a Jack),
    slaps every Jack
    ``reaction()`` seconds after it is drawn on its screen (never any other card), and
    answers the server's pings after ``pong_delay`` seconds (0: at once, as the page does)."""

    def __init__(self, url: str, token: str, reaction: Reaction, pong_delay: float = 0.0
                 ) -> None:
        self.url, self.token, self.reaction, self.pong_delay = url, token, reaction, pong_delay
        self.takes: list[tuple[float, int]] = []  # (when seen, who took a Jack)
        self.started = asyncio.Event()
        self.connection: list[dict[str, Any]] = []

    async def run(self, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        async with websockets.connect(self.url) as ws:
            tasks: set[asyncio.Task[None]] = set()

            async def later(after: float, message: dict[str, Any]) -> None:
                await asyncio.sleep(after)
                with contextlib.suppress(websockets.ConnectionClosed):
                    await ws.send(json.dumps(message))

            def soon(after: float, message: dict[str, Any]) -> None:
                task = loop.create_task(later(after, message))
                tasks.add(task)
                task.add_done_callback(tasks.discard)

            await ws.send(json.dumps({"type": "pong", "id": 0}))  # "I answer pings"
            await ws.send(json.dumps({"type": "resume", "token": self.token}))
            flipped = -1
            try:
                while not stop.is_set():
                    try:
                        m = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                    except TimeoutError:
                        continue
                    if m["type"] == "ping":
                        soon(self.pong_delay, {"type": "pong", "id": m["id"]})
                        continue
                    if m["type"] == "connection":
                        self.connection.append(m)
                    if "view" not in m:
                        continue
                    view = m["view"]
                    self.started.set()
                    for e in m.get("events", ()):
                        if e["type"] == "flip" and e["card"][0] == "J":
                            soon(self.reaction(), {"type": "action",
                                                   "action": {"type": "slap", "at": e["at"]}})
                        if e["type"] == "take" and e["reason"] == "jack":
                            self.takes.append((loop.time(), e["player"]))
                    if view["winner"] is not None:
                        break
                    if (view["turn"] == view["seat"] and view["flips"] != flipped
                            and not view["slappable"]):  # a Jack waits to be slapped
                        flipped = view["flips"]
                        soon(0.0, {"type": "action", "action": {"type": "flip"}})
            finally:
                for task in list(tasks):
                    task.cancel()


@asynccontextmanager
async def site() -> AsyncIterator[tuple[str, int]]:
    """The real server (two people at each table, no computer players needed)."""
    app = create_app(lobby=Lobby(tables_per_address=None), gate=crowd())
    with running(app) as url:
        yield url.replace("http", "ws") + "/ws", int(url.rsplit(":", 1)[1])


async def friends_table(url: str) -> tuple[list[str], Callable[[], Any]]:
    """A two-seat Slapjack table with friends; its seat tokens, and how to start it."""
    host = await websockets.connect(url)
    guest = await websockets.connect(url)

    async def next_of(ws: Any, kind: str) -> dict[str, Any]:
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if m["type"] == kind:
                return m

    await host.send(json.dumps({"type": "create", "game": "slapjack", "players": 2,
                                "level": "normal", "name": "Near"}))
    first = await next_of(host, "seated")
    await guest.send(json.dumps({"type": "join", "table": first["table"]}))
    await next_of(guest, "lobby")
    await guest.send(json.dumps({"type": "sit", "table": first["table"], "name": "Far"}))
    second = await next_of(guest, "seated")

    async def begin() -> None:
        await host.send(json.dumps({"type": "begin"}))
        await asyncio.sleep(0.05)
        await host.close()
        await guest.close()

    return [first["token"], second["token"]], begin


async def races(lags: tuple[float, float], reactions: tuple[Reaction, Reaction], *,
                tables: int, enough: int, jitter: float = 0.010,
                pong_delays: tuple[float, float] = (0.0, 0.0), seconds: float = 45.0,
                warm_up: float = WARM_UP) -> tuple[list[int], list[Person]]:
    """Plays ``tables`` tables at once, seat ``i`` of each ``lags[i]`` away each way, until
    ``enough`` races after the warm-up have been won (or ``seconds``, a bound); the winning
    seat of each race."""
    async with site() as (url, port), contextlib.AsyncExitStack() as stack:
        ports = [await stack.enter_async_context(
            delaying_proxy(port, delay=lag, jitter=jitter if lag else 0.0, seed=i))
            for i, lag in enumerate(lags)]
        stop = asyncio.Event()
        people: list[Person] = []
        runs = []
        for _ in range(tables):
            tokens, begin = await friends_table(url)
            seated = [Person(f"ws://127.0.0.1:{ports[s]}/ws", tokens[s], reactions[s],
                             pong_delays[s]) for s in (0, 1)]
            people += seated
            runs += [asyncio.create_task(p.run(stop)) for p in seated]
            await asyncio.sleep(0.3)  # both resumed (through the proxies)
            await begin()
        loop = asyncio.get_running_loop()
        started = loop.time()
        hosts = people[0::2]

        def counted() -> list[int]:
            return [who for host in hosts for when, who in host.takes
                    if when - started > warm_up]

        while len(counted()) < enough and loop.time() - started < seconds:
            if all(r.done() for r in runs):
                break
            await asyncio.sleep(0.2)
        stop.set()
        for failure in await asyncio.gather(*runs, return_exceptions=True):
            if failure is not None:
                raise failure
        return counted(), people


def uniform(seed: int, low: float, high: float) -> Reaction:
    rng = random.Random(seed)
    return lambda: rng.uniform(low, high)


async def test_equal_people_at_10_and_120_ms_each_win_about_half_the_races() -> None:
    won, people = await races((0.010, 0.120), (uniform(1, 0.25, 0.45), uniform(2, 0.25, 0.45)),
                              tables=6, enough=60)
    assert len(won) >= 30, len(won)
    low, high = interval(won.count(1), len(won))
    assert low <= 0.5 <= high, (won.count(1), len(won))
    # and each page was shown both seats' connections, the far one about 120 ms
    last = people[0].connection[-1]["seats"]
    assert [s["seat"] for s in last] == [0, 1] and all(s["fair"] for s in last)
    assert 100 <= last[1]["ms"] <= 150 and last[0]["ms"] <= 30


async def test_a_slap_pressed_earlier_but_arriving_later_wins() -> None:
    """The far person (120 ms each way) reacts in 200 ms, its slap arriving 440 ms after
    the card; the near one (10 ms) in 300 ms, arriving at 320 ms: the far one wins all."""
    won, _ = await races((0.010, 0.120), (lambda: 0.300, lambda: 0.200), tables=3, enough=12)
    assert len(won) >= 6 and set(won) == {1}


async def test_a_client_that_delays_its_pongs_gains_no_more_than_the_cap() -> None:
    """Seat 1 is 10 ms away but answers every ping 600 ms late (it looks 310 ms away each
    way) and reacts in 700 ms; seat 0 reacts in 300 ms, both slaps about 20 ms on the way.
    Credited at most the cap (350 ms in all), seat 1's slap counts as 370 ms after its
    card, seat 0's as 300 ms: seat 0 wins every race. Believed, seat 1 would be credited
    with 700 + 20 - 620 = 100 ms, and win every race."""
    assert 2 * CAP_ONE_WAY < 0.620
    won, _ = await races((0.010, 0.010), (lambda: 0.300, lambda: 0.700), tables=3, enough=12,
                         pong_delays=(0.0, 0.600))
    assert len(won) >= 6 and set(won) == {0}


async def test_with_no_lag_the_quicker_person_wins_as_before() -> None:
    won, _ = await races((0.0, 0.0), (lambda: 0.300, lambda: 0.200), tables=2, enough=8,
                         warm_up=0.0)
    assert len(won) >= 4 and set(won) == {1}
