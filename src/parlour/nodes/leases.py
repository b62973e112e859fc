"""Who owns which table, across nodes: leases in Redis that the owner renews.

Each node has an id and an ``alive`` key it renews every :attr:`Timing.renew` seconds with
a time to live of :attr:`Timing.alive_ttl`; each table it owns has a lease key holding the
node's id with a time to live of :attr:`Timing.lease_ttl`, renewed at the same time (the
names: :mod:`parlour.nodes.keys`). A node that is stopped normally deletes its keys at
once; a node that is killed stops renewing, its ``alive`` key runs out within ``alive_ttl``
seconds, and the next node asked for one of its tables takes the lease over
(:meth:`Leases.claim`: atomic, in one Lua script, so two nodes never both win). A node that
only stalled past that finds at its next renewal which leases it lost, and lets go of those
tables (``on_lost``).

Every change is a compare-and-set on the node id, so a node never renews, releases or takes
over a lease another node holds rightly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlour.nodes import keys

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger(__name__)

#: Seconds between renewals of a node's keys.
RENEW = 1.0
#: Seconds a node's ``alive`` key lives unless renewed: how soon a killed node is known dead.
ALIVE_TTL = 3.0
#: Seconds a table's lease lives unless renewed.
LEASE_TTL = 6.0


@dataclass(frozen=True)
class Timing:
    """How often a node renews its keys, and how long they live unless renewed (seconds).

    >>> Timing(renew=2.0, alive_ttl=1.0)
    Traceback (most recent call last):
    ...
    ValueError: a node must renew its keys before they run out
    """

    renew: float = RENEW
    alive_ttl: float = ALIVE_TTL
    lease_ttl: float = LEASE_TTL

    def __post_init__(self) -> None:
        if not 0 < self.renew < min(self.alive_ttl, self.lease_ttl):
            raise ValueError("a node must renew its keys before they run out")


#: A site's timing unless told otherwise.
DEFAULT_TIMING = Timing()

# KEYS[1] the lease; ARGV[1] this node; ARGV[2] the ttl in ms; ARGV[3] the alive-key prefix.
# Takes a free lease, keeps one of ours, or takes over one whose node is no longer alive.
_CLAIM = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1]
   or redis.call('EXISTS', ARGV[3] .. holder) == 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ARGV[1]
end
return holder
"""
# KEYS: leases; ARGV[1] this node; ARGV[2] ttl in ms. Renews those that are still ours and
# returns those that were lost (taken over while we were away).
_RENEW = """
local lost = {}
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    table.insert(lost, key)
  end
end
return lost
"""
# KEYS: leases; ARGV[1] this node. Deletes those that are ours.
_RELEASE = """
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0
"""


def new_node_id() -> str:
    """A node id nobody else has: host name, process and a random part."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class Leases:
    """This node's leases in the Redis at ``redis`` (a ``redis.asyncio`` client), renewed
    as ``timing`` says."""

    def __init__(self, redis: Redis, node: str, on_lost: Callable[[str], None] | None = None,
                 *, timing: Timing = DEFAULT_TIMING) -> None:
        self.redis = redis
        self.node = node
        self.timing = timing
        self.on_lost = on_lost
        """Told of each table whose lease another node took while this one was away (it
        must stop playing it at once: two owners would both write its moves)."""
        self.mine: set[str] = set()
        self.since: dict[str, float] = {}
        """When each of ours was claimed (loop time)."""
        self._task: asyncio.Task[None] | None = None
        self._claim = redis.register_script(_CLAIM)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    key = staticmethod(keys.lease)
    alive_key = staticmethod(keys.alive)

    async def start(self) -> None:
        """Says this node is alive, and keeps saying so (and renewing its leases)."""
        await self._say_alive()
        self._task = asyncio.create_task(self._keep())

    async def stop(self) -> None:
        """A normal stop: every lease and the ``alive`` key go at once, so other nodes
        take the tables over without waiting for anything to run out."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.mine:
            await self._release(keys=[self.key(t) for t in self.mine], args=[self.node])
        self.mine.clear()
        self.since.clear()
        await self.redis.delete(self.alive_key(self.node))

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(self.timing.renew)
            try:
                await self.renew()
            except Exception as exc:  # Redis away for a moment: try again next time
                log.warning("could not renew this node's leases: %s", exc)

    async def renew(self) -> list[str]:
        """Renews the ``alive`` key and every lease; returns the tables whose leases were
        lost, which are no longer this node's (``on_lost`` is told of each)."""
        await self._say_alive()
        if not self.mine:
            return []
        keys = await self._renew(keys=[self.key(t) for t in self.mine],
                                 args=[self.node, int(self.timing.lease_ttl * 1000)])
        prefix = len(self.key(""))
        lost = [(k.decode() if isinstance(k, bytes) else str(k))[prefix:] for k in keys]
        for table in lost:
            log.warning("table %s: its lease was taken over by another node", table)
            self.mine.discard(table)
            self.since.pop(table, None)
            if self.on_lost is not None:
                self.on_lost(table)
        return lost

    async def claim(self, table: str) -> str:
        """Takes the lease of ``table`` if it is free or its node is dead; returns the owner
        (this node's id if the claim won)."""
        holder = await self._claim(keys=[self.key(table)],
                                   args=[self.node, int(self.timing.lease_ttl * 1000),
                                         self.alive_key("")])
        owner = holder.decode() if isinstance(holder, bytes) else str(holder)
        if owner == self.node:
            self.mine.add(table)
            self.since.setdefault(table, asyncio.get_running_loop().time())
        return owner

    async def release(self, tables: Iterable[str]) -> None:
        names = [t for t in tables if t in self.mine]
        if names:
            self.mine.difference_update(names)
            for name in names:
                self.since.pop(name, None)
            await self._release(keys=[self.key(t) for t in names], args=[self.node])

    async def _say_alive(self) -> None:
        await self.redis.set(self.alive_key(self.node), "1",
                             px=int(self.timing.alive_ttl * 1000))

    async def alive(self, node: str) -> bool:
        return bool(await self.redis.exists(self.alive_key(node)))
