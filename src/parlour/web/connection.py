"""One browser's WebSocket: its frames in, parsed by the protocol; its seat's messages out.

The connection trusts nothing it receives: each frame is rate-limited, then parsed once by
:mod:`parlour.live.protocol` into a typed command, then carried out by the lobby or the
table; every problem comes back as an ``error`` message (a code and a sentence) and no
input stops the connection's table or the server. Game state reaches the socket only
through the messages a :class:`~parlour.live.Room` builds with
:func:`~parlour.live.message_for`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from typing import Protocol

from starlette.datastructures import Address
from starlette.types import Message, Receive
from starlette.websockets import WebSocketDisconnect

from parlour.live import Lobby, Refused, Room
from parlour.live import protocol as p
from parlour.web.guard import Gate, TokenBucket
from parlour.web.outbox import Outbox, Socket
from parlour.web.session import Playing, Relayed, Session
from parlour.wire import dumps

log = logging.getLogger(__name__)

_encode = dumps  # what a message is on the socket (parlour.wire)
#: A failure while handling a frame logs its traceback at most this often (seconds), server
#: wide; a flood of frames that hit the same bug must not flood the log.
TRACEBACK_EVERY = 60.0
_last_traceback = -TRACEBACK_EVERY


def log_failure() -> None:
    """Logs the exception being handled: its traceback once a minute at most, else a line."""
    global _last_traceback
    now = time.monotonic()
    if now - _last_traceback >= TRACEBACK_EVERY:
        _last_traceback = now
        log.exception("message handling failed")
    else:
        log.warning("message handling failed again (traceback logged at most once a minute)")


#: Seconds between two pings of a seated page (its delay, parlour.live.lag); the first
#: ``PINGS_FIRST`` come every ``PING_FIRST`` seconds, so the first race already has an estimate.
PING_EVERY = 1.0
PING_FIRST = 0.25
PINGS_FIRST = 8


@dataclass(frozen=True)
class Limits:
    """How much a connection may send. ``rate`` messages a second on average, ``burst`` at
    once (``rate=None``: no limit, for benchmarks); more than ``max_queue`` unsent messages
    to a slow browser are not kept. The limits per client address are
    :class:`~parlour.web.guard.Gate`'s."""

    rate: float | None = 20.0
    burst: int = 30
    max_queue: int = 512
    cutoff: int = 50
    """A connection that has more than this many messages dropped in one flood (drops
    less than a second apart) after its ``rate_limited`` warning is cut off (``flooding``)."""


class BrowserSocket(Socket, Protocol):
    """A socket a browser opened on this node (Starlette's ``WebSocket``): besides what
    any :class:`~parlour.web.outbox.Socket` does, it has the browser's address, it is
    accepted, and its frames are read (:func:`serve_socket`)."""

    @property
    def client(self) -> Address | None: ...

    async def accept(self) -> None: ...

    async def receive(self) -> Message: ...


class Relaying(Protocol):
    """What a connection asks of its node's :class:`~parlour.web.relay.Relay`, on a site
    of several nodes. Named here so that this module, which the relay imports, does not
    import it back."""

    def new_id(self) -> str:
        """An id for a new connection, unique across the site."""

    async def before_admit(self, address: str) -> None:
        """A new socket from ``address``: the site's count of its sockets, fresh."""

    async def frame(self, conn: Connection, text: str | bytes | None) -> None:
        """One frame from ``conn``'s browser: carried out here or at its table's owner."""

    async def gone(self, conn: Connection) -> None:
        """``conn``'s browser closed its socket."""


class Connection:
    """One browser's socket: its frames in (rate-limited, parsed, carried out by its
    :class:`~parlour.web.session.Session`), its messages out (its
    :class:`~parlour.web.outbox.Outbox`), and the pings that measure its lag."""

    def __init__(self, ws: Socket, lobby: Lobby, limits: Limits, *,
                 gate: Gate | None = None, address: str = "",
                 relay: Relaying | None = None) -> None:
        self.ws = ws
        """Where its messages go: the browser's socket, or (a stand-in on the table's
        owner) the way back to the browser's node."""
        self.relay = relay
        """With several nodes: the :class:`~parlour.web.relay.Relay` that routes frames."""
        self.ident = relay.new_id() if relay is not None else ""
        self.lobby = lobby
        self.limits = limits
        self.gate = gate
        self.address = address
        self.outbox = Outbox(ws, limits.max_queue)
        self.session = Session(lobby, self.outbox.send, owner=address, on_busy=self._busy)
        self._bucket = (TokenBucket(limits.rate, limits.burst) if limits.rate is not None
                        else None)
        self._warned = 0.0
        self._dropped = 0  # messages dropped in the current flood
        self._last_drop = 0.0
        # lag (parlour.live.lag): the pings sent and not yet answered (id -> when), once the
        # page has said it answers them (a pong with id 0)
        self._pings: dict[int, float] = {}
        self._ping_id = 0
        self._answers_pings = False
        self._pinger_task: asyncio.Task[None] | None = None

    # -- its place (the session's) -------------------------------------------------------

    @property
    def busy(self) -> bool:
        """At a table (playing, holding a seat, watching, in a waiting room, or relayed)."""
        return self.session.busy

    def _busy(self, busy: bool) -> None:
        if self.gate is not None:
            self.gate.busy(self.address, busy)

    @property
    def remote(self) -> str | None:
        """The node whose stand-in carries this socket's frames out (its table's owner)."""
        place = self.session.place
        return place.node if isinstance(place, Relayed) else None

    def release(self) -> None:
        """Lets go of every place this connection has here, without leaving any seat."""
        self.session.release()

    # -- out -----------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self.outbox.closed

    @closed.setter
    def closed(self, value: bool) -> None:
        self.outbox.closed = value

    def send(self, message: Mapping[str, object]) -> None:
        """Queues a message (the table calls this synchronously)."""
        self.outbox.send(message)

    def error(self, code: str, reason: str, about: str | None = None) -> None:
        self.outbox.send(p.error(code, reason, about))

    # -- lag -----------------------------------------------------------------------------

    @property
    def answers_pings(self) -> bool:
        """The page said it answers the server's pings (a ``pong`` with id 0)."""
        return self._answers_pings

    def start_pinger(self) -> None:
        """Pings this connection's page on its own task (a stand-in for a page on another
        node has no reading loop; its pongs come back relayed, so the round trip measured
        is the page's through its node: what a race at this table is delayed by)."""
        self._pinger_task = asyncio.create_task(self._pinger())

    def stop(self) -> None:
        """Stops the tasks :meth:`start_pinger` and the outbox's writer started."""
        self.outbox.stop_writer()
        if self._pinger_task is not None:
            self._pinger_task.cancel()

    async def _pinger(self) -> None:
        """Pings a page seated at a started table, every ``PING_EVERY`` seconds (the first
        few quicker, so that an estimate is there for the first race)."""
        while not self.closed:
            await asyncio.sleep(PING_FIRST if self._ping_id < PINGS_FIRST else PING_EVERY)
            if not self._answers_pings or self._playing() is None:
                continue
            self._ping_id += 1
            if len(self._pings) >= 8:  # unanswered: forget the oldest
                del self._pings[min(self._pings)]
            self._pings[self._ping_id] = time.monotonic()
            self.send({"type": "ping", "id": self._ping_id})

    def _playing(self) -> tuple[Room, int] | None:
        place = self.session.place
        if isinstance(place, Playing) and place.seating.room.table is not None:
            return place.seating.room, place.seating.seat
        return None

    def _ponged(self, ident: int) -> None:
        if ident == 0:
            self._answers_pings = True
            return
        sent = self._pings.pop(ident, None)
        playing = self._playing()
        if sent is not None and playing is not None:
            room, seat = playing
            room.sample_lag(seat, time.monotonic() - sent)

    # -- in ------------------------------------------------------------------------------

    async def run(self, receive: Receive) -> None:
        """Handles the browser's frames, read from ``receive`` (its socket's), until it
        goes; then lets go of its places. A stand-in has no such loop: the relay hands it
        each frame."""
        writer = asyncio.create_task(self.outbox.writer())
        pinger = asyncio.create_task(self._pinger())
        try:
            while not self.closed:
                try:
                    incoming = await receive()
                except (WebSocketDisconnect, RuntimeError, OSError):
                    break
                if incoming["type"] == "websocket.disconnect":
                    break
                try:
                    with self.outbox.answering():
                        try:
                            frame = incoming.get("text", incoming.get("bytes"))
                            if self.relay is not None:
                                await self.relay.frame(self, frame)
                            else:
                                self.receive(frame)
                        except Exception:
                            log_failure()
                            self.error("internal", "the server could not handle that message")
                        # Answer at once from here rather than through the writer task: one
                        # scheduling hop less on every round trip.
                        await self.outbox.flush()
                except (WebSocketDisconnect, RuntimeError, OSError):
                    break
        finally:
            self.closed = True
            self.release()
            if self.relay is not None:
                await self.relay.gone(self)
            writer.cancel()
            pinger.cancel()
            with suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError, OSError):
                await writer
            with suppress(asyncio.CancelledError):
                await pinger

    def allow(self) -> bool:
        """Whether to handle the next frame: within this connection's rate, and within its
        address's (:class:`~parlour.web.guard.Gate`). A dropped frame is never parsed."""
        if self._bucket is None:
            return True
        now = time.monotonic()
        if self._bucket.take():
            if self.gate is None or self.gate.allow(self.address):
                return True
            self._warn(now)  # the address's other sockets used up its share
            return False
        if now - self._last_drop >= 1.0:
            self._dropped = 0  # a new flood
        self._last_drop = now
        self._dropped += 1
        if self._dropped > self.limits.cutoff:
            self._flooded()
        else:
            self._warn(now)
        return False

    def _warn(self, now: float) -> None:
        if now - self._warned >= 1.0:
            self._warned = now
            self.error("rate_limited", "too many messages: they are being dropped")

    def _flooded(self) -> None:
        """Cuts this connection off: it kept flooding after its warning."""
        self.error("flooding", "too many messages after the warning: this connection is closed")
        self.outbox.close_soon(1008)
        if self.gate is not None:
            self.gate.flooded(self.address)

    def receive(self, frame: str | bytes | None) -> None:
        """Handles one frame from the browser."""
        if not self.allow():
            return
        try:
            command = p.parse(frame if frame is not None else b"")
        except Refused as exc:
            self.error(exc.code, exc.reason, exc.about)
            return
        self.carry_out(command)

    def carry_out(self, command: p.Command) -> None:
        """Carries out a parsed command; a refusal is answered as an ``error``."""
        try:
            match command:
                case p.PongReply(id=ident):
                    self._ponged(ident)
                case p.Ping(id=ident):
                    self.send({"type": "pong"} if ident is None
                              else {"type": "pong", "id": ident})
                case _:
                    self.session.carry_out(command)
        except Refused as exc:
            self.error(exc.code, exc.reason, exc.about)


async def serve_socket(ws: BrowserSocket, lobby: Lobby, limits: Limits, gate: Gate,
                       relay: Relaying | None = None) -> None:
    """One socket from accepting to closing: counted per client address by ``gate``, which
    may refuse it (an ``error`` with the code, then the close); else a :class:`Connection`.
    """
    address = ws.client.host if ws.client is not None else ""
    if relay is not None:
        await relay.before_admit(address)
    refused = gate.admit(address)
    if refused is not None and refused[0] == "slow_down":
        if gate.holding(address):  # a client that retries at once retries once a second
            try:
                await asyncio.sleep(gate.hold)
            finally:
                gate.held(address)
        with suppress(WebSocketDisconnect, RuntimeError, OSError):
            await ws.close(1008)  # before the handshake: HTTP 403, nothing more
        return
    if refused is not None:
        code, reason = refused
        with suppress(WebSocketDisconnect, RuntimeError, OSError):
            await ws.accept()
            await ws.send_text(_encode(p.error(code, reason)))
            await ws.close(1013)  # try again later
        return
    connection = Connection(ws, lobby, limits, gate=gate, address=address, relay=relay)
    try:  # counted from here on: given back however the socket ends, its handshake too
        try:
            await ws.accept()
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        await connection.run(ws.receive)
    finally:
        gate.gone(address, idle=not connection.busy)
