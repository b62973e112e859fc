"""Every name a site's nodes use in their Redis, in one place.

Keys (each under :data:`PREFIX`, so a Redis shared with something else keeps ours apart):

- :func:`lease` ``(table)``: the node that owns the table (:mod:`parlour.nodes.leases`);
- :func:`alive` ``(node)``: there while the node renews it;
- :data:`TABLES`: a hash, node -> how many tables it holds;
- :func:`tables_of` ``(owner)``: a hash, node -> how many tables the address ``owner``
  opened there;
- :func:`address` ``(addr)``: a hash, node -> how many sockets the address has there;
- :func:`rate` ``(addr, window)``: how many messages the address sent in the second
  ``window``, on every node together.

Channels: :func:`node_channel` ``(node)``, where the node hears other nodes
(:mod:`parlour.nodes.bus`).

Every name is distinct for distinct arguments (a table, node or address may hold ``:``;
a window is a number, so it never does):

>>> lease("t1"), alive("n1"), node_channel("n1"), TABLES, tables_of("::1")
('parlour:lease:t1', 'parlour:alive:n1', 'parlour:node:n1', 'parlour:tables', \
'parlour:tables:::1')
>>> address("::1"), rate("::1", 17)
('parlour:addr:::1', 'parlour:rate:::1:17')
"""

from __future__ import annotations

PREFIX = "parlour:"
#: The hash of each node's count of tables.
TABLES = f"{PREFIX}tables"
#: Seconds a count a node adds to the site's lives unless the node adds it again.
COUNTS_TTL = 5


def lease(table: str) -> str:
    return f"{PREFIX}lease:{table}"


def alive(node: str) -> str:
    """The key that says ``node`` is alive (``alive("")``: the prefix of them all)."""
    return f"{PREFIX}alive:{node}"


def node_channel(node: str) -> str:
    return f"{PREFIX}node:{node}"


def tables_of(owner: str) -> str:
    return f"{TABLES}:{owner}"


def address(addr: str) -> str:
    return f"{PREFIX}addr:{addr}"


def rate(addr: str, window: int) -> str:
    return f"{PREFIX}rate:{addr}:{window}"
