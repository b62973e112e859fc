"""Pebbles, a toy game for the tests of what every game shares (legality, a draw): small
enough to read in one go, and built as a game module is, on :class:`parlour.engine.Game`.

Two to four players take turns taking one to three pebbles from one pile (option
``pebbles``); whoever takes the last one wins. Anyone still playing may ``knock`` at any
time, stamped with the takes made so far: a knock changes nothing and says so (a stale one,
aimed at an earlier take, is legal too). With two pebbles or fewer left, the seat whose
turn it is may call a ``truce`` instead of taking, and the game is a draw.

It is registered in :data:`parlour.games.GAMES` only by the tests that need it, for their
duration.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from parlour.bots.base import ComputerPlayer, Decision
from parlour.engine import Action, Event, Game, GameSpec, Option, Outcome, Termination, parse_action
from parlour.engine.game import fast_path


class Take(Action, kind="take"):
    """Take ``count`` pebbles (1 to 3, no more than are left) on your turn."""

    count: int


class Knock(Action, kind="knock", stamp="at"):
    """Knock on the table; ``at`` is the number of takes made when you knocked."""

    at: int | None = None


class Truce(Action, kind="truce"):
    """With two pebbles or fewer left, end the game in a draw on your turn."""


class PebblesTermination(Termination):
    LAST_PEBBLE = "last_pebble"
    TRUCE = "truce"


SPEC = GameSpec(
    name="pebbles",
    title="Pebbles",
    blurb="Take the last pebble.",
    players=(2, 4),
    seats=(2, 4),
    default_players=2,
    options=(Option("pebbles", "int", "Pebbles", default=9, low=1, high=30),),
    actions={"take": Take, "knock": Knock, "truce": Truce},
)


class Pebbles(Game):
    spec = SPEC

    def _setup(self, events: list[Event]) -> None:
        self.left: int = self.options["pebbles"]
        self.takes = 0
        self.turn: int | None = 0
        self.winner: int | None = None
        self.ending: PebblesTermination | None = None

    def legal_actions(self, seat: int) -> list[Action]:
        if self.ending is not None:
            return []
        actions: list[Action] = []
        if self.turn == seat:
            actions += [Take(seat, n) for n in range(1, min(3, self.left) + 1)]
            if self.left <= 2:
                actions.append(Truce(seat))
        actions.append(Knock(seat, at=self.takes))
        return actions

    def _why_not_take(self, action: Take) -> str | None:
        if self.turn != action.player:
            return f"it is seat {self.turn}'s turn"
        return f"take 1 to {min(3, self.left)} pebbles"

    def _do_take(self, action: Take, events: list[Event] | None) -> None:
        self.left -= action.count
        self.takes += 1
        if events is not None:
            events.append(Event("take", {"player": action.player, "count": action.count}))
        if self.left == 0:
            self.winner, self.turn = action.player, None
            self.ending = PebblesTermination.LAST_PEBBLE
        else:
            self.turn = (action.player + 1) % self.players

    def _do_knock(self, action: Knock, events: list[Event] | None) -> None:
        if events is not None:
            stale = action.at is not None and action.at != self.takes
            events.append(Event("knock", {"player": action.player, "stale": stale}))

    def _do_truce(self, action: Truce, events: list[Event] | None) -> None:
        self.turn, self.ending = None, PebblesTermination.TRUCE
        if events is not None:
            events.append(Event("truce", {"player": action.player}))

    @property
    def outcome(self) -> Outcome | None:
        if self.ending is None:
            return None
        return Outcome(self.winner, self.ending)

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"game": self.name, "seat": seat, "left": self.left, "takes": self.takes,
                "turn": self.turn, "winner": self.winner,
                "draw": self.ending is PebblesTermination.TRUCE,
                "legal": self.legal_json(seat)}


class FastPebbles(Pebbles):
    """Pebbles with every piece the base class derives also written out by hand, as a game
    does for speed, each to the same answers as the derived one."""

    @fast_path
    def _why_not_take(self, action: Take) -> str | None:
        if self.turn != action.player:  # None once the game is over
            return f"it is seat {self.turn}'s turn"
        if not 1 <= action.count <= min(3, self.left):
            return f"take 1 to {min(3, self.left)} pebbles"
        return None

    @fast_path
    def _why_not_knock(self, action: Knock) -> str | None:
        if self.ending is not None:
            return "the game is over"
        if action.at is not None and not 0 <= action.at <= self.takes:
            return f"'at' is {action.at} but {self.takes} takes have been made"
        return None

    @fast_path
    def legal_json(self, seat: int | None) -> list[dict[str, Any]]:
        if seat is None or self.ending is not None:
            return []
        legal: list[dict[str, Any]] = []
        if self.turn == seat:
            legal += [{"type": "take", "count": n} for n in range(1, min(3, self.left) + 1)]
            if self.left <= 2:
                legal.append({"type": "truce"})
        legal.append({"type": "knock", "at": self.takes})
        return legal

    @fast_path
    def offers(self, seat: int, kinds: Collection[str]) -> bool:
        if self.ending is not None:
            return False
        return "knock" in kinds or (self.turn == seat and (
            "take" in kinds or ("truce" in kinds and self.left <= 2)))


class PebblesPlayer(ComputerPlayer[dict[str, Any]]):
    """Takes one to three pebbles at random on its turn and, with two or fewer left, calls a
    truce half the time; a tenth of a second after each change."""

    game = "pebbles"

    def decide(self, view: dict[str, Any], events: Sequence[dict[str, Any]]) -> Decision | None:
        legal = view["legal"]
        if view["turn"] != self.seat or not legal:
            return None
        moves = [m for m in legal if m["type"] == "truce"]
        if not moves or self.rng.random() < 0.5:
            moves = [m for m in legal if m["type"] == "take"]
        return Decision(parse_action(self.rng.choice(moves), SPEC.actions, player=self.seat), 0.1)
