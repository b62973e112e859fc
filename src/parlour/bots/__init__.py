"""Computer players for every game and speed, seeing only what a seat may see.

Each module ``parlour.bots.<game>`` names the game it plays (``SPEC``, the game's own spec)
and its players by speed (``PLAYERS``); the registry below is built from those modules.

>>> make_player("splunk", "hard", 1, seed=3)
Hard(seat=1, level='hard')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.bots import slabberjan, slapjack, splunk
from parlour.bots.base import LEVELS, AnyPlayer, ComputerPlayer, Decision, PlayerMaker
from parlour.engine import GameSpec, RecordError
from parlour.games import spec as game_spec

__all__ = ["LEVELS", "PLAYERS", "AnyPlayer", "ComputerPlayer", "Decision", "make_player"]

#: game name -> speed -> the class of its computer players at that speed
PLAYERS: Mapping[str, Mapping[str, PlayerMaker]] = {
    module.SPEC.name: module.PLAYERS for module in (slabberjan, slapjack, splunk)}


def make_player(game: str | GameSpec, level: str, seat: int, *,
                seed: int | None = None) -> ComputerPlayer[Any]:
    """A computer player of speed ``level`` for ``seat`` of ``game``; ``seed=None`` draws
    its randomness from the operating system (a live table)."""
    name = game.name if isinstance(game, GameSpec) else game_spec(game).name
    by_level = PLAYERS.get(name, {})
    if level not in by_level:
        known = ", ".join(by_level or LEVELS)
        shown = repr(level) if isinstance(level, str) and len(level) <= 24 else "that"
        raise RecordError(f"unknown level {shown} (expected one of: {known})")
    return by_level[level](seat, seed=seed)
