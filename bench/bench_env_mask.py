"""Action masks: what building one costs, and environment steps per second.

The mask is built at every step for every agent. It used to match each action template
against each legal entry (``template_mask`` below, kept as the baseline); it is now one
lookup of ``(type, stack)`` per legal entry (:meth:`parlour.envs.encoding.Codec.mask`).
Both are timed in the same run on the same views (views recorded from seeded random play),
then whole single-agent environments step with random masked actions:

    .venv/bin/python bench/bench_env_mask.py
    PYTHONPATH=<an older checkout>/src .venv/bin/python bench/bench_env_mask.py --steps-only

(the second line gives the steps per second of another version of the code, for a before
and after in one sitting).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from parlour.envs import make_single
from parlour.envs.encoding import CODECS, Codec
from parlour.games import new_game

CONFIGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("slabberjan", {"players": 4, "opponents": "easy"}),
    ("slapjack", {"players": 2, "opponents": "hard"}),
    ("splunk", {"players": 2, "opponents": "easy"}),
)


def template_mask(codec: Codec, view: Mapping[str, Any]) -> np.ndarray[Any, Any]:
    """The mask as it was built before: every template against every legal entry."""
    legal = view["legal"]
    return np.array([1 if t is None else int(any(all(e.get(k) == v for k, v in t.items())
                                                 for e in legal))
                     for t in codec.templates], dtype=np.int8)


def views(game: str, players: int, count: int) -> list[Mapping[str, Any]]:
    out: list[Mapping[str, Any]] = []
    seed = 0
    while len(out) < count:
        g = new_game(game, players=players, seed=seed)
        rng = random.Random(seed)
        while g.outcome is None and len(out) < count:
            out += [g.view(s) for s in range(players)]
            g.apply(rng.choice([a for s in range(players) for a in g.legal_actions(s)]))
        seed += 1
    return out


def per_call_us(build: Callable[[Mapping[str, Any]], object], sample: Sequence[Any]) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for view in sample:
            build(view)
        best = min(best, time.perf_counter() - start)
    return best / len(sample) * 1e6


def steps_per_second(game: str, kwargs: dict[str, Any], steps: int) -> float:
    env = make_single(game, **kwargs)
    rng = random.Random(1)
    obs, _ = env.reset(seed=1)
    start = time.perf_counter()
    for _ in range(steps):
        legal = np.flatnonzero(obs["action_mask"]).tolist() or [0]
        obs, _, terminated, truncated, _ = env.step(rng.choice(legal))
        if terminated or truncated:
            obs, _ = env.reset()
    return steps / (time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20_000, help="env steps per config")
    parser.add_argument("--steps-only", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    for game, kwargs in CONFIGS:
        row: dict[str, Any] = {"game": game, **kwargs}
        if not args.steps_only:
            codec = CODECS[game]
            sample = views(game, kwargs["players"], 4_000)
            assert all((codec.mask(v) == template_mask(codec, v)).all() for v in sample)
            row["template_mask_us"] = per_call_us(lambda v, c=codec: template_mask(c, v),
                                                  sample)
            row["mask_us"] = per_call_us(codec.mask, sample)
            row["mask_speedup"] = row["template_mask_us"] / row["mask_us"]
        row["steps_per_s"] = steps_per_second(game, kwargs, args.steps)
        rows.append(row)
        if not args.json:
            print("  ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}"
                            for k, v in row.items()), flush=True)
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
