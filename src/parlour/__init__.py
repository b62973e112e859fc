"""Parlour: rules engines, computer players and live tables for three folk card games.

>>> import parlour
>>> game = parlour.new_game("slapjack", players=2, seed=1)
>>> game.legal_actions(0)[0]
Flip(player=0)
"""

from parlour.engine import Event, Game, GameError, IllegalAction, Outcome, RecordError, Termination
from parlour.games import GAME_NAMES, game_class, new_game, replay

__all__ = [
    "GAME_NAMES", "Event", "Game", "GameError", "IllegalAction", "Outcome", "RecordError",
    "Termination", "game_class", "new_game", "replay",
]
