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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from parlour.engine import Action, Event, Game, Outcome, RecordError, Termination

#: The 21 kinds of piece, high to low.
KINDS: tuple[str, ...] = (
    "knight", "bird", "cat", "inn",
    "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "0",
    "white bread", "chamber pot", "scary face", "fool",
)
#: The 42 pieces, two of each kind.
PIECES: tuple[str, ...] = tuple(kind for kind in KINDS for _ in range(2))
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


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Try to exchange pieces with the player to your left (S4, S5)."""

    type: ClassVar[str] = "swap"


@dataclass(frozen=True, slots=True)
class Stand(Action):
    """Keep your piece: matador holders, anyone with ``free_choice``, the dealer (S4, S8)."""

    type: ClassVar[str] = "stand"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """The dealer exchanges their piece for the top piece of the bag (S8)."""

    type: ClassVar[str] = "draw"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Slabberjan(Game):
    """The state of one game of Slabberjan."""

    name = "slabberjan"
    min_players = 2
    max_players = 42
    action_kinds = {"swap": Swap, "stand": Stand, "draw": Draw}

    chips: list[int]
    out: list[bool]
    hands: list[str | None]
    dealt: list[str | None]
    set_aside: list[str]
    shown: list[str | None]
    learned: list[list[dict[str, Any]]]

    # -- options and setup -----------------------------------------------------------------

    def _resolve_options(self, options: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(options) - {"chips", "dealer", "free_choice"})
        if unknown:
            raise RecordError(f"slabberjan has no option {', '.join(map(repr, unknown))} "
                              "(expected chips, dealer, free_choice)")
        chips = options.get("chips", 3)
        if not _is_int(chips) or not 1 <= chips <= MAX_CHIPS:
            raise RecordError(f"slabberjan option 'chips' must be an integer from 1 to "
                              f"{MAX_CHIPS}, not {chips!r}")
        free_choice = options.get("free_choice", False)
        if not isinstance(free_choice, bool):
            raise RecordError(f"slabberjan option 'free_choice' must be true or false, "
                              f"not {free_choice!r}")
        dealer = options.get("dealer")
        if dealer is None:
            dealer = self.chance.choice(self.players)  # S1: the first dealer is random
        elif not _is_int(dealer) or not 0 <= dealer < self.players:
            raise RecordError(f"slabberjan option 'dealer' must be a seat from 0 to "
                              f"{self.players - 1}, not {dealer!r}")
        return {"chips": chips, "dealer": dealer, "free_choice": free_choice}

    def _setup(self, events: list[Event]) -> None:
        n = self.players
        self.chips = [self.options["chips"]] * n  # S1: the same for all
        self.out = [False] * n
        self.active = n
        self.pot = 0
        self.dealer: int = self.options["dealer"]
        self.free_choice: bool = self.options["free_choice"]
        self.round = 1
        self.deals = 0
        self.winner: int | None = None
        self.revealed: list[str | None] | None = None
        self._deal(events)

    def _deal(self, events: list[Event] | None) -> None:
        """S2: a fresh deck; pieces drawn from its top starting left of the dealer."""
        deck = self.chance.deck(PIECES)
        n = self.players
        hands: list[str | None] = [None] * n
        seat = self.dealer
        for i in range(self.active):
            seat = self._next_in(seat)  # ends on the dealer: the dealer draws last
            hands[seat] = deck[i]
        self.hands = hands
        self.dealt = list(hands)
        self.bag = deck
        self.bag_top = self.active  # the bag is what the players did not draw, top first
        self.set_aside = []
        self.shown = [None] * n
        self.learned = [[] for _ in range(n)]
        self.bird = False
        self.deals += 1
        self.turn: int | None = self._next_in(self.dealer)  # S3
        self.phase = "turns"
        if events is not None:
            events.append(Event(
                "deal", {"round": self.round, "dealer": self.dealer, "deal": self.deals},
                {s: {"piece": p} for s, p in enumerate(hands) if p is not None}))

    # -- checks -------------------------------------------------------------------------------

    def _why_illegal(self, action: Action) -> str | None:
        p = action.player
        if self.out[p]:
            return "you are out of the game"
        if self.turn != p:
            return f"it is seat {self.turn}'s turn"
        piece = self.hands[p]
        kind = type(action)
        if kind is Draw:
            if p != self.dealer:
                return "only the dealer draws from the bag"
            if piece in MATADORS:
                return "a dealer holding a matador stands (S8)"
            if self.bag_top >= len(self.bag):
                return "the bag is empty"
            return None
        if p == self.dealer:
            if kind is Swap:
                return "the dealer does not swap with a player: draw from the bag or stand"
            return None
        if piece in MATADORS:
            return "a player holding a matador stands (S4)" if kind is Swap else None
        if kind is Stand and not self.free_choice:
            return ("a piece below the inn must try to swap with the left neighbour (S4); "
                    "option free_choice lets you stand")
        return None

    def legal_actions(self, seat: int) -> list[Action]:
        if self.turn != seat or self.winner is not None:
            return []
        piece = self.hands[seat]
        if piece in MATADORS:
            return [Stand(seat)]
        if seat == self.dealer:
            if self.bag_top < len(self.bag):
                return [Draw(seat), Stand(seat)]
            return [Stand(seat)]
        if self.free_choice:
            return [Swap(seat), Stand(seat)]
        return [Swap(seat)]

    # -- the turn -------------------------------------------------------------------------------

    def _do(self, action: Action, events: list[Event] | None) -> None:
        kind = type(action)
        p = action.player
        if kind is Swap:
            self._swap(p, events)
        elif kind is Stand:
            self._stand(p, events)
        else:
            self._draw(p, events)

    def _stand(self, p: int, events: list[Event] | None) -> None:
        if events is not None:
            events.append(Event("stand", {"player": p}))
        if p == self.dealer:
            self._end_round(events)  # S9
        else:
            self._pass_turn(p)

    def _pass_turn(self, p: int) -> None:
        """S3: clockwise from ``p``; the dealer acts last."""
        nxt = self._next_in(p)
        self.turn = nxt
        self.phase = "dealer" if nxt == self.dealer else "turns"

    def _swap(self, p: int, events: list[Event] | None) -> None:
        """S5: a swap attempt on the left neighbour, moved on by every inn."""
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
        self.learned[p].append({"with": q, "gave": mine, "got": theirs})
        self.learned[q].append({"with": p, "gave": theirs, "got": mine})
        if events is not None:
            events.append(Event("swap", {"player": p, "target": q},
                                {p: {"gave": mine, "got": theirs},
                                 q: {"gave": theirs, "got": mine}}))

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
            events.append(Event("announce", {
                "player": p, "holder": q, "bag": False, "piece": FOOL,
                "words": FOOL_OVER_FOOL, "players": [p, q]}))
        self._deal(events)

    def _undo_swaps(self, events: list[Event] | None) -> None:
        """S5 cat: every player gets back the piece they drew at the deal."""
        hands, dealt, out = self.hands, self.dealt, self.out
        for s in range(self.players):
            if not out[s]:
                hands[s] = dealt[s]
        if events is not None:
            events.append(Event("undo", {"reason": WORDS["cat"]},
                                {s: {"piece": hands[s]} for s in range(self.players)
                                 if not out[s]}))

    def _announce(self, holder: int | None, piece: str, p: int,
                  events: list[Event] | None) -> None:
        """A matador refuses in public; ``holder`` is ``None`` when it came out of the bag."""
        if holder is not None:
            self.shown[holder] = piece
        if events is not None:
            events.append(Event("announce", {
                "player": p, "holder": holder, "bag": holder is None, "piece": piece,
                "words": WORDS[piece]}))

    # -- the dealer and the bag -----------------------------------------------------------------

    def _draw(self, d: int, events: list[Event] | None) -> None:
        """S8: the dealer draws blind from the bag; drawn matadors act as if the bag held them."""
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
        self.learned[d].append({"with": "bag", "gave": old, "got": piece})
        if events is not None:
            events.append(Event("draw", {"player": d}, {d: {"gave": old, "got": piece}}))

    # -- the end of a round -------------------------------------------------------------------

    def _end_round(self, events: list[Event] | None) -> None:
        """S9 to S11, then the deal passes on (S1)."""
        self.revealed = list(self.hands)
        if events is not None:
            events.append(Event("reveal", {"pieces": self.revealed}))
        self._pay(self._payers(), "lowest", events)
        if self.winner is not None:
            return
        self.dealer = self._next_in(self.dealer)
        self.round += 1
        self._deal(events)

    def _payers(self) -> list[int]:
        """S10: the fool holders, and the lowest one or two players below them."""
        hands = self.hands
        fools: list[int] = []
        others: list[tuple[int, int]] = []
        for s, piece in enumerate(hands):
            if piece is None:
                continue
            if piece == FOOL:
                fools.append(s)
            else:
                others.append((RANK[piece], s))
        need = 2 if len(fools) >= 2 else 1
        if len(others) <= need:
            return fools + [s for _, s in others]
        others.sort()
        cutoff = others[need - 1][0]
        return fools + [s for rank, s in others if rank <= cutoff]

    def _pay(self, seats: list[int], reason: str, events: list[Event] | None) -> None:
        """S11: each pays one chip; a player with none is out, unless all would be out."""
        chips = self.chips
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
                    events.append(Event("pay", {"player": s, "reason": why,
                                                "chips": chips[s], "pot": self.pot}))
            else:
                self._eliminate(s, events)
        if self.active == 1:
            self._win(events)

    def _eliminate(self, s: int, events: list[Event] | None) -> None:
        self.out[s] = True
        self.active -= 1
        piece = self.hands[s]
        if piece is not None:
            self.set_aside.append(piece)  # S11: the piece leaves play
        self.hands[s] = None
        if events is not None:
            events.append(Event("out", {"player": s}))

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

    @property
    def bag_left(self) -> list[str]:
        """The pieces still in the bag, top first (for tests and tools: never in a view)."""
        return self.bag[self.bag_top:]

    # -- what players see ----------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(self.winner, Termination.LAST_PLAYER_STANDING)

    def view(self, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": self.name,
            "seat": seat,
            "players": [{"chips": c, "out": o, "shown": m}
                        for c, o, m in zip(self.chips, self.out, self.shown, strict=True)],
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
            "revealed": list(self.revealed) if self.revealed is not None else None,
            "winner": self.winner,
        }
        if seat is not None:
            view["piece"] = self.hands[seat]
            view["learned"] = [dict(fact) for fact in self.learned[seat]]
            view["legal"] = [a.type for a in self.legal_actions(seat)]
        return view


GAME = Slabberjan
