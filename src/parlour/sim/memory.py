"""A perfect memory of a Splunk game's public events: the yardstick that ``docs/bots.md``
holds Hard's calls against (:mod:`parlour.sim.calibrate`)."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from typing import Any

from parlour.bots.splunk import DECK_VALUES, chance_over
from parlour.games.splunk import STACKS, value21

__all__ = ["Memory"]


class Memory:
    """A perfect memory of the public events: where every card that has been seen is now.

    No computer player uses it (with it, even Expert's judgement would be beyond the
    quickest person's); ``docs/bots.md`` measures Hard's calls against it
    (:mod:`parlour.sim.calibrate`).

    Every card shown (played face up, or a base turned over by a call) stays known as it
    moves: a taken stack goes under a pile in stack order (P4), so its cards come back known,
    in that order, as plays and as new bases. A card never shown is equally likely to be any
    of the cards not yet seen (the deal is a uniform shuffle and no event depends on an unseen
    card), so this gives the exact chance that a stack is over 21 given everything public.

    >>> memory = Memory()
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

    def __init__(self) -> None:
        self.started = False
        self.piles: list[deque[str | None]] = [deque(), deque()]
        #: each stack bottom first: its base (None while unseen), then the face-up cards
        self.stacks: list[list[str | None]] = [[] for _ in range(STACKS)]
        self.up_total = [0] * STACKS
        #: count -> how many unseen cards have it
        self.unseen: Counter[int] = Counter()

    def see(self, events: Sequence[dict[str, Any]]) -> None:
        piles, stacks, up_total, unseen = self.piles, self.stacks, self.up_total, self.unseen
        for e in events:
            kind = e["type"]
            if kind == "play":
                if not self.started:
                    continue
                card: str = e["card"]
                s = e["stack"]
                if piles[e["player"]].popleft() is None:
                    unseen[value21(card)] -= 1
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
                    unseen[value21(e["base"])] -= 1
                piles[e["taker"]].extend(stack)
                stacks[s] = []
                up_total[s] = 0
            elif kind == "deal":
                self.started = True
                self.piles = piles = [deque([None] * n) for n in e["cards"]]
                self.stacks = stacks = [[] for _ in range(STACKS)]
                self.up_total = up_total = [0] * STACKS
                self.unseen = unseen = DECK_VALUES.copy()
                if e["jokers"]:
                    unseen[0] += 2

    def chance_over(self, stack: int) -> float:
        """The exact chance that ``stack`` is over 21 now."""
        cards = self.stacks[stack]
        base = cards[0] if cards else None
        if base is not None:
            return float(self.up_total[stack] + value21(base) > 21)
        return chance_over(self.up_total[stack], self.unseen)
