"""Slapjack: a real-time slapping race for 2 or more players.

- Players: 2 to 8 (the web page seats 2 to 4).
- Chance: the deal (one 52-card deck, no jokers) and the shuffle of every pile that is taken;
  both go through the game's :class:`~parlour.engine.chance.Chance`, so a game is exactly its
  record.
- Information: imperfect. Nobody sees any stack, their own included; everyone sees the top
  card of the pile. Cards below the top, and penalty cards put face down under the pile,
  are not shown.
- Actions: ``Flip`` (the seat whose turn it is) and ``Slap`` (anyone still in, at any time).
  A slap names the card it was aimed at with ``at``, the number of flips made when it was
  sent, so that a slap which lost a race is ignored instead of punished (ruling J6).

The rulings J1 to J10 of ``shared/rulings.md`` are implemented here; the comments cite them.
J10's pause after a pile is taken is :data:`SPEC`'s pacing, the one figure per speed that
every live table and simulation holds its computer players to.

>>> game = Slapjack(2, decks=[["JS", "2H"] + [c for c in standard_deck() if c not in ("JS", "2H")]])
>>> [e.public()["card"] for e in game.apply(Flip(0)) if e.type == "flip"]
['JS']
>>> [e.type for e in game.apply(Slap(1, at=1))]
['take']
>>> game.view(None)["players"][1]["cards"], game.view(None)["turn"]
(27, 1)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from typing import Any, Literal, TypedDict

from parlour.engine import Action, Event, Game, GameSpec, Outcome, Pacing, Termination
from parlour.engine.cards import Card, deal_one_at_a_time, standard_deck
from parlour.engine.game import fast_path


class Flip(Action, kind="flip"):
    """Turn the top card of your stack onto the pile (J2)."""


class Slap(Action, kind="slap", stamp="at"):
    """Slap the pile; ``at`` is the number of flips made when you slapped (J6)."""

    at: int | None = None


def is_jack(card: str) -> bool:
    """The only card that counts (J4): suits do not matter."""
    return card[0] == "J"


class SlapjackTermination(Termination):
    LAST_PLAYER_STANDING = "last_player_standing"
    """Every other player is out (J9)."""


class PlayerView(TypedDict):
    cards: int
    out: bool
    waiting: bool
    """Still in with no cards: the next Jack is their last chance (J7)."""


class SlapjackView(TypedDict):
    """What a seat sees; every seat sees the same (nobody sees any stack, J1)."""

    game: str
    seat: int | None
    players: list[PlayerView]
    pile: int
    top: Card | None
    top_player: int | None
    flips: int
    turn: int | None
    slappable: bool
    winner: int | None
    legal: list[dict[str, Any]]


# The events, public (Slapjack has no private part): what a front end announces.
class DealEvent(TypedDict):
    cards: list[int]


class FlipEvent(TypedDict):
    player: int
    card: Card
    at: int


class TakeEvent(TypedDict):
    player: int
    cards: int
    reason: Literal["jack", "no_cards"]


class WrongSlapEvent(TypedDict):
    player: int
    card: Card
    to: int | None
    penalty: Literal["card", "out"]


class SlapIgnoredEvent(TypedDict):
    player: int
    at: int | None
    reason: Literal["stale", "empty"]


class SeatEvent(TypedDict):
    """``out`` and ``win``."""

    player: int


SPEC = GameSpec(
    name="slapjack",
    title="Slapjack",
    blurb="Flip cards onto the pile and be the first to slap every Jack.",
    players=(2, 8),
    seats=(2, 4),  # J10: the page seats you and 1 to 3 computer players
    default_players=2,
    actions={"flip": Flip, "slap": Slap},
    view=SlapjackView,
    pacing=Pacing(
        at_field="flips",
        after=frozenset({"deal", "take"}),
        held=frozenset({"flip"}),
        pause={"easy": 1.6, "normal": 1.3, "hard": 1.0, "expert": 0.8},
        why="J10: after the deal and after a pile is taken, a computer player waits before "
            "flipping, longer on the easier speeds, so that nobody can bury a Jack faster "
            "than a person can see it.",
    ),
    # what each speed means here, true with 1 to 3 computers (docs/bots.md measures it)
    level_about={
        "easy": "Slow, and often misses a Jack: even a slow beginner wins most games.",
        "normal": "An even match for an adult on the slow side: most adults win more than "
                  "their share, a slow beginner or a young child seldom wins.",
        "hard": "Quicker than most people: only quick hands win their share, an adult of "
                "ordinary speed seldom wins.",
        "expert": "Beyond the rules page: as quick as the quickest people, and only the "
                  "very quickest hands win.",
    },
)


class Slapjack(Game):
    """The state of one game of Slapjack."""

    spec = SPEC
    # every seat sees the same (J1), and only an ignored slap changes nothing (J5, J6)
    no_change_events = frozenset({"slap_ignored"})

    stacks: list[deque[Card]]
    pile: list[Card]

    def _setup(self, events: list[Event]) -> None:
        n = self.players
        # J1: dealt one at a time from seat 0; the first card dealt to you is your top card.
        deck = self.chance.deck(standard_deck())
        self.stacks = [deque(cards) for cards in deal_one_at_a_time(deck, n)]
        self.pile = []  # bottom first; face-down penalty cards go in at index 0
        self.out = [False] * n
        self.players_in = n
        self.flips = 0
        self.top_player: int | None = None  # who flipped the card on top of the pile
        self.last_flipper: int | None = None
        self.turn: int | None = 0  # J1: seat 0 flips first
        self.winner: int | None = None
        events.append(Event("deal", DealEvent(cards=[len(s) for s in self.stacks])))

    def hands_dealt(self) -> list[list[Card]]:
        return deal_one_at_a_time(self.chance.used_decks[0], self.players)  # J1

    def _copy_state(self, state: dict[str, Any]) -> None:
        # the stacks, the pile and who is out change in place; the rest is numbers and seats
        state["stacks"] = [stack.copy() for stack in self.stacks]
        state["pile"] = self.pile.copy()
        state["out"] = self.out.copy()

    # -- which actions are open ----------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        # J2: the seat whose turn it is flips; J4, J5: anyone still in may slap at any time,
        # at the latest flip (J6: a slap at an earlier one is legal, and ignored)
        if self.winner is not None or self.out[seat]:
            return []
        actions: list[Action] = [Slap(seat, at=self.flips)]
        if self.turn == seat:
            actions.insert(0, Flip(seat))
        return actions

    # The fast paths: legal_actions's conditions written out, for the checked path and for
    # the view and turn timer of every environment step (tests/games/test_legality.py pins
    # each to what Game derives from legal_actions). The base class has checked the seat.

    @fast_path
    def _why_not_flip(self, action: Flip) -> str | None:
        p = action.player
        if self.turn == p and self.winner is None and not self.out[p]:
            return None
        if self.out[p]:
            return "you are out of the game"
        if self.turn is None:
            return "nobody can flip: the Jack on top waits to be slapped"
        return f"it is seat {self.turn}'s turn to flip"

    @fast_path
    def _why_not_slap(self, action: Slap) -> str | None:
        if self.out[action.player]:
            return "you are out of the game"
        at = action.at
        if at is not None and not 0 <= at <= self.flips:
            # J6: an `at` beyond the flips made so far is refused
            return f"'at' is {at} but {self.flips} cards have been flipped so far"
        if self.winner is not None:
            return "the game is over"
        return None

    @fast_path
    def legal_json(self, seat: int | None) -> list[dict[str, Any]]:
        # built directly: a view costs half of [a.for_seat() for a in legal_actions(seat)]
        if seat is None or self.winner is not None or self.out[seat]:
            return []
        slap = {"type": "slap", "at": self.flips}
        return [{"type": "flip"}, slap] if self.turn == seat else [slap]

    @fast_path
    def offers(self, seat: int, kinds: Collection[str]) -> bool:
        # legal_json's conditions without its list (the env's turn timer asks after every
        # change)
        if self.winner is not None or self.out[seat]:
            return False
        return "slap" in kinds or ("flip" in kinds and self.turn == seat)

    # -- rules -------------------------------------------------------------------------------

    def _do_flip(self, action: Flip, events: list[Event] | None) -> None:
        # Most of any game is flips: this is the hottest method of every simulation, so
        # the flip is written out here, with the common case of the next seat inline.
        p = action.player
        pile, stacks = self.pile, self.stacks
        if pile and pile[-1][0] == "J":  # is_jack
            # J4/J7: the Jack is buried; everyone who was waiting on it is out.
            self._knock_out(self._waiting(), events)
        card = stacks[p].popleft()
        pile.append(card)
        self.flips += 1
        self.top_player = self.last_flipper = p
        # J2: the next seat still in with a card flips next
        q = p + 1
        turn = (q if q < self.players and stacks[q] and not self.out[q]
                else self._next_with_cards(q))
        self.turn = turn
        if events is not None:
            events.append(Event("flip", FlipEvent(player=p, card=card, at=self.flips)))
        if turn is None or self.players_in == 1:  # what _settle looks at (J8, J9)
            self._settle(events)

    def _do_slap(self, action: Slap, events: list[Event] | None) -> None:
        self._slap(action.player, action.at, events)
        self._settle(events)

    def _slap(self, p: int, at: int | None, events: list[Event] | None) -> None:
        pile = self.pile
        if not pile or (at is not None and at != self.flips):
            # J5: an empty pile does nothing; J6: a stale slap is ignored, without penalty.
            if events is not None:
                reason: Literal["stale", "empty"] = (
                    "empty" if not pile and at in (None, self.flips) else "stale")
                events.append(Event("slap_ignored", SlapIgnoredEvent(player=p, at=at,
                                                                     reason=reason)))
            return
        if is_jack(pile[-1]):
            # J4: the first slapper takes the pile; J7: the others waiting on it are out.
            losers = [q for q in self._waiting() if q != p]
            self._take_pile(p, "jack", events)
            self._knock_out(losers, events)
            self.turn = p
            return
        # J5: a wrong slap.
        owner = self.top_player
        assert owner is not None
        stack = self.stacks[p]
        if not stack:
            if events is not None:
                events.append(Event("wrong_slap", WrongSlapEvent(
                    player=p, card=pile[-1], to=None, penalty="out")))
            self._knock_out([p], events)
        else:
            card = stack.popleft()
            if owner == p or self.out[owner]:
                pile.insert(0, card)
                to: int | None = None
            else:
                self.stacks[owner].append(card)
                to = owner
            if events is not None:
                events.append(Event("wrong_slap", WrongSlapEvent(
                    player=p, card=pile[-1], to=to, penalty="card")))
        if self.turn is not None:
            self.turn = self._next_with_cards(self.turn)

    def _settle(self, events: list[Event] | None) -> None:
        """After every action: the winner (J9), and nobody left with a card to flip (J8)."""
        if self.players_in == 1 and self.winner is None:
            self.winner = self.out.index(False)
            self.turn = None
            if events is not None:
                events.append(Event("win", SeatEvent(player=self.winner)))
        elif self.turn is None and self.winner is None and self.pile and not is_jack(self.pile[-1]):
            # J8: nobody still in can flip; the last flipper (or, if they are out, the next
            # player still in after them) takes the pile and play goes on.
            assert self.last_flipper is not None
            taker = self.last_flipper
            while self.out[taker]:
                taker = (taker + 1) % self.players
            self._take_pile(taker, "no_cards", events)
            self.turn = taker

    # -- helpers -------------------------------------------------------------------------------

    def _take_pile(self, p: int, reason: Literal["jack", "no_cards"],
                   events: list[Event] | None) -> None:
        cards = self.chance.shuffle(self.pile)
        self.stacks[p].extend(cards)
        self.pile = []
        self.top_player = None
        if events is not None:
            events.append(Event("take", TakeEvent(player=p, cards=len(cards), reason=reason)))

    def _waiting(self) -> list[int]:
        """Players still in with no cards: they are waiting on the next Jack (J7)."""
        return [q for q in range(self.players) if not self.out[q] and not self.stacks[q]]

    def _knock_out(self, seats: list[int], events: list[Event] | None) -> None:
        for q in seats:
            self.out[q] = True
            self.players_in -= 1
            if events is not None:
                events.append(Event("out", SeatEvent(player=q)))

    def _next_with_cards(self, start: int) -> int | None:
        n = self.players
        for i in range(n):
            q = (start + i) % n
            if self.stacks[q] and not self.out[q]:
                return q
        return None

    # -- what players see ----------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(self.winner, SlapjackTermination.LAST_PLAYER_STANDING)

    def view(self, seat: int | None) -> SlapjackView:
        # Nobody sees any stack, their own included (J1), so every seat's view is the public
        # one; `seat` only says who is looking.
        top = self.pile[-1] if self.pile else None
        return {
            "game": self.name,
            "seat": seat,
            "players": [PlayerView(cards=len(s), out=o, waiting=not o and not s)
                        for s, o in zip(self.stacks, self.out, strict=True)],
            "pile": len(self.pile),
            "top": top,
            "top_player": self.top_player,
            "flips": self.flips,
            "turn": self.turn,
            "slappable": top is not None and is_jack(top),
            "winner": self.winner,
            "legal": self.legal_json(seat),
        }
