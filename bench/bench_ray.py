"""``parlour simulate`` through Ray against ``--jobs``: games per second with 1 and 2 workers,
in the same run, and what Ray costs per game.

One local Ray instance (CPUs as the most workers asked for, node address 127.0.0.1) is
started once, and its start-up time is reported apart; then each row plays the same seeded
games (:func:`parlour.sim.simulate`, so the results are asserted equal) through
``--jobs N`` (a process pool, started each time) and through Ray with at most ``N`` tasks in
flight, alternately, ``--repeat`` times. Ray's overhead per game is
``(Ray's time - the pool's time) / games`` for the same N; the per-task round trip of an
empty Ray task is measured too.

Ray's servers listen on every interface of the machine; on a shared machine run this in a
private network namespace, as the test does:

    unshare --net sh -c 'ip link set lo up && .venv/bin/python bench/bench_ray.py'
    ... bench/bench_ray.py --game slabberjan --players 6 --bots hard,normal,easy --games 600
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from parlour.sim import SimConfig, simulate

#: --jobs runs in a fresh process: a pool forked from a process running Ray's threads
#: would inherit them
POOL_RUN = """
import json, sys, time
from parlour.sim import SimConfig, simulate
game, players, bots, games, seed, jobs = json.loads(sys.argv[1])
start = time.perf_counter()
result = simulate(SimConfig(game, players, tuple(bots), games, seed=seed, jobs=jobs))
print(json.dumps([time.perf_counter() - start, result]))
"""


def pool_run(config: SimConfig) -> tuple[float, dict[str, Any]]:
    """(seconds, result) of ``simulate(config)`` on a process pool, in a fresh process."""
    out = subprocess.run([sys.executable, "-c", POOL_RUN, json.dumps(
        [config.game, config.players, list(config.bots), config.games, config.seed,
         config.jobs])], capture_output=True, text=True, check=True).stdout
    seconds, result = json.loads(out)
    return seconds, result


def spread(values: Sequence[float]) -> str:
    return (f"{statistics.median(values):8.1f}  [{min(values):.1f} .. {max(values):.1f}]")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="splunk")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", default="hard,normal")
    parser.add_argument("--games", type=int, default=400, help="games per run (400)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3, help="runs per row (3)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import ray
    except ImportError:
        print("bench_ray needs Ray: pip install 'parlour[ray]'", file=sys.stderr)
        return 2
    bots = tuple(args.bots.split(","))
    if len(bots) == 1:
        bots *= args.players

    start = time.perf_counter()
    ray.init(num_cpus=max(args.workers), include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR, _node_ip_address="127.0.0.1")
    startup = time.perf_counter() - start

    @ray.remote
    def nothing() -> None:
        return None

    ray.get([nothing.remote() for _ in range(20)])  # warm the workers
    start = time.perf_counter()
    for _ in range(200):
        ray.get(nothing.remote())
    round_trip = (time.perf_counter() - start) / 200

    print(f"{args.game}, {args.players} players, bots {','.join(bots)}, {args.games} games a "
          f"run, {args.repeat} runs a row (median [min .. max])")
    print(f"Ray start-up (local instance): {startup:.2f} s; empty task round trip: "
          f"{round_trip * 1e3:.2f} ms")
    print(f"{'workers':>7}  {'--jobs games/s':>28}  {'--ray games/s':>28}  "
          f"{'Ray overhead per game':>24}")
    for workers in args.workers:
        config = SimConfig(args.game, args.players, bots, args.games, seed=args.seed,
                           jobs=workers)
        pool: list[float] = []
        on_ray: list[float] = []
        overhead: list[float] = []
        expected = None
        for _ in range(args.repeat):
            pool_seconds, a = pool_run(config)
            t1 = time.perf_counter()
            b = json.loads(json.dumps(simulate(config, ray="")))
            ray_seconds = time.perf_counter() - t1
            assert a == b, "Ray played other games"
            expected = expected or a
            assert a == expected
            pool.append(args.games / pool_seconds)
            on_ray.append(args.games / ray_seconds)
            overhead.append((ray_seconds - pool_seconds) / args.games * 1e3)
        print(f"{workers:>7}  {spread(pool):>28}  {spread(on_ray):>28}  "
              f"{statistics.median(overhead):8.2f} ms [{min(overhead):.2f} .. "
              f"{max(overhead):.2f}]", flush=True)
    ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
