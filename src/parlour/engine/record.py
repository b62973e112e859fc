"""Reading game records (``shared/spec/records.md``) from untrusted JSON.

:func:`replay` builds the game of a record and applies every action, checked; any problem is
a :class:`~parlour.engine.errors.RecordError` whose message names it (for an action: its
index and why it is illegal).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from parlour.engine.errors import GameError, RecordError
from parlour.engine.game import Game


@dataclass(frozen=True)
class Record:
    """A checked record: the shape is right; the rules have not looked at it yet."""

    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    decks: list[list[Any]] = field(default_factory=list)
    shuffles: list[list[Any]] = field(default_factory=list)
    actions: list[Any] = field(default_factory=list)


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _list_of_lists(obj: Mapping[str, Any], key: str) -> list[list[Any]]:
    value = obj.get(key, [])
    if not isinstance(value, list) or not all(isinstance(d, list) for d in value):
        raise RecordError(f"record '{key}' must be a list of lists of card names")
    return value


def parse_record(obj: object) -> Record:
    """Checks the shape of a record object; raises :class:`RecordError` naming the problem."""
    if not isinstance(obj, Mapping):
        raise RecordError("a record must be a JSON object")
    game = obj.get("game")
    if not isinstance(game, str):
        raise RecordError("record 'game' must be a game name")
    players = obj.get("players")
    if not _int(players):
        raise RecordError(f"record 'players' must be an integer, not {players!r}")
    options = obj.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise RecordError("record 'options' must be an object")
    seed = obj.get("seed")
    if seed is not None and not _int(seed):
        raise RecordError(f"record 'seed' must be an integer or null, not {seed!r}")
    actions = obj.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("record 'actions' must be a list")
    assert isinstance(players, int)
    return Record(game, players, dict(options), seed, _list_of_lists(obj, "decks"),
                  _list_of_lists(obj, "shuffles"), actions)


def start(record: Record, lookup: Callable[[str], type[Game]]) -> Game:
    """The game of ``record`` before any action."""
    cls = lookup(record.game)
    return cls(record.players, seed=record.seed, options=record.options,
               decks=record.decks, shuffles=record.shuffles)


def replay(obj: object, lookup: Callable[[str], type[Game]]) -> Game:
    """Replays a record object, checked, and returns the game at its end."""
    record = parse_record(obj)
    game = start(record, lookup)
    for index, action in enumerate(record.actions):
        try:
            game.apply_json(action)
        except GameError as exc:
            raise RecordError(f"action {index}: {exc}") from None
    return game
