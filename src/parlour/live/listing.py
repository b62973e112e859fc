"""The public list of open tables: tables with friends that wait for people.

Its caps (places per client address and in all) are :func:`parlour.live.caps.listed`'s.
The only text a person typed that it shows is the host's name (``people`` holds it alone).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from parlour.live.caps import listed
from parlour.live.room import Phase, Room
from parlour.store import Store


def open_tables(rooms: Iterable[Room], *, per_address: int, limit: int) -> list[dict[str, Any]]:
    """Of ``rooms``, the tables with friends that have not started and have a free seat,
    oldest first: at most ``per_address`` of one client address's and ``limit`` in all."""
    waiting = sorted((r for r in rooms if r.friends and r.phase is Phase.WAITING and r.free()),
                     key=lambda r: r.created)
    entries = [{"table": r.id, "game": r.spec.name, "players": r.players,
                "free": len(r.free()), "level": r.level, "host": r.seats[r.host].name,
                "people": [r.seats[r.host].name]} for r in waiting]
    return listed(entries, [r.owner or "" for r in waiting], per_address=per_address,
                  limit=limit)


def site_tables(store: Store, *, limit: int) -> list[dict[str, Any]]:
    """The open tables of every node sharing ``store``, in the form of :func:`open_tables`."""
    return [{"table": t.id, "game": t.game, "players": t.players, "free": t.free,
             "level": t.level, "host": t.host, "people": [t.host]}
            for t in store.waiting_tables(limit=limit)]
