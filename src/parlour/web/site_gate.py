"""The caps per client address of one node of a site, held across the site."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from parlour.nodes.counts import add_sockets_and_messages, sockets_elsewhere
from parlour.web.gate import Gate

if TYPE_CHECKING:
    from redis.asyncio import Redis


class SiteGate(Gate):
    """The :class:`~parlour.web.gate.Gate` of one node of a site: its caps per client
    address count the address's sockets on every node, and its message rate per address
    holds across nodes. Each node adds its own counts to Redis every
    :data:`~parlour.nodes.leases.RENEW` seconds (:meth:`sync`) and reads the others', so a
    limit holds across the site within about a second."""

    def __init__(self, **limits: Any) -> None:
        super().__init__(**limits)
        self.elsewhere: dict[str, int] = {}
        """Sockets of each address on the other nodes, as last read."""
        self._sent: dict[str, int] = {}
        self._throttled: set[str] = set()

    def admit(self, address: str) -> tuple[str, str] | None:
        others = self.elsewhere.get(address, 0)
        if others and self.connections(address) + others >= self.per_address:
            return ("too_many_connections",
                    f"at most {self.per_address} connections from one address")
        return super().admit(address)

    def allow(self, address: str) -> bool:
        if address in self._throttled:
            return False
        self._sent[address] = self._sent.get(address, 0) + 1
        return super().allow(address)

    async def refresh(self, redis: Redis, node: str, address: str) -> None:
        """Reads how many sockets ``address`` has on the other nodes (before admitting one
        more: one Redis round trip per new socket)."""
        self.elsewhere[address] = await sockets_elsewhere(redis, node, address)

    async def sync(self, redis: Redis, node: str) -> None:
        """Adds this node's counts to the site's and reads the site's back."""
        window = int(asyncio.get_running_loop().time() // 1)
        sent, self._sent = self._sent, {}
        sockets = {address: self.connections(address) for address in self.addresses()}
        self.elsewhere, rates = await add_sockets_and_messages(redis, node, sockets, sent,
                                                               window)
        limit = (self.rate or float("inf")) + self.burst  # a second's messages, and a burst
        self._throttled = {address for address, total in rates.items() if total > limit}
