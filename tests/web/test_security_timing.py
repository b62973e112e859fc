"""Timing tells no secret (docs/security.md): how long a computer player waits before a move
must not depend on anything hidden, or a person at the table could read it off the clock.

Many seeded games of every game, every speed, are played on the scheduler's virtual clock
(the live tables' pacing); every delay a computer player chooses for its own move is kept
with a hidden fact of that moment, and the delays of the two sides of each fact must come
from one distribution (a two-sample Kolmogorov-Smirnov test at the 0.1% level). The facts:

- Slabberjan (``free_choice``, where the leak was): whether the move was forced (a matador
  stands, a piece below the inn must swap) or a real choice, and whether the computer holds
  a matador;
- Slapjack: whether the card the computer is about to turn is a Jack (hidden from all);
- Splunk: whether the card the computer is about to play is high (hidden from all).

A player that does leak (a fixed pause for forced moves) is caught by the same test.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from parlour.bots import make_player
from parlour.bots.base import AnyPlayer, ComputerPlayer, Decision
from parlour.bots.scheduler import Scheduler, VirtualClock
from parlour.engine import LEVELS, Game
from parlour.games import new_game
from parlour.games.slabberjan import MATADORS

#: c(alpha) of the two-sample Kolmogorov-Smirnov test at alpha = 0.001
KS_C = 1.949

Fact = Callable[[Game, int, dict[str, Any], Decision], bool | None]


def ks_distance(a: Sequence[float], b: Sequence[float]) -> float:
    """The largest gap between the two samples' distribution functions."""
    xs, ys = sorted(a), sorted(b)
    i = j = 0
    gap = 0.0
    while i < len(xs) and j < len(ys):
        x = min(xs[i], ys[j])
        while i < len(xs) and xs[i] <= x:
            i += 1
        while j < len(ys) and ys[j] <= x:
            j += 1
        gap = max(gap, abs(i / len(xs) - j / len(ys)))
    return gap


def same_distribution(a: Sequence[float], b: Sequence[float]) -> bool:
    n, m = len(a), len(b)
    assert n >= 30 and m >= 30, (n, m)  # enough on both sides to tell
    return ks_distance(a, b) <= KS_C * math.sqrt((n + m) / (n * m))


class Spy(ComputerPlayer[Any]):
    """Passes every decision through, keeping (delay, fact) for the player's own moves."""

    def __init__(self, player: AnyPlayer, game: Game, fact: Fact,
                 kept: dict[bool, list[float]]) -> None:
        self.player, self.game_ = player, game
        self.seat, self.level, self.game = player.seat, player.level, player.game
        self.fact, self.kept = fact, kept

    def decide(self, view: Any, events: Sequence[dict[str, Any]]) -> Decision | None:
        decision = self.player.decide(view, events)
        if decision is not None:
            side = self.fact(self.game_, self.seat, view, decision)
            if side is not None:
                self.kept[side].append(decision.delay)
        return decision


def delays(name: str, players: int, level: str, fact: Fact, *, games: int,
           options: dict[str, Any] | None = None,
           make: Callable[..., AnyPlayer] = make_player) -> dict[bool, list[float]]:
    """The delays of ``games`` seeded games' computer moves, split by ``fact``."""
    kept: dict[bool, list[float]] = {True: [], False: []}
    for g in range(games):
        game = new_game(name, players=players, seed=g, options=options or {})
        bots = {s: Spy(make(name, level, s, seed=1000 * g + s), game, fact, kept)
                for s in range(players)}
        clock = VirtualClock()
        Scheduler(game, bots, clock).start()
        clock.run(lambda game=game: game.outcome is not None, max_calls=3000)  # bounded
    return kept


def slabberjan_forced(game: Game, seat: int, view: dict[str, Any],
                      decision: Decision) -> bool | None:
    legal = view["legal"]
    return len(legal) == 1 if legal and view["turn"] == seat else None


def slabberjan_matador(game: Game, seat: int, view: dict[str, Any],
                       decision: Decision) -> bool | None:
    return view["piece"] in MATADORS if view["legal"] and view["turn"] == seat else None


def slapjack_jack_next(game: Game, seat: int, view: dict[str, Any],
                       decision: Decision) -> bool | None:
    stack = game.stacks[seat]  # type: ignore[attr-defined]
    if decision.action.type != "flip" or not stack:
        return None
    return bool(stack[0][0] == "J")


def splunk_high_next(game: Game, seat: int, view: dict[str, Any],
                     decision: Decision) -> bool | None:
    pile = game.piles[seat]  # type: ignore[attr-defined]
    if decision.action.type != "play" or not pile:
        return None
    return bool(pile[0][0] in "89TJQK")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("fact", [slabberjan_forced, slabberjan_matador])
def test_a_slabberjan_computer_thinks_as_long_whatever_it_holds(level: str, fact: Fact) -> None:
    kept = delays("slabberjan", 5, level, fact, games=12, options={"free_choice": True})
    assert same_distribution(kept[True], kept[False]), (level, fact.__name__)


@pytest.mark.parametrize("level", LEVELS)
def test_a_slapjack_computer_turns_a_jack_as_fast_as_any_card(level: str) -> None:
    kept = delays("slapjack", 3, level, slapjack_jack_next, games=40)
    assert same_distribution(kept[True], kept[False]), level


@pytest.mark.parametrize("level", LEVELS)
def test_a_splunk_computer_plays_a_high_card_as_fast_as_a_low_one(level: str) -> None:
    kept = delays("splunk", 2, level, splunk_high_next, games=20)
    assert same_distribution(kept[True], kept[False]), level


def test_the_test_catches_a_computer_that_stands_quickly_on_a_forced_move() -> None:
    """The leak of issue 15: a fixed 0.4 s for forced moves, 0.6 to 1.2 s for choices."""

    class Leaky(ComputerPlayer[Any]):
        def __init__(self, player: AnyPlayer) -> None:
            self.player, self.seat, self.level = player, player.seat, player.level
            self.game, self.rng = player.game, random.Random(player.seat)

        def decide(self, view: Any, events: Sequence[dict[str, Any]]) -> Decision | None:
            decision = self.player.decide(view, events)
            if decision is not None and len(view["legal"]) == 1:
                return Decision(decision.action, 0.4)
            return decision

    def leaky(name: str, level: str, seat: int, *, seed: int | None = None) -> AnyPlayer:
        return Leaky(make_player(name, level, seat, seed=seed))

    kept = delays("slabberjan", 5, "hard", slabberjan_forced, games=12,
                  options={"free_choice": True}, make=leaky)
    assert not same_distribution(kept[True], kept[False])
