"""A delaying TCP proxy on 127.0.0.1, for tests and benchmarks of play at network latency:
every chunk either way is held for a fixed delay plus a bounded, uniformly drawn jitter
(``random.Random(seed)``), in order (a TCP stream is never reordered), between a client
and the real server. Used by ``tests/web/test_lag_proxy.py`` and ``bench/bench_lag.py``."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float,
                jitter: float, rng: random.Random) -> None:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def deliver() -> None:
        while True:
            when, data = await queue.get()
            if not data:
                break
            wait = when - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()
        with contextlib.suppress(OSError):
            writer.close()

    sender = loop.create_task(deliver())
    last = 0.0
    try:
        while True:
            data = await reader.read(65536)
            last = max(last, loop.time() + delay + rng.uniform(0.0, jitter))
            await queue.put((last, data))
            if not data:
                break
        await sender
    except (OSError, asyncio.CancelledError):
        sender.cancel()
        raise


@asynccontextmanager
async def delaying_proxy(target_port: int, *, delay: float, jitter: float = 0.0,
                         seed: int = 0) -> AsyncIterator[int]:
    """Listens on 127.0.0.1; each connection is relayed to ``target_port`` with ``delay``
    (+ up to ``jitter``) seconds each way. Yields the proxy's port."""
    rng = random.Random(seed)
    tasks: set[asyncio.Task[None]] = set()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", target_port)
        loop = asyncio.get_running_loop()
        pumps = [loop.create_task(_pump(reader, up_writer, delay, jitter, rng)),
                 loop.create_task(_pump(up_reader, writer, delay, jitter, rng))]
        tasks.update(pumps)
        with contextlib.suppress(OSError, asyncio.CancelledError):
            await asyncio.gather(*pumps)
        for w in (writer, up_writer):
            with contextlib.suppress(OSError):
                w.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port: int = server.sockets[0].getsockname()[1]
    try:
        yield port
    finally:
        server.close()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
