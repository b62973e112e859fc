"""What a computer player is, for every game and every clock.

A computer player sits at one seat and sees exactly what that seat may see: the seat's
``view`` and the events as :meth:`~parlour.engine.Event.seen_by` that seat. It never holds the
game itself. After every change of the game, its driver (the virtual clock of a simulation,
or the real clock of a live table) calls :meth:`ComputerPlayer.decide`; the answer says what
to do and how long after that moment, which is how reaction time makes a slap race. A new
call supersedes the answer before it: a driver drops a decision it has not yet carried out.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from parlour.engine import LEVELS, Action

__all__ = ["LEVELS", "AnyPlayer", "ComputerPlayer", "Decision", "PlayerMaker", "ReactionTime"]


@dataclass(frozen=True, slots=True)
class ReactionTime:
    """How fast a hand reacts, in seconds: a floor plus a log-normal tail, the usual shape
    of human reaction times, with ``median`` the median of the whole.

    >>> rt = REACTION_TIMES["hard"]
    >>> rng = random.Random(1)
    >>> all(rt.floor < rt.draw(rng) for _ in range(100))
    True
    """

    floor: float
    median: float
    spread: float

    def draw(self, rng: random.Random) -> float:
        return self.floor + rng.lognormvariate(math.log(self.median - self.floor), self.spread)


#: One reaction time per speed, the same in every game with races, calibrated against
#: modelled people (:mod:`parlour.bots.person`; the table is in ``docs/bots.md``): a slow
#: beginner (600 ms) beats Easy, a 500 ms person is an even match for Normal, Hard beats a
#: 400 ms person and Expert is for the quickest people (250 to 300 ms).
REACTION_TIMES: dict[str, ReactionTime] = {
    "easy": ReactionTime(floor=0.30, median=0.62, spread=0.40),
    "normal": ReactionTime(floor=0.25, median=0.48, spread=0.35),
    "hard": ReactionTime(floor=0.20, median=0.37, spread=0.30),
    "expert": ReactionTime(floor=0.15, median=0.28, spread=0.30),
}


@dataclass(frozen=True, slots=True)
class Decision:
    """Do ``action`` ``delay`` seconds after the observation that led to it."""

    action: Action
    delay: float


#: The view a computer player reads: its game's view TypedDict.
View = TypeVar("View")


#: What a decision is charged unless its player says more (:meth:`ComputerPlayer.cpu_cost`).
DECISION_COST = 1e-4


class ComputerPlayer(ABC, Generic[View]):
    """A computer player for one seat, at one speed (``level``); reproducible from its seed.

    ``seed=None`` draws its randomness from the operating system's cryptographic generator,
    as at a live table, where nothing a player sees may predict what a computer will do.
    """

    game: str
    level: str = "normal"
    #: whether :meth:`decide` reads its ``events``; a player that decides from the view
    #: alone says False and is given none (making each event as its seat sees it was a
    #: tenth of a single-agent Slabberjan step against Easy)
    reads_events: bool = True

    def __init__(self, seat: int, *, level: str | None = None, seed: int | None = None) -> None:
        self.seat = seat
        if level is not None:
            self.level = level
        self.rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()

    @abstractmethod
    def decide(self, view: View, events: Sequence[dict[str, Any]]) -> Decision | None:
        """What to do now, given the seat's view and the events since the last call."""

    def cpu_cost(self, view: View) -> float:
        """The CPU seconds a decision on ``view`` is charged at a live table (its budgets,
        :class:`parlour.live.caps.Metered`): an estimate from public facts only, never the
        decision's own time, which depends on the cards the player holds and would show
        in the delays a budget in debt adds. Measured: every level of every game decides
        in about 100 µs or less at the 99th percentile (Splunk's card-counting Hard: 13 µs
        median, 107 µs p99), but Hard Slabberjan's own turns (its ``cpu_cost``)."""
        return DECISION_COST

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat}, level={self.level!r})"


#: A computer player of any game (a driver reads each game's views as plain mappings).
AnyPlayer = ComputerPlayer[Any]
#: Makes a computer player at one speed: ``maker(seat, seed=None)``.
PlayerMaker = Callable[..., AnyPlayer]
