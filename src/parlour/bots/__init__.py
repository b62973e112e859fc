"""Computer players: Easy, Normal and Hard for each game, seeing only what a seat may see.

Each module ``parlour.bots.<game>`` defines ``PLAYERS``, a mapping from level to a
:class:`~parlour.bots.base.ComputerPlayer` class; :func:`make_player` looks them up.
"""

from __future__ import annotations

import importlib

from parlour.bots.base import LEVELS, ComputerPlayer, Decision
from parlour.engine import RecordError
from parlour.games import GAME_NAMES

__all__ = ["LEVELS", "ComputerPlayer", "Decision", "make_player"]


def make_player(game: str, level: str, seat: int, *, seed: int | None = None) -> ComputerPlayer:
    """A computer player of ``level`` ("easy", "normal", "hard") for ``seat`` of ``game``."""
    if game not in GAME_NAMES:
        raise RecordError(f"unknown game {game!r} (expected one of: {', '.join(GAME_NAMES)})")
    if level not in LEVELS:
        raise RecordError(f"unknown level {level!r} (expected one of: {', '.join(LEVELS)})")
    module = importlib.import_module(f"parlour.bots.{game}")
    players: dict[str, type[ComputerPlayer]] = module.PLAYERS
    return players[level](seat, seed=seed)
