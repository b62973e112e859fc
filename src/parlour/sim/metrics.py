"""Per-game measurements a simulation adds beside wins, read from the public events.

A metric watches a game through the arena's observer hook and, at the end, gives one number
per seat for each thing it measures; the simulation sums them per entry.
"""

from __future__ import annotations

from typing import Protocol

from parlour.engine import Action, Event, Game


class Metric(Protocol):
    def observe(self, now: float, action: Action, events: list[Event], game: Game) -> None: ...

    def result(self) -> dict[str, list[float]]: ...


def new_metric(game: str, players: int) -> Metric | None:
    """The measurements of ``game``, if it has any beyond wins and lengths."""
    return None
