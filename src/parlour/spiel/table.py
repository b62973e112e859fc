"""A Parlour game whose chance is given from outside, as little as anyone sees of it.

OpenSpiel's algorithms (CFR, exact best responses, chance sampling) need *explicit*
chance: a chance node with its outcomes and their probabilities wherever the game
shuffles. A Parlour game draws a whole deck (or a shuffle) from its
:class:`~parlour.engine.chance.Chance` in the middle of an action (Slabberjan's next deal
follows the dealer's last move), so :class:`Table` plays the rules as they are, with an
*explicit* chance, and answers each draw when the rules make it:

- it applies each action to the game; if the rules ask for a deck or a shuffle
  (:class:`~parlour.engine.chance.ChanceNeeded`), the half-changed game is thrown away for
  the copy taken before the action, and the table *needs* that many cards
  (:attr:`Table.need`);
- only the cards someone sees at once are chance nodes, one card a node
  (:meth:`Table.give_card`: the outcomes are the distinct cards still to come, each as
  likely as its copies): the first ``face`` cards of the order (Slabberjan: the piece each
  seat draws; Splunk: none, nobody sees a pile). The rest of the order is *not drawn*: it
  is put in a fixed order (sorted), which nobody can tell from any other, since nobody has
  seen those cards;
- the order is then stacked and the action applied again. Nothing of the rules is written
  twice.

A hidden card is drawn when someone first sees it: the state asks for it as a chance node
over the cards nobody has seen, and :meth:`Table.exchange` puts the chosen card where the
stand-in was, in the record as in the game (the state swaps the two in the game's own
places: the two are interchangeable, since nobody has seen either). So a deal costs only
the chance nodes of what is seen, and a game's chance is exactly what its seats learn:
OpenSpiel's sampling methods see chance probabilities no smaller than the information
revealed (a 4-player Slabberjan deal is 4 nodes, not 42).

A table copies with :meth:`Game.clone`, and pickles as its record: what OpenSpiel's
``State.clone`` and ``serialize`` do to the attributes of a Python state.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import orjson

from parlour.engine import Action, Game
from parlour.engine.chance import Chance, ChanceNeeded, ChanceRequest

Draw = Literal["deck", "shuffle"]
#: How many leading cards of a draw someone sees at once, given the game as it was when
#: the rules drew (``None``: in the game's setup) and the number of players. A plain
#: function: a table pickles with it.
Face = Callable[[Game | None, int], int]


def no_face(game: Game | None, players: int) -> int:
    """Nobody sees any card of a draw when it is made (Splunk's deal, Slapjack's)."""
    return 0


class Table:
    """One game of ``cls`` for ``players`` with ``options``, its chance given explicitly.

    >>> from parlour.games.splunk import Splunk, Play
    >>> table = Table(Splunk, 2, {"first": 0})
    >>> table.need, table.game.stacks[0]  # nobody sees the deal: the stand-in order
    (None, ['2C'])
    >>> table.act(Play(0, stack=0)); table.game.stacks[0]
    ['2C', '3C']
    """

    def __init__(self, cls: type[Game], players: int, options: Mapping[str, Any], *,
                 face: Face = no_face) -> None:
        self.cls = cls
        self.players = players
        self.options = dict(options)
        self.face = face
        self.decks: list[list[Any]] = []
        self.shuffles: list[list[Any]] = []
        #: every action applied so far, in order (the record's ``actions``)
        self.actions: list[Action] = []
        #: the action that drew the chance being given now, applied again once it is
        self.pending: Action | None = None
        #: what must be given before play goes on: a deck or a shuffle of these cards
        #: (sorted), or ``None``
        self.need: tuple[Draw, list[Any]] | None = None
        #: how many leading cards of the order needed are chance nodes (seen at once)
        self.seen_at_once = 0
        #: the cards given so far of the order being drawn, top first
        self.drawn: list[Any] = []
        #: card -> copies of it still to be given
        self.left: Counter[Any] = Counter()
        #: per seat, the events it was told so far as JSON text (kept as they grow)
        self._told: dict[int, list[str]] = {}
        self.game: Game | None = None
        self._start()

    # -- what the rules ask for -------------------------------------------------------------

    def _chance(self) -> Chance:
        return Chance(decks=self.decks, shuffles=self.shuffles, explicit=True)

    def _start(self) -> None:
        """The game from its record (every action checked, so its events are all there),
        or a need if its setup draws more than the record gives."""
        try:
            game = self.cls(self.players, options=self.options, chance=self._chance())
        except ChanceNeeded as need:
            self._ask(need.request, None)
            return
        for action in self.actions:
            game.apply(action)
        self.game = game

    def _ask(self, request: ChanceRequest, game: Game | None) -> None:
        if request.kind == "choice":
            raise RuntimeError(f"give {self.cls.name}'s chance options: {request}")
        cards = list(request.cards)
        self.need = (request.kind, cards)
        self.drawn, self.left = [], Counter(cards)
        self.seen_at_once = self.face(game, self.players)
        if self.seen_at_once == 0:
            self._complete()

    def act(self, action: Action) -> None:
        """Applies ``action``, checked (:class:`IllegalAction` if the rules refuse it, the
        table unchanged). If the rules then need chance, :attr:`need` says what, and
        :attr:`game` stays as it was before ``action`` until it is given."""
        game = self.game
        if self.need is not None or game is None:
            raise RuntimeError("the table needs chance before any action: give_card")
        before = game.clone()  # a game stopped at a chance node is half-changed
        try:
            game.apply(action)
        except ChanceNeeded as need:
            self.game = before
            self.pending = action
            self._ask(need.request, game)
            return
        self.actions.append(action)

    # -- the chance nodes ------------------------------------------------------------------

    def outcomes(self) -> list[tuple[Any, int]]:
        """The cards that may come next, each with how many copies are left (sorted)."""
        if self.need is None:
            return []
        return sorted((card, n) for card, n in self.left.items() if n > 0)

    def give_card(self, card: Any) -> None:
        """The next card of the order being drawn; the last one seen at once completes it
        (the rest stand in, sorted)."""
        if self.need is None:
            raise RuntimeError("no chance is needed now")
        if self.left.get(card, 0) <= 0:
            raise ValueError(f"{card!r} is not among the cards left to draw")
        self.left[card] -= 1
        self.drawn.append(card)
        if len(self.drawn) >= self.seen_at_once:
            self._complete()

    def _complete(self) -> None:
        need = self.need
        assert need is not None
        kind, _ = need
        order = self.drawn + sorted(self.left.elements())
        (self.decks if kind == "deck" else self.shuffles).append(order)
        self.need, self.drawn, self.left = None, [], Counter()
        game = self.game
        if game is None:
            self._start()
            return
        game.chance.stack(kind, order)
        pending, self.pending = self.pending, None
        if pending is not None:
            self.act(pending)

    # -- a hidden card, drawn when it is first seen ------------------------------------------------

    def exchange(self, kind: Draw, index: int, i: int, j: int) -> None:
        """Swaps places ``i`` and ``j`` of order ``index`` of ``kind`` in the record (the
        table's and the game's): the state swaps the same two cards in the game's places.
        Only for two cards nobody has seen, which nobody can tell apart."""
        orders = self.decks if kind == "deck" else self.shuffles
        order = orders[index]
        order[i], order[j] = order[j], order[i]
        if self.game is not None:
            _rewrite(self.game.chance, kind, index, order)

    # -- what a seat was told ---------------------------------------------------------------------

    def told(self, seat: int) -> list[str]:
        """Every event of the game as ``seat`` was told it, one JSON text each, in order.

        Kept as the game grows: an event never changes, and a game built again from its
        record tells the same events, so each is written once."""
        told = self._told.setdefault(seat, [])
        events = self.game.events if self.game is not None else []
        if len(told) > len(events):  # not the same game (rebuilt): start again
            told.clear()
        told += [_json(e.seen_by(seat)) for e in events[len(told):]]
        return told

    # -- copies --------------------------------------------------------------------------------

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        new = Table.__new__(Table)
        new.__dict__ = {**self.__dict__, "options": dict(self.options),
                        "decks": [list(d) for d in self.decks],
                        "shuffles": [list(s) for s in self.shuffles],
                        "actions": list(self.actions), "drawn": list(self.drawn),
                        "left": self.left.copy(),
                        "_told": {seat: list(t) for seat, t in self._told.items()}}
        new.game = None if self.game is None else self.game.clone()
        return new

    def __getstate__(self) -> dict[str, Any]:
        # the record, not the game: a pickle stays small and replays in any version
        return {k: v for k, v in self.__dict__.items() if k not in ("game", "_told")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._told = {}
        self.game = None
        need, drawn, left, seen = self.need, self.drawn, self.left, self.seen_at_once
        self.need = None
        self._start()  # the game before the pending action: its chance is all given
        self.need, self.drawn, self.left, self.seen_at_once = need, drawn, left, seen

    def rebuilt(self, decks: Sequence[Sequence[Any]]) -> Table:
        """The same actions played from other ``decks`` (the shuffles kept): a table in
        which hidden cards lie elsewhere. Raises :class:`IllegalAction` if an action
        cannot be played from them."""
        new = Table.__new__(Table)
        new.__dict__ = {**self.__dict__, "decks": [list(d) for d in decks],
                        "shuffles": [list(s) for s in self.shuffles],
                        "actions": list(self.actions), "drawn": list(self.drawn),
                        "left": self.left.copy(), "_told": {}, "game": None}
        need = new.need
        new.need = None
        new._start()
        new.need = need
        return new

    def record(self) -> dict[str, Any]:
        """The game record so far (``shared/spec/records.md``)."""
        return {"game": self.cls.name, "players": self.players, "options": self.options,
                "decks": self.decks, "shuffles": self.shuffles,
                "actions": [a.to_json() for a in self.actions]}


def _json(obj: Any) -> str:
    return orjson.dumps(obj).decode()


def _rewrite(chance: Chance, kind: Draw, index: int, order: Sequence[Any]) -> None:
    """Makes the game's own record of its ``index``-th ``kind`` draw say ``order``, so that
    ``game.record()`` replays the game as the table holds it."""
    used = chance.used_decks if kind == "deck" else chance.used_shuffles
    old = used[index]
    new = tuple(order)
    used[index] = new
    drawn = chance._drawn  # the engine's log of draws: the same tuple, once
    for k, entry in enumerate(drawn):
        if entry[2] is old:
            drawn[k] = (entry[0], entry[1], new, entry[3])
            break


@functools.cache
def _index(alphabet: tuple[Any, ...]) -> dict[Any, int]:
    return {card: i for i, card in enumerate(alphabet)}


def card_outcomes(table: Table, alphabet: tuple[Any, ...]) -> list[tuple[int, float]]:
    """The chance node of ``table`` as OpenSpiel wants it: (index of the card in
    ``alphabet``, probability), sorted by index."""
    return counted_outcomes(table.left, alphabet)


def counted_outcomes(left: Mapping[Any, int], alphabet: tuple[Any, ...]
                     ) -> list[tuple[int, float]]:
    """Each card of ``left`` (card -> copies) as (its index in ``alphabet``, its share of
    the copies), sorted by index: a draw of one of them."""
    total = sum(left.values())
    index = _index(alphabet)
    return sorted([(index[card], n / total) for card, n in left.items() if n])
