"""Splunk: a two-player race to get rid of your cards, mixing bluff (calls) and speed (slaps).

- Players: exactly 2.
- Chance: the deal (52 cards, or 54 with option ``jokers``) and, unless option ``first``
  names one, the first player. Both go through the game's
  :class:`~parlour.engine.chance.Chance`; the drawn first player is written into
  ``options``, so :meth:`~parlour.engine.Game.record` replays exactly.
- Information: imperfect, and the same for everyone. Nobody sees the cards of any pile,
  their own included, nor the face-down base of a stack. Everyone sees the face-up cards of
  each stack, the pile sizes, and every base that a call turns over. No event has a private
  part: a seat's view is the public view.
- Actions: ``Play`` a blind card onto stack 0..3 (the player whose turn it is), ``Call`` out
  the opponent's last play, ``Slap`` a stack (either player, any time). A slap names the play
  it was aimed at with ``at``, the number of plays made when it was sent, so that a slap that
  lost a race is ignored instead of punished.

The rulings P1 to P6 of ``shared/rulings.md`` are implemented here; the comments cite them.
A stack is a list, bottom first: index 0 is its face-down base, the rest are face up.

Events (all public), enough for a front end to tell every call and slap:

- ``deal`` (``cards`` per seat, ``jokers``), ``first`` (``player``);
- ``base`` (``player``, ``stack``, ``reason``: setup, call, slap, wrong_slap): a new
  face-down base, its card not shown;
- ``play`` (``player``, ``stack``, ``card``, ``at``: plays so far, ``kind``: the slap it
  opens, pair, sandwich, joker or null);
- ``call`` (``player``, ``accused``, ``stack``, ``base``: the card turned over, ``cards``:
  the whole stack bottom first, ``total``, ``over``, ``taker``);
- ``slap`` (``player``, ``stack``, ``kind``, ``taker``, ``cards``: how many),
  ``wrong_slap`` (``player``, ``stack``, ``reason``, ``taker``, ``cards``),
  ``slap_ignored`` (``player``, ``stack``, ``at``, ``reason``: stale);
- ``win`` (``player``, ``reason``: last_play_stood, no_card_for_base, last_card_as_base).

>>> from parlour.engine.cards import standard_deck
>>> deck = ["AS", "2S", "3S", "4S", "5H", "5D"]
>>> deck += [c for c in standard_deck() if c not in deck]
>>> game = Splunk(2, decks=[deck], options={"first": 0})
>>> [e.public()["card"] for e in game.apply(Play(0, stack=1))]
['5H']
>>> [e.public()["kind"] for e in game.apply(Play(1, stack=1)) if e.type == "play"]
['pair']
>>> [e.type for e in game.apply(Slap(0, stack=1, at=2))]
['slap', 'base']
>>> game.view(None)["players"][1]["cards"], game.view(None)["turn"]
(26, 1)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping
from typing import Any, Literal, TypedDict, get_args

from parlour.engine import Action, Event, Game, GameSpec, Option, Outcome, Pacing, Termination
from parlour.engine.cards import ALL_CARDS, JOKER_DECK, STANDARD_DECK, Card, deal_one_at_a_time
from parlour.engine.events import PublicEvent
from parlour.engine.game import fast_path

STACKS = 4
_new_event = object.__new__
SlapKind = Literal["pair", "sandwich", "joker"]


class Play(Action, kind="play"):
    """Put your top card, unseen, face up onto stack ``stack`` (P3)."""

    stack: int


class Call(Action, kind="call"):
    """Call out the opponent's last play: is its stack over 21 (P4)?"""


class Slap(Action, kind="slap", stamp="at"):
    """Slap stack ``stack``; ``at`` is the number of plays made when you slapped (P5)."""

    stack: int
    at: int | None = None


_VALUE21 = {**{r: i + 1 for i, r in enumerate("A23456789")}, "T": 10, "J": 10, "Q": 10, "K": 10}


def value21(card: str) -> int:
    """P4's count: ace 1, 2..10 face value, J Q K 10, joker 0.

    >>> value21("KD"), value21("AS"), value21("X1")
    (10, 1, 0)
    """
    return _VALUE21.get(card[0], 0)


_CARD_VALUE21: dict[str, int] = {card: value21(card) for card in ALL_CARDS}


def total21(cards: Iterable[str]) -> int:
    """The sum of :func:`value21` over ``cards``: a stack's count.

    A call totals its stack with it, one dictionary lookup per card, in C. The views read
    each stack's face-up total from :attr:`Splunk.up_totals`, kept as the cards go down, and
    the tests pin the two together.

    >>> total21(["X1", "KS", "AH", "9C"])
    20
    """
    return sum(map(_CARD_VALUE21.__getitem__, cards))


def slap_kind(stack: list[Card]) -> SlapKind | None:
    """What the top card of ``stack`` (bottom first, base at 0) makes: P5's three slaps.

    >>> slap_kind(["KD", "7S", "7H"]), slap_kind(["KD", "7S", "2C", "7H"]), slap_kind(["KD", "X1"])
    ('pair', 'sandwich', 'joker')

    The face-down base never counts: a card matching only the base makes nothing.

    >>> slap_kind(["7D", "2C", "7H"]), slap_kind(["7D", "7H"])
    (None, None)
    """
    rank = stack[-1][0]
    if rank == "X":
        return "joker"
    n = len(stack)
    if n >= 3:
        if stack[-2][0] == rank:
            return "pair"
        if n >= 4 and stack[-3][0] == rank:
            return "sandwich"
    return None


class SplunkTermination(Termination):
    """P6: the winner ran out of cards, and how."""

    LAST_PLAY_STOOD = "last_play_stood"
    NO_CARD_FOR_BASE = "no_card_for_base"
    LAST_CARD_AS_BASE = "last_card_as_base"


class PlayerView(TypedDict):
    cards: int


class StackView(TypedDict):
    cards: int
    base: bool
    up: list[Card]
    """The face-up cards, bottom first."""
    up_total: int
    call_open: bool
    """The viewing seat may call out the play on this stack now (anyone, for a spectator)."""
    slap: SlapKind | None
    """What a slap on this stack would win on now (a pair, a sandwich, a joker), if any."""


class LastPlay(TypedDict):
    stack: int
    player: int


class SplunkView(TypedDict):
    """What a seat sees; every seat sees the same (nobody sees a pile or a base, P1, G3)."""

    game: str
    seat: int | None
    jokers: bool
    first: int
    variant: str
    target: int
    """P4's line: a called stack counting more than this is over (21 in the full game)."""
    players: list[PlayerView]
    stacks: list[StackView]
    turn: int | None
    plays: int
    last_play: LastPlay | None
    call_open: bool
    slap_open: int | None
    slap_kind: SlapKind | None
    winner: int | None
    legal: list[dict[str, Any]]


# The events, all public. Each is a PublicEvent, one small object whose attributes are its
# data: a checked move spent most of its time making, collecting and freeing events.


class DealEvent(PublicEvent):
    """``deal``: how many ``cards`` each seat was dealt, and whether with ``jokers``."""

    type = "deal"
    __slots__ = fields = ("cards", "jokers")

    def __init__(self, cards: list[int], jokers: bool) -> None:
        self.cards, self.jokers = cards, jokers


BaseReason = Literal["setup", "call", "slap", "wrong_slap"]


class BaseEvent(PublicEvent):
    """``base``: ``player`` laid a new face-down base on ``stack``, and why."""

    type = "base"
    __slots__ = fields = ("player", "stack", "reason")

    def __init__(self, player: int, stack: int, reason: BaseReason) -> None:
        self.player, self.stack, self.reason = player, stack, reason


class FirstEvent(PublicEvent):
    """``first``: ``player`` plays first."""

    type = "first"
    __slots__ = fields = ("player",)

    def __init__(self, player: int) -> None:
        self.player = player


class PlayEvent(PublicEvent):
    """``play``: ``player`` put ``card`` face up on ``stack``; ``at``: the plays so far,
    this one included; ``kind``: the slap it opens, if any."""

    type = "play"
    __slots__ = fields = ("player", "stack", "card", "at", "kind")

    def __init__(self, player: int, stack: int, card: Card, at: int,
                 kind: SlapKind | None) -> None:
        self.player = player
        self.stack = stack
        self.card = card
        self.at = at
        self.kind = kind


class CallEvent(PublicEvent):
    """``call``: ``player`` called out ``accused``'s play on ``stack``: its ``base`` turned
    over, all its ``cards`` bottom first, their ``total``, whether ``over`` 21, the
    ``taker``."""

    type = "call"
    __slots__ = fields = ("player", "accused", "stack", "base", "cards", "total", "over", "taker")

    def __init__(self, player: int, accused: int, stack: int, base: Card, cards: list[Card],
                 total: int, over: bool, taker: int) -> None:
        self.player, self.accused, self.stack, self.base = player, accused, stack, base
        self.cards, self.total, self.over, self.taker = cards, total, over, taker


class SlapEvent(PublicEvent):
    """``slap``: ``player`` won a slap of ``kind`` on ``stack``; ``taker`` took its
    ``cards``."""

    type = "slap"
    __slots__ = fields = ("player", "stack", "kind", "taker", "cards")

    def __init__(self, player: int, stack: int, kind: SlapKind, taker: int,
                 cards: int) -> None:
        self.player, self.stack, self.kind, self.taker, self.cards = (
            player, stack, kind, taker, cards)


class WrongSlapEvent(PublicEvent):
    """``wrong_slap``: ``player`` slapped ``stack`` for nothing (``reason``); ``taker`` (the
    slapper) took its ``cards``."""

    type = "wrong_slap"
    __slots__ = fields = ("player", "stack", "reason", "taker", "cards")

    def __init__(self, player: int, stack: int, reason: str, taker: int, cards: int) -> None:
        self.player, self.stack, self.reason, self.taker, self.cards = (
            player, stack, reason, taker, cards)


class SlapIgnoredEvent(PublicEvent):
    """``slap_ignored``: ``player``'s slap on ``stack``, sent ``at`` an earlier play or at a
    settled one, was stale."""

    type = "slap_ignored"
    __slots__ = fields = ("player", "stack", "at", "reason")

    def __init__(self, player: int, stack: int, at: int | None) -> None:
        self.player, self.stack, self.at, self.reason = player, stack, at, "stale"


class WinEvent(PublicEvent):
    """``win``: ``player`` won, and how (``reason``: a :class:`SplunkTermination` value)."""

    type = "win"
    __slots__ = fields = ("player", "reason")

    def __init__(self, player: int, reason: str) -> None:
        self.player, self.reason = player, reason


# Events are values, so one object may stand for every time the same thing happens. Most
# events of a call or a slap take one of a few values: a new base (a seat, a stack, why) or
# a wrong slap (a seat, a stack, whether it hit the latest play, how many cards it cost).
# Each is made once, here, and the same object appended every time, so that a wrong slap
# (most of random play) makes no event at all; nested lists, so that no key is hashed.

#: ``BASE_EVENTS[reason][seat][stack]``: that seat lays a new base on that stack
BASE_EVENTS: dict[str, list[list[BaseEvent]]] = {
    reason: [[BaseEvent(p, s, reason) for s in range(STACKS)] for p in range(2)]
    for reason in get_args(BaseReason)}
# each move's own table, looked up once here rather than by its reason on every move
_CALL_BASES, _SLAP_BASES, _WRONG_SLAP_BASES = (
    BASE_EVENTS["call"], BASE_EVENTS["slap"], BASE_EVENTS["wrong_slap"])
#: ``WRONG_SLAP_EVENTS[seat][stack][on the latest play][cards taken]`` (P5)
WRONG_SLAP_EVENTS: list[list[list[list[WrongSlapEvent]]]] = [
    [[[WrongSlapEvent(p, s, reason, p, cards) for cards in range(len(JOKER_DECK) + 1)]
      for reason in ("not the latest play", "no pair, sandwich or joker")]
     for s in range(STACKS)] for p in range(2)]


#: Option ``variant``: the ranks in the deck (all four suits; the jokers with option
#: ``jokers``) and the count a called stack must pass to be over (P4: 21). The small deck
#: keeps every rule with a shorter game and a lower line, as Leduc keeps poker's.
VARIANTS: Mapping[str, tuple[str, int]] = {
    "full": ("A23456789TJQK", 21),
    "small": ("A2345", 11),
}


def variant_deck(variant: str, jokers: bool) -> list[Card]:
    """The deck of option ``variant`` (P1: the full one is the 52 or 54 cards)."""
    ranks = VARIANTS[variant][0] + "X"
    return [card for card in (JOKER_DECK if jokers else STANDARD_DECK) if card[0] in ranks]


SPEC = GameSpec(
    name="splunk",
    title="Splunk",
    blurb="Two players, four stacks: call out a stack over 21 or slap a pair.",
    players=(2, 2),
    seats=(2, 2),
    default_players=2,
    options=(
        Option("jokers", "bool", "Play with two jokers", default=False,
               help="54 cards: a joker may be slapped at once and counts 0 (P1, P5)"),
        Option("first", "seat", "First player", chance=True,
               help="drawn by chance when not given (P2)"),
        Option("variant", "choice", "Deck", default="full", choices=tuple(VARIANTS),
               live=False, help="full (52 cards, over 21) or small (20 cards, Aces to Fives, "
                                "over 11)"),
    ),
    actions={"play": Play, "call": Call, "slap": Slap},
    view=SplunkView,
    pacing=Pacing(
        at_field="plays",
        after=frozenset({"call", "slap", "wrong_slap"}),
        held=frozenset({"play"}),
        pause={"easy": 2.2, "normal": 1.7, "hard": 1.2, "expert": 1.0},
        why="After a call or a slap the stack changes hands and a new base goes down; the "
            "next play waits long enough for a person to read who took what. Slaps and "
            "calls are never held: they are races.",
    ),
    # what each speed means here, against a person who calls by rule of thumb (docs/bots.md)
    level_about={
        "easy": "Slow, and calls out by a crude rule: even a slow beginner wins nearly every "
                "game.",
        "normal": "Calls out by a rule of thumb: an even match for an adult on the slow side "
                  "who calls the same way; most adults win more often than not.",
        "hard": "Quick, and counts every card it has seen, so it often knows a face-down "
                "base: even the quickest people win only now and then by rule of thumb.",
        "expert": "Beyond the rules page: Hard's card counting with the quickest hands; it "
                  "seldom loses to anyone who does not count cards.",
    },
)


class Splunk(Game):
    """The state of one game of Splunk."""

    spec = SPEC
    # every seat sees the same (P1), and only an ignored slap changes nothing (P5)
    no_change_events = frozenset({"slap_ignored"})

    piles: list[deque[Card]]
    stacks: list[list[Card]]
    up_totals: list[int]
    """``total21(stacks[s][1:])`` for each stack, kept as the cards go down (a play adds its
    card, a take empties the stack): every view shows each stack's face-up total, and
    re-adding the cards of all four was a tenth of a view."""

    # -- setup -------------------------------------------------------------------------------

    def _setup(self, events: list[Event]) -> None:
        jokers: bool = self.options["jokers"]
        variant: str = self.options["variant"]
        #: P4's line: a called stack counting more than this is over (21; lower when small)
        self.target: int = VARIANTS[variant][1]
        deck = self.chance.deck(variant_deck(variant, jokers))
        # P1: dealt one at a time from seat 0; the first card dealt to you is your top card.
        p0, p1 = (deque(cards) for cards in deal_one_at_a_time(deck, 2))
        self.piles = [p0, p1]
        deal = DealEvent([len(p0), len(p1)], jokers)
        # P2: seat 0's top two cards are the bases of stacks 0 and 1, seat 1's of 2 and 3.
        self.stacks = [[p0.popleft()], [p0.popleft()], [p1.popleft()], [p1.popleft()]]
        self.up_totals = [0] * STACKS  # only the bases are down, face down
        self.plays = 0
        self.last_player: int | None = None
        self.last_stack: int | None = None
        # The slap the latest play opened, or None; also None once that play is settled.
        self.open_slap: SlapKind | None = None
        # True once a call or a slap has dealt with the latest play's stack (P5: "the other
        # is stale").
        self.settled = False
        self.winner: int | None = None
        self.ending = SplunkTermination.LAST_PLAY_STOOD
        first: int = self.options["first"]
        self.turn: int | None = first
        events.append(deal)
        events += [BASE_EVENTS["setup"][slot // 2][slot] for slot in range(STACKS)]
        events.append(FirstEvent(first))

    def hands_dealt(self) -> list[list[Card]]:
        return deal_one_at_a_time(self.chance.used_decks[0], 2)  # P1

    def _copy_state(self, state: dict[str, Any]) -> None:
        # the piles and stacks change in place; the rest is numbers, seats and None
        state["piles"] = [pile.copy() for pile in self.piles]
        state["stacks"] = [stack.copy() for stack in self.stacks]
        state["up_totals"] = self.up_totals.copy()

    # -- which actions are open ----------------------------------------------------------------

    def call_open(self) -> bool:
        """Whether the latest play may still be called out (by the other player)."""
        return self.last_player is not None and not self.settled and self.winner is None

    def may_call(self, seat: int | None) -> bool:
        """Whether ``seat`` may call out the latest play now (P4): a call is open and the
        play is the other player's (for a spectator, ``None``: whether anyone may). What
        ``legal_actions`` and the view's ``stacks[i].call_open`` read."""
        return self.call_open() and self.last_player != seat

    def legal_actions(self, seat: int) -> list[Action]:
        # P3: the seat whose turn it is plays onto any stack; P4: the other calls out the
        # latest play until it is settled; P5: either slaps any stack at any time, at the
        # latest play (a slap at an earlier one is legal, and ignored)
        if self.winner is not None:
            return []
        actions: list[Action] = []
        if self.turn == seat:
            actions += [Play(seat, s) for s in range(STACKS)]
        if self.may_call(seat):
            actions.append(Call(seat))
        actions += [Slap(seat, s, at=self.plays) for s in range(STACKS)]
        return actions

    # The fast paths: legal_actions's conditions written out, for the checked path and for
    # the view and turn timer of every environment step (tests/games/test_legality.py pins
    # each to what Game derives from legal_actions). The base class has checked the seat.

    @fast_path
    def _why_not_play(self, action: Play) -> str | None:
        stack = action.stack
        if not 0 <= stack < STACKS:
            return f"there is no stack {stack} (the stacks are 0 to {STACKS - 1})"
        if self.turn != action.player:  # None once the game is over
            return f"it is seat {self.turn}'s turn to play"
        return None

    @fast_path
    def _why_not_call(self, action: Call) -> str | None:
        if self.may_call(action.player):
            return None
        # the words only: which part of may_call failed
        if self.last_player is None:
            return "no call is open: nobody has played yet"
        if self.last_player == action.player:
            return "no call is open: you cannot call out your own play"
        return f"no call is open: the play on stack {self.last_stack} was already settled"

    @fast_path
    def _why_not_slap(self, action: Slap) -> str | None:
        stack, at = action.stack, action.at
        if not 0 <= stack < STACKS:
            return f"there is no stack {stack} (the stacks are 0 to {STACKS - 1})"
        if at is not None and not 0 <= at <= self.plays:
            # P5 (as J6): an `at` beyond the plays made so far is refused.
            played = "1 card has" if self.plays == 1 else f"{self.plays} cards have"
            return f"'at' is {at} but {played} been played so far"
        if self.winner is not None:
            return "the game is over"
        return None

    @fast_path
    def legal_json(self, seat: int | None) -> list[dict[str, Any]]:
        # built directly: a view costs less than half of [a.for_seat() for a in
        # legal_actions(seat)]
        if seat is None or self.winner is not None:
            return []
        legal: list[dict[str, Any]] = (
            [{"type": "play", "stack": 0}, {"type": "play", "stack": 1},
             {"type": "play", "stack": 2}, {"type": "play", "stack": 3}]
            if self.turn == seat else [])
        if self.may_call(seat):
            legal.append({"type": "call"})
        at = self.plays
        legal += [{"type": "slap", "stack": 0, "at": at}, {"type": "slap", "stack": 1, "at": at},
                  {"type": "slap", "stack": 2, "at": at}, {"type": "slap", "stack": 3, "at": at}]
        return legal

    @fast_path
    def offers(self, seat: int, kinds: Collection[str]) -> bool:
        # legal_json's conditions without its list (the env's turn timer asks after every
        # change)
        if self.winner is not None:
            return False
        return ("slap" in kinds or ("play" in kinds and self.turn == seat)
                or ("call" in kinds and self.may_call(seat)))

    def late(self, action: Action) -> str | None:
        """A call that arrives once a slap (or the other call) settled the play it meant is
        stale, like a late slap (P5), not wrong."""
        if (isinstance(action, Call) and self.winner is None and self.settled
                and self.last_player is not None and self.last_player != action.player):
            return (f"too late: the play on stack {self.last_stack} was settled before your "
                    "call arrived")
        return None

    # -- rules -------------------------------------------------------------------------------

    def _do_play(self, action: Play, events: list[Event] | None) -> None:
        """P3: the top card goes face up onto the chosen stack; the opponent is next."""
        p, s = action.player, action.stack
        card = self.piles[p].popleft()
        stack = self.stacks[s]
        stack.append(card)
        self.up_totals[s] += _CARD_VALUE21[card]
        self.plays += 1
        self.last_player, self.last_stack, self.settled = p, s, False
        # slap_kind(stack), inline: this is the hottest line of every simulation (a call
        # would cost a tenth of a push); tests/games/test_rules_once.py pins it to slap_kind
        rank = card[0]
        kind: SlapKind | None = None
        if rank == "X":
            kind = "joker"
        elif len(stack) >= 3:
            if stack[-2][0] == rank:
                kind = "pair"
            elif len(stack) >= 4 and stack[-3][0] == rank:
                kind = "sandwich"
        self.open_slap = kind
        self.turn = other = 1 - p
        if events is not None:
            # PlayEvent(p, s, card, self.plays, kind) written out: a class's Python __init__
            # costs a third of a checked play; tests/games pin the two together
            event = _new_event(PlayEvent)
            event.player = p
            event.stack = s
            event.card = card
            event.at = self.plays
            event.kind = kind
            events.append(event)
        if not self.piles[other]:
            # P6: the opponent played their last card and neither called nor slapped it.
            self._win(other, SplunkTermination.LAST_PLAY_STOOD, events)

    def _do_call(self, action: Call, events: list[Event] | None) -> None:
        """P4: over 21, the accused takes the stack; otherwise the caller does."""
        p = action.player
        s, accused = self.last_stack, self.last_player
        assert s is not None and accused is not None
        stack = self.stacks[s]
        total = total21(stack)
        over = total > self.target
        taker, winner = (accused, p) if over else (p, accused)
        if events is not None:
            events.append(CallEvent(p, accused, s, stack[0], list(stack), total, over, taker))
        self.settled = True
        self.open_slap = None
        self._take_and_rebase(taker, winner, s, _CALL_BASES, events)

    def _do_slap(self, action: Slap, events: list[Event] | None) -> None:
        p, s, at = action.player, action.stack, action.at
        latest = s == self.last_stack
        if (at is not None and at != self.plays) or (latest and self.settled):
            # P5: a slap aimed at an earlier play, or at a play already settled, is stale.
            if events is not None:
                events.append(SlapIgnoredEvent(p, s, at))
            return
        kind = self.open_slap if latest else None
        if kind is not None:
            # P5: the first slapper gives the stack away, lays a new base; the other plays.
            other = 1 - p
            if events is not None:
                events.append(SlapEvent(p, s, kind, other, len(self.stacks[s])))
            self.settled = True
            self.open_slap = None
            self._take_and_rebase(other, p, s, _SLAP_BASES, events)
            return
        # P5: a wrong slap: the slapper takes the stack, the other lays the new base; the
        # slapper is next.
        if events is not None:
            events.append(WRONG_SLAP_EVENTS[p][s][latest][len(self.stacks[s])])
        if latest:
            self.settled = True
            self.open_slap = None
        self._take_and_rebase(p, 1 - p, s, _WRONG_SLAP_BASES, events)

    # -- helpers -------------------------------------------------------------------------------

    def _take_and_rebase(self, taker: int, p: int, s: int, bases: list[list[BaseEvent]],
                         events: list[Event] | None) -> None:
        """P4: the stack goes under the taker's pile in stack order, base first; then ``p``
        lays their top card face down on slot ``s`` and the taker plays (P4, P5).
        ``bases`` is the move's row of :data:`BASE_EVENTS` (its reason's).

        P6: a player with no card for the base, or who lays their last one, has won.
        """
        stack, piles = self.stacks[s], self.piles
        piles[taker].extend(stack)
        stack.clear()  # the same list again: one container less to make and collect
        self.up_totals[s] = 0  # a base, if any, goes down face down
        pile = piles[p]
        if not pile:
            self._win(p, SplunkTermination.NO_CARD_FOR_BASE, events)
            return
        stack.append(pile.popleft())
        if events is not None:
            events.append(bases[p][s])
        if not pile:
            self._win(p, SplunkTermination.LAST_CARD_AS_BASE, events)
            return
        self.turn = taker

    def _win(self, p: int, how: SplunkTermination, events: list[Event] | None) -> None:
        self.winner = p
        self.ending = how
        self.turn = None
        self.settled = True  # the latest play has been dealt with: no more call or slap
        self.open_slap = None
        if events is not None:
            events.append(WinEvent(p, how.value))

    # -- what players see ----------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(self.winner, self.ending)

    def view(self, seat: int | None) -> SplunkView:
        """The table: pile sizes, each stack's size and face-up cards (bottom first) with
        their count, whether this seat may call out its latest play (``call_open``) and
        what a slap on it would win on (``slap``); whose turn, ``plays`` (for a slap's
        ``at``), ``last_play``, whether the latest play may be called (``call_open``, by
        the other player) or slapped (``slap_open``: its stack, ``slap_kind``), ``winner``
        and the actions open to the seat (``legal``)."""
        # Nobody sees a pile or a base (P1, G3), so every seat's view is the public one;
        # `seat` only says who is looking.
        # A view is made once or twice per change in every environment step: the four stacks
        # are written out from locals rather than by a comprehension, each total read from
        # up_totals (a quarter of a view less than the comprehension that re-added them),
        # and only the latest play's stack can have a call or a slap open, so only that
        # stack's are set
        s0, s1, s2, s3 = self.stacks
        t0, t1, t2, t3 = self.up_totals
        stacks = [_stack_view(s0, t0), _stack_view(s1, t1), _stack_view(s2, t2),
                  _stack_view(s3, t3)]
        last: LastPlay | None = None
        slap = self.open_slap
        slap_on: int | None = None
        last_stack = self.last_stack
        if self.last_player is not None:
            assert last_stack is not None
            last = {"stack": last_stack, "player": self.last_player}
            if self.may_call(seat):
                stacks[last_stack]["call_open"] = True
            if slap is not None:
                slap_on = last_stack
                stacks[last_stack]["slap"] = slap
        p0, p1 = self.piles
        options = self.options
        return {
            "game": self.name,
            "seat": seat,
            "jokers": options["jokers"],
            "first": options["first"],
            "variant": options["variant"],
            "target": self.target,
            "players": [{"cards": len(p0)}, {"cards": len(p1)}],
            "stacks": stacks,
            "turn": self.turn,
            "plays": self.plays,
            "last_play": last,
            "call_open": self.call_open(),
            "slap_open": slap_on,
            "slap_kind": slap,
            "winner": self.winner,
            "legal": self.legal_json(seat),
        }


def _stack_view(stack: list[Card], up_total: int) -> StackView:
    """One stack as a view shows it, with no call or slap open on it: a fresh dict and a
    fresh list of its face-up cards."""
    cards = len(stack)
    return {"cards": cards, "base": cards > 0, "up": stack[1:], "up_total": up_total,
            "call_open": False, "slap": None}
