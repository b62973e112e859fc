"""Who sits where: the seats of a room, the connections at it, and the token index.

A seat token is the seat: whoever presents it is back at the seat. The store keeps only a
token's hash, and so does :class:`Places`, the server's index from a token's hash to its
room and seat (:mod:`parlour.live.lobby` holds the one index; each room adds and drops
its own seats there). A person's place at a room, with its token, is a
:class:`~parlour.live.room.Seating`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

SeatKind = Literal["person", "computer", "open"]
Message = Mapping[str, Any]
Send = Callable[[Message], None]


@dataclass
class Seat:
    """Who sits at one seat: a person, a computer, or nobody yet (``open``, before the
    start)."""

    name: str
    kind: SeatKind
    token_hash: str | None = None
    """The SHA-256 of the seat's token (the token itself is only ever with its person)."""
    left: bool = False
    """The person said they are leaving (rather than dropping)."""


@dataclass(eq=False)
class Link:
    """One connection at a room: its seat (``None``: a spectator), and whether it gets the
    game's messages (a game page) or only holds the seat (the waiting room)."""

    seat: int | None
    send: Send
    play: bool
    evicted: Callable[[str], None] | None = None
    """Told (with the code, ``elsewhere`` or ``removed``) when the room takes the seat
    from this connection."""


class Places:
    """Token hash -> (room id, seat), for every seat of every room in memory."""

    def __init__(self) -> None:
        self._places: dict[str, tuple[str, int]] = {}

    def __contains__(self, hashed: object) -> bool:
        return hashed in self._places

    def get(self, hashed: str) -> tuple[str, int] | None:
        return self._places.get(hashed)

    def add(self, hashed: str, room: str, seat: int) -> None:
        self._places[hashed] = (room, seat)

    def drop(self, hashed: str, room: str | None = None) -> None:
        """Forgets ``hashed`` (only if it names a seat of ``room``, when given: a rematch
        took the same token on to another room)."""
        if room is None or self._places.get(hashed, ("",))[0] == room:
            self._places.pop(hashed, None)
