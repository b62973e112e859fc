"""What a live table needs to know about each game beyond its rules: seats, speed, `at`.

The rules engine knows nothing of the clock. A live table does, and a few facts about a game
matter only there: how many seats its page offers, which actions carry ``at`` (and which view
key counts the moves it refers to), and which computer actions must wait a moment after some
event so that a person can see what happened (ruling J10: after a pile is taken, computer
players wait before flipping). Adding a game to the web means adding a :class:`Pacing` here.

>>> PACING["slapjack"].pause_for("hard") < PACING["slapjack"].pause_for("easy")
True
>>> PACING["slapjack"].seats
(2, 4)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from parlour.bots.slapjack import PROFILES as SLAPJACK_PROFILES


@dataclass(frozen=True)
class Pacing:
    """The live-table facts of one game."""

    seats: tuple[int, int]
    """Fewest and most players the page seats (a person and computer players)."""
    at_field: str | None = None
    """The view key that an action's ``at`` refers to (Slapjack: ``flips``)."""
    after: frozenset[str] = frozenset()
    """Event types after which computer players hold back some actions..."""
    held: frozenset[str] = frozenset()
    """...these action types..."""
    pause: Mapping[str, float] = field(default_factory=dict)
    """...for this many seconds, by level."""

    def pause_for(self, level: str | None) -> float:
        if level is None:
            return 0.0
        return self.pause.get(level, 0.0)


PACING: dict[str, Pacing] = {
    # J10: after a pile is taken the next flip waits a moment, longer on the easier speeds,
    # so that nobody can bury a Jack faster than a person can see it. The Slapjack players
    # keep this pause themselves; the table holds any computer player at the seat to the
    # same numbers, so there is one figure per speed.
    "slapjack": Pacing(
        seats=(2, 4),
        at_field="flips",
        after=frozenset({"take"}),
        held=frozenset({"flip"}),
        pause={level: profile.after_take for level, profile in SLAPJACK_PROFILES.items()},
    ),
    # After a call or a slap (right or wrong) the stack changes hands and a new base goes
    # down; the next play waits long enough for a person to read who took what, and to see
    # the new base before a card covers it. Slaps and calls are never held: they are races.
    "splunk": Pacing(
        seats=(2, 2),
        at_field="plays",
        after=frozenset({"call", "slap", "wrong_slap"}),
        held=frozenset({"play"}),
        pause={"easy": 2.2, "normal": 1.7, "hard": 1.2},
    ),
    # Slabberjan is turn-based (no `at`): every turn is a computer's own thinking time. After
    # a reveal (the end of a round: who pays, who is out) and after a matador's announcement,
    # the next computer move waits long enough for a person to read the table. A test lobby
    # passes its own Pacing with short pauses (and quick players) to end games fast.
    "slabberjan": Pacing(
        seats=(2, 42),
        after=frozenset({"reveal", "announce"}),
        held=frozenset({"swap", "stand", "draw"}),
        pause={"easy": 3.0, "normal": 2.4, "hard": 1.8},
    ),
}
