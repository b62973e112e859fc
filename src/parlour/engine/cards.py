"""French playing cards in the notation of ``shared/spec/records.md``.

A card is its two-character name: rank in ``A23456789TJQK`` then suit in ``SHDC``
(``"JS"``, ``"TH"``, ``"AC"``), or ``"X1"``/``"X2"`` for the two jokers. Plain strings keep
records, views and events JSON as they are, and make the hot loops of simulations cheap.

>>> len(standard_deck()), len(standard_deck(jokers=True))
(52, 54)

What a card is worth, or which rank matters, is each game's own business (Splunk's count,
Slapjack's Jacks): it lives in that game's module.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NewType, TypeVar

from parlour.engine.errors import RecordError

Card = NewType("Card", str)
T = TypeVar("T")

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKERS: tuple[Card, ...] = (Card("X1"), Card("X2"))

_STANDARD: tuple[Card, ...] = tuple(Card(r + s) for s in SUITS for r in RANKS)
ALL_CARDS: frozenset[Card] = frozenset(_STANDARD) | frozenset(JOKERS)

#: The unshuffled decks as constant tuples: 52 cards, and 54 with the two jokers.
STANDARD_DECK: tuple[Card, ...] = _STANDARD
JOKER_DECK: tuple[Card, ...] = _STANDARD + JOKERS


def standard_deck(*, jokers: bool = False) -> list[Card]:
    """A fresh, unshuffled deck: 52 cards, or 54 with the two jokers."""
    return list(JOKER_DECK if jokers else _STANDARD)


def deal_one_at_a_time(deck: Sequence[T], players: int) -> list[list[T]]:
    """``deck`` (top first) dealt one card at a time from seat 0 until it is gone: each
    seat's cards, the first dealt to it first (its top card, in Slapjack and Splunk).

    >>> deal_one_at_a_time(["AS", "KD", "7H", "2C", "5S"], 2)
    [['AS', '7H', '5S'], ['KD', '2C']]
    """
    return [list(deck[seat::players]) for seat in range(players)]


#: id of a game's constant tuple of cards -> (that tuple, kept alive; its sorted list)
_SORTED: dict[int, tuple[Sequence[object], list[Any]]] = {}


def same_cards(cards: Sequence[object], expected: Sequence[object]) -> bool:
    """Whether ``cards`` holds exactly the multiset ``expected``, cheaply: a game's constant
    tuple of cards is sorted once, so a stacked deal costs one sort of the deal.

    >>> same_cards(["b", "a"], ("a", "b")), same_cards(["a", "a"], ("a", "b"))
    (True, False)
    """
    if len(cards) != len(expected):
        return False
    try:  # not all strings: check_same_cards says what is wrong
        if type(expected) is tuple:
            hit = _SORTED.get(id(expected))
            if hit is not None and hit[0] is expected:
                want = hit[1]
            else:
                want = sorted(expected)
                if len(_SORTED) < 64:  # games' constants are few; nothing else is kept
                    _SORTED[id(expected)] = (expected, want)
        else:
            want = sorted(expected)
        return sorted(cards) == want  # type: ignore[type-var]
    except TypeError:
        return False


def check_same_cards(cards: Sequence[object], expected: Iterable[object], what: str) -> None:
    """Raises :class:`RecordError` unless ``cards`` holds exactly the multiset ``expected``."""
    want_list = list(expected)
    try:  # the common case, cheaply: it runs for every stacked shuffle of a replay
        if sorted(cards) == sorted(want_list):  # type: ignore[type-var]
            return
    except TypeError:  # not all strings: the slow path below says what is wrong
        pass
    got, want = Counter(cards), Counter(want_list)
    if got != want:
        missing = sorted(map(str, (want - got).elements()))
        extra = sorted(map(str, (got - want).elements()))
        raise RecordError(
            f"{what} must hold exactly the game's cards: missing {missing}, extra {extra}")
