"""How a game ended: the winner, and why (each game's own :class:`Termination`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class Termination(enum.Enum):
    """Why a game ended. Each game subclasses it with its own endings, so that an ending
    that belongs to one game lives with that game.

    >>> class Coin(Termination):
    ...     CALLED = "called"
    >>> Outcome(1, Coin.CALLED).to_json()
    {'winner': 1, 'termination': 'called'}
    """


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game."""

    winner: int
    termination: Termination

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "termination": self.termination.value}
