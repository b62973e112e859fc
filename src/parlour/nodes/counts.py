"""The site's counts, over Redis: each node adds its own and reads the others'.

A count is a hash by node id (:mod:`parlour.nodes.keys`) that lives
:data:`~parlour.nodes.keys.COUNTS_TTL` seconds unless added again, so a dead node's counts
go by themselves. Counts of messages are per second (``window``: the loop's second), summed
over the nodes. What a count is for (the caps per address and per site) is the web's
business: :class:`~parlour.web.site_gate.SiteGate` and :class:`~parlour.web.relay.Relay`.

>>> others({b"n1": b"3", b"n2": b"4", "n3": "5"}, "n2")
8
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from parlour.nodes import keys

if TYPE_CHECKING:
    from redis.asyncio import Redis


def others(counts: Mapping[bytes | str, bytes | str], node: str) -> int:
    """The sum of a Redis hash of counts by node, ``node``'s left out."""
    return sum(int(v) for k, v in counts.items()
               if (k.decode() if isinstance(k, bytes) else k) != node)


async def add_tables(redis: Redis, node: str, total: int, by_owner: Mapping[str, int]) -> None:
    """``node`` holds ``total`` tables, ``by_owner[address]`` of them opened by each
    address."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.hset(keys.TABLES, node, total)
        pipe.expire(keys.TABLES, keys.COUNTS_TTL)
        for owner, count in by_owner.items():
            pipe.hset(keys.tables_of(owner), node, count)
            pipe.expire(keys.tables_of(owner), keys.COUNTS_TTL)
        await pipe.execute()


async def tables_elsewhere(redis: Redis, node: str, owner: str) -> tuple[int, int]:
    """The site's tables on the nodes other than ``node``, and how many of them ``owner``
    opened."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.hgetall(keys.TABLES)
        pipe.hgetall(keys.tables_of(owner))
        every, owned = await pipe.execute()
    return others(every, node), others(owned, node)


async def sockets_elsewhere(redis: Redis, node: str, addr: str) -> int:
    """How many sockets ``addr`` has on the nodes other than ``node``."""
    return others(await redis.hgetall(keys.address(addr)), node)


async def add_sockets_and_messages(
        redis: Redis, node: str, sockets: Mapping[str, int], sent: Mapping[str, int],
        window: int) -> tuple[dict[str, int], dict[str, int]]:
    """``node`` has ``sockets[addr]`` sockets of each address, which sent it ``sent[addr]``
    messages since the last time: in one round trip, the sockets of each of those
    addresses on the other nodes, and the messages of each sender in ``window`` on every
    node together."""
    addresses = list(sockets)
    senders = list(sent)
    async with redis.pipeline(transaction=False) as pipe:
        for addr in addresses:
            pipe.hset(keys.address(addr), node, sockets[addr])
            pipe.expire(keys.address(addr), keys.COUNTS_TTL)
        for addr in senders:
            pipe.incrby(keys.rate(addr, window), sent[addr])
            pipe.expire(keys.rate(addr, window), keys.COUNTS_TTL)
        for addr in addresses:
            pipe.hgetall(keys.address(addr))
        results = await pipe.execute()
    held = results[len(results) - len(addresses):]
    totals = results[2 * len(addresses):2 * len(addresses) + 2 * len(senders):2]
    return ({addr: others(h, node) for addr, h in zip(addresses, held, strict=True)},
            {addr: int(t) for addr, t in zip(senders, totals, strict=True)})
