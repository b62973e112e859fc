"""How a game ended."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class Termination(enum.Enum):
    """Why the game ended."""

    LAST_PLAYER_STANDING = "last_player_standing"
    """Every other player is out (Slapjack, Slabberjan)."""
    RAN_OUT_OF_CARDS = "ran_out_of_cards"
    """The winner got rid of all their cards and their last play stood (Splunk)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game.

    >>> Outcome(1, Termination.LAST_PLAYER_STANDING).to_json()
    {'winner': 1, 'termination': 'last_player_standing'}
    """

    winner: int
    termination: Termination

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "termination": self.termination.value}
