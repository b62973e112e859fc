"""One browser's WebSocket: its frames in, parsed by the protocol; its seat's messages out.

The connection trusts nothing it receives: each frame is rate-limited, then parsed once by
:mod:`parlour.live.protocol` into a typed command, then carried out by the lobby or the
table; every problem comes back as an ``error`` message (a code and a sentence) and no
input stops the connection's table or the server. Game state reaches the socket only
through the messages a :class:`~parlour.live.Table` builds with
:func:`~parlour.live.message_for`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from parlour.live import Lobby, Refused, Room, Seating
from parlour.live import protocol as p
from parlour.web.guard import Gate, TokenBucket
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


class Connection:
    """One browser's socket: its messages in, its seat's messages out."""

    def __init__(self, ws: WebSocket, lobby: Lobby, limits: Limits, *,
                 gate: Gate | None = None, address: str = "", relay: Any = None) -> None:
        self.ws = ws
        self.relay = relay
        """With several nodes: the :class:`~parlour.web.relay.Relay` that routes frames."""
        self.ident = relay.new_id() if relay is not None else ""
        self.remote: str | None = None
        """The node whose stand-in carries this socket's frames out (its table's owner)."""
        self._writer_task: asyncio.Task[None] | None = None
        self.lobby = lobby
        self.limits = limits
        self.gate = gate
        self.address = address
        self.busy = False
        """At a table (playing, holding a seat, watching or in a waiting room), as the
        gate last heard."""
        self.seating: Seating | None = None  # a seat this connection plays (a game page)
        self.holding: Seating | None = None  # a seat held from the waiting room
        self.watching: Room | None = None
        self.following: Room | None = None
        self.closed = False
        self._out: deque[str] = deque()
        self._wake = asyncio.Event()
        self._sending = False
        self._replying = False
        self._cut_off = False
        self._bucket = (TokenBucket(limits.rate, limits.burst) if limits.rate is not None
                        else None)
        self._warned = 0.0
        self._dropped = 0  # messages dropped in the current flood
        self._last_drop = 0.0
        self._close_code: int | None = None  # close once the queue is sent
        # lag (parlour.live.lag): the pings sent and not yet answered (id -> when), once the
        # page has said it answers them (a pong with id 0)
        self._pings: dict[int, float] = {}
        self._ping_id = 0
        self._answers_pings = False

    # -- out ---------------------------------------------------------------------------

    def send(self, message: Mapping[str, Any]) -> None:
        """Queues a message (the table calls this synchronously)."""
        if self.closed:
            return
        if len(self._out) >= self.limits.max_queue:
            # The browser is not reading; drop it rather than hold memory for it.
            self.closed = self._cut_off = True
            self._out.clear()
        else:
            self._out.append(_encode(message))
            if self._replying:
                return  # the reading task sends it as soon as the message is handled
        self._wake.set()

    def error(self, code: str, reason: str, about: str | None = None) -> None:
        self.send(p.error(code, reason, about))

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

    def start_writer(self) -> None:
        """Sends what the table says as it says it (a stand-in has no reading loop)."""
        self._writer_task = asyncio.create_task(self._writer())

    def stop_writer(self) -> None:
        if self._writer_task is not None:
            self._writer_task.cancel()

    async def _flush(self) -> None:
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

    async def _writer(self) -> None:
        """Sends what the table says between the browser's own messages (computer moves)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._flush()
            except (WebSocketDisconnect, RuntimeError, OSError):
                return

    # -- in ----------------------------------------------------------------------------

    async def _pinger(self) -> None:
        """Pings a page seated at a started table, every ``PING_EVERY`` seconds (the first
        few quicker, so that an estimate is there for the first race)."""
        while not self.closed:
            await asyncio.sleep(PING_FIRST if self._ping_id < PINGS_FIRST else PING_EVERY)
            seating = self.seating
            if not self._answers_pings or seating is None or seating.room.table is None:
                continue
            self._ping_id += 1
            if len(self._pings) >= 8:  # unanswered: forget the oldest
                del self._pings[min(self._pings)]
            self._pings[self._ping_id] = time.monotonic()
            self.send({"type": "ping", "id": self._ping_id})

    def _ponged(self, ident: int) -> None:
        if ident == 0:
            self._answers_pings = True
            return
        sent = self._pings.pop(ident, None)
        seating = self.seating
        if sent is None or seating is None or seating.room.table is None:
            return
        seating.room.table.sample_lag(seating.seat, time.monotonic() - sent)

    async def run(self) -> None:
        writer = asyncio.create_task(self._writer())
        pinger = asyncio.create_task(self._pinger())
        try:
            while not self.closed:
                try:
                    incoming = await self.ws.receive()
                except (WebSocketDisconnect, RuntimeError, OSError):
                    break
                if incoming["type"] == "websocket.disconnect":
                    break
                self._replying = True
                try:
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
                    await self._flush()
                except (WebSocketDisconnect, RuntimeError, OSError):
                    break
                finally:
                    self._replying = False
        finally:
            self.closed = True
            self._release()
            if self.relay is not None:
                await self.relay.gone(self)
            writer.cancel()
            pinger.cancel()
            with suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError, OSError):
                await writer
            with suppress(asyncio.CancelledError):
                await pinger

    def _allow(self) -> bool:
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
        self.closed = True
        self._close_code = 1008
        if self.gate is not None:
            self.gate.flooded(self.address)

    def allow(self) -> bool:
        return self._allow()

    def receive(self, frame: str | bytes | None) -> None:
        """Handles one frame from the browser."""
        if not self._allow():
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
            self.dispatch(command)
        except Refused as exc:
            self.error(exc.code, exc.reason, exc.about)
        self._update_busy()

    def _update_busy(self) -> None:
        """Tells the gate whether this connection is at a table now."""
        busy = (self.seating is not None or self.holding is not None
                or self.watching is not None or self.following is not None
                or self.remote is not None)  # at a table another node owns
        if busy != self.busy:
            self.busy = busy
            if self.gate is not None:
                self.gate.busy(self.address, busy)

    def dispatch(self, command: p.Command) -> None:
        """Carries out one command; :class:`Refused` if it cannot be (nothing changed)."""
        try:
            self._carry_out(command)
        except Refused as exc:
            exc.about = command.type
            raise

    def _carry_out(self, command: p.Command) -> None:
        match command:
            case p.Start():
                seating = self.lobby.open(command, owner=self.address)
                self._leave()
                self._join(seating)
            case p.Resume(token=token):
                found = self.lobby.find(token)
                if found is None:
                    raise Refused("unknown or expired seat token", "bad_token")
                self._join(found)
            case p.Act():
                self._act(command)
            case p.Leave():
                self._leave()
            case p.PongReply(id=ident):
                self._ponged(ident)
            case p.Ping(id=ident):
                self.send({"type": "pong"} if ident is None else {"type": "pong", "id": ident})
            case p.Create():
                seating = self.lobby.create(command, owner=self.address)
                self._leave()
                self._hold(seating)
            case p.Join():
                self._join_room(command)
            case p.Sit():
                self._sit(command)
            case p.Speed(level=level):
                host = self._host()
                host.room.set_level(host, level)
            case p.Begin():
                host = self._host()
                host.room.begin(host)
            case p.Remove(seat=seat):
                host = self._host()
                host.room.remove(host, seat)
            case p.Watch(table=table):
                room = self.lobby.room_for_watcher(table)  # refused: nothing changes
                self._release()
                self.watching = self.lobby.watch(room.id, self.send)
            case p.Rematch():
                self._rematch()
            case p.React(reaction=reaction):
                if self.seating is None:
                    raise Refused("take a seat to react", "no_seat")
                self.seating.room.react(self.seating, reaction)

    def _release(self) -> None:
        """Lets go of every place this connection had, without leaving any seat."""
        if self.seating is not None:
            self.seating.room.detach(self.seating, self.send)
            self.seating = None
        if self.holding is not None:
            self.holding.room.detach(self.holding, self.send)
            self.holding = None
        if self.watching is not None:
            self.watching.unwatch(self.send)
            self.watching = None
        if self.following is not None:
            self.following.unfollow(self.send)
            self.following = None

    def _leave(self) -> None:
        seat = self.seating or self.holding
        self._release()
        if seat is not None:
            self.lobby.leave(seat.token)

    def _join(self, seating: Seating) -> None:
        self._release()
        self.seating = self.lobby.attach(seating.token, self.send, welcome=True,
                                         evicted=lambda code: self._lost(seating))

    def _lost(self, seating: Seating) -> None:
        """The lobby took ``seating`` from this connection (another device took the seat up,
        or the host removed us); the lobby already told the browser why."""
        # a seating is a value (the lobby makes a new one each time a token is presented)
        if self.seating == seating:
            self.seating = None
        if self.holding == seating:
            self.holding = None
        self._update_busy()

    def _act(self, command: p.Act) -> None:
        seating = self.seating
        if seating is None:
            raise Refused("start or resume a started table before acting", "no_table")
        room = seating.room
        room.commit(seating.seat, p.action_for(command, room.spec, seating.seat))

    # -- tables with friends -------------------------------------------------------------

    def _hold(self, seating: Seating) -> None:
        """Seats this connection in the waiting room: ``seated``, then ``lobby`` updates."""
        room = seating.room
        self.lobby.attach(seating.token, self.send, play=False,
                          evicted=lambda code: self._lost(seating))
        self.holding = seating
        self.send({"type": "seated", "table": room.id, "game": room.spec.name,
                   "seat": seating.seat, "token": seating.token})
        if self.following is not None:
            self.following.unfollow(self.send)
        # follow() sends the room as it is now: with this seat taken
        self.following = self.lobby.follow(room.id, self.send)

    def _join_room(self, command: p.Join) -> None:
        room = self.lobby.room(command.table)
        found = self.lobby.find(command.token) if command.token is not None else None
        mine = found is not None and found.room is room
        if command.token is not None and not mine:
            self.error("bad_token", "that seat token is not for this table", "join")
        if not mine and self.following is not room:
            self.lobby.room_for_watcher(room.id)  # refused: nothing changes
        self._release()
        if found is not None and mine:
            self._hold(found)
        else:
            self.following = self.lobby.follow(room.id, self.send)

    def _sit(self, command: p.Sit) -> None:
        if self.holding is not None or self.seating is not None:
            raise Refused("you already have a seat here: leave it first", "seated")
        table = command.table or (self.following.id if self.following else None)
        if table is None:
            raise Refused("join a table before taking a seat", "unknown_table")
        self._hold(self.lobby.room(table).sit(command.name, command.seat))

    def _rematch(self) -> None:
        """The finished table's rematch: this seat goes to its waiting room (``seated``,
        then ``lobby`` updates), with the same token."""
        seating = self.seating or self.holding
        if seating is None:
            raise Refused("only the people at a table can ask for a rematch", "no_seat")
        again = self.lobby.rematch(seating)
        self._release()
        self._hold(again)

    def _host(self) -> Seating:
        seating = self.holding or self.seating
        if seating is None:
            raise Refused("create a table or take a seat first", "no_seat")
        return seating


async def serve_socket(ws: WebSocket, lobby: Lobby, limits: Limits, gate: Gate,
                       relay: Any = None) -> None:
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
        await connection.run()
    finally:
        gate.gone(address, idle=not connection.busy)
