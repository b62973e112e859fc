"""Computer players for Slapjack: Easy, Normal and Hard, each a profile of human-like timing.

- Sees: the seat's ``view`` (pile size, top card, who flipped it, ``flips``, whose turn) and
  the public events; in Slapjack every seat sees the same (nobody sees any stack, J1).
- Decides: flip on its turn, and for every card that lands on top, once, whether to slap it
  and after what reaction time. That roll is remembered per card (``flips``), so being asked
  again about the same card never gives a player a second chance to slap or to miss.
- Chance: its own ``random.Random(seed)``; reaction times are a floor plus a log-normal tail,
  the usual shape of human simple reaction times.

The seed page's words: Easy "slaps slowly and often misses the Jack", Normal "a fair match
for a beginner", Hard "quick and rarely wrong" (Hard and Expert are never wrong: only their
speed is a person's). Each is a :class:`Profile`; the table in ``docs/bots.md`` is generated
from :data:`PROFILES`. Rulings: a slap names its card with ``at`` (J6); a Jack that nobody
can cover is always slapped (J8). J10's pause after a pile is taken is the game's pacing
(:data:`parlour.games.slapjack.SPEC`): the scheduler that runs every computer player holds
its flips to it, here and at live tables.

>>> bot = SlapjackPlayer(1, level="hard", seed=3)
>>> view = {"seat": 1, "players": [{"cards": 25, "out": False}, {"cards": 26, "out": False}],
...         "pile": 1, "top": "JS", "top_player": 0, "flips": 1, "turn": 1, "winner": None}
>>> d = bot.decide(view, [{"type": "flip", "player": 0, "card": "JS", "at": 1}])
>>> d.action, 0.1 < d.delay < 1.0
(Slap(player=1, at=1), True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from parlour.bots.base import REACTION_TIMES, ComputerPlayer, Decision, PlayerMaker, ReactionTime
from parlour.bots.person import Person
from parlour.games.slapjack import SPEC, Flip, Slap, SlapjackView, is_jack

__all__ = ["PLAYERS", "PROFILES", "SPEC", "SlapjackPlayer", "profile_table"]


@dataclass(frozen=True, slots=True)
class Profile:
    """How one speed of computer player slaps and flips (times in seconds)."""

    reaction_time: ReactionTime
    #: chance of not slapping a Jack at all (never for a Jack nobody can cover, J8)
    jack_miss: float
    #: chance of slapping a Queen or a King, and any other non-Jack, by mistake
    wrong_face: float
    wrong_other: float
    #: thinking time before a flip, uniform in [flip_min, flip_max]
    flip_min: float
    flip_max: float

    def reaction(self, rng: random.Random) -> float:
        return self.reaction_time.draw(rng)

    def flip_delay(self, rng: random.Random) -> float:
        return rng.uniform(self.flip_min, self.flip_max)

    def wrong_rate(self, card: str) -> float:
        return self.wrong_face if card[0] in "QK" else self.wrong_other


PROFILES: dict[str, Profile] = {
    "easy": Profile(REACTION_TIMES["easy"],
                    jack_miss=0.20, wrong_face=0.12, wrong_other=0.02,
                    flip_min=0.9, flip_max=1.5),
    "normal": Profile(REACTION_TIMES["normal"],
                      jack_miss=0.05, wrong_face=0.05, wrong_other=0.01,
                      flip_min=0.8, flip_max=1.2),
    # Hard is the best player at its speed: its reaction times are the profile a person
    # races against, but a missed Jack or a wrong slap is a decision no player should
    # make (issue 19: a rule that slaps every Jack and nothing else, at Hard's own
    # reaction times, beat the Hard that missed 3% of Jacks in 56% of games). So it never
    # misses a Jack and never slaps anything else; Expert is Hard's judgement, quicker.
    "hard": Profile(REACTION_TIMES["hard"],
                    jack_miss=0.0, wrong_face=0.0, wrong_other=0.0,
                    flip_min=0.7, flip_max=1.0),
    # beyond the rules page: for the quickest people
    "expert": Profile(REACTION_TIMES["expert"],
                      jack_miss=0.0, wrong_face=0.0, wrong_other=0.0,
                      flip_min=0.6, flip_max=0.9),
}


def profile_table() -> str:
    """The Markdown table of :data:`PROFILES` that ``docs/bots.md`` publishes."""
    rows = ["| speed | reaction floor | reaction median | spread | misses a Jack "
            "| wrong slap on Q, K | on other cards | think before a flip | after a take (J10) |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    pause = SPEC.pacing.pause
    for level, p in PROFILES.items():
        rt = p.reaction_time
        rows.append(f"| {level} | {rt.floor:.2f} s | {rt.median:.2f} s "
                    f"| {rt.spread:.2f} | {p.jack_miss:.0%} | {p.wrong_face:.1%} "
                    f"| {p.wrong_other:.1%} | {p.flip_min:.1f}-{p.flip_max:.1f} s "
                    f"| {pause.get(level, 0.0):.1f} s |")
    return "\n".join(rows) + "\n"


class SlapjackPlayer(ComputerPlayer[SlapjackView]):
    """A Slapjack computer player; its speed (``level``) picks its :class:`Profile`."""

    game = SPEC.name

    def __init__(self, seat: int, *, level: str | None = None, seed: int | None = None) -> None:
        super().__init__(seat, level=level, seed=seed)
        self.profile = PROFILES[self.level]
        self._card_at = -1  # the `flips` of the card the slap plan below is about
        self._slap_after: float | None = None  # None: leave that card alone
        self._forced = False  # the plan is a J8 slap (always, whatever the profile)

    def decide(self, view: SlapjackView, events: Sequence[dict[str, Any]]) -> Decision | None:
        me = self.seat
        if view["winner"] is not None or view["players"][me]["out"]:
            return None
        flips: int = view["flips"]
        top: str | None = view["top"]
        for event in events:
            # Our own slap has been carried out (a wrong one: a right one ends the card):
            # one slap per card is all anyone gets.
            if event.get("player") == me and (
                event["type"] == "wrong_slap"
                or (event["type"] == "slap_ignored" and event.get("at") == self._card_at)
            ):
                self._slap_after = None
        if top is not None and self._card_at != flips:
            self._plan(top, view["turn"] is None, flips)
        elif top is not None and is_jack(top) and view["turn"] is None and not self._forced:
            self._plan(top, True, flips)  # the Jack became uncoverable after we looked (J8)
        slap = self._slap_after if top is not None else None
        flip: float | None = None
        if view["turn"] == me:
            flip = self.profile.flip_delay(self.rng)
        jack = top is not None and is_jack(top)
        if slap is not None and (flip is None or jack or slap <= flip):
            return Decision(Slap(me, at=flips), slap)
        if flip is not None:
            return Decision(Flip(me), flip)
        return None

    def _plan(self, top: str, uncoverable: bool, flips: int) -> None:
        """Rolls, once per card on top, whether and when this player slaps it."""
        p, rng = self.profile, self.rng
        self._card_at = flips
        self._forced = False
        reaction = p.reaction(rng)
        if is_jack(top):
            self._forced = uncoverable
            hit = uncoverable or rng.random() >= p.jack_miss
        else:
            hit = rng.random() < p.wrong_rate(top)
        self._slap_after = reaction if hit else None


#: speed -> a maker of players at that speed: ``PLAYERS["hard"](seat, seed=1)``
PLAYERS: dict[str, PlayerMaker] = {
    level: partial(SlapjackPlayer, level=level) for level in PROFILES}


class SlapjackPerson(SlapjackPlayer):
    """A modelled person at Slapjack (:mod:`parlour.bots.person`): Normal's flips, the
    person's slaps."""

    def __init__(self, seat: int, *, person: Person, seed: int | None = None) -> None:
        super().__init__(seat, level="normal", seed=seed)
        self.person = person
        self.level = person.name  # no computer's pause (J10) holds a person's flips
        normal = PROFILES["normal"]
        self.profile = Profile(person.reaction_time, jack_miss=person.miss,
                               wrong_face=person.wrong, wrong_other=person.wrong,
                               flip_min=normal.flip_min, flip_max=normal.flip_max)

    def decide(self, view: SlapjackView, events: Sequence[dict[str, Any]]) -> Decision | None:
        return self.person.arriving(super().decide(view, events))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat}, person={self.person.name!r})"


#: The modelled person's seat at this game.
PERSON = SlapjackPerson
