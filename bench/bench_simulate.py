"""Simulation speed: whole bot-vs-bot games per second, with one process and with two.

Each row runs ``parlour simulate``'s own code (:func:`parlour.sim.simulate`) on the same
seeded games, so every run plays the same games; the figure includes everything a
simulation does (the arena's virtual clock, every computer player's decisions, the checked
``apply``, statistics) and, for two jobs, starting the worker processes.

    .venv/bin/python bench/bench_simulate.py
    .venv/bin/python bench/bench_simulate.py --games 2000 --jobs 1 2 4

``--before SRC`` compares two versions of Parlour instead, game by game and speed by speed
(every seat at that speed, one job): the ``src`` directory of the older one (for example
``git archive 10686cf | tar -x -C /tmp/before``, then ``--before /tmp/before/src``) and
this one, each row run in fresh processes, alternately, ``--repeat`` times; the results of
both must be the same games (the JSON is compared), and the table gives the median and
the spread of games per second.

    .venv/bin/python bench/bench_simulate.py --before /tmp/before/src --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

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


#: game, players, games per run: one row per speed in --before mode
LEVEL_ROWS: list[tuple[str, int, int]] = [
    ("slapjack", 2, 300), ("slabberjan", 5, 300), ("splunk", 2, 300)]
LEVELS = ("easy", "normal", "hard")

ONE_RUN = """
import json, sys, time
from parlour.sim import SimConfig, simulate
game, players, bots, games, seed = json.loads(sys.argv[1])
start = time.perf_counter()
result = simulate(SimConfig(game, players, tuple(bots), games, seed=seed, jobs=1))
print(json.dumps([time.perf_counter() - start, result["lengths"], result["entries"]]))
"""


def one_run(src: str, game: str, players: int, level: str, games: int,
            seed: int) -> tuple[float, object]:
    """(games per second, what was played) of one simulation, in a fresh process that
    imports Parlour from ``src``."""
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run([sys.executable, "-c", ONE_RUN, json.dumps(
        [game, players, [level] * players, games, seed])], env=env, check=True,
        capture_output=True, text=True).stdout
    seconds, lengths, entries = json.loads(out)
    return games / seconds, (lengths, [e["wins"] for e in entries])


def compare(before: str, repeat: int, seed: int) -> None:
    after = str(Path(__file__).resolve().parent.parent / "src")
    print(f"games/s of parlour simulate, one job, every seat at the speed; median [min .. max] "
          f"of {repeat} alternate runs")
    print(f"{'game':<11} {'players':>7} {'speed':<7} {'before':>24} {'after':>24} "
          f"{'after/before':>12}")
    for game, players, games in LEVEL_ROWS:
        for level in LEVELS:
            rates: dict[str, list[float]] = {"before": [], "after": []}
            played: dict[str, object] = {}
            for _ in range(repeat):
                for name, src in (("before", before), ("after", after)):
                    rate, what = one_run(src, game, players, level, games, seed)
                    rates[name].append(rate)
                    played[name] = what
            same = "" if played["before"] == played["after"] else "  (other games!)"
            b, a = statistics.median(rates["before"]), statistics.median(rates["after"])
            cells = [f"{statistics.median(r):7.1f} [{min(r):.1f} .. {max(r):.1f}]"
                     for r in (rates["before"], rates["after"])]
            print(f"{game:<11} {players:>7} {level:<7} {cells[0]:>24} {cells[1]:>24} "
                  f"{a / b:>11.2f}x{same}", flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="games per row (default 600)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2],
                        help="process counts to measure (default: 1 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every run (default 0)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row, best kept (3)")
    parser.add_argument("--before", metavar="SRC",
                        help="compare with the Parlour in this src directory, per speed")
    args = parser.parse_args(argv)
    if args.before:
        compare(args.before, args.repeat, args.seed)
        return
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
