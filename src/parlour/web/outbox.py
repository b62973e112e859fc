"""A socket's way out: the messages queued for one browser, sent in order.

The table calls :meth:`Outbox.send` synchronously, as it changes; the outbox encodes the
message once and sends it from its writer task, or, while the socket's own frame is being
answered (:meth:`Outbox.answering`), from the reading task straight after it, one
scheduling hop less on every round trip. A browser that stops reading is not kept in
memory: more than ``max_queue`` unsent messages and it is cut off (closed 1008).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Protocol

from starlette.websockets import WebSocketDisconnect

from parlour.wire import dumps


class Socket(Protocol):
    """What the outbox needs of a socket: a browser's WebSocket on this node, or the
    stand-in for one on another node (:class:`~parlour.web.relay.RemoteSocket`)."""

    async def send_text(self, data: str, /) -> None: ...

    async def close(self, code: int = 1000, /) -> None: ...


class Outbox:
    """The messages on their way to one socket; see the module docstring."""

    def __init__(self, ws: Socket, max_queue: int) -> None:
        self.ws = ws
        self.max_queue = max_queue
        self.closed = False
        """Nothing more is queued (the socket is closing or closed)."""
        self._out: deque[str] = deque()
        self._wake = asyncio.Event()
        self._sending = False
        self._answering = False
        self._cut_off = False
        self._close_code: int | None = None  # close once the queue is sent
        self._writer_task: asyncio.Task[None] | None = None

    def send(self, message: Mapping[str, object]) -> None:
        """Queues a message (the table calls this synchronously)."""
        if self.closed:
            return
        if len(self._out) >= self.max_queue:
            # The browser is not reading; drop it rather than hold memory for it.
            self.closed = self._cut_off = True
            self._out.clear()
        else:
            self._out.append(dumps(message))
            if self._answering:
                return  # the reading task sends it as soon as the frame is handled
        self._wake.set()

    def send_text(self, text: str) -> None:
        """Queues a message already encoded (by the table's owner, on another node)."""
        if not self.closed:
            self._out.append(text)
            self._wake.set()

    def close_soon(self, code: int) -> None:
        """Closes the socket with ``code`` once what is queued is sent."""
        self._close_code = code
        self.closed = True
        self._wake.set()

    @property
    def queued(self) -> list[str]:
        """The encoded messages not sent yet (oldest first)."""
        return list(self._out)

    @contextmanager
    def answering(self) -> Iterator[None]:
        """While a frame of the socket is handled: what it queues is sent by :meth:`flush`
        straight after, not by the writer task."""
        self._answering = True
        try:
            yield
        finally:
            self._answering = False

    async def flush(self) -> None:
        """Sends everything queued, in order. Whoever calls first sends; a second caller
        returns at once, as the first one's loop picks up what was added meanwhile."""
        if self._sending:
            return
        self._sending = True
        try:
            while self._out and not self._cut_off:
                await self.ws.send_text(self._out.popleft())
            if self._cut_off:
                await self.ws.close(1008)
            elif self._close_code is not None and not self._out:
                code, self._close_code = self._close_code, None
                await self.ws.close(code)
        finally:
            self._sending = False

    async def writer(self) -> None:
        """Sends what the table says between the browser's own frames (computer moves)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self.flush()
            except (WebSocketDisconnect, RuntimeError, OSError):
                return

    def start_writer(self) -> None:
        """Runs :meth:`writer` on its own (a stand-in has no reading loop)."""
        self._writer_task = asyncio.create_task(self.writer())

    def stop_writer(self) -> None:
        if self._writer_task is not None:
            self._writer_task.cancel()
