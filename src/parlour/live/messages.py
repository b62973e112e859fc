"""The messages the server sends on a live table's socket, typed (``docs/protocol.md`` is
their prose; :mod:`parlour.live.protocol` parses what clients send, and re-exports these).

>>> error("taken", "seat 1 is taken", "sit")
{'type': 'error', 'code': 'taken', 'reason': 'seat 1 is taken', 'about': 'sit'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict


class SeatInfo(TypedDict, total=False):
    name: str
    kind: Literal["person", "computer", "open"]
    level: str
    away: bool


class Welcome(TypedDict):
    type: Literal["welcome"]
    table: str
    game: str
    seat: int | None
    token: str | None
    level: str
    players: int
    seats: list[SeatInfo]
    started: bool
    friends: bool
    host: bool
    options: dict[str, Any]
    phase: str
    seeded: bool
    """The deal was asked for by seed ("play this deal again", against the computer only):
    it is not secret from whoever knows the seed."""
    rematch: str | None


class GameMessage(TypedDict):
    """``state`` (the whole view, to draw from scratch) and ``events`` (after a change)."""

    type: Literal["state", "events"]
    events: list[dict[str, Any]]
    view: Mapping[str, Any]
    version: int
    """The number of actions applied to the game so far: the view's version."""


class LobbyState(TypedDict):
    type: Literal["lobby"]
    table: str
    game: str
    players: int
    level: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    host: int
    phase: str
    started: bool
    closed: bool
    free: int
    rematch: str | None
    outcome: dict[str, Any] | None


class Reaction(TypedDict):
    """A seat's quick reaction, to every game page and spectator of its table."""

    type: Literal["reaction"]
    seat: int
    reaction: str


class Error(TypedDict, total=False):
    """A message refused or dropped: ``code`` is one of :data:`parlour.live.codes.CODES`."""

    type: Literal["error"]
    code: str
    reason: str
    about: str


class SeatConnection(TypedDict):
    seat: int
    ms: int
    """The seat's measured one-way delay, in milliseconds."""
    fair: bool
    """Within the cap (``lag.CAP_ONE_WAY``): races can be made fair on it."""


class ConnectionState(TypedDict):
    """Each measured seat's connection, to every watcher of the table, when it changes."""

    type: Literal["connection"]
    seats: list[SeatConnection]


def error(code: str, reason: str, about: str | None = None) -> Error:
    """The ``error`` message: ``reason`` is for developers, never shown to a person (a page
    shows the sentence of ``code``, :mod:`parlour.live.codes`)."""
    message: Error = {"type": "error", "code": code, "reason": reason}
    if about is not None:
        message["about"] = about
    return message
