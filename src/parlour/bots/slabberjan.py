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

Turns take a moment of thinking time, which a live table shows as it is.

>>> bot = PLAYERS["hard"](1, seed=0)
>>> view = {"seat": 1, "players": [{"chips": 3, "out": False, "shown": None}] * 2,
...         "dealer": 1, "turn": 1, "phase": "dealer", "bird": False, "bag": 40, "round": 1,
...         "deal": 1, "piece": "12", "legal": ["draw", "stand"], "winner": None}
>>> deal = {"type": "deal", "round": 1, "dealer": 1, "deal": 1, "piece": "fool"}
>>> swap = {"type": "swap", "player": 0, "target": 1, "gave": "fool", "got": "12"}
>>> bot.decide(view, [deal, swap]).action  # seat 0 now holds the fool: a 12 is safe
Stand(player=1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.bots.base import ComputerPlayer, Decision
from parlour.engine import Action
from parlour.games.slabberjan import FOOL, MATADORS, PIECES, RANK, Draw, Stand, Swap

_ACTIONS: dict[str, type[Action]] = {"swap": Swap, "stand": Stand, "draw": Draw}


@dataclass(frozen=True, slots=True)
class Pace:
    """Thinking time in seconds: uniform in [low, high], shorter for a forced move."""

    low: float
    high: float
    forced: float


PACES: dict[str, Pace] = {
    "easy": Pace(1.2, 2.4, 0.8),
    "normal": Pace(0.9, 1.8, 0.6),
    "hard": Pace(0.6, 1.2, 0.4),
}
#: Normal swaps or draws below this rank: RANK["6"]; everything under a 6 feels risky.
NORMAL_BELOW = RANK["6"]
#: Hard's samples per choice; the same samples judge both choices, so the comparison is
#: much sharper than the estimates themselves.
SAMPLES = 96
#: What losing the game is worth in chips, when a payment would find no chip left.
ELIMINATION_COST = 4.0
_NOBODY = len(RANK)  # above every rank: "fewer players than that: all pay" (S10)


def payers(hands: dict[int, str]) -> set[int]:
    """S10: who pays at the end of the round, given every hand still in play.

    >>> sorted(payers({0: "fool", 1: "3", 2: "7", 3: "3"}))
    [0, 1, 3]
    >>> sorted(payers({0: "fool", 1: "fool", 2: "2", 3: "5", 4: "9"}))
    [0, 1, 2, 3]
    """
    fools = [s for s, p in hands.items() if p == FOOL]
    others = sorted((RANK[p], s) for s, p in hands.items() if p != FOOL)
    need = 2 if len(fools) >= 2 else 1
    if len(others) <= need:
        return set(hands)
    cutoff = others[need - 1][0]
    return set(fools) | {s for r, s in others if r <= cutoff}


class SlabberjanPlayer(ComputerPlayer):
    """A Slabberjan computer player; subclasses choose between real alternatives."""

    game = "slabberjan"
    level = "normal"

    def __init__(self, seat: int, *, seed: int | None = None) -> None:
        super().__init__(seat, seed=seed)
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

    def decide(self, view: dict[str, Any], events: Sequence[dict[str, Any]]) -> Decision | None:
        self.observe(events)
        if view["winner"] is not None or view["turn"] != self.seat:
            return None
        legal: list[str] = view["legal"]
        if not legal:
            return None
        pace = PACES[self.level]
        if len(legal) == 1:
            return Decision(_ACTIONS[legal[0]](self.seat), pace.forced)
        change = "draw" if "draw" in legal else "swap"
        kind = change if self.wants_change(view, change) else "stand"
        return Decision(_ACTIONS[kind](self.seat), self.rng.uniform(pace.low, pace.high))

    def wants_change(self, view: dict[str, Any], change: str) -> bool:
        """Whether to ``change`` ("draw" or "swap") rather than stand."""
        return RANK[view["piece"]] < NORMAL_BELOW


class Easy(SlabberjanPlayer):
    """Close to a coin toss."""

    level = "easy"

    def wants_change(self, view: dict[str, Any], change: str) -> bool:
        return self.rng.random() < 0.5


class Normal(SlabberjanPlayer):
    """Changes a piece below a 6, keeps the rest."""

    level = "normal"


class Hard(SlabberjanPlayer):
    """Compares the chips each choice is expected to cost, from what its seat has seen."""

    level = "hard"

    def wants_change(self, view: dict[str, Any], change: str) -> bool:
        stand, move = self.expected_costs(view, change)
        return move < stand

    def expected_costs(self, view: dict[str, Any], change: str) -> tuple[float, float]:
        """Expected chips lost by standing, and by ``change``, estimated by sampling."""
        me, piece = self.seat, view["piece"]
        players = view["players"]
        active = [s for s, p in enumerate(players) if not p["out"]]
        known = dict(self.known)
        for s, p in enumerate(players):
            if p["shown"] is not None and not p["out"]:
                known[s] = p["shown"]
        known.pop(me, None)
        pool = Counter(PIECES)
        pool[piece] -= 1
        for s, p in known.items():
            if s in active:
                pool[p] -= 1
        unseen = list(pool.elements())
        hidden = [s for s in active if s != me and s not in known]
        chips = players[me]["chips"]
        left = self._left_of(me, active)
        base_hands = {s: known[s] for s in active if s in known}
        base_hands[me] = piece
        pool_kinds = Counter(p for p in unseen if p != "inn")
        # with every other piece known, one look is exact: there is nothing to sample
        samples = SAMPLES if hidden else 1
        stand_cost = move_cost = 0.0
        for _ in range(samples):
            picked = self.rng.sample(unseen, len(hidden))
            hands = dict(base_hands)
            hands.update(zip(hidden, picked, strict=True))
            threshold = self._threshold(hands)
            stand_cost += self._cost(self._pays(piece, threshold), chips, 0)
            if change == "draw":
                kinds = pool_kinds.copy()
                kinds.subtract(p for p in picked if p != "inn")
                move_cost += self._draw_cost(hands, kinds, threshold, chips)
            else:
                move_cost += self._swap_cost(hands, left, active, chips)
        return stand_cost / samples, move_cost / samples

    def _threshold(self, hands: dict[int, str]) -> int:
        """We pay holding a non-fool piece of rank at most this (S10); others' hands only.

        With two fools among the others the two lowest non-fool ranks pay, else the lowest;
        everyone tied at that rank pays, and with too few others everybody pays.
        """
        fools, low1, low2 = 0, _NOBODY, _NOBODY
        for seat, held in hands.items():
            if seat == self.seat:
                continue
            if held == FOOL:
                fools += 1
                continue
            r = RANK[held]
            if r < low1:
                low1, low2 = r, low1
            elif r < low2:
                low2 = r
        return low2 if fools >= 2 else low1

    @staticmethod
    def _pays(piece: str, threshold: int) -> bool:
        return piece == FOOL or RANK[piece] <= threshold

    @staticmethod
    def _cost(pays: bool, chips: int, paid: int) -> float:
        """Chips lost: ``paid`` first (a matador's fine), then the end-of-round payment."""
        owed = paid + pays
        return owed if owed <= chips else chips + ELIMINATION_COST

    def _pay_cost(self, hands: dict[int, str], chips: int, paid: int) -> float:
        return self._cost(self._pays(hands[self.seat], self._threshold(hands)), chips, paid)

    def _draw_cost(self, hands: dict[int, str], kinds: Counter[str], threshold: int,
                   chips: int) -> float:
        """S8: the dealer draws blind; a drawn matador acts as if the bag held it.

        Inns are set aside and the next piece drawn, so what counts is the first piece that
        is not an inn: every such piece in the bag (``kinds``) is equally likely. Averaging
        over them exactly (rather than sampling one) leaves only the other hands to sampling.
        """
        piece = hands[self.seat]
        total = sum(kinds.values())
        if not total:
            return self._cost(self._pays(piece, threshold), chips, 0)  # the dealer keeps
        cost = 0.0
        for drawn, count in kinds.items():
            if not count:
                continue
            if drawn not in MATADORS:
                one = self._cost(self._pays(drawn, threshold), chips, 0)
            elif drawn == "bird":
                one = self._cost(self._pays(piece, threshold), chips, 0)
            elif drawn == "knight":
                one = self._cost(self._pays(piece, threshold), chips, 1)
            else:  # cat: one chip, and every swap is undone
                one = self._pay_cost(self._undone(hands), chips, 1)
            cost += count * one
        return cost / total

    def _undone(self, hands: dict[int, str]) -> dict[int, str]:
        """The hands after a cat's undo: dealt pieces where we know them."""
        back = {**hands, **{s: p for s, p in self.dealt_to.items() if s in hands}}
        back[self.seat] = self.dealt or hands[self.seat]
        return back

    def _swap_cost(self, hands: dict[int, str], left: int, active: list[int],
                   chips: int) -> float:
        """S5: the attempt on the left neighbour, moved on by inns, met by matadors."""
        me, target = self.seat, left
        while hands[target] == "inn":
            target = self._left_of(target, active)
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

    @staticmethod
    def _left_of(seat: int, active: list[int]) -> int:
        later = [s for s in active if s > seat]
        return later[0] if later else active[0]


PLAYERS: dict[str, type[ComputerPlayer]] = {"easy": Easy, "normal": Normal, "hard": Hard}
