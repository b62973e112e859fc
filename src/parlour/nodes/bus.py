"""Messages between nodes, over Redis pub/sub: versioned, parsed, never trusted blindly.

Each node listens on its own channel, :func:`~parlour.nodes.keys.node_channel`. A message
is a JSON object with ``v`` (:data:`VERSION`) and ``kind``:

- ``frame`` (edge node to owner): ``conn``, ``node`` (the edge node), ``address`` (the
  browser's), ``text`` (one frame as the browser sent it, already parsed once at the edge);
- ``out`` (owner to edge): ``conn``, ``text`` (one server message, encoded by the owner's
  connection for that seat: the secrecy boundary stays on the owner);
- ``close`` (owner to edge): ``conn``, ``code`` (close the browser's socket with it);
- ``gone`` (edge to owner): ``conn`` (the browser left or moved on: let go of its places).

:func:`parse` checks all of it; a message a node cannot parse (another version, a bad
field) is logged once and dropped, and never reaches a table.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from parlour.nodes.keys import node_channel
from parlour.wire import dumps, loads

log = logging.getLogger(__name__)

VERSION = 1
KINDS = ("frame", "out", "close", "gone")
_LONGEST = 1 << 20


class BadMessage(ValueError):
    """A message from another node that this node cannot read."""


@dataclass(frozen=True)
class NodeMessage:
    kind: str
    conn: str
    node: str = ""
    address: str = ""
    text: str = ""
    code: int = 1000

    def encode(self) -> str:
        body: dict[str, Any] = {"v": VERSION, "kind": self.kind, "conn": self.conn}
        if self.kind == "frame":
            body.update(node=self.node, address=self.address, text=self.text)
        elif self.kind == "out":
            body["text"] = self.text
        elif self.kind == "close":
            body["code"] = self.code
        return dumps(body)


#: The channel a node hears other nodes on (named in :mod:`parlour.nodes.keys`).
channel = node_channel


def _string(body: dict[str, Any], key: str, limit: int = 200) -> str:
    value = body.get(key)
    if not isinstance(value, str) or len(value) > limit:
        raise BadMessage(f"'{key}' must be a string of at most {limit} characters")
    return value


def parse(data: bytes | str) -> NodeMessage:
    """The message ``data`` holds; :class:`BadMessage` says why not.

    >>> parse(NodeMessage("gone", "n1:7").encode())
    NodeMessage(kind='gone', conn='n1:7', node='', address='', text='', code=1000)
    >>> parse('{"v": 2, "kind": "gone", "conn": "x"}')
    Traceback (most recent call last):
    ...
    parlour.nodes.bus.BadMessage: version 2 (this node speaks 1)
    """
    if len(data) > _LONGEST:
        raise BadMessage("too long")
    try:
        body = loads(data)
    except (ValueError, UnicodeDecodeError):
        raise BadMessage("not JSON") from None
    if not isinstance(body, dict):
        raise BadMessage("not a JSON object")
    if body.get("v") != VERSION:
        raise BadMessage(f"version {body.get('v')!r} (this node speaks {VERSION})")
    kind = body.get("kind")
    if kind not in KINDS:
        raise BadMessage(f"unknown kind {kind!r}")
    conn = _string(body, "conn")
    if kind == "frame":
        return NodeMessage(kind, conn, _string(body, "node"), _string(body, "address"),
                           _string(body, "text", _LONGEST))
    if kind == "out":
        return NodeMessage(kind, conn, text=_string(body, "text", _LONGEST))
    if kind == "close":
        code = body.get("code")
        if not isinstance(code, int) or isinstance(code, bool) or not 1000 <= code < 5000:
            raise BadMessage("'code' must be a WebSocket close code")
        return NodeMessage(kind, conn, code=code)
    return NodeMessage(kind, conn)
