"""The rules engine core that every Parlour game is built on; it imports nothing above it."""

from parlour.engine.actions import Action, parse_action
from parlour.engine.cards import Card
from parlour.engine.chance import Chance, ChanceNeeded, ChanceOutcome, ChanceRequest
from parlour.engine.errors import GameError, IllegalAction, RecordError
from parlour.engine.events import Event
from parlour.engine.game import Game, fast_path
from parlour.engine.outcome import Outcome, Termination
from parlour.engine.record import Record, parse_record
from parlour.engine.spec import LEVELS, GameSpec, Metric, Option, Pacing

__all__ = [
    "LEVELS", "Action", "Card", "Chance", "ChanceNeeded", "ChanceOutcome", "ChanceRequest",
    "Event", "Game", "GameError", "GameSpec",
    "IllegalAction", "Metric", "Option", "Outcome", "Pacing", "Record", "RecordError",
    "Termination", "fast_path", "parse_action", "parse_record",
]
