"""Simulation speed: whole bot-vs-bot games per second, with one process and with two.

Each row runs ``parlour simulate``'s own code (:func:`parlour.sim.simulate`) on the same
seeded games, so every run plays the same games; the figure includes everything a
simulation does (the arena's virtual clock, every computer player's decisions, the checked
``apply``, statistics) and, for two jobs, starting the worker processes.

    .venv/bin/python bench/bench_simulate.py
    .venv/bin/python bench/bench_simulate.py --games 2000 --jobs 1 2 4
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence

from parlour.sim import SimConfig, simulate

TABLES: list[tuple[str, int, tuple[str, ...]]] = [
    ("slapjack", 2, ("hard", "normal")),
    ("slapjack", 4, ("hard", "normal", "easy", "normal")),
    ("slabberjan", 2, ("hard", "easy")),
    ("slabberjan", 6, ("hard", "normal", "easy") * 2),
    ("splunk", 2, ("hard", "normal")),
]


def measure(game: str, players: int, bots: tuple[str, ...], games: int, jobs: int,
            seed: int, repeat: int) -> tuple[float, float]:
    """(games per second, mean actions per finished game), the best of ``repeat`` runs:
    on a shared machine the best run is the one least disturbed by other work."""
    config = SimConfig(game, players, bots, games, seed=seed, jobs=jobs)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = simulate(config)
        best = min(best, time.perf_counter() - start)
    return games / best, result["length"]["actions"].get("mean", 0.0)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="games per row (default 600)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2],
                        help="process counts to measure (default: 1 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every run (default 0)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row, best kept (3)")
    args = parser.parse_args(argv)
    print(f"cores: {os.cpu_count()}, games per row: {args.games}, best of {args.repeat}")
    print(f"{'game':<11} {'players':>7}  {'jobs':>4}  {'actions/game':>12}  {'games/s':>9}  "
          f"{'speed-up':>8}")
    for game, players, bots in TABLES:
        base = None
        for jobs in args.jobs:
            rate, actions = measure(game, players, bots, args.games, jobs, args.seed,
                                   args.repeat)
            base = base or rate
            print(f"{game:<11} {players:>7}  {jobs:>4}  {actions:>12.1f}  {rate:>9.1f}  "
                  f"{rate / base:>7.2f}x", flush=True)


if __name__ == "__main__":
    main()
