"""A real server process (``tests/fast_server.py``) and sockets that remember what they were
told: the multi-process tests (a killed server, several nodes) share them."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from pathlib import Path
from typing import Any

import websockets

HERE = Path(__file__).resolve().parent


@contextmanager
def server_process(db: str, *more: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``tests/fast_server.py`` on ``db`` (``more``: a Redis URL, for a node of a site):
    yields its URL and the process."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    # the log goes to a file: a pipe nobody reads would stop the server once it is full
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen([sys.executable, str(HERE / "fast_server.py"), db, *more],
                                stdout=subprocess.PIPE, stderr=log, text=True, env=env)
        try:
            assert proc.stdout is not None
            url = proc.stdout.readline().strip()
            if not url.startswith("http://127.0.0.1:"):
                log.seek(0)
                raise AssertionError(f"the server did not start: {log.read()[-2000:]}")
            yield url.rstrip("/"), proc
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait(10)
        log.seek(0)
        errors = [line for line in log.read().splitlines() if "Traceback" in line]
        assert not errors, f"the server logged {len(errors)} tracebacks"


class Seat:
    """One socket that remembers what it was told."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.views: list[dict[str, Any]] = []
        self.events_seen = 0

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def next(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            if message["type"] in ("state", "events"):
                self.views.append(message["view"])
                self.events_seen += message["type"] == "events"
            if message["type"] == kind:
                return message

    async def play_slapjack(self, seat: int, *, moves: int | None = None,
                            timeout: float = 60.0, slaps: bool = True) -> int:
        """Flips on its turn and (``slaps``) slaps every Jack until the game ends (or
        ``moves``)."""
        done = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while moves is None or done < moves:
            assert loop.time() < deadline, "the game did not end"
            view = self.views[-1]
            if view["winner"] is not None:
                break
            if view["slappable"] and slaps:
                await self.send({"type": "action", "action": {"type": "slap",
                                                              "at": view["flips"]}})
                done += 1
            elif view["turn"] == seat and not view["players"][seat]["out"]:
                await self.send({"type": "action", "action": {"type": "flip"}})
                done += 1
            with suppress(TimeoutError):
                await self.next("events", timeout=3.0)
        return done


@asynccontextmanager
async def seat_at(url: str) -> AsyncIterator[Seat]:
    async with websockets.connect(url.replace("http", "ws") + "/ws",
                                  origin=url) as ws:  # type: ignore[arg-type]
        yield Seat(ws)


async def friends_table(ann: Seat, bob: Seat, spy: Seat | None, game: str = "slapjack",
                        players: int = 3, **options: Any
                        ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ann creates a table with friends, Bob sits, the host starts it, both go to the game
    page with their tokens and ``spy`` watches: Ann's and Bob's ``seated`` messages."""
    await ann.send({"type": "create", "game": game, "players": players, "name": "Ann",
                    "options": options})
    anns = await ann.next("seated")
    await bob.send({"type": "sit", "table": anns["table"], "name": "Bob"})
    bobs = await bob.next("seated")
    await ann.send({"type": "begin"})
    for person, seated in ((ann, anns), (bob, bobs)):
        await person.send({"type": "resume", "token": seated["token"]})
        await person.next("state")
    if spy is not None:
        await spy.send({"type": "watch", "table": anns["table"]})
        await spy.next("state")
    return anns, bobs


def kill(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
