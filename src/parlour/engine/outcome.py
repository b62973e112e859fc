"""How a game ended: the winner, or a draw, and why (each game's own :class:`Termination`).

As python-chess's ``Outcome``: a draw is an outcome whose ``winner`` is ``None``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class Termination(enum.Enum):
    """Why a game ended. Each game subclasses it with its own endings, so that an ending
    that belongs to one game lives with that game.

    >>> class Coin(Termination):
    ...     CALLED = "called"
    ...     BOTH_LANDED_ON_EDGE = "both_landed_on_edge"
    >>> Outcome(1, Coin.CALLED).to_json()
    {'winner': 1, 'termination': 'called'}
    >>> Outcome(None, Coin.BOTH_LANDED_ON_EDGE).to_json()
    {'winner': None, 'termination': 'both_landed_on_edge', 'draw': True}
    """


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the winning seat, or ``None`` for a draw, and why."""

    winner: int | None
    termination: Termination

    @property
    def draw(self) -> bool:
        return self.winner is None

    def to_json(self) -> dict[str, Any]:
        """``{"winner": seat, "termination": why}`` (``shared/spec/records.md``: an outcome
        is at least ``{"winner": seat}``); a draw's winner is ``null``, with ``"draw": true``."""
        if self.winner is None:
            return {"winner": None, "termination": self.termination.value, "draw": True}
        return {"winner": self.winner, "termination": self.termination.value}
