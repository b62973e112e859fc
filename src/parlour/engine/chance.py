"""Chance as explicit events: every deal and shuffle of a game goes through one :class:`Chance`.

A game never touches the global random generator. It asks its ``Chance`` for a fresh deck or
for the shuffle of some cards; the answer comes from the stacked ``decks``/``shuffles`` of a
record while they last, then from a generator seeded once per game, or, with no seed, from
the operating system's cryptographic generator (live tables: nothing seen at a table may
predict a hidden card). Every answer is written down, so :meth:`Chance.outcomes` lets a
record give each chance outcome explicitly and replay identically in any later version,
whatever the generator does.

>>> c = Chance(seed=1, decks=[["b", "a", "c"]])
>>> c.deck(["a", "b", "c"])
['b', 'a', 'c']
>>> c.shuffle(["x", "y"]) in (["x", "y"], ["y", "x"])
True
>>> c.outcomes()["decks"]
[['b', 'a', 'c']]
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from parlour.engine.cards import check_same_cards, same_cards

T = TypeVar("T")


class Chance:
    """The single source of randomness of one game."""

    __slots__ = ("_decks", "_rng", "_shared", "_shuffles", "seed", "used_decks",
                 "used_shuffles")

    def __init__(
        self,
        seed: int | None = None,
        decks: Iterable[Sequence[Any]] = (),
        shuffles: Iterable[Sequence[Any]] = (),
    ) -> None:
        self.seed = seed
        # made on first use: a replay whose record gives every outcome never seeds one
        self._rng: random.Random | None = None
        # True while this Chance's generator is shared with a clone's: see clone()
        self._shared = False
        self._decks: deque[list[Any]] = deque(list(d) for d in decks)
        self._shuffles: deque[list[Any]] = deque(list(s) for s in shuffles)
        self.used_decks: list[list[Any]] = []
        self.used_shuffles: list[list[Any]] = []

    @property
    def rng(self) -> random.Random:
        """The generator: seeded once per game, or the operating system's."""
        rng = self._rng
        if rng is None:
            seed = self.seed
            rng = self._rng = (random.Random(seed) if seed is not None
                               else random.SystemRandom())
        elif self._shared:
            self._shared = False
            if type(rng) is not random.SystemRandom:  # the OS's keeps no state to copy
                own = random.Random.__new__(random.Random)
                own.setstate(rng.getstate())
                rng = self._rng = own
        return rng

    def clone(self) -> Chance:
        """An independent copy that draws exactly what this one would draw next.

        Copying a generator's state costs more than copying a whole game of cards (its
        624 words are read out one by one), and most copies (a planner's) never draw: so
        the two share the generator, copy on write, and whichever draws first while it is
        shared draws from a copy of its own. A copy of a game with no seed shares the
        operating system's generator and so draws fresh, unpredictable outcomes, as the
        original does: nothing can replay those."""
        new = Chance.__new__(Chance)
        new.seed = self.seed
        new._rng = self._rng
        if self._rng is not None:
            new._shared = self._shared = True
        else:
            new._shared = False
        # the orders in these lists are never changed once drawn: copy the lists only
        new._decks = self._decks.copy()
        new._shuffles = self._shuffles.copy()
        new.used_decks = self.used_decks.copy()
        new.used_shuffles = self.used_shuffles.copy()
        return new

    def __getstate__(self) -> dict[str, Any]:
        state = {name: getattr(self, name) for name in self.__slots__}
        if type(self._rng) is random.SystemRandom:  # keeps no state: made again when read
            state["_rng"] = "os"
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        if state.get("_rng") == "os":
            state = {**state, "_rng": random.SystemRandom()}
        for name, value in state.items():
            setattr(self, name, value)

    def deck(self, cards: Sequence[T]) -> list[T]:
        """The order of a fresh deal of ``cards``, top (first dealt) first."""
        if self._decks:
            order = self._decks.popleft()
            if not same_cards(order, cards):
                check_same_cards(order, cards, f"deck {len(self.used_decks)}")
        else:
            order = list(cards)
            self.rng.shuffle(order)
        self.used_decks.append(order)
        return list(order)

    def shuffle(self, cards: Sequence[T]) -> list[T]:
        """The order of ``cards`` after a shuffle, top first."""
        if self._shuffles:
            order = self._shuffles.popleft()
            if not same_cards(order, cards):
                check_same_cards(order, cards, f"shuffle {len(self.used_shuffles)}")
        else:
            order = list(cards)
            self.rng.shuffle(order)
        self.used_shuffles.append(order)
        return list(order)

    def choice(self, n: int) -> int:
        """A seat (or any index) drawn uniformly from ``range(n)``; games put it in options."""
        return self.rng.randrange(n)

    def outcomes(self) -> dict[str, list[list[Any]]]:
        """Every deck and shuffle used so far, for :meth:`Game.record`."""
        return {"decks": [list(d) for d in self.used_decks],
                "shuffles": [list(s) for s in self.used_shuffles]}
