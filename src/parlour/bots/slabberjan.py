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
- Hard plays the round out in its head, with the game's own rules. It remembers what its
  seat has seen this deal (:class:`DealMemory`): the piece it drew, the pieces it met in its
  own swaps (each one some seat's dealt piece, which the public swaps since the deal say),
  the announced matadors (which never move), who swapped or stood. It samples the hidden
  pieces (every dealt hand and the bag) consistent with all of that, deals them into a
  Slabberjan of its own, replays the deal's moves on it, checks that it reaches the table
  it sees, and from there plays the rest of the round forward with each choice open to it,
  the other players choosing as Normal does. It takes the choice whose rounds leave it the
  better chance of winning the game (:func:`win_chance` of the chips each round leaves:
  a chip is worth more the fewer one has, and being put out loses everything); at a table
  of more than six it counts chips instead, its own against the others' (a chip it cannot
  pay puts it out, counted as :data:`ELIMINATION_COST` chips). It samples a few deals
  first and more only while the choice is close (:func:`clear`). No rule is restated
  here: every swap, matador, draw, payment and elimination of those rounds is
  :class:`~parlour.games.slabberjan.Slabberjan`'s.
  Seated in a deal already under way (a person left), it has seen nothing of the deal and
  chooses as Normal does until the next one.

Every turn takes a moment of thinking time, drawn from the same distribution whether the
move is forced or a real choice: how long a computer thinks must not tell what it holds.

>>> bot = Hard(1, level="hard", seed=0)
>>> view = {"seat": 1, "players": [{"chips": 3, "out": False, "shown": None, "left": 1},
...                                {"chips": 3, "out": False, "shown": None, "left": 0}],
...         "dealer": 1, "turn": 1, "phase": "dealer", "bird": False, "bag": 40, "round": 1,
...         "deal": 1, "piece": "12", "legal": [{"type": "draw"}, {"type": "stand"}],
...         "winner": None, "free_choice": False}
>>> deal = {"type": "deal", "round": 1, "dealer": 1, "deal": 1, "piece": "fool"}
>>> swap = {"type": "swap", "player": 0, "target": 1, "gave": "fool", "got": "12"}
>>> bot.decide(view, [deal, swap]).action  # seat 0 now holds the fool: a 12 is safe
Stand(player=1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from itertools import combinations
from math import comb
from typing import Any

from parlour.bots.base import DECISION_COST, ComputerPlayer, Decision, PlayerMaker
from parlour.engine import Action
from parlour.games.slabberjan import (
    FOOL,
    FOOL_OVER_FOOL,
    MATADORS,
    RANK,
    SPEC,
    VARIANT_PIECES,
    Draw,
    Slabberjan,
    SlabberjanView,
    Stand,
    Swap,
)

__all__ = ["PACES", "PLAYERS", "SPEC", "DealMemory", "Easy", "Hard", "SlabberjanPlayer",
           "TwoThreshold"]


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
#: Hard's sampled deals per choice at most, at a small table; the same deals judge every
#: choice, so the comparison is much sharper than the estimates themselves. A quarter of
#: them (no fewer than :data:`MIN_SAMPLES`) are drawn first, and more, a quarter at a time,
#: only while the choice is a close one (:func:`clear`): most choices are plain, and the
#: deals go to the few that are not.
SAMPLES = 96
#: At a large table each sample costs more (a longer deal to replay and round to play
#: out): Hard plays about this many moves per choice in all, and no fewer than
#: :data:`MIN_SAMPLES` deals.
MOVES_PER_CHOICE = 500
MIN_SAMPLES = 12
#: Standard errors that make a choice clear enough to stop sampling (:func:`clear`).
CLEAR = 2.5
#: What losing the game is worth in chips, when a payment would find no chip left (at a
#: table too large for :func:`win_chance`).
ELIMINATION_COST = 4.0
#: How many chips a round takes, by how many players are in: the chance of 1, 2, ...
#: (the last: that many or more), measured on 1500 rounds of Normals each (fines included;
#: with or without ``free_choice`` alike within 0.03).
PAYMENTS: dict[int, tuple[float, ...]] = {
    2: (0.794, 0.206),
    3: (0.667, 0.298, 0.035),
    4: (0.571, 0.365, 0.057, 0.007),
    5: (0.495, 0.393, 0.098, 0.011, 0.003),
    6: (0.419, 0.425, 0.132, 0.018, 0.005, 0.001),
}
#: :func:`win_chance` is used while at most this many chip counts can follow (the table's
#: states): a game of 6 at 3 chips has 504; beyond, Hard counts chips instead.
WIN_CHANCE_STATES = 5000
#: How likely a player holding each piece is to swap when free to stand (``free_choice``):
#: what Hard reads into the others' choices. Most players let go of a piece below a 5 and
#: keep one above a 5 (Normal changes below a 6, the simple two-threshold rule below a 5),
#: but people err, so no choice rules a piece out.
CHANGE_LIKELIHOOD: dict[str, float] = {
    piece: 0.9 if RANK[piece] < RANK["5"] else 0.5 if piece == "5" else 0.1
    for piece in RANK}
#: Decks shuffled once per choice for the deals that follow a played-out round (a redeal
#: after fool over fool, then the next round's deal, which ends the play).
SPARE_DECKS = 3
#: A played-out round that has not ended after this many moves (redeals after redeals) is
#: left where it is.
PLAY_OUT_LIMIT = 400


def own_piece(view: SlabberjanView) -> str:
    """The piece a seated player holds (a view for a seat always has one while in play)."""
    piece = view["piece"]
    assert piece is not None, "a computer player sits at a seat"
    return piece


def normal_wants_change(piece: str | None) -> bool:
    """Normal's rule: change (swap or draw) a piece below a 6."""
    return piece is not None and RANK[piece] < NORMAL_BELOW


@cache
def win_chance(mine: int, others: tuple[int, ...]) -> float:
    """The chance that a player with ``mine`` chips outlasts players with ``others`` chips
    (sorted), if each round takes as many chips as :data:`PAYMENTS` says, from players
    chosen at random, and one who must pay with none is out (S11: unless all would be).

    Why Hard plays for this rather than for chips: what loses is being put out, and a chip
    is worth more the fewer one has and the fewer the others have; at 0 chips against
    players at 3 the game is mostly lost already, and taking a risk costs little.

    >>> round(win_chance(3, (3,)), 3), round(win_chance(0, (3, 3, 3)), 3) < 0.1
    (0.5, True)
    """
    if not others:
        return 1.0
    chips = (mine, *others)
    live = len(chips)
    stay = total = 0.0  # stay: the chance the chips stay as they are (all spared)
    for count, chance in enumerate(PAYMENTS[live], start=1):
        groups = list(combinations(range(live), count))
        each = chance / len(groups)
        for group in groups:
            if count == live and not any(chips):
                stay += each
                continue
            after = list(chips)
            for s in group:
                after[s] -= 1  # -1: put out
            if after[0] < 0:
                continue
            rest = tuple(sorted(c for c in after[1:] if c >= 0))
            total += each * win_chance(after[0], rest)
    return total / (1.0 - stay)


def clear(gap: float, squares: float, total: float, samples: int) -> bool:
    """Whether the weighted sum ``gap`` of one choice's cost less the other's over
    ``samples`` deals (weights summing to ``total``, ``squares`` the weighted sum of the
    squares) leaves no doubt which is cheaper: its mean at least :data:`CLEAR` standard
    errors from nought, or every deal alike."""
    mean = gap / total
    spread = squares / total - mean * mean
    if spread <= 1e-12:
        return True
    return mean * mean * samples >= CLEAR * CLEAR * spread


def win_chance_states(chips: Sequence[int]) -> int:
    """How many chip counts :func:`win_chance` may visit from ``chips`` (everyone's)."""
    top = max(chips) + 1
    return top * comb(top + len(chips) - 2, len(chips) - 1)


class SlabberjanPlayer(ComputerPlayer[SlabberjanView]):
    """A Slabberjan computer player; this class chooses as Normal does (it changes a piece
    below a 6), and the subclasses change how."""

    game = SPEC.name
    reads_events = False  # Normal and Easy decide from the view alone

    def observe(self, events: Sequence[dict[str, Any]]) -> None:
        """What a player remembers of the events; Normal and Easy remember nothing."""

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
        piece = own_piece(view)
        if piece == FOOL and sum(not p["out"] for p in view["players"]) == 2:
            # S10 at two seats: a fool in play makes both pay (fewer players than the line),
            # a tie; let it go and the other may be rid of it and leave us paying alone
            # (the exact solution of the small variant keeps it: docs/research.md)
            return False
        return normal_wants_change(piece)


class Easy(SlabberjanPlayer):
    """Close to a coin toss."""

    level = "easy"

    def wants_change(self, view: SlabberjanView, change: str) -> bool:
        return self.rng.random() < 0.5


class TwoThreshold(SlabberjanPlayer):
    """The simple rule Hard is measured against (``bench/bench_slabberjan_hard.py``; not a
    speed): swap a piece below ``swap_below``, draw as dealer below ``draw_below``.

    Two numbers are all it knows: a swap gives the piece to the left neighbour, so it lets
    a middling piece go only when it is low; the dealer's draw is the last change of the
    round, so the dealer draws a little more readily."""

    level = "normal"

    def __init__(self, seat: int, *, swap_below: str = "5", draw_below: str = "7",
                 seed: int | None = None) -> None:
        super().__init__(seat, seed=seed)
        self.swap_below, self.draw_below = RANK[swap_below], RANK[draw_below]

    def wants_change(self, view: SlabberjanView, change: str) -> bool:
        below = self.draw_below if change == "draw" else self.swap_below
        return RANK[own_piece(view)] < below


@dataclass
class DealMemory:
    """What one seat has seen of the deal under way, as facts about the *dealt* pieces.

    A piece never changes hands but by a swap (``player`` and ``target`` are public) or a
    cat's undo (everyone gets their dealt piece back), so the public swaps say, for every
    seat, whose dealt piece it holds now (:attr:`came_from`): a piece met in our own swap
    is that seat's dealt piece. Matadors never move, so an announced matador is its
    holder's dealt piece, and a seat that swapped or was swapped with was dealt a piece
    below the inn. The dealer acts last and a draw ends the round, so at any choice of ours
    no draw has happened yet this deal.

    >>> memory = DealMemory()
    >>> memory.see([{"type": "deal", "piece": "3"},
    ...             {"type": "swap", "player": 0, "target": 1, "gave": "3", "got": "9"},
    ...             {"type": "swap", "player": 1, "target": 2}], seat=0)
    >>> memory.dealt, memory.came_from, sorted(memory.plain)
    ({0: '3', 1: '9'}, {0: 1, 1: 2, 2: 0}, [0, 1, 2])
    """

    #: the seat saw this deal from its start
    started: bool = False
    #: seat -> its dealt piece, where known
    dealt: dict[int, str] = field(default_factory=dict)
    #: seat -> the seat whose dealt piece it holds now (itself when absent)
    came_from: dict[int, int] = field(default_factory=dict)
    #: seats known to have been dealt a piece below the inn
    plain: set[int] = field(default_factory=set)
    #: seat -> what it did this deal ("swap" or "stand"), in turn order (one turn each)
    acted: dict[int, str] = field(default_factory=dict)
    #: seat -> chips it paid since the deal (a cat's or knight's fine)
    paid: Counter[int] = field(default_factory=Counter)
    #: seats put out since the deal
    out: set[int] = field(default_factory=set)

    def forget(self) -> None:
        """A new deal: nothing of the last one holds."""
        self.started = False
        self.dealt, self.came_from, self.plain, self.acted = {}, {}, set(), {}
        self.paid, self.out = Counter(), set()

    def see(self, events: Sequence[dict[str, Any]], seat: int) -> None:
        """Takes in the events as ``seat`` sees them."""
        for e in events:
            kind = e["type"]
            if kind == "deal":
                self.forget()
                self.started = "piece" in e
                if self.started:
                    self.dealt[seat] = e["piece"]
            elif not self.started:
                continue
            elif kind == "swap":
                a, b = e["player"], e["target"]
                came = self.came_from
                came[a], came[b] = came.get(b, b), came.get(a, a)
                self.acted[a] = "swap"
                self.plain.update((a, b))
                if "got" in e:  # our own swap: we got the dealt piece of the seat it came from
                    self.dealt[came[seat]] = e["got"]
            elif kind == "no_swap":
                self.acted[e["player"]] = "swap"
                self.plain.add(e["player"])
            elif kind == "announce":
                if e.get("words") != FOOL_OVER_FOOL and e.get("holder") is not None:
                    self.acted[e["player"]] = "swap"
                    self.plain.add(e["player"])
                    self.dealt[e["holder"]] = e["piece"]
            elif kind == "stand":
                self.acted[e["player"]] = "stand"
            elif kind == "undo":
                self.came_from = {}
            elif kind == "pay":
                self.paid[e["player"]] += 1
            elif kind == "out":
                self.out.add(e["player"])


#: What Hard's own turn is charged at a live table: its playing out costs 3 to 5 ms of CPU
#: (median) at every table size, up to 11 ms at the 99th percentile
#: (``bench/bench_slabberjan_hard.py --time``; docs/security.md).
SAMPLED_TURN_COST = 5e-3


class Hard(SlabberjanPlayer):
    """Samples the hidden pieces and plays the round out with the game's own rules."""

    level = "hard"
    reads_events = True  # what it saw of the deal: its memory

    def __init__(self, seat: int, *, level: str | None = None, seed: int | None = None) -> None:
        super().__init__(seat, level=level, seed=seed)
        self.memory = DealMemory()

    def observe(self, events: Sequence[dict[str, Any]]) -> None:
        self.memory.see(events, self.seat)

    def cpu_cost(self, view: SlabberjanView) -> float:
        # its own turn plays rounds out: measured, about 5 ms at any table size
        return SAMPLED_TURN_COST if view["turn"] == self.seat else DECISION_COST

    def wants_change(self, view: SlabberjanView, change: str) -> bool:
        costs = self.expected_costs(view, change)
        if costs is None:  # it has not seen this deal from its start
            return normal_wants_change(own_piece(view))
        stand, move = costs
        return move < stand

    def expected_costs(self, view: SlabberjanView, change: str) -> tuple[float, float] | None:
        """What standing and ``change`` are expected to cost us over sampled deals played
        out (:meth:`_played_out`: the chance of winning lost, or chips); ``None`` if no
        deal agreeing with what we saw turned up (we did not see this deal from its start)."""
        memory = self.memory
        if not memory.started:
            return None
        players = view["players"]
        seats = [s for s, p in enumerate(players) if not p["out"] or s in memory.out]
        index = {s: i for i, s in enumerate(seats)}
        if len(seats) < 2 or view["dealer"] not in index:
            return None
        # A game of our own at the deal's start (its pieces are each sample's to write),
        # with decks stacked for the deals after it: a round played out ends in the next
        # deal, and a stacked deck costs a check where a fresh one costs a shuffle.
        pieces = VARIANT_PIECES[view.get("variant", "full")]  # the bag's pieces (option)
        spare = [list(pieces) for _ in range(SPARE_DECKS)]
        for order in spare:
            self.rng.shuffle(order)
        start = Slabberjan(len(seats), decks=[pieces, *spare], seed=self.rng.getrandbits(32),
                           options={"chips": 1, "dealer": index[view["dealer"]],
                                    "free_choice": view["free_choice"],
                                    "variant": view.get("variant", "full")})
        start.chips = [players[s]["chips"] + memory.paid[s] for s in seats]
        me = index[self.seat]
        change_action: Action = (Draw if change == "draw" else Swap)(me)
        live = [p["chips"] for p in players if not p["out"]]
        for_the_game = (len(live) in PAYMENTS
                        and win_chance_states(live) <= WIN_CHANCE_STATES)
        samples = max(MIN_SAMPLES, min(SAMPLES, MOVES_PER_CHOICE // len(seats)))
        enough = max(MIN_SAMPLES, samples // 4)
        stand_cost = move_cost = total = 0.0
        gap = gap_squares = 0.0  # the weighted sums of (move - stand) and its square
        done = 0
        for _ in range(3 * samples):  # a sampled deal that disagrees is drawn again
            sampled = self._deal_like_this(start, seats, index, view)
            if sampled is None:
                continue
            game, weight = sampled
            stand = self._played_out(game, Stand(me), seats, me, for_the_game)
            move = self._played_out(game, change_action, seats, me, for_the_game)
            stand_cost += weight * stand
            move_cost += weight * move
            gap += weight * (move - stand)
            gap_squares += weight * (move - stand) ** 2
            total += weight
            done += 1
            if done == samples:
                break
            if done >= enough and done % enough == 0 and clear(gap, gap_squares, total, done):
                break
        if not total:
            return None
        return stand_cost / total, move_cost / total

    def _deal_like_this(self, start: Slabberjan, seats: list[int], index: dict[int, int],
                        view: SlabberjanView) -> tuple[Slabberjan, float] | None:
        """A sampled deal that agrees with everything we saw, replayed to our turn, and its
        weight: how likely the others' free choices were with the pieces it gave them."""
        memory, rng = self.memory, self.rng
        n = len(seats)
        dealt: list[str | None] = [None] * n
        pool = Counter(VARIANT_PIECES[view.get("variant", "full")])
        for s, piece in memory.dealt.items():
            if s in index:
                dealt[index[s]] = piece
                pool[piece] -= 1
        if min(pool.values()) < 0:
            return None
        rest = list(pool.elements())
        rng.shuffle(rest)
        forced = not view["free_choice"]
        dealer = view["dealer"]
        # seats dealt a matador (a forced turn stood), then below the inn, then the rest
        matador = [i for i, s in enumerate(seats) if dealt[i] is None and forced
                   and s != dealer and memory.acted.get(s) == "stand"]
        plain = [i for i, s in enumerate(seats) if dealt[i] is None and s in memory.plain]
        for wanted, group in ((True, matador), (False, plain)):
            for i in group:
                j = next((j for j, p in enumerate(rest) if (p in MATADORS) == wanted), None)
                if j is None:
                    return None
                dealt[i] = rest.pop(j)
        hands = [rest.pop() if piece is None else piece for piece in dealt]
        game = start.clone()
        game.hands = list[str | None](hands)
        game.dealt = list[str | None](hands)
        game.bag = [*hands, *rest]  # the bag is what the players did not draw: rest
        # the deal's moves so far, each seat's in turn; a free choice weighs the sample by
        # how likely a player holding that piece was to choose so
        weight = 1.0
        while game.turn is not None and seats[game.turn] != self.seat:
            seat = game.turn
            did = memory.acted.get(seats[seat])
            if did is None:
                return None
            action = (Swap if did == "swap" else Stand)(seat)
            if game.why_illegal(action) is not None:
                return None
            if len(game.legal_actions(seat)) > 1:
                swaps = CHANGE_LIKELIHOOD[game.hands[seat] or FOOL]
                weight *= swaps if did == "swap" else 1.0 - swaps
            game.push(action)
        players = view["players"]
        if (game.deals != 1 or game.turn is None or game.bird != view["bird"]
                or game.hands[game.turn] != view["piece"]
                or any(game.shown[i] != players[s]["shown"] or game.out[i] != players[s]["out"]
                       or game.chips[i] != players[s]["chips"] for i, s in enumerate(seats))):
            return None  # a fool over fool, a matador where none was met, ...
        return game, weight

    def _played_out(self, game: Slabberjan, action: Action, seats: list[int],
                    me: int, for_the_game: bool) -> float:
        """What the round played on from ``game`` (left as it was) starting with ``action``
        costs us, everyone after us choosing as Normal: ``for_the_game``, the chance of
        winning the game it takes from us (:func:`win_chance` of the chips it leaves);
        else our chips lost, less the others' on average."""
        game = game.clone()
        before = list(game.chips)
        was_out = list(game.out)
        round_ = game.round
        game.push(action)
        for _ in range(PLAY_OUT_LIMIT):
            if game.winner is not None or game.round != round_:
                break
            seat = game.turn
            assert seat is not None
            legal = game.legal_actions(seat)
            pick = legal[0] if len(legal) == 1 or normal_wants_change(game.hands[seat]) \
                else legal[-1]
            game.push(pick)
        if for_the_game:
            if game.winner is not None:
                return 0.0 if game.winner == me else 1.0
            if game.out[me]:
                return 1.0
            rest = sorted(c for i, c in enumerate(game.chips) if i != me and not game.out[i])
            return 1.0 - win_chance(game.chips[me], tuple(rest))
        lost = [b - c + (ELIMINATION_COST if out and not gone else 0.0)
                for b, c, out, gone in zip(before, game.chips, game.out, was_out, strict=True)]
        others = [lost[i] for i in range(len(seats)) if i != me and not was_out[i]]
        return lost[me] - (sum(others) / len(others) if others else 0.0)


#: speed -> a maker of players at that speed: ``PLAYERS["hard"](seat, seed=1)``
PLAYERS: dict[str, PlayerMaker] = {
    level: partial(cls, level=level)
    for level, cls in (("easy", Easy), ("normal", SlabberjanPlayer), ("hard", Hard),
                       ("expert", Hard))}
