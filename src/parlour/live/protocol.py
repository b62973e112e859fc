"""The socket protocol of live tables, typed: every message a client may send, parsed once
into a command (``docs/protocol.md`` is its prose). The messages the server sends are typed
in :mod:`parlour.live.messages` and their error codes listed in :mod:`parlour.live.codes`;
both are importable from here too.

Untrusted input is parsed here and nowhere deeper: a command holds checked values only (a
known game's spec, a player count it allows, a level, a clean name), so the lobby and the
tables never see raw JSON. A message that cannot be parsed raises :class:`Refused` with the
protocol's error code and one sentence for a person; nothing it says is echoed back
unchecked.

>>> parse('{"type": "start", "game": "splunk", "level": "hard"}')
Start(spec='splunk', players=2, level='hard', options={}, seed=None)
>>> parse('{"type": "sit", "name": "  Ann \\u200b "}').name
'Ann'
>>> parse('{"type": "jump"}')
Traceback (most recent call last):
...
parlour.live.protocol.Refused: unknown message type 'jump' (expected one of: start, ...)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias, TypeGuard

from parlour.engine import LEVELS, Action, GameError, GameSpec, parse_action
from parlour.games import spec as game_spec
from parlour.live.messages import ConnectionState as ConnectionState
from parlour.live.messages import Error as Error
from parlour.live.messages import GameMessage as GameMessage
from parlour.live.messages import LobbyState as LobbyState
from parlour.live.messages import Reaction as Reaction
from parlour.live.messages import SeatConnection as SeatConnection
from parlour.live.messages import SeatInfo as SeatInfo
from parlour.live.messages import Welcome as Welcome
from parlour.live.messages import error as error
from parlour.live.names import BadName, clean_name
from parlour.wire import DecodeError, loads

#: Longest text frame the server reads, in UTF-8 bytes.
MAX_BYTES = 4096
#: Longest table id or token a client may send.
ID_MAX = 64


class Refused(ValueError):
    """A message cannot be carried out; ``code`` is the protocol's error code for it and
    the message is one sentence for a person."""

    def __init__(self, reason: str, code: str = "bad_request", about: str | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.about = about
        """The type of the message refused, when it is known."""

    @property
    def reason(self) -> str:
        return str(self)


# -- client to server ---------------------------------------------------------------------------

class _Command:
    """Base of every client command; ``type`` is its JSON ``type``."""

    type: str = ""


@dataclass(frozen=True)
class Start(_Command):
    """A new table against the computer, the person at seat 0."""

    spec: GameSpec = field(repr=False)
    players: int
    level: str
    options: dict[str, Any]
    seed: int | None
    type = "start"

    def __repr__(self) -> str:
        return (f"Start(spec={self.spec.name!r}, players={self.players}, level={self.level!r}, "
                f"options={self.options!r}, seed={self.seed!r})")


@dataclass(frozen=True)
class Create(_Command):
    """A table with friends: the creator at seat 0, the host."""

    spec: GameSpec = field(repr=False)
    players: int
    level: str
    options: dict[str, Any]
    name: str
    type = "create"


@dataclass(frozen=True)
class Resume(_Command):
    token: str
    type = "resume"


@dataclass(frozen=True)
class Act(_Command):
    """An action of the connection's seat, its JSON form not yet checked by the rules;
    ``version``, if the page says, the version of the view it acted on (a repeat of the same
    action at the same version is answered ``stale``)."""

    action: Mapping[str, Any]
    version: int | None = None
    type = "action"


@dataclass(frozen=True)
class Leave(_Command):
    type = "leave"


@dataclass(frozen=True)
class Ping(_Command):
    id: int | str | None = None
    type = "ping"


@dataclass(frozen=True)
class PongReply(_Command):
    """The page's answer to the server's ``ping`` (its ``id``): how the server measures
    the connection's delay (:mod:`parlour.live.lag`)."""

    id: int
    type = "pong"


@dataclass(frozen=True)
class Join(_Command):
    table: str
    token: str | None = None
    type = "join"


@dataclass(frozen=True)
class Sit(_Command):
    name: str
    table: str | None = None
    seat: int | None = None
    type = "sit"


@dataclass(frozen=True)
class Speed(_Command):
    level: str
    type = "speed"


@dataclass(frozen=True)
class Begin(_Command):
    type = "begin"


@dataclass(frozen=True)
class Watch(_Command):
    table: str
    type = "watch"


@dataclass(frozen=True)
class Rematch(_Command):
    """At a finished table with friends: play again, same seats (the host starts it)."""

    type = "rematch"


@dataclass(frozen=True)
class Remove(_Command):
    """The host frees another person's seat before the start."""

    seat: int
    type = "remove"


#: The quick reactions a seat at a table with friends may send: codes the pages show as
#: their own words and signs, so that no reaction carries text a person typed.
REACTIONS: tuple[str, ...] = ("nice", "well_played", "oops", "good_game", "thanks",
                              "your_move", "wow", "smile", "heart", "star")


@dataclass(frozen=True)
class React(_Command):
    """A quick reaction from the connection's seat, one of :data:`REACTIONS`."""

    reaction: str
    type = "react"


Command: TypeAlias = (Start | Create | Resume | Act | Leave | Ping | PongReply | Join | Sit
                      | Speed | Begin | Watch | Rematch | Remove | React)


def _int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number (JSON's ``true`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: object, what: str, limit: int = ID_MAX) -> str:
    """A table id or a seat token: the server makes them of URL-safe letters, digits, ``-``
    and ``_``, so anything else (a lone surrogate, a space, a quote) names none: answered
    as an unknown table or token, before it goes any deeper."""
    if not isinstance(value, str) or not value or len(value) > limit:
        raise Refused(f"'{what}' must be a string of 1 to {limit} characters")
    if not value.isascii() or not value.replace("-", "").replace("_", "").isalnum():
        raise Refused(f"no {what} is named so: it may have closed",
                      "unknown_table" if what == "table" else "bad_token")
    return value


def check_name(name: object) -> str:
    """A person's name, cleaned (``live.names``: no invisible characters, spaces folded, 1 to
    ``names.NAME_MAX`` characters, never one of the site's own words such as "You")."""
    if not isinstance(name, str):
        raise Refused("'name' must be a string: type a name to take a seat")
    try:
        return clean_name(name)
    except BadName as exc:
        raise Refused(str(exc), exc.code) from None


def check_level(level: object) -> str:
    if not isinstance(level, str) or level not in LEVELS:
        raise Refused(f"the computer's speed is one of: {', '.join(LEVELS)}")
    return level


def _game(message: Mapping[str, Any], *, live: bool = True) -> tuple[GameSpec, int, dict[str, Any]]:
    """The game, players and options a ``start`` or ``create`` asks for, all checked."""
    try:
        spec = game_spec(message.get("game"))
    except GameError as exc:
        raise Refused(str(exc)) from None
    players = message.get("players", spec.default_players)
    try:
        players = spec.check_players(players, live=live)
    except GameError as exc:
        raise Refused(str(exc)) from None
    options = message.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise Refused("'options' must be an object")
    try:  # checked now, the chance ones with a stand-in draw: the game draws them itself
        spec.resolve_options(options, players=players, draw=lambda n: 0)
    except GameError as exc:
        raise Refused(str(exc)) from None
    return spec, players, dict(options)


def _start(m: Mapping[str, Any]) -> Start:
    spec, players, options = _game(m)
    seed = m.get("seed")
    if seed is not None and not (_int(seed) and 0 <= seed < 2**63):
        raise Refused("'seed' must be a whole number from 0 to 2^63 - 1")
    return Start(spec, players, check_level(m.get("level", "normal")), options, seed)


def _create(m: Mapping[str, Any]) -> Create:
    name = check_name(m.get("name"))
    spec, players, options = _game(m)
    if m.get("seed") is not None:
        # At a table with friends nobody chooses the deal: a host who knew it would know
        # every hidden card.
        raise Refused("a table with friends is dealt at random: it takes no 'seed'")
    return Create(spec, players, check_level(m.get("level", "normal")), options, name)


def _act(m: Mapping[str, Any]) -> Act:
    action = m.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise Refused('an action is a JSON object with a "type"', "refused")
    version = m.get("version")
    if version is not None and not (_int(version) and version >= 0):
        raise Refused("'version' must be the version of the view the action was made on: "
                      "a whole number from 0")
    return Act(action, version)


def _ping(m: Mapping[str, Any]) -> Ping:
    ident = m.get("id")
    if _int(ident) or (isinstance(ident, str) and len(ident) <= ID_MAX
                       and ident.isprintable() and ident.isascii()):
        return Ping(ident)
    return Ping()


def _pong(m: Mapping[str, Any]) -> PongReply:
    ident = m.get("id")
    if _int(ident) and 0 <= ident < 2**31:
        return PongReply(ident)
    raise Refused("'id' must be the number of the ping it answers")


def _sit(m: Mapping[str, Any]) -> Sit:
    name = check_name(m.get("name"))
    table = m.get("table")
    seat = m.get("seat")
    return Sit(name, None if table is None else _text(table, "table"),
               None if seat is None else _seat_number(seat))


def _seat_number(value: object) -> int:
    if _int(value) and 0 <= value < 1000:
        return value
    raise Refused("'seat' must be a seat number")


def _reaction(value: object) -> str:
    if not isinstance(value, str) or value not in REACTIONS:
        raise Refused(f"a reaction is one of: {', '.join(REACTIONS)}")
    return value


def _join(m: Mapping[str, Any]) -> Join:
    token = m.get("token")
    return Join(_text(m.get("table"), "table"), None if token is None else _text(token, "token"))


#: Each command's parser, by its class's ``type`` (in the order an unknown type's answer
#: lists them).
_Parser: TypeAlias = Callable[[Mapping[str, Any]], Command]
_PARSERS: Mapping[str, _Parser] = {cls.type: parser for cls, parser in (
    (Start, _start),
    (Resume, lambda m: Resume(_text(m.get("token"), "token"))),
    (Act, _act),
    (Leave, lambda m: Leave()),
    (Ping, _ping),
    (PongReply, _pong),
    (Create, _create),
    (Join, _join),
    (Sit, _sit),
    (Speed, lambda m: Speed(check_level(m.get("level")))),
    (Begin, lambda m: Begin()),
    (Watch, lambda m: Watch(_text(m.get("table"), "table"))),
    (Rematch, lambda m: Rematch()),
    (Remove, lambda m: Remove(_seat_number(m.get("seat")))),
    (React, lambda m: React(_reaction(m.get("reaction")))),
)}
COMMANDS: tuple[str, ...] = tuple(_PARSERS)


def parse_message(message: object) -> Command:
    """A command from a parsed JSON value; :class:`Refused` says what is wrong."""
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise Refused('a message is a JSON object with a "type"', "bad_message")
    kind = message["type"]
    parser = _PARSERS.get(kind)
    if parser is None:
        shown = repr(kind) if len(kind) <= 24 and kind.isprintable() else "that"
        raise Refused(f"unknown message type {shown} (expected one of: {', '.join(COMMANDS)})",
                      "unknown_type")
    try:
        command = parser(message)
    except Refused as exc:
        exc.about = kind
        raise
    return command


def parse(text: str | bytes) -> Command:
    """A command from one frame's text; :class:`Refused` says what is wrong."""
    if not isinstance(text, str):
        raise Refused("send JSON text, not binary frames", "bad_message")
    # in bytes, as the protocol says; a frame of more characters than that is surely too big
    # (and is not encoded to find out)
    try:
        size = len(text) if len(text) > MAX_BYTES else len(text.encode("utf-8"))
    except UnicodeEncodeError:  # a lone surrogate: not text at all
        raise Refused("that message is not valid text", "bad_json") from None
    if size > MAX_BYTES:
        raise Refused(f"a message may be at most {MAX_BYTES} bytes", "too_big")
    try:
        message = loads(text)
    except DecodeError:
        raise Refused("that message is not JSON", "bad_json") from None
    return parse_message(message)


def action_for(act: Act, spec: GameSpec, seat: int) -> Action:
    """The action an :class:`Act` names, as ``seat``'s, for ``spec``'s game."""
    try:
        return parse_action(act.action, spec.actions, player=seat)
    except GameError as exc:
        raise Refused(str(exc), "refused") from None
