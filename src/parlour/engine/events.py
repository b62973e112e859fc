"""Events: what an action made happen, as a front end shows it one by one.

Most of an event is public. Some facts belong to a few seats only (the pieces two Slabberjan
players show each other in a swap), so an event keeps them apart in ``private``.
:meth:`Event.seen_by` is the one place that decides what a seat is told; the live table
calls it at the transport boundary for every event it sends.

>>> e = Event("swap", {"player": 0, "target": 1}, {0: {"got": "fool"}, 1: {"got": "7"}})
>>> e.seen_by(None)
{'type': 'swap', 'player': 0, 'target': 1}
>>> e.seen_by(1)
{'type': 'swap', 'player': 0, 'target': 1, 'got': '7'}
>>> e
Event('swap', {'player': 0, 'target': 1}, {0: {'got': 'fool'}, 1: {'got': '7'}})
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

#: The private part of an event that has none: one shared, read-only empty mapping, so that
#: the many public events (every play, every slap) cost one object less each.
NO_PRIVATE: Mapping[int, Mapping[str, Any]] = MappingProxyType({})


class Event:
    """One thing that happened; ``data`` is public, ``private[seat]`` only for that seat."""

    __slots__ = ("data", "private", "type")

    def __init__(
        self,
        type: str,
        data: Mapping[str, Any] | None = None,
        private: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> None:
        self.type = type
        self.data: Mapping[str, Any] = data if data is not None else {}
        self.private: Mapping[int, Mapping[str, Any]] = (
            private if private is not None else NO_PRIVATE)

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: a spectator), as a JSON object."""
        out: dict[str, Any] = {"type": self.type, **self.data}
        if seat is not None and seat in self.private:
            out.update(self.private[seat])
        return out

    def public(self) -> dict[str, Any]:
        return self.seen_by(None)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Event) and self.type == other.type
                and dict(self.data) == dict(other.data)
                and {k: dict(v) for k, v in self.private.items()}
                == {k: dict(v) for k, v in other.private.items()})

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        if self.private:
            return f"Event({self.type!r}, {dict(self.data)!r}, {dict(self.private)!r})"
        return f"Event({self.type!r}, {dict(self.data)!r})"
