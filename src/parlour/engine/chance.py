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

    __slots__ = ("_decks", "_rng", "_shuffles", "seed", "used_decks", "used_shuffles")

    def __init__(
        self,
        seed: int | None = None,
        decks: Iterable[Sequence[Any]] = (),
        shuffles: Iterable[Sequence[Any]] = (),
    ) -> None:
        self.seed = seed
        # made on first use: a replay whose record gives every outcome never seeds one
        self._rng: random.Random | None = None
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
        return rng

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
