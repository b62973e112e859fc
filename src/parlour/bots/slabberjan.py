"""Computer players for Slabberjan: when to draw from the bag, and (``free_choice``) when to swap.

- Sees: its seat's ``view`` (its own ``piece``, the matadors ``shown`` this deal, chips, the
  dealer, the bag's size, which actions are ``legal``) and the events as its seat sees them:
  its own deal, the swaps it took part in (what it gave and got), the public swaps of
  others, announcements and undos. Nothing else: never the bag or another player's piece.
- Decides: only real choices. Most turns are forced (a piece below the inn must try to swap,
  a matador stands); the player then simply takes the one legal action. The choices are the
  dealer's draw-or-stand and, with option ``free_choice``, every swap-or-stand.
- Chance: its own ``random.Random(seed)``.

Levels:

- Easy is close to a coin toss: it draws or swaps half the time, whatever it holds.
- Normal uses a threshold on its own piece: it draws or swaps when holding less than a 6.
- Hard reasons from what its seat has seen. It keeps track of where the pieces it has seen
  now are (a player it swapped with holds what it gave them until a public swap moves it on;
  announced matadors never move), treats every other piece as equally likely to be anywhere
  unseen (the other hands, the bag), and estimates by sampling how many chips each choice
  costs it: the lowest pieces pay at the end of the round (S10), a matador drawn from the
  bag or met in a swap has its own effect (S5, S8), and a chip it cannot pay costs it the
  game. It picks the cheaper choice.

Who pays at the end of a round (S10) and who sits to whose left are the game's own
(:func:`parlour.games.slabberjan.pay_line`, the view's ``left``): Hard applies them to the
hands it imagines, it does not restate them.

Every turn takes a moment of thinking time, drawn from the same distribution whether the
move is forced or a real choice: how long a computer thinks must not tell what it holds.

>>> bot = Hard(1, level="hard", seed=0)
>>> view = {"seat": 1, "players": [{"chips": 3, "out": False, "shown": None, "left": 1},
...                                {"chips": 3, "out": False, "shown": None, "left": 0}],
...         "dealer": 1, "turn": 1, "phase": "dealer", "bird": False, "bag": 40, "round": 1,
...         "deal": 1, "piece": "12", "legal": [{"type": "draw"}, {"type": "stand"}],
...         "winner": None}
>>> deal = {"type": "deal", "round": 1, "dealer": 1, "deal": 1, "piece": "fool"}
>>> swap = {"type": "swap", "player": 0, "target": 1, "gave": "fool", "got": "12"}
>>> bot.decide(view, [deal, swap]).action  # seat 0 now holds the fool: a 12 is safe
Stand(player=1)
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from parlour.bots.base import DECISION_COST, ComputerPlayer, Decision, PlayerMaker
from parlour.games.slabberjan import (
    FOOL,
    MATADORS,
    NOBODY,
    PIECES,
    RANK,
    SPEC,
    SlabberjanView,
    line_of,
    pay_fold,
    pay_line,
    pays,
)

__all__ = ["PACES", "PLAYERS", "SPEC", "Easy", "Hard", "SlabberjanPlayer"]


@dataclass(frozen=True, slots=True)
class Pace:
    """Thinking time in seconds, uniform in [low, high], for every move alike."""

    low: float
    high: float


PACES: dict[str, Pace] = {
    "easy": Pace(1.2, 2.4),
    "normal": Pace(0.9, 1.8),
    "hard": Pace(0.6, 1.2),
    "expert": Pace(0.5, 1.0),
}
#: Normal swaps or draws below this rank: RANK["6"]; everything under a 6 feels risky.
NORMAL_BELOW = RANK["6"]
#: Hard's samples per choice; the same samples judge both choices, so the comparison is
#: much sharper than the estimates themselves.
SAMPLES = 96
#: What losing the game is worth in chips, when a payment would find no chip left.
ELIMINATION_COST = 4.0


def own_piece(view: SlabberjanView) -> str:
    """The piece a seated player holds (a view for a seat always has one while in play)."""
    piece = view["piece"]
    assert piece is not None, "a computer player sits at a seat"
    return piece


class SlabberjanPlayer(ComputerPlayer[SlabberjanView]):
    """A Slabberjan computer player; this class chooses as Normal does (it changes a piece
    below a 6), and the subclasses change how."""

    game = SPEC.name

    def __init__(self, seat: int, *, level: str | None = None, seed: int | None = None) -> None:
        super().__init__(seat, level=level, seed=seed)
        self.dealt: str | None = None  # the piece we drew at this deal (a cat brings it back)
        self.known: dict[int, str] = {}  # seat -> the piece we know it holds now
        self.dealt_to: dict[int, str] = {}  # seat -> the piece we know it drew at this deal
        self._touched: set[int] = set()  # seats that took part in a swap since the deal

    def observe(self, events: Sequence[dict[str, Any]]) -> None:
        """Keeps track of where the pieces we have seen are now, and who drew what."""
        me = self.seat
        for e in events:
            kind = e["type"]
            if kind == "deal":
                self.dealt = e.get("piece")
                self.known, self.dealt_to, self._touched = {}, {}, set()
            elif kind == "swap":
                a, b = e["player"], e["target"]
                if "gave" in e:  # we took part: our partner now holds what we gave
                    other = b if a == me else a
                    self.known[other] = e["gave"]
                    if other not in self._touched:  # nobody had swapped with them yet
                        self.dealt_to[other] = e["got"]
                else:  # a swap between two others carries what we knew along with it
                    pa, pb = self.known.pop(a, None), self.known.pop(b, None)
                    if pa is not None:
                        self.known[b] = pa
                    if pb is not None:
                        self.known[a] = pb
                self._touched.update((a, b))
            elif kind == "undo":
                # Everyone has their dealt piece back (matadors never moved, and the view
                # keeps those as `shown`).
                self.dealt = e.get("piece", self.dealt)
                self.known = dict(self.dealt_to)
                self._touched = set()
            elif kind == "announce" and e.get("holder") is not None:
                self.known[e["holder"]] = e["piece"]

    def decide(self, view: SlabberjanView, events: Sequence[dict[str, Any]]) -> Decision | None:
        self.observe(events)
        if view["winner"] is not None or view["turn"] != self.seat:
            return None
        legal = [a["type"] for a in view["legal"]]
        if not legal:
            return None
        pace = PACES[self.level]
        think = self.rng.uniform(pace.low, pace.high)  # drawn alike for every move
        if len(legal) == 1:
            kind = legal[0]
        else:
            change = "draw" if "draw" in legal else "swap"
            kind = change if self.wants_change(view, change) else "stand"
        return Decision(SPEC.actions[kind](self.seat), think)

    def wants_change(self, view: SlabberjanView, change: str) -> bool:
        """Whether to ``change`` ("draw" or "swap") rather than stand."""
        return RANK[own_piece(view)] < NORMAL_BELOW


class Easy(SlabberjanPlayer):
    """Close to a coin toss."""

    level = "easy"

    def wants_change(self, view: SlabberjanView, change: str) -> bool:
        return self.rng.random() < 0.5


#: What Hard's own turn is charged at a live table: its sampling, measured at 42 seats.
SAMPLED_TURN_COST = 2e-3


class Hard(SlabberjanPlayer):
    """Compares the chips each choice is expected to cost, from what its seat has seen."""

    level = "hard"

    def wants_change(self, view: SlabberjanView, change: str) -> bool:
        stand, move = self.expected_costs(view, change)
        return move < stand

    def cpu_cost(self, view: SlabberjanView) -> float:
        # its own turn samples the hands it cannot see: up to 2 ms at 42 seats, measured
        return SAMPLED_TURN_COST if view["turn"] == self.seat else DECISION_COST

    def expected_costs(self, view: SlabberjanView, change: str) -> tuple[float, float]:
        """Expected chips lost by standing, and by ``change``, estimated by sampling."""
        me, piece = self.seat, own_piece(view)
        players = view["players"]
        active = [s for s, p in enumerate(players) if not p["out"]]
        known = dict(self.known)
        for s, seen in enumerate(players):
            shown = seen["shown"]
            if shown is not None and not seen["out"]:
                known[s] = shown
        known.pop(me, None)
        pool = Counter(PIECES)
        pool[piece] -= 1
        for s, held in known.items():
            if s in active:
                pool[held] -= 1
        unseen = list(pool.elements())
        hidden = [s for s in active if s != me and s not in known]
        chips = players[me]["chips"]
        left_of: dict[int, int] = {s: left for s, p in enumerate(players)
                                   if (left := p["left"]) is not None}
        base_hands = {s: known[s] for s in active if s in known}
        base_hands[me] = piece
        # with every other piece known, one look is exact: there is nothing to sample
        samples = SAMPLES if hidden else 1
        # The pay line (S10) of a sample is the known pieces' line with the sampled ones
        # folded in: the known part is folded once. Every cost below is a whole number of
        # chips, so adding them up by kind (rather than piece by piece) gives exactly the
        # same floats, and so the same decisions, from the same draws of the generator.
        fools0, low1_0, low2_0 = pay_fold(0, NOBODY, NOBODY,
                                       (held for s, held in base_hands.items() if s != me))
        cost = self._cost
        pays_cost, safe_cost = cost(True, chips, 0), cost(False, chips, 0)
        draw = change == "draw"
        if draw:
            # the bag's first piece that is not an inn: every such unseen piece alike (S8)
            plain = sorted(RANK[p] for p in unseen if p not in MATADORS)  # fools rank 0
            birds0, knights0, cats0 = (unseen.count(m) for m in ("bird", "knight", "cat"))
            keep_cost = {(paying, fine): cost(paying, chips, fine)
                         for paying in (False, True) for fine in (0, 1)}
        sample, rank = self.rng.sample, RANK
        stand_cost = move_cost = 0.0
        for _ in range(samples):
            picked = sample(unseen, len(hidden))
            line = line_of(*pay_fold(fools0, low1_0, low2_0, picked))
            paying = piece == FOOL or rank[piece] <= line
            stand_cost += pays_cost if paying else safe_cost
            if not draw:
                hands = dict(base_hands)
                hands.update(zip(hidden, picked, strict=True))
                move_cost += self._swap_cost(hands, left_of, chips)
                continue
            # what is left for the bag once the sampled hands are dealt
            plain_left, paying_left = len(plain), bisect_right(plain, line)
            birds, knights, cats = birds0, knights0, cats0
            for p in picked:
                if p in MATADORS:
                    if p == "bird":
                        birds -= 1
                    elif p == "knight":
                        knights -= 1
                    elif p == "cat":
                        cats -= 1
                    continue
                plain_left -= 1
                if rank[p] <= line:
                    paying_left -= 1
            total = plain_left + birds + knights + cats
            if not total:
                move_cost += pays_cost if paying else safe_cost  # the dealer keeps
                continue
            chips_lost = (paying_left * pays_cost + (plain_left - paying_left) * safe_cost
                          + birds * keep_cost[paying, 0] + knights * keep_cost[paying, 1])
            if cats:  # one chip, and every swap is undone
                hands = dict(base_hands)
                hands.update(zip(hidden, picked, strict=True))
                chips_lost += cats * self._pay_cost(self._undone(hands), chips, 1)
            move_cost += chips_lost / total
        return stand_cost / samples, move_cost / samples

    def _line(self, hands: dict[int, str]) -> int:
        """S10's pay line for us, from the other hands (the game's own rule)."""
        me = self.seat
        return pay_line(held for seat, held in hands.items() if seat != me)

    @staticmethod
    def _cost(pays: bool, chips: int, paid: int) -> float:
        """Chips lost: ``paid`` first (a matador's fine), then the end-of-round payment."""
        owed = paid + pays
        return owed if owed <= chips else chips + ELIMINATION_COST

    def _pay_cost(self, hands: dict[int, str], chips: int, paid: int) -> float:
        return self._cost(pays(hands[self.seat], self._line(hands)), chips, paid)

    def _draw_cost(self, hands: dict[int, str], kinds: Counter[str], line: int,
                   chips: int) -> float:
        """S8: the dealer draws blind; a drawn matador acts as if the bag held it.

        Inns are set aside and the next piece drawn, so what counts is the first piece that
        is not an inn: every such piece in the bag (``kinds``) is equally likely. Averaging
        over them exactly (rather than sampling one) leaves only the other hands to sampling.
        """
        piece = hands[self.seat]
        total = sum(kinds.values())
        if not total:
            return self._cost(pays(piece, line), chips, 0)  # the dealer keeps
        cost = 0.0
        for drawn, count in kinds.items():
            if not count:
                continue
            if drawn not in MATADORS:
                one = self._cost(pays(drawn, line), chips, 0)
            elif drawn == "bird":
                one = self._cost(pays(piece, line), chips, 0)
            elif drawn == "knight":
                one = self._cost(pays(piece, line), chips, 1)
            else:  # cat: one chip, and every swap is undone
                one = self._pay_cost(self._undone(hands), chips, 1)
            cost += count * one
        return cost / total

    def _undone(self, hands: dict[int, str]) -> dict[int, str]:
        """The hands after a cat's undo: dealt pieces where we know them."""
        back = {**hands, **{s: p for s, p in self.dealt_to.items() if s in hands}}
        back[self.seat] = self.dealt or hands[self.seat]
        return back

    def _swap_cost(self, hands: dict[int, str], left_of: dict[int, int], chips: int) -> float:
        """S5: the attempt on the left neighbour, moved on by inns, met by matadors."""
        me = self.seat
        target = left_of[me]
        while hands[target] == "inn":
            target = left_of[target]
            if target == me:
                return self._pay_cost(hands, chips, 0)
        theirs = hands[target]
        if theirs == "cat":
            return self._pay_cost(self._undone(hands), chips, 1)
        if theirs == "knight":
            return self._pay_cost(hands, chips, 1)
        if theirs == "bird":
            return self._pay_cost(hands, chips, 0)
        if theirs == FOOL and hands[me] == FOOL:
            return 0.0  # fool over fool: a fresh deal, nobody pays
        return self._pay_cost({**hands, me: theirs, target: hands[me]}, chips, 0)


#: speed -> a maker of players at that speed: ``PLAYERS["hard"](seat, seed=1)``
PLAYERS: dict[str, PlayerMaker] = {
    level: partial(cls, level=level)
    for level, cls in (("easy", Easy), ("normal", SlabberjanPlayer), ("hard", Hard),
                       ("expert", Hard))}
