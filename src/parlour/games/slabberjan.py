"""Slabberjan: a cuckoo game of passing pieces, played to the last player standing.

- Players: 2 to 42, each with the same number of chips (option ``chips``, default 3).
- Chance: one fresh order of the 42 pieces per deal (redeals after "fool over fool"
  included), drawn through the game's :class:`~parlour.engine.chance.Chance`; the first
  dealer (option ``dealer``) is drawn from the seed when not given and written into the
  options, so :meth:`~parlour.engine.game.Game.record` replays the game exactly.
- Information: imperfect. A seat sees its own piece and the pieces it learns in its own
  swaps (and, as dealer, the pieces it draws). Matadors are announced in public when they
  refuse a swap; everything else stays hidden until the reveal at the end of the round.
  The bag is never seen.
- Actions: ``Swap`` (try to exchange with your left neighbour), ``Stand`` (keep your piece)
  and ``Draw`` (the dealer exchanges with the top piece of the bag). Every turn is one
  action, even a forced one; rounds, payments, eliminations, redeals and the next deal
  follow from it without further actions.

Events, public part first, then [what only some seats are told]: ``deal`` round, dealer,
deal [each seat its piece]; ``stand`` player; ``swap`` player, target [the two: gave, got];
``announce`` player (the swapper or dealer), holder (seat, or None from the bag), bag,
piece, words (the exact words; "fool over fool" adds players); ``no_swap`` player, reason;
``undo`` reason [each seat its piece]; ``draw`` player [the dealer: gave, got]; ``keep``
player, reason; ``reveal`` pieces; ``pay`` player, reason, chips, pot; ``out`` player;
``spared`` players, reason; ``win`` player, pot.

Rulings S1 to S12 and G1 to G3 of ``shared/rulings.md`` are implemented here; the comments
cite them.

>>> from parlour.games.slabberjan import Slabberjan, Swap, Stand, Draw
>>> game = Slabberjan(3, seed=1, options={"dealer": 0})
>>> game.view(None)["turn"], game.view(None)["phase"]
(1, 'turns')
>>> [type(a).__name__ for a in game.legal_actions(1)] in (["Swap"], ["Stand"])
True
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from itertools import product
from typing import Any, Literal, TypedDict

from parlour.engine import (
    Action,
    Event,
    Game,
    GameSpec,
    Option,
    Outcome,
    Pacing,
    RecordError,
    Termination,
)
from parlour.engine.events import PrivateEvent, PublicEvent
from parlour.engine.game import fast_path

#: The 21 kinds of piece, high to low.
KINDS: tuple[str, ...] = (
    "knight", "bird", "cat", "inn",
    "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "0",
    "white bread", "chamber pot", "scary face", "fool",
)
#: The 42 pieces, two of each kind.
PIECES: tuple[str, ...] = tuple(kind for kind in KINDS for _ in range(2))
#: Option ``variant``: the kinds of piece in the bag, two of each, high to low. The
#: smaller ones keep the matadors and the fool, and so every rule (S4 to S10), with fewer
#: plain pieces between them: the role Leduc plays for poker, a game small enough for exact
#: methods (docs/research.md).
VARIANTS: Mapping[str, tuple[str, ...]] = {
    "full": KINDS,
    "medium": ("knight", "bird", "cat", "inn", "9", "6", "3", "0", "fool"),
    "small": ("knight", "bird", "cat", "inn", "6", "fool"),
}
#: Each variant's pieces, two of each kind.
VARIANT_PIECES: Mapping[str, tuple[str, ...]] = {
    name: tuple(kind for kind in kinds for _ in range(2)) for name, kinds in VARIANTS.items()}
#: Higher is better: knight 20 ... fool 0.
RANK: Mapping[str, int] = {kind: len(KINDS) - 1 - i for i, kind in enumerate(KINDS)}
MATADORS: frozenset[str] = frozenset(KINDS[:4])
FOOL = "fool"
#: What a matador's holder says when it refuses a swap (S5).
WORDS: Mapping[str, str] = {
    "inn": "go by the Inn",
    "cat": "meow",
    "bird": "stand still in front of the bird",
    "knight": "cut short",
}
FOOL_OVER_FOOL = "fool over fool"
MAX_CHIPS = 1000
#: Above every rank: a pay line that everyone is under ("fewer players than that: all pay").
NOBODY = len(KINDS)


class Swap(Action, kind="swap"):
    """Try to exchange pieces with the player to your left (S4, S5)."""


class Stand(Action, kind="stand"):
    """Keep your piece: matador holders, anyone with ``free_choice``, the dealer (S4, S8)."""


class Draw(Action, kind="draw"):
    """The dealer exchanges their piece for the top piece of the bag (S8)."""


# -- S10, the payment at the end of a round ------------------------------------------------

PayReason = Literal["fool", "lowest"]


def pay_fold(fools: int, low1: int, low2: int,
             pieces: Iterable[str]) -> tuple[int, int, int]:
    """S10's count of fools and the two lowest ranks among ``pieces``, carried on from an
    earlier count (start from ``(0, NOBODY, NOBODY)``): a player weighing many hidden hands
    counts the known pieces once. :func:`line_of` turns a count into the pay line.

    >>> f, l1, l2 = pay_fold(*pay_fold(0, NOBODY, NOBODY, ["3", "fool"]), ["fool", "7"])
    >>> line_of(f, l1, l2) == pay_line(["3", "fool", "fool", "7"])
    True
    """
    rank = RANK
    for held in pieces:
        if held == FOOL:
            fools += 1
            continue
        r = rank[held]
        if r < low1:
            low1, low2 = r, low1
        elif r < low2:
            low2 = r
    return fools, low1, low2


def line_of(fools: int, low1: int, low2: int) -> int:
    """The pay line of a :func:`pay_fold` count: with two fools the two lowest ranks pay."""
    return low2 if fools >= 2 else low1


def pay_line(others: Iterable[str]) -> int:
    """S10 seen from one seat: given every *other* piece in play, a player pays holding a
    fool or a piece ranked at most this.

    With two fools among the others the two lowest non-fool ranks pay, else the lowest;
    everyone tied at that rank pays, and with too few others everybody pays (:data:`NOBODY`).

    >>> pay_line(["3", "7"]) == RANK["3"], pay_line(["fool", "fool", "3"]) == NOBODY
    (True, True)
    """
    return line_of(*pay_fold(0, NOBODY, NOBODY, others))


def pays(piece: str, line: int) -> bool:
    """Whether ``piece`` pays under the :func:`pay_line` ``line`` of the other pieces."""
    return piece == FOOL or RANK[piece] <= line


def payers(hands: Mapping[int, str]) -> dict[int, PayReason]:
    """S10: who pays one chip at the end of the round, and why, given every hand in play;
    fools first, then the lowest by rank and seat (the order the payments are made in).

    >>> payers({0: "fool", 1: "3", 2: "7", 3: "3"})
    {0: 'fool', 1: 'lowest', 3: 'lowest'}
    >>> sorted(payers({0: "fool", 1: "fool", 2: "2", 3: "5", 4: "9"}))
    [0, 1, 2, 3]

    It agrees with :func:`pay_line` for every seat (a property test checks it).
    """
    pieces: list[str | None] = [None] * (max(hands) + 1) if hands else []
    for s, piece in hands.items():
        pieces[s] = piece
    return due_by_seat(pieces)


def due_by_seat(pieces: Sequence[str | None]) -> dict[int, PayReason]:
    """:func:`payers` of ``pieces``, a piece per seat (``None``: not in play): one pass for
    the fools and the two lowest ranks (ties counted), as :func:`pay_line` does."""
    rank = RANK
    fools: list[int] = []
    ranked: list[tuple[int, int]] = []
    low1 = low2 = NOBODY
    for s, piece in enumerate(pieces):
        if piece is None:
            continue
        if piece == FOOL:
            fools.append(s)
            continue
        r = rank[piece]
        ranked.append((r, s))
        if r < low1:
            low1, low2 = r, low1
        elif r < low2:
            low2 = r
    need = 2 if len(fools) >= 2 else 1
    cutoff = (low2 if need == 2 else low1) if len(ranked) > need else NOBODY
    due: dict[int, PayReason] = dict.fromkeys(fools, "fool")
    # a loop, not a comprehension (one call less, at every end of a round)
    lowest = []
    for rs in ranked:
        if rs[0] <= cutoff:
            lowest.append(rs)
    lowest.sort()  # by rank, then seat
    for _, s in lowest:
        due[s] = "lowest"
    return due


class PieceBySeat(Mapping[int, Mapping[str, Any]]):
    """The private part of a ``deal`` or ``undo`` event: each seat in play is told its own
    piece, ``{"piece": ...}``. It holds the one list of hands and makes a seat's entry
    when it is read, rather than a dictionary per seat that nobody may read.

    >>> private = PieceBySeat(["7", None, "fool"])
    >>> dict(private), 1 in private
    ({0: {'piece': '7'}, 2: {'piece': 'fool'}}, False)
    """

    __slots__ = ("_hands",)

    def __init__(self, hands: list[str | None]) -> None:
        self._hands = hands

    def __getitem__(self, seat: int) -> Mapping[str, Any]:
        piece = self._hands[seat] if type(seat) is int and 0 <= seat < len(self._hands) else None
        if piece is None:
            raise KeyError(seat)
        return {"piece": piece}

    def __contains__(self, seat: object) -> bool:
        hands = self._hands
        return type(seat) is int and 0 <= seat < len(hands) and hands[seat] is not None

    def __iter__(self) -> Iterator[int]:
        return (s for s, piece in enumerate(self._hands) if piece is not None)

    def __len__(self) -> int:
        return sum(piece is not None for piece in self._hands)

    def __repr__(self) -> str:
        return repr(dict(self))


class SlabberjanTermination(Termination):
    LAST_PLAYER_STANDING = "last_player_standing"
    """Every other player is out of chips (S11, S12)."""


# -- what a seat sees ------------------------------------------------------------------------

class PlayerView(TypedDict):
    chips: int
    out: bool
    shown: str | None
    """The matador this player announced this deal, if any."""
    left: int | None
    """The next seat still in to this player's left: whom their swap goes to (S3, S4)."""


class Reveal(TypedDict):
    """The end of the latest round (S9, S10)."""

    round: int
    pieces: list[str | None]
    pays: list[PayReason | None]
    """Per seat: why it owed a chip at this reveal (a fool, the lowest), or None."""


class SlabberjanView(TypedDict):
    game: str
    seat: int | None
    players: list[PlayerView]
    pot: int
    dealer: int
    round: int
    deal: int
    turn: int | None
    phase: str
    bird: bool
    bag: int
    set_aside: int
    free_choice: bool
    variant: str
    """Option ``variant``: which pieces are in the bag (:data:`VARIANTS`)."""
    reveal: Reveal | None
    winner: int | None
    legal: list[dict[str, Any]]
    piece: str | None
    """The seat's own piece (None for a spectator)."""
    matador: bool
    """Whether ``piece`` is a matador, which its holder never swaps (S4, S8)."""
    to_play: list[int]
    """The seats still to take their turn this deal, in order: the seat whose turn it is
    first, the dealer last (S3; after a bird only the dealer); empty once the game is over."""
    learned: list[dict[str, Any]]
    """What the seat learned in its own swaps and draws this deal."""


# The events: public part, then what only some seats are told. The frequent ones (every
# turn, deal, reveal and payment) are PublicEvent or PrivateEvent classes, one object each
# (a checked move makes them and the game keeps them: see PrivateEvent); the rare ones are
# plain events whose data are these TypedDicts.


class DealEvent(PrivateEvent):
    """``deal``: ``round``, ``dealer``, ``deal`` (the deals so far); each seat in play is
    told its own ``piece``."""

    type = "deal"
    fields = ("round", "dealer", "deal")
    __slots__ = ("deal", "dealer", "hands", "round")

    def __init__(self, round: int, dealer: int, deal: int, hands: list[str | None]) -> None:
        self.round, self.dealer, self.deal, self.hands = round, dealer, deal, hands

    @property
    def private(self) -> Mapping[int, Mapping[str, Any]]:
        return PieceBySeat(self.hands)


class StandEvent(PublicEvent):
    """``stand``: ``player`` kept their piece."""

    type = "stand"
    __slots__ = fields = ("player",)

    def __init__(self, player: int) -> None:
        self.player = player


class OutEvent(PublicEvent):
    """``out``: ``player`` could not pay and is out of the game (S11)."""

    type = "out"
    __slots__ = fields = ("player",)

    def __init__(self, player: int) -> None:
        self.player = player


class SwapEvent(PrivateEvent):
    """``swap``: ``player`` swapped with ``target``; the two are told what they ``gave``
    and ``got`` (S6)."""

    type = "swap"
    fields = ("player", "target")
    __slots__ = ("gave", "got", "player", "target")

    def __init__(self, player: int, target: int, gave: str | None, got: str | None) -> None:
        self.player, self.target, self.gave, self.got = player, target, gave, got

    @property
    def private(self) -> Mapping[int, Mapping[str, Any]]:
        return {self.player: {"gave": self.gave, "got": self.got},
                self.target: {"gave": self.got, "got": self.gave}}


class DrawEvent(PrivateEvent):
    """``draw``: the dealer ``player`` took a piece from the bag; they are told what they
    ``gave`` and ``got`` (S8)."""

    type = "draw"
    fields = ("player",)
    __slots__ = ("gave", "got", "player")

    def __init__(self, player: int, gave: str, got: str) -> None:
        self.player, self.gave, self.got = player, gave, got

    @property
    def private(self) -> Mapping[int, Mapping[str, Any]]:
        return {self.player: {"gave": self.gave, "got": self.got}}


class UndoEvent(PrivateEvent):
    """``undo``: every swap was undone (``reason``: the cat's words); each seat in play is
    told its ``piece`` again (S5)."""

    type = "undo"
    fields = ("reason",)
    __slots__ = ("hands", "reason")

    def __init__(self, reason: str, hands: list[str | None]) -> None:
        self.reason, self.hands = reason, hands

    @property
    def private(self) -> Mapping[int, Mapping[str, Any]]:
        return PieceBySeat(self.hands)


class RevealEvent(PublicEvent):
    """``reveal``: every seat's ``pieces`` at the end of the round (None: out)."""

    type = "reveal"
    __slots__ = fields = ("pieces",)

    def __init__(self, pieces: list[str | None]) -> None:
        self.pieces = pieces


class PayEvent(PublicEvent):
    """``pay``: ``player`` paid a chip (``reason``) and has ``chips`` left; the ``pot``."""

    type = "pay"
    __slots__ = fields = ("player", "reason", "chips", "pot")

    def __init__(self, player: int, reason: str, chips: int, pot: int) -> None:
        self.player, self.reason, self.chips, self.pot = player, reason, chips, pot


#: Each seat's ``stand`` and ``out``, made once: events are values
STAND_EVENTS: tuple[StandEvent, ...] = tuple(StandEvent(s) for s in range(42))
OUT_EVENTS: tuple[OutEvent, ...] = tuple(OutEvent(s) for s in range(42))


class AnnounceEvent(TypedDict, total=False):
    player: int
    holder: int | None
    bag: bool
    piece: str
    words: str
    players: list[int]
    """fool over fool: the two fool holders."""


class WinEvent(TypedDict):
    player: int
    pot: int


class DealerChips:
    """The game's own statistic for ``parlour simulate``: per seat, the rounds it dealt
    (``dealer_rounds``) and the chips it owed in them (``dealer_chips``: every payment, and
    a payment it could not make, which put it out). A dealer's only choice is draw or
    stand, so ``dealer_chips_per_round`` measures that choice."""

    def __init__(self, players: int) -> None:
        self.rounds = [0.0] * players
        self.chips = [0.0] * players
        self.dealer: int | None = None
        self.round = 0

    def see(self, events: Sequence[Event]) -> None:
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


class SlabberjanSpec(GameSpec):
    """Slabberjan's spec: its JSON (``GET /api/games``, a game page's ``data-spec``) names the
    matadors too, high to low, so that a page draws a piece as one from the rules (S4)
    rather than from a copy of them."""

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "matadors": [kind for kind in KINDS if kind in MATADORS]}


SPEC = SlabberjanSpec(
    name="slabberjan",
    title="Slabberjan",
    blurb="Swap pieces to the left and hope the lowest one is not yours.",
    players=(2, 42),
    seats=(2, 42),
    default_players=5,
    options=(
        Option("chips", "int", "Chips each", default=3, low=1, high=MAX_CHIPS,
               help="the same for every player (S1)"),
        Option("dealer", "seat", "First dealer", chance=True,
               help="drawn by chance when not given (S1)"),
        Option("free_choice", "bool", "Free choice", default=False,
               help="any player may stand instead of swapping (S4, Cuckoo-style)"),
        Option("variant", "choice", "Pieces", default="full", choices=tuple(VARIANTS),
               live=False, help="the kinds of piece: full (21), medium (9) or small (6); "
                                "every smaller one keeps the matadors and the fool"),
    ),
    actions={"swap": Swap, "stand": Stand, "draw": Draw},
    view=SlabberjanView,
    pacing=Pacing(
        after=frozenset({"reveal", "announce"}),
        held=frozenset({"swap", "stand", "draw"}),
        pause={"easy": 3.0, "normal": 2.4, "hard": 1.8, "expert": 1.5},
        why="After a reveal (who pays, who is out) and after a matador's announcement, the "
            "next computer move waits long enough for a person to read the table.",
    ),
    metrics=DealerChips,
    ratios={"dealer_chips_per_round": ("dealer_chips", "dealer_rounds")},
    # no races here: a speed is how well a computer chooses (docs/bots.md measures it)
    level_about={
        "easy": "Swaps or draws at random, whatever it holds: a coin toss at every choice.",
        "normal": "Lets go of any piece below a 6 and keeps the rest: a simple, steady game.",
        "hard": "Remembers every piece it has seen and plays the round through in its head "
                "before each choice: the most careful player at the table.",
        "expert": "Beyond the rules page: chooses as Hard does, and moves a little sooner.",
    },
)


# -- S4, S8: who swaps, stands and draws ------------------------------------------------------

#: A turn's case: (the seat is the dealer, it holds a matador, the bag has a piece, option
#: ``free_choice``): everything the choice between the actions depends on.
Case = tuple[bool, bool, bool, bool]


def refusal(kind: type[Action], dealer: bool, matador: bool, bag: bool,
            free_choice: bool) -> str | None:
    """Why the seat whose turn it is may not take an action of ``kind`` in its case, or
    ``None`` if it may: the one statement of S4 and S8. :data:`OPEN` is made from it, and
    ``legal_actions`` (the game's statement of what is open), the check and ``legal_json``
    (its fast paths) all read that table; a refusal's words come from here.

    >>> refusal(Stand, False, False, True, False)[:27]
    'a piece below the inn must '
    >>> refusal(Draw, True, False, False, False)
    'the bag is empty'
    """
    if kind is Swap:
        if dealer:
            return "the dealer does not swap with a player: draw from the bag or stand"
        if matador:
            return "a player holding a matador stands (S4)"
        return None
    if kind is Draw:
        if not dealer:
            return "only the dealer draws from the bag"
        if matador:
            return "a dealer holding a matador stands (S8)"
        if not bag:
            return "the bag is empty"
        return None
    if dealer or matador or free_choice:
        return None
    return ("a piece below the inn must try to swap with the left neighbour (S4); "
            "option free_choice lets you stand")


#: Every case's open actions, a change (swap or draw) before standing: :func:`refusal`'s
#: answers, made once.
OPEN: dict[Case, tuple[type[Action], ...]] = {
    case: tuple(kind for kind in (Swap, Draw, Stand) if refusal(kind, *case) is None)
    for case in product((False, True), (False, True), (False, True), (False, True))}
#: :data:`OPEN` as the kinds a seat sends
OPEN_JSON: dict[Case, tuple[str, ...]] = {
    case: tuple(kind.type for kind in kinds) for case, kinds in OPEN.items()}
#: :data:`OPEN` as each seat's actions, made once (actions are values)
OPEN_ACTIONS: list[dict[Case, tuple[Action, ...]]] = [
    {case: tuple(kind(seat) for kind in kinds) for case, kinds in OPEN.items()}
    for seat in range(SPEC.players[1])]


class Slabberjan(Game):
    """The state of one game of Slabberjan."""

    spec = SPEC

    chips: list[int]
    out: list[bool]
    hands: list[str | None]
    dealt: list[str | None]
    set_aside: list[str]
    shown: list[str | None]
    learned: dict[int, list[tuple[int | str, str | None, str | None]]]
    """Per seat, what it learned this deal, (with whom or "bag", gave, got), as its view's
    ``learned`` says it (a seat that learned nothing has no entry): tuples, made into
    dicts only when a view is read."""

    # -- setup -------------------------------------------------------------------------------

    def _setup(self, events: list[Event]) -> None:
        n = self.players
        #: the pieces of option ``variant``, two of each kind
        self.pieces: tuple[str, ...] = VARIANT_PIECES[self.options["variant"]]
        if n > len(self.pieces):
            raise RecordError(f"the {self.options['variant']} Slabberjan has "
                              f"{len(self.pieces)} pieces: at most {len(self.pieces)} players, "
                              f"not {n}")
        self.chips = [self.options["chips"]] * n  # S1: the same for all
        self.out = [False] * n
        self.active = n
        self.pot = 0
        self.dealer: int = self.options["dealer"]
        self.free_choice: bool = self.options["free_choice"]
        self.round = 1
        self.deals = 0
        self.winner: int | None = None
        self.reveal: Reveal | None = None
        self._left_of: list[int | None] | None = None
        self._orders: dict[int, list[int]] = {}
        #: (turn, dealer, the lefts it walked, the seats to play): made once per turn
        self._to_play: tuple[int, int, list[int | None], list[int]] | None = None
        self._deal(events)

    def _copy_state(self, state: dict[str, Any]) -> None:
        # Every list a clone might change in place is its own, the deal's and the bag's
        # too: the rules only read those, but a planner that samples the hidden pieces
        # writes its guesses into a clone. A fact learned and a reveal are never changed
        # once made; the cached seat orders are replaced, never changed, except _orders,
        # which gains an entry per dealer.
        state["chips"] = self.chips.copy()
        state["out"] = self.out.copy()
        state["hands"] = self.hands.copy()
        state["dealt"] = self.dealt.copy()
        state["bag"] = self.bag.copy()
        state["set_aside"] = self.set_aside.copy()
        state["shown"] = self.shown.copy()
        state["learned"] = {seat: facts.copy() for seat, facts in self.learned.items()}
        state["_orders"] = self._orders.copy()

    def _deal(self, events: list[Event] | None) -> None:
        """S2: a fresh deck; pieces drawn from its top starting left of the dealer."""
        deck = self.chance.deck(self.pieces)
        n, dealer = self.players, self.dealer
        hands: list[str | None]
        if self.active == n:
            # nobody is out: seats dealer+1 .. n-1 draw the top pieces, then 0 .. dealer
            # (the loop below, in two slices: a deal is most of a short round's time)
            cut = n - 1 - dealer
            hands = [*deck[cut:n], *deck[:cut]]
            first = dealer + 1 if cut else 0
        else:
            hands = [None] * n
            # the seats still in, from the dealer's left round to the dealer, who draws
            # last (the same for every deal by this dealer until someone is knocked out)
            order = self._orders.get(dealer)
            if order is None:
                out = self.out
                order = [s for s in range(dealer + 1, n) if not out[s]]
                order += [s for s in range(dealer + 1) if not out[s]]
                self._orders[dealer] = order
            for seat, piece in zip(order, deck, strict=False):  # the rest is the bag
                hands[seat] = piece
            first = order[0]
        self.hands = hands
        self.dealt = hands.copy()
        self.bag = deck
        self.bag_top = self.active  # the bag is what the players did not draw, top first
        self.set_aside = []
        self.shown = [None] * n
        self.learned = {}
        self.bird = False
        self.deals += 1
        self.turn: int | None = first  # S3
        self.phase = "turns"
        if events is not None:
            events.append(DealEvent(self.round, dealer, self.deals, self.dealt))

    # -- which actions are open ----------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        # S3: one seat's turn at a time (a seat that is out has none); S4, S8: its case's
        # row of OPEN. Actions are values: each seat's are made once, from OPEN.
        # The fast paths below read the same row (tests/games/test_legality.py pins them to
        # what Game derives from this)
        if self.turn != seat or self.winner is not None:
            return []
        return list(OPEN_ACTIONS[seat][seat == self.dealer, self.hands[seat] in MATADORS,
                                       self.bag_top < len(self.bag), self.free_choice])

    @fast_path
    def _why_not(self, action: Action) -> str | None:
        """The check of every kind, for the checked path (S3, S4, S8): legal_actions's row
        of OPEN, without making the row's actions; else why not."""
        p = action.player
        if self.turn != p or self.winner is not None:
            return "you are out of the game" if self.out[p] else f"it is seat {self.turn}'s turn"
        case = (p == self.dealer, self.hands[p] in MATADORS, self.bag_top < len(self.bag),
                self.free_choice)
        if type(action) in OPEN[case]:
            return None
        return refusal(type(action), *case)

    _why_not_swap = _why_not_stand = _why_not_draw = _why_not

    @fast_path
    def legal_json(self, seat: int | None) -> list[dict[str, Any]]:
        # the seat's row of OPEN as it sends it, without making the row's actions: every
        # view has it, and the environments make one every step
        if seat is None or self.turn != seat or self.winner is not None:
            return []
        kinds = OPEN_JSON[seat == self.dealer, self.hands[seat] in MATADORS,
                          self.bag_top < len(self.bag), self.free_choice]
        return [{"type": kind} for kind in kinds]

    # -- the turn -------------------------------------------------------------------------------

    def _do_stand(self, action: Stand, events: list[Event] | None) -> None:
        p = action.player
        if events is not None:
            events.append(STAND_EVENTS[p])
        if p == self.dealer:
            self._end_round(events)  # S9
        else:
            self._pass_turn(p)

    def _pass_turn(self, p: int) -> None:
        """S3: clockwise from ``p``; the dealer acts last."""
        nxt = self._next_in(p)
        self.turn = nxt
        self.phase = "dealer" if nxt == self.dealer else "turns"

    def _do_swap(self, action: Swap, events: list[Event] | None) -> None:
        """S5: a swap attempt on the left neighbour, moved on by every inn."""
        p = action.player
        hands = self.hands
        target = self._next_in(p)
        while True:
            piece = hands[target]
            assert piece is not None
            if piece not in MATADORS:
                break
            self._announce(target, piece, p, events)
            if piece != "inn":
                self._refuse(piece, p, events)
                return
            target = self._next_in(target)
            if target == p:
                # The chain of inns came back round to the swapper: no swap.
                if events is not None:
                    events.append(Event("no_swap", {"player": p,
                                                    "reason": "the inns lead back to you"}))
                self._pass_turn(p)
                return
        mine = hands[p]
        if mine == FOOL and piece == FOOL:
            self._fool_over_fool(p, target, events)
            return
        self._exchange(p, target, events)
        self._pass_turn(p)

    def _exchange(self, p: int, q: int, events: list[Event] | None) -> None:
        """S6: the two learn each other's pieces; nobody else does."""
        hands = self.hands
        mine, theirs = hands[p], hands[q]
        hands[p], hands[q] = theirs, mine
        learned = self.learned
        facts = learned.get(p)
        if facts is None:
            learned[p] = [(q, mine, theirs)]
        else:
            facts.append((q, mine, theirs))
        facts = learned.get(q)
        if facts is None:
            learned[q] = [(p, theirs, mine)]
        else:
            facts.append((p, theirs, mine))
        if events is not None:
            events.append(SwapEvent(p, q, mine, theirs))

    def _refuse(self, piece: str, p: int, events: list[Event] | None) -> None:
        """S5: the effect of a cat, bird or knight on the swapper ``p``."""
        if piece == "cat":
            self._undo_swaps(events)  # S11: the undo comes before the payment
            self._pay([p], "meow", events)
            if self.winner is None:
                self._pass_turn(p)
        elif piece == "bird":
            self.bird = True  # no more swaps between players: on to the dealer's bag
            self.turn = self.dealer
            self.phase = "dealer"
        else:
            self._pay([p], "cut short", events)
            if self.winner is None:
                self._end_round(events)

    def _fool_over_fool(self, p: int, q: int, events: list[Event] | None) -> None:
        """S7: both fools are shown and the same dealer deals again, in the same round."""
        if events is not None:
            fools: AnnounceEvent = {"player": p, "holder": q, "bag": False, "piece": FOOL,
                                    "words": FOOL_OVER_FOOL, "players": [p, q]}
            events.append(Event("announce", fools))
        self._deal(events)

    def _undo_swaps(self, events: list[Event] | None) -> None:
        """S5 cat: every player gets back the piece they drew at the deal."""
        hands, dealt, out = self.hands, self.dealt, self.out
        for s in range(self.players):
            if not out[s]:
                hands[s] = dealt[s]
        if events is not None:
            events.append(UndoEvent(WORDS["cat"], hands.copy()))

    def _announce(self, holder: int | None, piece: str, p: int,
                  events: list[Event] | None) -> None:
        """A matador refuses in public; ``holder`` is ``None`` when it came out of the bag."""
        if holder is not None:
            self.shown[holder] = piece
        if events is not None:
            said: AnnounceEvent = {"player": p, "holder": holder, "bag": holder is None,
                                   "piece": piece, "words": WORDS[piece]}
            events.append(Event("announce", said))

    # -- the dealer and the bag -----------------------------------------------------------------

    def _do_draw(self, action: Draw, events: list[Event] | None) -> None:
        """S8: the dealer draws blind from the bag; drawn matadors act as if the bag held them."""
        d = action.player
        bag = self.bag
        while self.bag_top < len(bag):
            piece = bag[self.bag_top]
            self.bag_top += 1
            if piece not in MATADORS:
                self._take_from_bag(d, piece, events)
                break
            self.set_aside.append(piece)
            self._announce(None, piece, d, events)
            if piece == "inn":
                continue  # set aside; the next piece is drawn
            if piece == "cat":
                self._undo_swaps(events)
                self._pay([d], "meow", events)
            elif piece == "knight":
                self._pay([d], "cut short", events)
            break
        else:
            # S8: the bag ran out (inns used it up): the dealer keeps their piece.
            if events is not None:
                events.append(Event("keep", {"player": d, "reason": "the bag is empty"}))
        if self.winner is None:
            self._end_round(events)

    def _take_from_bag(self, d: int, piece: str, events: list[Event] | None) -> None:
        old = self.hands[d]
        assert old is not None
        self.hands[d] = piece
        self.set_aside.append(old)  # never drawn again this round
        self.learned.setdefault(d, []).append(("bag", old, piece))
        if events is not None:
            events.append(DrawEvent(d, old, piece))

    # -- the end of a round -------------------------------------------------------------------

    def _end_round(self, events: list[Event] | None) -> None:
        """S9 to S11, then the deal passes on (S1)."""
        pieces = list(self.hands)
        due = due_by_seat(pieces)
        pays: list[PayReason | None] = [None] * self.players
        for s, why in due.items():
            pays[s] = why
        self.reveal = {"round": self.round, "pieces": pieces, "pays": pays}
        if events is not None:
            events.append(RevealEvent(pieces))  # the reveal's list: neither changes it
        self._pay(due, "lowest", events)  # its seats, in the order they pay
        if self.winner is not None:
            return
        self.dealer = self._next_in(self.dealer)
        self.round += 1
        self._deal(events)

    def _pay(self, seats: Collection[int], reason: str, events: list[Event] | None) -> None:
        """S11: each pays one chip; a player with none is out, unless all would be out."""
        chips = self.chips
        # all would be out only if at least every seat still in pays: most payments are
        # one seat's of many, and skip the count
        if len(seats) >= self.active:
            broke = [s for s in seats if chips[s] == 0]
            if len(broke) == self.active:
                if events is not None:
                    events.append(Event("spared", {"players": broke, "reason": reason}))
                return
        for s in seats:
            if chips[s]:
                chips[s] -= 1
                self.pot += 1
                if events is not None:
                    why = "fool" if reason == "lowest" and self.hands[s] == FOOL else reason
                    events.append(PayEvent(s, why, chips[s], self.pot))
            else:
                self._eliminate(s, events)
        if self.active == 1:
            self._win(events)

    def _eliminate(self, s: int, events: list[Event] | None) -> None:
        self.out[s] = True
        self.active -= 1
        self._left_of = None  # the seats to everyone's left change, and the deal's order
        self._orders = {}
        piece = self.hands[s]
        if piece is not None:
            self.set_aside.append(piece)  # S11: the piece leaves play
        self.hands[s] = None
        if events is not None:
            events.append(OUT_EVENTS[s])

    def _win(self, events: list[Event] | None) -> None:
        """S12: the last player in takes the whole pot."""
        winner = self.out.index(False)
        self.winner = winner
        self.chips[winner] += self.pot
        won, self.pot = self.pot, 0
        self.turn = None
        self.phase = "over"
        if events is not None:
            events.append(Event("win", {"player": winner, "pot": won}))

    # -- helpers ---------------------------------------------------------------------------------

    def _next_in(self, seat: int) -> int:
        """The next seat to the left of ``seat`` that is still in the game."""
        out, n = self.out, self.players
        s = seat + 1
        while True:
            if s == n:
                s = 0
            if not out[s]:
                return s
            s += 1

    def _lefts(self) -> list[int | None]:
        """Every seat's left neighbour still in (``None`` for a seat that is out), as
        :meth:`_next_in` finds it; made again only after someone is knocked out."""
        lefts = self._left_of
        if lefts is None:
            out = self.out
            lefts = self._left_of = [None if out[s] else self._next_in(s)
                                     for s in range(self.players)]
        return lefts

    def to_play(self) -> list[int]:
        """The seats still to take their turn this deal, the turn's first and the dealer
        last (S3): the ``left`` neighbours from the turn to the dealer. Every seat's view
        has it, so it is walked once per turn (a new list each time)."""
        turn, dealer = self.turn, self.dealer
        if turn is None:
            return []
        lefts = self._lefts()
        made = self._to_play
        if made is not None and made[0] == turn and made[1] == dealer and made[2] is lefts:
            return list(made[3])
        order = [turn]
        seat: int | None = turn
        while seat != dealer and seat is not None and len(order) <= self.players:
            seat = lefts[seat]
            if seat is not None:
                order.append(seat)
        self._to_play = (turn, dealer, lefts, order)
        return list(order)

    @property
    def bag_left(self) -> list[str]:
        """The pieces still in the bag, top first (for tests and tools: never in a view)."""
        return self.bag[self.bag_top:]

    # -- what players see ----------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(self.winner, SlabberjanTermination.LAST_PLAYER_STANDING)

    def view(self, seat: int | None) -> SlabberjanView:
        return {
            "game": self.name,
            "seat": seat,
            "players": [{"chips": c, "out": o, "shown": m, "left": left}
                        for c, o, m, left in zip(self.chips, self.out, self.shown,
                                                 self._lefts(), strict=True)],
            "pot": self.pot,
            "dealer": self.dealer,
            "round": self.round,
            "deal": self.deals,
            "turn": self.turn,
            "phase": self.phase,
            "bird": self.bird,
            "bag": len(self.bag) - self.bag_top,
            "set_aside": len(self.set_aside),
            "free_choice": self.free_choice,
            "variant": self.options["variant"],
            "reveal": None if self.reveal is None else {
                "round": self.reveal["round"], "pieces": list(self.reveal["pieces"]),
                "pays": list(self.reveal["pays"])},
            "winner": self.winner,
            "legal": self.legal_json(seat),
            "piece": None if seat is None else self.hands[seat],
            "matador": seat is not None and self.hands[seat] in MATADORS,
            "to_play": self.to_play(),
            "learned": [] if seat is None else [{"with": w, "gave": gave, "got": got}
                                                for w, gave, got in self.learned.get(seat, ())],
        }
