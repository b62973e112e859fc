"""The games: one module each, opening with its :class:`~parlour.engine.GameSpec`.

The registry is built from the game classes themselves, so a game is added here once, by
importing its class; every other layer looks games up through :data:`GAMES`.

>>> sorted(GAMES)
['slabberjan', 'slapjack', 'splunk']
>>> spec("splunk").players
(2, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.engine import Game, GameSpec, RecordError
from parlour.engine import record as _record
from parlour.games.slabberjan import Slabberjan
from parlour.games.slapjack import Slapjack
from parlour.games.splunk import Splunk

#: Every game, by name, in the order the pages list them.
GAMES: Mapping[str, type[Game]] = {cls.spec.name: cls for cls in (Slabberjan, Slapjack, Splunk)}
#: The names of the games, in that order.
GAME_NAMES: tuple[str, ...] = tuple(GAMES)


def game_class(name: object) -> type[Game]:
    """The class of the game called ``name``; :class:`RecordError` if there is none."""
    if not isinstance(name, str):
        raise RecordError(f"'game' must name a game: one of {', '.join(GAMES)}")
    cls = GAMES.get(name)
    if cls is None:
        shown = repr(name) if len(name) <= 24 and name.isprintable() else "by that name"
        raise RecordError(f"unknown game {shown} (expected one of: {', '.join(GAMES)})")
    return cls


def spec(name: object) -> GameSpec:
    """The spec of the game called ``name``; :class:`RecordError` if there is none."""
    return game_class(name).spec


def new_game(name: str, players: int = 2, **kwargs: Any) -> Game:
    """A new game: ``new_game("slapjack", players=3, seed=7)``."""
    return game_class(name)(players, **kwargs)


def replay(record: object) -> Game:
    """Replays a record (a parsed JSON object), checked; :class:`RecordError` names a problem."""
    return _record.replay(record, game_class)


def dealt(game: str, players: int, options: Mapping[str, Any], decks: Any,
          shuffles: Any) -> Game:
    """A stored game at its deal, every chance outcome given (no seed: nothing is drawn
    again); :class:`~parlour.engine.GameError` if it cannot be dealt. The store's tables,
    the replay page and a table coming back all start here."""
    return game_class(game)(players, options=dict(options), decks=decks, shuffles=shuffles)
