"""The games, looked up by name. Each module ``parlour.games.<name>`` defines ``GAME``."""

from __future__ import annotations

import importlib
from typing import Any

from parlour.engine import Game, RecordError
from parlour.engine import record as _record

GAME_NAMES: tuple[str, ...] = ("slabberjan", "slapjack", "splunk")


def game_class(name: str) -> type[Game]:
    """The class of the game called ``name``; :class:`RecordError` if there is none."""
    if name not in GAME_NAMES:
        raise RecordError(f"unknown game {name!r} (expected one of: {', '.join(GAME_NAMES)})")
    cls: type[Game] = importlib.import_module(f"parlour.games.{name}").GAME
    return cls


def new_game(name: str, players: int = 2, **kwargs: Any) -> Game:
    """A new game: ``new_game("slapjack", players=3, seed=7)``."""
    return game_class(name)(players, **kwargs)


def replay(record: object) -> Game:
    """Replays a record (a parsed JSON object), checked; :class:`RecordError` names a problem."""
    return _record.replay(record, game_class)
