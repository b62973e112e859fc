"""The two ways input can be wrong: an action the rules refuse, or a record that is malformed."""

from __future__ import annotations


class GameError(ValueError):
    """Base of every error the engine raises for bad input; the state is left as it was."""


class IllegalAction(GameError):
    """The rules refuse this action now; the message says why."""


class RecordError(GameError):
    """A record, a deck, an option or an action object is malformed."""
