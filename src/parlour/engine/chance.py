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

Chance nodes, for planners (as OpenSpiel's games have them, so that a game is exactly its
history of chance outcomes and actions): every draw is also logged as a
:class:`ChanceOutcome` (``Chance.drawn``): what kind of draw, when (during the setup, or
during which action), what was drawn and from what set; :meth:`Game.trajectory
<parlour.engine.game.Game.trajectory>` interleaves them with the actions. An ``explicit``
Chance draws nothing itself: a draw that nothing stacked raises :class:`ChanceNeeded`,
whose :class:`ChanceRequest` names the set to draw from, so that a planner can choose (or
enumerate) the outcome and :meth:`stack` it (see :meth:`Game.chance_for
<parlour.engine.game.Game.chance_for>`).

>>> c.drawn[0]
ChanceOutcome(kind='deck', at=None, outcome=['b', 'a', 'c'], n=0)
>>> c.drawn[0].request.cards, c.drawn[0].request.size
(('a', 'b', 'c'), 6)
>>> c.drawn[0].request.next_card(["b"])
[('a', 0.5), ('c', 0.5)]
>>> e = Chance(explicit=True)
>>> e.deck(["a", "a", "b"])
Traceback (most recent call last):
...
parlour.engine.chance.ChanceNeeded: a deck of 3 cards must be drawn (3 orders)
>>> e.stack("deck", ["a", "b", "a"]); e.deck(["a", "a", "b"])
['a', 'b', 'a']
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from parlour.engine.cards import check_same_cards, same_cards

T = TypeVar("T")

ChanceKind = Literal["deck", "shuffle", "choice"]


def _shuffle_inline(rng: random.Random, cards: list[Any]) -> None:
    """``rng.shuffle(cards)``, drawing the same numbers in the same order, so giving the
    same order: :meth:`random.Random.shuffle` with its ``_randbelow`` written into the
    loop. Why: a deal is a shuffle, and a Slabberjan round is one deal; the method's
    call per card was a seventh of a learner's step against the computer."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _same_as_random(candidate: Any) -> bool:
    """Whether ``candidate`` shuffles exactly as this Python's ``random.Random.shuffle``."""
    for seed in range(3):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in (2, 3, 52, 54):
            mine, other = list(range(size)), list(range(size))
            candidate(ours, mine)
            theirs.shuffle(other)
            if mine != other:
                return False
    return True


def _method(rng: random.Random, cards: list[Any]) -> None:
    rng.shuffle(cards)


#: How every undealt order is shuffled: the inline loop, checked at import to give
#: exactly what ``rng.shuffle`` gives on this Python (seeded games must not change), else
#: the method itself. The operating system's generator (live tables) draws through the
#: same ``getrandbits``.
shuffle = _shuffle_inline if _same_as_random(_shuffle_inline) else _method


@dataclass(frozen=True, slots=True)
class ChanceRequest:
    """A chance node: a draw of ``kind`` to be made, from ``cards`` (the multiset a deck or
    shuffle orders, sorted) or, for a ``choice``, uniformly from ``range(n)``. Every
    outcome is equally likely: each distinct order of the cards (``size`` of them), or each
    index."""

    kind: ChanceKind
    at: int | None
    """``None``: during the setup; ``k``: while applying the game's action ``k``."""
    cards: tuple[Any, ...] = ()
    n: int = 0

    @property
    def size(self) -> int:
        """How many distinct outcomes there are (orders of a multiset, or ``n``)."""
        if self.kind == "choice":
            return self.n
        ways = math.factorial(len(self.cards))
        for count in Counter(self.cards).values():
            ways //= math.factorial(count)
        return ways

    @property
    def probability(self) -> float:
        """The probability of each one outcome."""
        return 1 / self.size

    def next_card(self, prefix: Sequence[Any]) -> list[tuple[Any, float]]:
        """The order drawn one card at a time, as OpenSpiel's card games deal: given the
        first cards already chosen (``prefix``, top first), each card that may come next
        with its probability (empty once the order is complete). For a ``choice``, the
        indices and theirs."""
        if self.kind == "choice":
            return [] if prefix else [(i, 1 / self.n) for i in range(self.n)]
        left = Counter(self.cards)
        left.subtract(prefix)
        if any(count < 0 for count in left.values()):
            raise ValueError(f"{list(prefix)!r} is not a beginning of an order of these cards")
        total = len(self.cards) - len(prefix)
        return [(card, count / total) for card, count in sorted(left.items()) if count]

    def __str__(self) -> str:
        if self.kind == "choice":
            return f"a choice from range({self.n}) must be drawn"
        return f"a {self.kind} of {len(self.cards)} cards must be drawn ({self.size} orders)"


@dataclass(frozen=True, slots=True)
class ChanceOutcome:
    """One chance outcome a game drew: ``outcome`` is the order (top first) of a deck or
    shuffle, or the index of a choice; ``at`` as in :class:`ChanceRequest`."""

    kind: ChanceKind
    at: int | None
    outcome: Any
    n: int = 0
    """A choice's range."""

    @property
    def request(self) -> ChanceRequest:
        """The chance node it was drawn at: the set it was drawn from."""
        if self.kind == "choice":
            return ChanceRequest("choice", self.at, n=self.n)
        return ChanceRequest(self.kind, self.at, tuple(sorted(self.outcome)))


class ChanceNeeded(Exception):
    # not an error: the game reached a chance node that an explicit Chance leaves open
    """An explicit :class:`Chance` was asked for an outcome that nothing stacked."""

    def __init__(self, request: ChanceRequest) -> None:
        # the message is made when read: counting a 42-piece deal's orders costs more than
        # the planner's whole step, and a planner catches this at every deal unread
        super().__init__()
        self.request = request

    def __str__(self) -> str:
        return str(self.request)


class Chance:
    """The single source of randomness of one game."""

    __slots__ = ("_decks", "_drawn", "_rng", "_shared", "_shuffles", "clock", "explicit",
                 "seed", "used_decks", "used_shuffles")

    def __init__(
        self,
        seed: int | None = None,
        decks: Iterable[Sequence[Any]] = (),
        shuffles: Iterable[Sequence[Any]] = (),
        *,
        explicit: bool = False,
    ) -> None:
        self.seed = seed
        #: draw nothing: a draw that nothing stacked raises ChanceNeeded
        self.explicit = explicit
        # every outcome drawn, in order: (kind, at, outcome, n), made into ChanceOutcomes
        # only when read (a replay draws a deck per Slabberjan round and reads none)
        self._drawn: list[tuple[ChanceKind, int | None, Any, int]] = []
        #: the game's history once its setup is done (so a draw knows its action); None
        #: during the setup
        self.clock: Sequence[Any] | None = None
        # made on first use: a replay whose record gives every outcome never seeds one
        self._rng: random.Random | None = None
        # True while this Chance's generator is shared with a clone's: see clone()
        self._shared = False
        # Every order is kept as a tuple, stacked or drawn: the cyclic garbage collector
        # stops looking at a tuple of card names after its first pass, but walks a kept
        # list of them again at every full collection (a replay keeps a deck per deal).
        self._decks: deque[tuple[Any, ...]] = deque(map(tuple, decks))
        self._shuffles: deque[tuple[Any, ...]] = deque(map(tuple, shuffles))
        self.used_decks: list[tuple[Any, ...]] = []
        self.used_shuffles: list[tuple[Any, ...]] = []

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
        new.explicit = self.explicit
        new._drawn = self._drawn.copy()
        new.clock = self.clock  # the game's clone gives it its own history
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

    @property
    def at(self) -> int | None:
        """When a draw now happens: ``None`` in the setup, else the index of the action
        being applied."""
        clock = self.clock
        return None if clock is None else len(clock)

    @property
    def drawn(self) -> list[ChanceOutcome]:
        """Every outcome drawn so far, in order, with when and what kind."""
        # an order as a list, as it was dealt (kept as a tuple: see __init__)
        return [ChanceOutcome(kind, at, outcome if kind == "choice" else list(outcome), n)
                for kind, at, outcome, n in self._drawn]

    def deck(self, cards: Sequence[T]) -> list[T]:
        """The order of a fresh deal of ``cards``, top (first dealt) first."""
        return self._order("deck", self._decks, self.used_decks, cards)

    def shuffle(self, cards: Sequence[T]) -> list[T]:
        """The order of ``cards`` after a shuffle, top first."""
        return self._order("shuffle", self._shuffles, self.used_shuffles, cards)

    def _order(self, kind: Literal["deck", "shuffle"], stacked: deque[Any], used: list[Any],
               cards: Sequence[T]) -> list[T]:
        """A deck or a shuffle: the next one ``stacked`` (checked to hold ``cards``), else
        a chance node for an explicit chance, else drawn; kept in ``used`` and drawn (as a
        tuple), and given to the game as a list of its own."""
        order: tuple[T, ...]
        if stacked:
            order = stacked.popleft()
            if not same_cards(order, cards):
                check_same_cards(order, cards, f"{kind} {len(used)}")
        elif self.explicit:
            raise ChanceNeeded(ChanceRequest(kind, self.at, tuple(sorted(cards))))
        else:
            shuffled = list(cards)
            shuffle(self.rng, shuffled)
            order = tuple(shuffled)
        used.append(order)
        clock = self.clock
        self._drawn.append((kind, None if clock is None else len(clock), order, 0))
        return list(order)

    def choice(self, n: int) -> int:
        """A seat (or any index) drawn uniformly from ``range(n)``; games put it in options
        (so a record gives it as an option, not as a chance outcome)."""
        if self.explicit:
            raise ChanceNeeded(ChanceRequest("choice", self.at, n=n))
        drawn = self.rng.randrange(n)
        self._drawn.append(("choice", self.at, drawn, n))
        return drawn

    def unstack(self) -> None:
        """Forgets every stacked outcome not drawn yet (a probe asks what chance comes next,
        whatever a record had stacked)."""
        self._decks.clear()
        self._shuffles.clear()

    def stack(self, kind: Literal["deck", "shuffle"], order: Sequence[Any]) -> None:
        """Makes ``order`` the outcome of the next ``kind`` draw after those already stacked
        (a planner's chosen outcome at a chance node); the draw checks it holds the cards."""
        (self._decks if kind == "deck" else self._shuffles).append(tuple(order))

    def reseed(self, seed: int | None) -> None:
        """Draws what nothing stacked from a new generator from now on (``None``: the
        operating system's): a planner's copy of a game that must not deal the original's
        future cards."""
        self.seed = seed
        self._rng = random.Random(seed) if seed is not None else random.SystemRandom()
        self._shared = False

    def outcomes(self) -> dict[str, list[list[Any]]]:
        """Every deck and shuffle used so far, for :meth:`Game.record`."""
        return {"decks": [list(d) for d in self.used_decks],
                "shuffles": [list(s) for s in self.used_shuffles]}
