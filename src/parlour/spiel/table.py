"""A Parlour game whose every chance outcome is given from outside, one card at a time.

OpenSpiel's algorithms (CFR, exact best responses, chance sampling) need *explicit*
chance: a chance node with its outcomes and their probabilities wherever the game
shuffles. A Parlour game draws a whole deck (or a shuffle) from its
:class:`~parlour.engine.chance.Chance` in the middle of an action (Slabberjan's next deal
follows the dealer's last move), so :class:`Table` plays the rules as they are and asks
for chance only when they do:

- it applies each action to the game; if the rules drew a deck or a shuffle that was not
  given (the game's ``used_decks`` / ``used_shuffles`` grew), that draw is thrown away
  and the table *needs* that many cards, as a multiset (:attr:`Table.need`);
- the cards are then given one at a time (:meth:`Table.give_card`: each is a chance node
  whose outcomes are the distinct cards still to come, each as likely as its copies);
- once the order is complete, the game is built again from its record with the new order
  stacked (``decks=`` / ``shuffles=``, the way a record replays), and the action that
  needed it is applied again. Nothing of the rules is written twice.

The rules are never asked to guess: their own generator is seeded with a constant and
its draws only ever serve to notice that a draw was made.

A table copies with :meth:`Game.clone` where the engine has it (and by replaying its
record otherwise), and pickles as its record: what OpenSpiel's ``State.clone`` and
``serialize`` do to the attributes of a Python state.
"""

from __future__ import annotations

import copy
import functools
from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal

import orjson

from parlour.engine import Action, Game

Draw = Literal["deck", "shuffle"]


class Table:
    """One game of ``cls`` for ``players`` with ``options``, its chance given explicitly.

    >>> from parlour.games.splunk import Splunk, Play
    >>> from parlour.engine.cards import STANDARD_DECK
    >>> table = Table(Splunk, 2, {"first": 0})
    >>> table.need[0], len(table.need[1])  # the deal: 52 cards, one at a time
    ('deck', 52)
    >>> for card in STANDARD_DECK:
    ...     table.give_card(card)
    >>> table.game.piles[0][0], table.need  # seat 0's third card: two went down as bases
    ('5S', None)
    >>> table.act(Play(0, stack=0)); table.game.stacks[0]
    ['AS', '5S']
    """

    def __init__(self, cls: type[Game], players: int, options: Mapping[str, Any]) -> None:
        self.cls = cls
        self.players = players
        self.options = dict(options)
        self.decks: list[list[Any]] = []
        self.shuffles: list[list[Any]] = []
        #: every action applied so far, in order (the record's ``actions``)
        self.actions: list[Action] = []
        #: the action that drew the chance being given now, applied again once it is
        self.pending: Action | None = None
        #: what must be given before play goes on: a deck or a shuffle of these cards
        #: (sorted), or ``None``
        self.need: tuple[Draw, list[Any]] | None = None
        #: the cards given so far of the order being drawn, top first
        self.drawn: list[Any] = []
        #: card -> copies of it still to be given
        self.left: Counter[Any] = Counter()
        #: per seat, the events it was told so far as JSON text (kept as they grow)
        self._told: dict[int, list[str]] = {}
        self.game: Game | None = self._build()

    # -- what the rules ask for -------------------------------------------------------------

    def _build(self) -> Game | None:
        """The game from its record (every action checked, so its events are all there),
        then the pending action; ``None`` while the first deal is being drawn. If the
        rules draw something not given yet, :attr:`need` says what, and the game is the
        one before the action that drew it."""
        game = self.cls(self.players, seed=0, options=self.options,
                        decks=self.decks, shuffles=self.shuffles)
        if self._drew(game):
            return None
        for action in self.actions:
            game.apply(action)
        pending = self.pending
        if pending is None:
            return game
        game.apply(pending)
        if self._drew(game):  # it drew once more (a redeal): give that too
            return self._replayed()
        self.actions.append(pending)
        self.pending = None
        return game

    def _replayed(self) -> Game:
        """The game of the record without the pending action (its chance is all given)."""
        game = self.cls(self.players, seed=0, options=self.options,
                        decks=self.decks, shuffles=self.shuffles)
        for action in self.actions:
            game.apply(action)
        return game

    def _drew(self, game: Game) -> bool:
        """Whether the rules drew an order that was not given: then it is needed."""
        used = game.chance
        need: tuple[Draw, list[Any]]
        if len(used.used_decks) > len(self.decks):
            need = ("deck", sorted(used.used_decks[len(self.decks)]))
        elif len(used.used_shuffles) > len(self.shuffles):
            need = ("shuffle", sorted(used.used_shuffles[len(self.shuffles)]))
        else:
            return False
        self.need, self.drawn, self.left = need, [], Counter(need[1])
        return True

    def act(self, action: Action) -> None:
        """Applies ``action``, checked (:class:`IllegalAction` if the rules refuse it, the
        table unchanged). If the rules then need chance, :attr:`need` says what, and
        :attr:`game` stays as it was before ``action`` until it is given."""
        game = self.game
        if self.need is not None or game is None:
            raise RuntimeError("the table needs chance before any action: give_card")
        decks, shuffles = len(game.chance.used_decks), len(game.chance.used_shuffles)
        game.apply(action)
        if len(game.chance.used_decks) == decks and len(game.chance.used_shuffles) == shuffles:
            self.actions.append(action)
            return
        # The rules drew: the game is now past a draw nobody gave. Keep the question, go
        # back to before the action, and play it again once the answer is given.
        self._drew(game)
        self.pending = action
        self.game = self._replayed()

    # -- the chance nodes ------------------------------------------------------------------

    def outcomes(self) -> list[tuple[Any, int]]:
        """The cards that may come next, each with how many copies are left (sorted)."""
        if self.need is None:
            return []
        return sorted((card, n) for card, n in self.left.items() if n > 0)

    def give_card(self, card: Any) -> None:
        """The next card of the order being drawn; the last one completes it."""
        if self.need is None:
            raise RuntimeError("no chance is needed now")
        if self.left.get(card, 0) <= 0:
            raise ValueError(f"{card!r} is not among the cards left to draw")
        self.left[card] -= 1
        self.drawn.append(card)
        kind, cards = self.need
        if len(self.drawn) < len(cards):
            return
        (self.decks if kind == "deck" else self.shuffles).append(self.drawn)
        self.need, self.drawn = None, []
        self.game = self._build()

    def told(self, seat: int) -> list[str]:
        """Every event of the game as ``seat`` was told it, one JSON text each, in order.

        Kept as the game grows: an event never changes, and a game built again from its
        record tells the same events, so each is written once."""
        told = self._told.setdefault(seat, [])
        events = self.game.events if self.game is not None else []
        if len(told) > len(events):  # not the same game (restacked): start again
            told.clear()
        told += [orjson.dumps(e.seen_by(seat)).decode() for e in events[len(told):]]
        return told

    # -- copies --------------------------------------------------------------------------------

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        new = Table.__new__(Table)
        new.__dict__ = {**self.__dict__, "options": dict(self.options),
                        "decks": list(self.decks), "shuffles": list(self.shuffles),
                        "actions": list(self.actions), "drawn": list(self.drawn),
                        "left": self.left.copy(),
                        "_told": {seat: list(t) for seat, t in self._told.items()}}
        new.game = None if self.game is None else (
            _clone(self.game) or copy.deepcopy(self.game, memo))
        return new

    def __getstate__(self) -> dict[str, Any]:
        # the record, not the game: a pickle stays small and replays in any version
        return {k: v for k, v in self.__dict__.items() if k not in ("game", "_told")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._told = {}
        drawn, left = self.drawn, self.left
        self.game = self._build()  # notices the same need again, and forgets the drawn
        self.drawn, self.left = drawn, left

    def restacked(self, decks: list[list[Any]]) -> Table:
        """The same actions played from other ``decks`` (the shuffles kept): a table in
        which hidden cards lie elsewhere. Raises :class:`IllegalAction` if an action
        cannot be played from them."""
        new = Table.__new__(Table)
        new.__dict__ = {**self.__dict__, "decks": [list(d) for d in decks],
                        "actions": list(self.actions), "drawn": list(self.drawn),
                        "left": self.left.copy(), "_told": {}}
        new.game = new._build()
        return new

    def record(self) -> dict[str, Any]:
        """The game record so far (``shared/spec/records.md``)."""
        return {"game": self.cls.name, "players": self.players, "options": self.options,
                "decks": self.decks, "shuffles": self.shuffles,
                "actions": [a.to_json() for a in self.actions]}


def _clone(game: Game) -> Game | None:
    """A copy of ``game`` by the engine's ``clone`` if it has one (else ``None``)."""
    clone = getattr(game, "clone", None)
    return clone() if clone is not None else None


@functools.cache
def _index(alphabet: tuple[Any, ...]) -> dict[Any, int]:
    return {card: i for i, card in enumerate(alphabet)}


def card_outcomes(table: Table, alphabet: tuple[Any, ...]) -> list[tuple[int, float]]:
    """The chance node of ``table`` as OpenSpiel wants it: (index of the card in
    ``alphabet``, probability), sorted by index."""
    left = [(card, n) for card, n in table.left.items() if n > 0]
    total = sum(n for _, n in left)
    index = _index(alphabet)
    return sorted((index[card], n / total) for card, n in left)
