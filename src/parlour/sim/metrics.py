"""Per-game measurements a simulation adds beside wins, read from the public events.

A metric watches a game through the arena's observer hook and, at the end, gives one number
per seat for each thing it measures; the simulation sums them per entry, and adds the
:data:`RATIOS` of those sums.

- Slabberjan: ``dealer_rounds``, the rounds a seat dealt, and ``dealer_chips``, the chips
  it owed in them (every payment, and a payment it could not make, which put it out). A
  dealer's only choice is draw or stand, so ``dealer_chips_per_round`` measures that choice.
"""

from __future__ import annotations

from typing import Protocol

from parlour.engine import Action, Event, Game


class Metric(Protocol):
    def observe(self, now: float, action: Action, events: list[Event], game: Game) -> None: ...

    def result(self) -> dict[str, list[float]]: ...


#: name -> (numerator, denominator), computed from the per-entry sums
RATIOS: dict[str, tuple[str, str]] = {
    "dealer_chips_per_round": ("dealer_chips", "dealer_rounds"),
}


class DealerChips:
    """Slabberjan: rounds dealt and chips owed as dealer, per seat."""

    def __init__(self, players: int) -> None:
        self.rounds = [0.0] * players
        self.chips = [0.0] * players
        self.dealer: int | None = None
        self.round = 0

    def observe(self, now: float, action: Action, events: list[Event], game: Game) -> None:
        self.see(events)

    def see(self, events: list[Event]) -> None:
        for e in events:
            data = e.data
            if e.type == "deal":
                self.dealer = data["dealer"]
                if data["round"] != self.round:  # a redeal (fool over fool) is the same round
                    self.round = data["round"]
                    self.rounds[data["dealer"]] += 1
            elif e.type in ("pay", "out") and data["player"] == self.dealer:
                self.chips[data["player"]] += 1

    def result(self) -> dict[str, list[float]]:
        return {"dealer_rounds": self.rounds, "dealer_chips": self.chips}


def new_metric(game: Game) -> Metric | None:
    """The measurements of ``game``, if it has any beyond wins and lengths."""
    if game.name == "slabberjan":
        metric = DealerChips(game.players)
        metric.see(game.events)  # the first deal happened at setup
        return metric
    return None
