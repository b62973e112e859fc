"""Computer players for Splunk: where to play, when to call out, and the slap races.

- Sees: the public view, which is every seat's view in Splunk (nobody sees a pile or a
  face-down base): each stack's face-up cards and count, the pile sizes, the latest play,
  whether a call or a slap is open; and the public events.
- Decides: on its turn, the stack for its blind card (P3); after the opponent's play,
  whether to call it out (P4); after any play that opens a slap (pair, sandwich, joker;
  P5), whether and how fast to slap, aimed with ``at`` (the view's ``plays``). Like
  Slapjack's players, each play is judged once: being asked again never re-rolls a slap.
- Chance: its own ``random.Random(seed)``; reaction times as in Slapjack, a floor plus a
  log-normal tail, and a thinking time before a play or a call.

Levels:

- Easy uses a crude threshold: it calls when the face-up cards of the stack add up to 16
  or more, and plays on a random stack whose face-up total is at most 11. It slaps slowly,
  often misses a slap and sometimes slaps a stack that has nothing to slap.
- Normal adds an average base (about 6.5) to the face-up total and calls when that is over
  21; it plays on the stack with the lowest face-up total.
- Hard counts cards (:class:`CardMemory`): every card shown stays known as it moves, so a
  stack's face-down base, or its own next card, is often one it has seen go by (a taken
  stack goes under a pile in stack order, P4, and comes back as plays and new bases). A
  card never shown is any card not yet seen, all equally likely, which gives the exact
  chance that a stack is over 21 given everything public. It calls when that chance is
  over one half (a call moves the stack to whichever side is wrong, so a coin flip is where
  it pays), and plays where the expected number of cards a call would give it back is
  smallest. It is quick and rarely wrong at slaps. Seated in a game already under way (a
  person left), it has seen nothing yet and counts only the cards face up.

When the opponent has just played their last card every level but Easy calls or slaps,
whatever the odds: letting the play stand loses the game (P6).

>>> bot = Hard(0, level="hard", seed=1)
>>> view = {"seat": 0, "players": [{"cards": 20}, {"cards": 20}], "jokers": False,
...         "stacks": [{"cards": 4, "base": True, "up": ["KS", "9D", "5C"], "up_total": 24,
...                     "call_open": True, "slap": None},
...                    {"cards": 1, "base": True, "up": [], "up_total": 0,
...                     "call_open": False, "slap": None}] * 2,
...         "turn": 0, "plays": 9, "last_play": {"stack": 0, "player": 1}, "call_open": True,
...         "slap_open": None, "slap_kind": None, "winner": None}
>>> bot.decide(view, []).action
Call(player=0)
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from parlour.bots.base import REACTION_TIMES, ComputerPlayer, Decision, PlayerMaker, ReactionTime
from parlour.bots.person import Person
from parlour.engine.cards import standard_deck
from parlour.games.splunk import (
    SPEC,
    STACKS,
    VARIANTS,
    Call,
    LastPlay,
    Play,
    Slap,
    SplunkView,
    StackView,
    value21,
    variant_deck,
)

__all__ = ["PLAYERS", "PROFILES", "SPEC", "CardMemory", "Easy", "Hard", "SplunkPlayer",
           "profile_table"]


@dataclass(frozen=True, slots=True)
class Profile:
    """How one speed of computer player slaps, calls and plays (times in seconds)."""

    reaction_time: ReactionTime
    #: chance of not slapping a pair, sandwich or joker at all
    slap_miss: float
    #: chance of slapping the latest play when it makes nothing
    wrong_slap: float
    #: thinking time before a play or a call, uniform in [think_min, think_max]
    think_min: float
    think_max: float

    def reaction(self, rng: random.Random) -> float:
        return self.reaction_time.draw(rng)

    def think(self, rng: random.Random) -> float:
        return rng.uniform(self.think_min, self.think_max)


PROFILES: dict[str, Profile] = {
    "easy": Profile(REACTION_TIMES["easy"], slap_miss=0.25, wrong_slap=0.03,
                    think_min=1.0, think_max=2.0),
    "normal": Profile(REACTION_TIMES["normal"], slap_miss=0.05, wrong_slap=0.01,
                      think_min=0.8, think_max=1.5),
    "hard": Profile(REACTION_TIMES["hard"], slap_miss=0.03, wrong_slap=0.002,
                    think_min=0.6, think_max=1.1),
    # beyond the rules page: Hard's judgement, the quickest hands
    "expert": Profile(REACTION_TIMES["expert"], slap_miss=0.02, wrong_slap=0.001,
                      think_min=0.5, think_max=1.0),
}
EASY_CALL_AT = 16
EASY_SAFE_UP_TO = 11
NORMAL_BASE = 6.5


def profile_table() -> str:
    """The Markdown table of :data:`PROFILES` that ``docs/bots.md`` publishes."""
    rows = ["| speed | reaction floor | reaction median | spread | misses a slap "
            "| wrong slap | think before a play or call |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for level, p in PROFILES.items():
        rt = p.reaction_time
        rows.append(f"| {level} | {rt.floor:.2f} s | {rt.median:.2f} s "
                    f"| {rt.spread:.2f} | {p.slap_miss:.0%} | {p.wrong_slap:.1%} "
                    f"| {p.think_min:.1f}-{p.think_max:.1f} s |")
    return "\n".join(rows) + "\n"


DECK_VALUES = Counter(value21(c) for c in standard_deck())  # 1..9: 4 each, 10: 16
#: option variant -> its deck's values without jokers (the full one is DECK_VALUES)
VARIANT_VALUES = {variant: Counter(value21(c) for c in variant_deck(variant, False))
                  for variant in VARIANTS}


def target_of(view: SplunkView) -> int:
    """P4's line of the game the view shows (21 in the full game)."""
    return view.get("target", 21)


def unseen_values(view: SplunkView) -> Counter[int]:
    """How many cards of each count are not face up on a stack: each may be a base or a
    next card.

    >>> sum(unseen_values({"jokers": False, "stacks": [{"up": ["KS", "2D"]}]}).values())
    50
    """
    pool = VARIANT_VALUES[view.get("variant", "full")].copy()
    if view["jokers"]:
        pool[0] += 2
    for stack in view["stacks"]:
        pool.subtract(value21(card) for card in stack["up"])
    return pool


def at_least(values: Counter[int]) -> list[int]:
    """``at_least(values)[k]``: how many of the cards ``values`` counts (count -> how many)
    count ``k`` or more, for ``k`` from 0 (all of them) to 11 (none: counts are 0..10).

    >>> at_least(Counter({10: 2, 1: 2}))
    [4, 4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0]
    """
    tails = [0] * 12
    for v, c in values.items():
        tails[v] += c
    for k in range(10, -1, -1):
        tails[k] += tails[k + 1]
    return tails


def pairs_at_least(values: Counter[int], need: int, tails: list[int] | None = None) -> int:
    """How many ordered pairs (a, b) of two different cards of ``values`` (count -> how
    many) count ``need`` or more together; ``tails`` is :func:`at_least` of ``values``, if
    the caller keeps it.

    >>> pairs_at_least(Counter({10: 2, 1: 2}), 20)  # the two tens, either way round
    2
    """
    if tails is None:
        tails = at_least(values)
    over = 0
    for a, ca in values.items():
        rest = need - a  # b must count this much or more
        if rest <= 10:
            over += ca * (tails[max(rest, 0)] - (a >= rest))
    return over


def chance_over(up_total: int, values: Counter[int], two: bool = False,
                tails: list[int] | None = None, target: int = 21) -> float:
    """The chance that base + ``up_total`` (+ one more unseen card, if ``two``) is over
    ``target`` (21), every unseen card (``values``: count -> how many) being equally
    likely. ``tails`` is :func:`at_least` of ``values``, if the caller keeps it (it is made
    here otherwise).

    >>> chance_over(12, Counter({10: 2, 1: 2}))
    0.5
    >>> chance_over(5, Counter({10: 2, 1: 2}), two=True)  # only 10 + 10 goes over
    0.16666666666666666
    """
    if tails is None:
        tails = at_least(values)
    n = tails[0]
    if not two:
        # the cards that count 22 - up_total or more; whole numbers, so the quotient is
        # exactly the one of the count made card by card
        return tails[min(max(target + 1 - up_total, 0), 11)] / n if n else 0.0
    if n < 2:
        return 0.0
    # base and next card are two different unseen cards: count ordered pairs (a, b)
    return pairs_at_least(values, target + 1 - up_total, tails) / (n * (n - 1))


# CardMemory keeps at_least(unseen) and the unordered pairs_at_least(unseen, need) of every
# need up to date as cards are shown, each packed into one integer, _BITS bits a count
# (field k holds the count for k): a card shown is then a few operations on two integers.
# Working them out afresh (the 11 counts of pairs_at_least for each price asked, after
# most plays) was a fifth of Hard's decision, and lists of counts kept up to date one by
# one cost nearly as much. No field overflows: 54 cards make 1431 unordered pairs.
_BITS = 12
_FIELD = (1 << _BITS) - 1
#: two cards count 0 to 20 together: pairs_at_least answers alike for a need up to 0, and
#: for a need from 21 on (no pair)
_NEEDS = 22
#: _RUN[k]: 1 in each of fields 0 .. k - 1
_RUN = [sum(1 << (_BITS * i) for i in range(k)) for k in range(_NEEDS + 1)]
_ALL_NEEDS = _RUN[_NEEDS] * _FIELD


def _packed(counts: Sequence[int]) -> int:
    return sum(c << (_BITS * k) for k, c in enumerate(counts))


def _deck_counts(variant: str, jokers: bool) -> tuple[Counter[int], int, int]:
    """A whole deck's values (count -> how many), with :func:`at_least` of them and the
    unordered pairs of :func:`pairs_at_least` for every need, packed: a deal's memory."""
    values = VARIANT_VALUES[variant].copy()
    if jokers:
        values[0] += 2
    tails = at_least(values)
    pairs = [pairs_at_least(values, need, tails) // 2 for need in range(_NEEDS)]
    return values, _packed(tails), _packed(pairs)


_DECK_COUNTS = {(variant, jokers): _deck_counts(variant, jokers)
                for variant in VARIANTS for jokers in (False, True)}


class CardMemory:
    """Where every card that has been shown is now, from the public events alone.

    Every card shown (played face up, or a base turned over by a call) stays known as it
    moves: a taken stack goes under a pile in stack order (P4), so its cards come back known,
    in that order, as plays and as new bases. A card never shown is equally likely to be any
    of the cards not yet seen (the deal is a uniform shuffle and no event depends on an unseen
    card), so :meth:`chance_over` is the exact chance that a stack is over 21 given
    everything public. Hard plays with it; ``docs/bots.md`` measures every caller against it
    (:mod:`parlour.sim.calibrate`).

    >>> memory = CardMemory()
    >>> memory.see([{"type": "deal", "cards": [26, 26], "jokers": False}]
    ...            + [{"type": "base", "player": s // 2, "stack": s} for s in range(4)])
    >>> memory.see([{"type": "play", "player": 0, "stack": 0, "card": "KS"},
    ...             {"type": "play", "player": 1, "stack": 0, "card": "5D"}])
    >>> memory.chance_over(0)  # a base of 7 or more: 27 of the 50 cards not seen
    0.54
    >>> memory.see([{"type": "call", "stack": 0, "base": "9C", "cards": ["9C", "KS", "5D"],
    ...              "taker": 1}, {"type": "base", "player": 0, "stack": 0}])
    >>> list(memory.piles[1])[-3:]  # known, at the bottom of the taker's pile
    ['9C', 'KS', '5D']
    """

    def __init__(self, variant: str = "full") -> None:
        #: option variant: the deck dealt and P4's line (the events do not say)
        self.variant = variant
        self.target = VARIANTS[variant][1]
        #: it saw the deal: what it knows is the whole game's
        self.started = False
        self.piles: list[deque[str | None]] = [deque(), deque()]
        #: each stack bottom first: its base (None while unseen), then the face-up cards
        self.stacks: list[list[str | None]] = [[] for _ in range(STACKS)]
        self.up_total = [0] * STACKS
        #: count -> how many unseen cards have it
        self.unseen: Counter[int] = Counter()
        # at_least(unseen) and the unordered pairs_at_least(unseen, need) for every need,
        # packed (see _BITS): Hard prices every stack each time it is asked on its turn,
        # and most plays show a card it had not seen
        self._tails = 0
        self._pairs = 0
        # the view agrees() last answered for, and its answer, until the next event: Hard
        # asks it for a call and again for a play on the same view
        self._agreed: tuple[SplunkView, bool] | None = None

    def see(self, events: Sequence[dict[str, Any]]) -> None:
        self._agreed = None
        piles, stacks, up_total = self.piles, self.stacks, self.up_total
        for e in events:
            kind = e["type"]
            if kind == "play":
                if not self.started:
                    continue
                card: str = e["card"]
                s = e["stack"]
                if piles[e["player"]].popleft() is None:
                    self._shown(value21(card))
                stacks[s].append(card)
                up_total[s] += value21(card)
            elif kind == "base":
                if self.started:
                    s = e["stack"]
                    stacks[s] = [piles[e["player"]].popleft()]
                    up_total[s] = 0
            elif kind in ("call", "slap", "wrong_slap"):
                if not self.started:
                    continue
                s = e["stack"]
                stack = stacks[s]
                if kind == "call" and stack and stack[0] is None:
                    stack[0] = e["base"]
                    self._shown(value21(e["base"]))
                piles[e["taker"]].extend(stack)
                stacks[s] = []
                up_total[s] = 0
            elif kind == "deal":
                self.started = True
                self.piles = piles = [deque([None] * n) for n in e["cards"]]
                self.stacks = stacks = [[] for _ in range(STACKS)]
                self.up_total = up_total = [0] * STACKS
                values, self._tails, self._pairs = _DECK_COUNTS[self.variant,
                                                                bool(e["jokers"])]
                self.unseen = values.copy()

    def _shown(self, value: int) -> None:
        """A card never seen before is shown: one card of ``value`` is no longer unseen."""
        self.unseen[value] -= 1
        # one card fewer counts 0 .. value or more
        tails = self._tails = self._tails - _RUN[value + 1]
        # and it no longer pairs with any other unseen card: each need loses the others that
        # count need - value or more, at_least(max(need - value, 0)) of the cards left, so
        # tails moved up by value fields (cut at the last need), the fields below value
        # taking its field 0 (every card)
        self._pairs -= (((tails << (_BITS * value)) & _ALL_NEEDS)
                        + (tails & _FIELD) * _RUN[value])

    def agrees(self, view: SplunkView) -> bool:
        """Whether it saw the whole game that ``view`` shows (the deal included)."""
        agreed = self._agreed
        if agreed is not None and agreed[0] is view:
            return agreed[1]
        agrees = self._agrees(view)
        self._agreed = (view, agrees)
        return agrees

    def _agrees(self, view: SplunkView) -> bool:
        if not self.started:
            return False
        # unpacked, not zipped (zip(strict=True) was most of its time): two players, four
        # stacks (P2), and a view of any other number fails to unpack as it failed the zip
        (p0, p1), (v0, v1) = self.piles, view["players"]
        (s0, s1, s2, s3), (w0, w1, w2, w3) = self.stacks, view["stacks"]
        return (len(p0) == v0["cards"] and len(p1) == v1["cards"]
                and len(s0) == w0["cards"] and len(s1) == w1["cards"]
                and len(s2) == w2["cards"] and len(s3) == w3["cards"])

    def base(self, stack: int) -> str | None:
        """The face-down base of ``stack``, if it has been seen."""
        cards = self.stacks[stack]
        return cards[0] if cards else None

    def chance_over(self, stack: int, plus: str | None = None, *,
                    blind: bool = False) -> float:
        """The exact chance that ``stack`` is over the line (21) now, or once ``plus`` (a
        known card) or, with ``blind``, one more unseen card is on it."""
        total = self.up_total[stack] + (value21(plus) if plus is not None else 0)
        base = self.base(stack)
        two = blind
        if base is not None:
            total += value21(base)
            if not blind:
                return float(total > self.target)
            two = False
        # chance_over(total, self.unseen, two) from the counts kept (whole numbers, the
        # same ones, divided alike: the same float)
        # (comparisons, not min and max: two calls were a third of this)
        tails = self._tails
        n = tails & _FIELD
        line = self.target + 1
        need = line - total if total < line else 0
        if not two:
            if not n:
                return 0.0
            return (tails >> (_BITS * need) & _FIELD) / n if need <= 11 else 0.0
        if n < 2:
            return 0.0
        if need >= _NEEDS:
            return 0.0
        return 2 * (self._pairs >> (_BITS * need) & _FIELD) / (n * (n - 1))


class SplunkPlayer(ComputerPlayer[SplunkView]):
    """A Splunk computer player: its speed (``level``) picks its :class:`Profile`; this class
    calls and plays as Normal does (an average base added to what is face up), and the
    subclasses change how."""

    game = SPEC.name

    def __init__(self, seat: int, *, level: str | None = None, seed: int | None = None) -> None:
        super().__init__(seat, level=level, seed=seed)
        self.profile = PROFILES[self.level]
        self._play_at = -1  # the `plays` of the latest play, judged once
        self._slap_after: float | None = None
        self._slap_stack = 0
        self._slap_wrong = False  # the planned slap is a mistake (the play makes nothing)
        self._call = False
        # its calls and plays, each made once: an action is a value, and making one (a
        # frozen dataclass) cost as much as the rest of a decision not to play
        self._call_action = Call(seat)
        self._plays: dict[int, Play] = {}

    def decide(self, view: SplunkView, events: Sequence[dict[str, Any]]) -> Decision | None:
        me = self.seat
        if view["winner"] is not None:
            return None
        plays: int = view["plays"]
        for event in events:
            # our slap on this play was carried out (a wrong one, or one that came too
            # late): no second slap on the same play
            if event.get("player") == me and event["type"] in ("wrong_slap", "slap_ignored"):
                self._slap_after = None
        last = view["last_play"]
        if last is not None and plays != self._play_at:
            self._judge(view, last)
        p = self.profile
        slap_still_open = view["slap_open"] is not None or (self._slap_wrong and view["call_open"])
        if self._slap_after is not None and slap_still_open:
            return Decision(Slap(me, self._slap_stack, at=plays), self._slap_after)
        if self._call and last is not None and view["stacks"][last["stack"]]["call_open"]:
            return Decision(self._call_action, p.think(self.rng))
        if view["turn"] == me:
            stack = self.choose_stack(view)
            play = self._plays.get(stack)
            if play is None:
                play = self._plays[stack] = Play(me, stack)
            return Decision(play, p.think(self.rng))
        return None

    def _judge(self, view: SplunkView, last: LastPlay) -> None:
        """Once per play: slap it (and how fast), call it out?"""
        p, rng = self.profile, self.rng
        self._play_at = view["plays"]
        self._slap_after = None
        self._slap_wrong = False
        self._call = False
        reaction = p.reaction(rng)
        if view["slap_open"] is not None:
            if rng.random() >= p.slap_miss:
                self._slap_after = reaction
                self._slap_stack = view["slap_open"]
        elif view["call_open"] and rng.random() < p.wrong_slap:
            self._slap_after, self._slap_stack, self._slap_wrong = reaction, last["stack"], True
        stack = view["stacks"][last["stack"]]
        if stack["call_open"]:  # the play is the opponent's, and may be called out
            last_card = view["players"][last["player"]]["cards"] == 0
            self._call = self.wants_call(view, stack) or (last_card and self.level != "easy")

    def wants_call(self, view: SplunkView, stack: StackView) -> bool:
        # an average base of the full deck (6.5 of 21), scaled to the variant's line
        target = target_of(view)
        return bool(stack["up_total"] + NORMAL_BASE * target / 21 > target)

    def choose_stack(self, view: SplunkView) -> int:
        totals = [(s["up_total"], self.rng.random(), i) for i, s in enumerate(view["stacks"])]
        return min(totals)[2]


class Easy(SplunkPlayer):
    """A crude threshold; slow and often wrong at slaps."""

    level = "easy"

    def wants_call(self, view: SplunkView, stack: StackView) -> bool:
        return bool(stack["up_total"] >= EASY_CALL_AT * target_of(view) / 21)

    def choose_stack(self, view: SplunkView) -> int:
        # a loop, not a list comprehension (a function made and called each time)
        safe = []
        for i, s in enumerate(view["stacks"]):
            if s["up_total"] <= EASY_SAFE_UP_TO * target_of(view) / 21:
                safe.append(i)
        return self.rng.choice(safe or list(range(STACKS)))


class Hard(SplunkPlayer):
    """Counts every card it has seen (:class:`CardMemory`); quick and rarely wrong at slaps."""

    level = "hard"

    def __init__(self, seat: int, *, level: str | None = None, seed: int | None = None) -> None:
        super().__init__(seat, level=level, seed=seed)
        self.memory = CardMemory()

    def decide(self, view: SplunkView, events: Sequence[dict[str, Any]]) -> Decision | None:
        variant = view.get("variant", "full")
        if variant != self.memory.variant:  # its deck, before it reads the deal
            self.memory = CardMemory(variant)
        self.memory.see(events)
        return super().decide(view, events)

    def _counting(self, view: SplunkView) -> bool:
        return self.memory.agrees(view)

    def wants_call(self, view: SplunkView, stack: StackView) -> bool:
        last = view["last_play"]
        if last is not None and self._counting(view):
            return self.memory.chance_over(last["stack"]) > 0.5
        return chance_over(stack["up_total"], unseen_values(view),
                           target=target_of(view)) > 0.5

    def choose_stack(self, view: SplunkView) -> int:
        counting = self._counting(view)
        # what is not face up is read only when not counting (the memory knows more), so
        # it is made only then: it is a Counter built afresh on every turn
        values = None if counting else unseen_values(view)
        pile = self.memory.piles[self.seat]
        mine = pile[0] if counting and pile else None  # our next card, if we have seen it
        best: tuple[float, float, int] | None = None
        for i, stack in enumerate(view["stacks"]):
            # a call that finds it over 21 gives us the stack and our card back
            if values is None:
                over = self.memory.chance_over(i, mine, blind=mine is None)
            else:
                over = chance_over(stack["up_total"], values, two=True,
                                   target=target_of(view))
            key = (over * (stack["cards"] + 1), self.rng.random(), i)
            if best is None or key < best:
                best = key
        assert best is not None
        return best[2]


#: speed -> a maker of players at that speed: ``PLAYERS["hard"](seat, seed=1)``
PLAYERS: dict[str, PlayerMaker] = {
    level: partial(cls, level=level)
    for level, cls in (("easy", Easy), ("normal", SplunkPlayer), ("hard", Hard),
                       ("expert", Hard))}


class SplunkPerson(SplunkPlayer):
    """A modelled person at Splunk (:mod:`parlour.bots.person`): Normal's plays and calls,
    the person's slaps."""

    def __init__(self, seat: int, *, person: Person, seed: int | None = None) -> None:
        super().__init__(seat, level="normal", seed=seed)
        self.person = person
        self.level = person.name
        normal = PROFILES["normal"]
        self.profile = Profile(person.reaction_time, slap_miss=person.miss,
                               wrong_slap=person.wrong, think_min=normal.think_min,
                               think_max=normal.think_max)

    def decide(self, view: SplunkView, events: Sequence[dict[str, Any]]) -> Decision | None:
        return self.person.arriving(super().decide(view, events))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat}, person={self.person.name!r})"


#: The modelled person's seat at this game.
PERSON = SplunkPerson
