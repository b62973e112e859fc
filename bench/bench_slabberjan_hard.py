"""Slabberjan's Hard against Normal and against the simple two-threshold rule, with 95%
intervals: the strength table of ``docs/bots.md``.

For each table size and each setting of ``free_choice``, two matches per opponent, seats
rotating from game to game (game ``i`` seats the odd one out at seat ``i % N``):

- ``one Hard``: one Hard among N-1 opponents; Hard's win rate against the even share 1/N;
- ``one rule``: one opponent among N-1 Hards; the opponent's win rate against 1/N.

Hard earns its name when it wins more than its share in the first and the opponent less
than its share in the second. Every game is seeded from (``--seed``, the match, ``i``), so
a run prints the same figures on any machine. The two-threshold rule is
:class:`parlour.bots.slabberjan.TwoThreshold` (not a speed: a bench and test opponent).

    .venv/bin/python bench/bench_slabberjan_hard.py --games 1000
    .venv/bin/python bench/bench_slabberjan_hard.py --players 4 --games 400 --only normal
    .venv/bin/python bench/bench_slabberjan_hard.py --time --players 2 6 42

``--time`` measures instead what a real choice of Hard's costs (its own turns with two
legal actions, in whole games of Hards): the median and 99th percentile, in ms, against
the estimate a live table charges for it (``cpu_cost``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from figures import percentile

from parlour.bots import AnyPlayer
from parlour.bots.arena import play
from parlour.bots.slabberjan import PLAYERS, SAMPLED_TURN_COST, Hard, TwoThreshold
from parlour.games.slabberjan import Slabberjan
from parlour.sim.stats import wilson

Maker = Callable[[int, int], AnyPlayer]
OPPONENTS: dict[str, Maker] = {
    "normal": lambda seat, seed: PLAYERS["normal"](seat, seed=seed),
    "two-threshold": lambda seat, seed: TwoThreshold(seat, seed=seed),
}


def hard(seat: int, seed: int) -> AnyPlayer:
    return PLAYERS["hard"](seat, seed=seed)


def _seed(*parts: object) -> int:
    return random.Random(":".join(map(str, ("bench-slabberjan-hard", *parts)))).getrandbits(63)


def match(players: int, free_choice: bool, odd: Maker, rest: Maker, games: int,
          seed: int, name: str) -> tuple[int, int, float]:
    """Games won by the odd one out (one player among ``players - 1`` of ``rest``), games
    finished, and seconds taken."""
    won = finished = 0
    started = time.process_time()
    for i in range(games):
        odd_seat = i % players
        game = Slabberjan(players, seed=_seed(seed, name, players, free_choice, i, "game"),
                          options={"free_choice": free_choice})
        bots = [(odd if s == odd_seat else rest)(s, _seed(seed, name, players, free_choice,
                                                          i, s)) for s in range(players)]
        result = play(game, bots, tiebreak_seed=_seed(seed, name, players, i, "ties"))
        if result.winner is not None:
            finished += 1
            won += result.winner == odd_seat
    return won, finished, time.process_time() - started


def choice_times(players: int, free_choice: bool, games: int) -> list[float]:
    """The CPU seconds each of Hard's real choices took, in ``games`` games of Hards."""
    times: list[float] = []

    class Timed(Hard):
        def wants_change(self, view: Any, change: str) -> bool:
            started = time.process_time()  # CPU time: what a table's budget pays
            wanted = super().wants_change(view, change)
            times.append(time.process_time() - started)
            return wanted

    for i in range(games):
        game = Slabberjan(players, seed=i, options={"free_choice": free_choice})
        play(game, [Timed(s, level="hard", seed=i * 100 + s) for s in range(players)],
             tiebreak_seed=i)
    return times


def timing(sizes: list[int]) -> None:
    print("| players | free_choice | choices | median | p99 | charged (cpu_cost) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for n in sizes:
        for free in (False, True):
            times = choice_times(n, free, max(1, 60 // n))
            median, p99 = percentile(times, 0.5) * 1e3, percentile(times, 0.99) * 1e3
            print(f"| {n} | {'on' if free else 'off'} | {len(times)} "
                  f"| {median:.1f} ms | {p99:.1f} ms "
                  f"| {SAMPLED_TURN_COST * 1e3:.0f} ms |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=sorted(OPPONENTS))
    parser.add_argument("--free-choice", choices=("off", "on", "both"), default="both")
    parser.add_argument("--time", action="store_true", help="time Hard's choices instead")
    args = parser.parse_args()
    if args.time:
        timing(args.players)
        return 0
    choices = {"off": (False,), "on": (True,), "both": (False, True)}[args.free_choice]
    print("| players | free_choice | opponent | one Hard among them: Hard wins "
          "| one of them among Hards: it wins | even share | CPU s |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for n in args.players:
        for free in choices:
            for name, maker in OPPONENTS.items():
                if args.only and name != args.only:
                    continue
                cells = []
                seconds = 0.0
                for label, odd, rest in (("hard", hard, maker), ("rule", maker, hard)):
                    won, done, took = match(n, free, odd, rest, args.games, args.seed,
                                            f"{name}-{label}")
                    seconds += took
                    lo, hi = wilson(won, done)
                    cells.append(f"{won / done:.1%} [{lo:.1%}, {hi:.1%}]" if done else "-")
                print(f"| {n} | {'on' if free else 'off'} | {name} | {cells[0]} | {cells[1]} "
                      f"| {1 / n:.1%} | {seconds:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
