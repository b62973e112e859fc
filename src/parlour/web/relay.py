"""Several nodes, one site: each table owned by one node, any socket on any node.

A node started with ``--redis`` is one of several sharing one PostgreSQL store and one
Redis (the Colyseus and lila-ws way: rooms owned by one process, Redis between them):

- **Ownership**: a table is played by the node holding its lease
  (:mod:`parlour.nodes.leases`), which runs its clock, its computer players and its
  store writes. A node that opens a table takes its lease; a node asked for a table nobody
  owns (put away, or its node died) takes the lease and brings the table back from the
  store, so a killed node's tables go on elsewhere within :data:`~parlour.nodes.leases.
  ALIVE_TTL` seconds of its death, from the last action anybody was told of.
- **Relaying**: any node serves any socket. Each frame is checked at the node the browser
  reached (rate limits, parsing: a bad frame goes no further); a frame for a table another
  node owns is published to that node (:mod:`parlour.nodes.bus`), where a stand-in
  :class:`~parlour.web.connection.Connection` carries it out exactly as a local socket's,
  and everything that stand-in is sent (built by ``message_for`` on the owner: the secrecy
  boundary does not move) is published back and written to the browser as it is. We relay
  rather than send the browser to the owner's address: every node stays interchangeable
  behind a plain load balancer, no node address leaks to browsers, and a dead owner costs
  a reconnect to whichever node, not a re-discovery (``docs/deploy.md``).
- **Failures**: when a relayed socket's owner stops being alive, the browser's socket is
  closed with 1012 (service restart) and the page reconnects; the owner drops the stand-ins
  of a node that died the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from typing import TYPE_CHECKING

from parlour.live import Lobby, Refused
from parlour.live import protocol as p
from parlour.nodes import counts
from parlour.nodes.bus import BadMessage, NodeMessage, parse
from parlour.nodes.keys import node_channel
from parlour.nodes.leases import DEFAULT_TIMING, Leases, Timing, new_node_id
from parlour.store import token_hash
from parlour.web.connection import Connection, Limits, log_failure
from parlour.web.site_gate import SiteGate as SiteGate

if TYPE_CHECKING:
    from redis.asyncio.client import PubSub

log = logging.getLogger(__name__)
#: The frame by which a page says it answers pings (``lib/socket.js`` sends it first).
PINGS_ANSWERED = '{"type": "pong", "id": 0}'

#: The close code that tells a page to reconnect at once (the table moved to another node).
MOVED = 1012


class RemoteSocket:
    """What a stand-in connection on the owner writes to: the browser's node, via Redis.
    A :class:`~parlour.web.outbox.Socket` like the browser's own, so the stand-in is a
    plain :class:`~parlour.web.connection.Connection`."""

    def __init__(self, relay: Relay, node: str, conn: str) -> None:
        self.relay = relay
        self.node = node
        self.conn = conn

    async def send_text(self, text: str) -> None:
        await self.relay.publish(self.node, NodeMessage("out", self.conn, text=text))

    async def close(self, code: int = 1000) -> None:
        await self.relay.publish(self.node, NodeMessage("close", self.conn, code=code))


class Relay:
    """This node of a site; see the module docstring. ``timing``: how often it renews its
    leases (and checks the other nodes and adds its counts), and how long they live."""

    def __init__(self, redis_url: str, lobby: Lobby, *, node: str | None = None,
                 gate: SiteGate | None = None, timing: Timing = DEFAULT_TIMING) -> None:
        import redis.asyncio

        self.redis = redis.asyncio.from_url(redis_url)
        self.node = node or new_node_id()
        self.lobby = lobby
        self.leases = Leases(self.redis, self.node, on_lost=lobby.let_go, timing=timing)
        self.edges: dict[str, Connection] = {}
        """Sockets on this node whose table another node owns, by connection id."""
        self.proxies: dict[str, Connection] = {}
        """Stand-ins on this node for sockets on other nodes, by connection id."""
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._bad_logged = 0
        self.gate = gate
        self._claiming: set[asyncio.Task[None]] = set()

    # -- life ----------------------------------------------------------------------------

    async def start(self) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(node_channel(self.node))
        await self.leases.start()
        self.lobby.on_room = self._room_changed
        self._tasks = [asyncio.create_task(self._listen(pubsub)),
                       asyncio.create_task(self._watch())]

    async def stop(self) -> None:
        """A normal stop: the leases go at once (other nodes take the tables over from the
        store), and every browser relayed here is told to reconnect."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for proxy in list(self.proxies.values()):
            proxy.release()
            proxy.stop()
            with contextlib.suppress(Exception):
                await proxy.ws.close(MOVED)
        self.proxies.clear()
        self.lobby.on_room = None
        await self.leases.stop()
        await self.redis.aclose()

    async def healthy(self) -> bool:
        try:
            return bool(await self.redis.ping())
        except Exception:
            return False

    async def before_admit(self, address: str) -> None:
        """A new socket from ``address``: the site's count of its sockets, fresh."""
        if self.gate is not None:
            try:
                await self.gate.refresh(self.redis, self.node, address)
            except Exception as exc:  # Redis away for a moment: the last count stands
                log.warning("could not read the site's connections: %s", exc)

    def new_id(self) -> str:
        return f"{self.node}:{next(self._ids)}"

    async def publish(self, node: str, message: NodeMessage) -> None:
        await self.redis.publish(node_channel(node), message.encode())

    # -- the browser's node ----------------------------------------------------------------

    async def frame(self, conn: Connection, text: str | bytes | None) -> None:
        """One frame from a browser on this node: checked here, carried out here or at the
        table's owner."""
        if not conn.allow():
            return
        try:
            command = p.parse(text if text is not None else b"")
            target = await self._route(conn, command)
        except Refused as exc:
            conn.error(exc.code, exc.reason, exc.about)
            return
        if target is None:
            await self._home(conn)
            if isinstance(command, p.Start | p.Create):
                await self._tables_elsewhere(conn.address)
            conn.carry_out(command)
            # a table opened just now is this node's before anybody hears of its id
            while self._claiming:
                await asyncio.gather(*self._claiming)
            return
        if conn.remote is not None and conn.remote != target:
            await self._home(conn)
        if conn.remote is None:
            conn.session.relay_to(target)  # its places on this node, if any, are let go
            self.edges[conn.ident] = conn
            if conn.answers_pings:  # said once, on this node: the owner pings it from now on
                await self.publish(target, NodeMessage("frame", conn.ident, self.node,
                                                       conn.address, PINGS_ANSWERED))
        assert isinstance(text, str)
        await self.publish(target, NodeMessage("frame", conn.ident, self.node, conn.address,
                                               text))

    async def _home(self, conn: Connection) -> None:
        """``conn`` is handled on this node again: its stand-in elsewhere lets go."""
        if conn.remote is not None:
            await self.publish(conn.remote, NodeMessage("gone", conn.ident))
            conn.session.unrelay()
            self.edges.pop(conn.ident, None)

    async def gone(self, conn: Connection) -> None:
        """The browser's socket closed."""
        with contextlib.suppress(Exception):
            await self._home(conn)

    async def _route(self, conn: Connection, command: p.Command) -> str | None:
        """The node that carries ``command`` out: ``None`` for this one."""
        match command:
            case p.Start() | p.Create():
                return None
            case p.Resume(token=token) | p.Join(token=str(token)):
                if self.lobby.seats_here(token):
                    return None  # its table is here: no need to ask the database where
                found = self.lobby.store.find_token(token_hash(token))
                if found is None:
                    return None if isinstance(command, p.Resume) else await self._owner(
                        command.table)
                return await self._owner(found[0])
            case p.Join(table=table) | p.Watch(table=table):
                return await self._owner(table)
            case p.Sit(table=str(table)):
                return await self._owner(table)
            case p.Ping():
                return conn.remote
            case _:
                return conn.remote

    async def _owner(self, table: str) -> str | None:
        """The owner of ``table``, taking the lease if nobody (alive) holds it; a table the
        site does not have is this node's to refuse, and no lease is kept for it."""
        if table in self.leases.mine:
            return None
        owner = await self.leases.claim(table)
        if owner != self.node:
            return owner
        if self.lobby.store.table(table, actions=False) is None:
            await self.leases.release([table])  # a refused request holds nothing
        return None

    # -- the owner's node --------------------------------------------------------------------

    def _room_changed(self, table: str, added: bool) -> None:
        """The lobby opened (or brought back) a table, or let one go: its lease follows."""
        if added and table not in self.leases.mine:
            task = asyncio.get_running_loop().create_task(self._claim_new(table))
            self._claiming.add(task)
            task.add_done_callback(self._claiming.discard)
        elif not added:
            asyncio.get_running_loop().create_task(self.leases.release([table]))

    async def _claim_new(self, table: str) -> None:
        owner = await self.leases.claim(table)
        if owner != self.node:  # someone had it first: theirs to play
            log.warning("table %s is owned by node %s: letting it go here", table, owner)
            self.lobby.let_go(table)

    async def _proxy_frame(self, message: NodeMessage) -> None:
        proxy = self.proxies.get(message.conn)
        if proxy is None:
            proxy = Connection(RemoteSocket(self, message.node, message.conn), self.lobby,
                               Limits(rate=None), address=message.address)
            proxy.ident = message.conn
            proxy.outbox.start_writer()
            proxy.start_pinger()
            self.proxies[message.conn] = proxy
        with proxy.outbox.answering():
            try:
                proxy.receive(message.text)
            except Exception:
                log_failure()
                proxy.error("internal", "the server could not handle that message")
        while self._claiming:  # a rematch opened here is ours before its id goes out
            await asyncio.gather(*self._claiming)
        await proxy.outbox.flush()

    def _drop_proxy(self, conn: str) -> None:
        proxy = self.proxies.pop(conn, None)
        if proxy is not None:
            proxy.closed = True
            proxy.release()
            proxy.stop()

    # -- the bus -----------------------------------------------------------------------------

    async def _listen(self, pubsub: PubSub) -> None:
        """Handles what other nodes send this one, until stopped; the subscription ends
        with it."""
        async with contextlib.aclosing(pubsub):
            async for raw in pubsub.listen():
                try:
                    message = parse(raw["data"])
                except BadMessage as exc:
                    if self._bad_logged < 100:  # never a log line per bad message, for ever
                        self._bad_logged += 1
                        log.warning("dropped a message from another node: %s", exc)
                    continue
                try:
                    await self._handle(message)
                except Exception:
                    log_failure()

    async def _handle(self, message: NodeMessage) -> None:
        if message.kind == "frame":
            await self._proxy_frame(message)
        elif message.kind == "gone":
            self._drop_proxy(message.conn)
        else:
            edge = self.edges.get(message.conn)
            if edge is None:
                return
            if message.kind == "out":
                edge.outbox.send_text(message.text)
            else:
                self.edges.pop(message.conn, None)
                edge.session.unrelay()
                edge.outbox.close_soon(message.code)

    async def _watch(self) -> None:
        """Browsers relayed to a node that died reconnect; stand-ins of a node that died go."""
        while True:
            await asyncio.sleep(self.leases.timing.renew)
            try:
                await self._check_nodes()
                await self._sync_leases()
                if self.gate is not None:
                    await self.gate.sync(self.redis, self.node)
                await self._sync_tables()
            except Exception as exc:
                log.warning("could not check the other nodes: %s", exc)

    async def _check_nodes(self) -> None:
        nodes = {c.remote for c in self.edges.values() if c.remote is not None}
        nodes |= {_node_of(proxy) for proxy in self.proxies.values()}
        for node in nodes:
            if node and not await self.leases.alive(node):
                for ident, edge in list(self.edges.items()):
                    if edge.remote == node:
                        self.edges.pop(ident, None)
                        edge.session.unrelay()
                        edge.outbox.close_soon(MOVED)
                for ident, proxy in list(self.proxies.items()):
                    if _node_of(proxy) == node:
                        self._drop_proxy(ident)

    async def _sync_tables(self) -> None:
        """Adds this node's tables (in all and by owner address) to the site's counts."""
        await counts.add_tables(self.redis, self.node, len(self.lobby.table_ids()),
                                self.lobby.caps.counts())

    async def _tables_elsewhere(self, address: str) -> None:
        """Before a table opens: the site's tables, and ``address``'s, on the other nodes."""
        caps = self.lobby.caps
        try:
            every, mine_elsewhere = await counts.tables_elsewhere(self.redis, self.node,
                                                                  address)
        except Exception as exc:  # Redis away for a moment: the last counts stand
            log.warning("could not read the site's tables: %s", exc)
            return
        caps.elsewhere_total = every
        if mine_elsewhere:
            caps.elsewhere[address] = mine_elsewhere
        else:
            caps.elsewhere.pop(address, None)

    async def _sync_leases(self) -> None:
        """Leases taken for tables this node does not hold after all (an unknown id) go."""
        held = set(self.lobby.table_ids())
        # not one being claimed now
        settled = asyncio.get_running_loop().time() - 2 * self.leases.timing.renew
        await self.leases.release([t for t in list(self.leases.mine) if t not in held
                                   and self.leases.since.get(t, 0.0) < settled])


def _node_of(proxy: Connection) -> str:
    """The node whose browser a stand-in answers."""
    return proxy.ws.node if isinstance(proxy.ws, RemoteSocket) else ""
