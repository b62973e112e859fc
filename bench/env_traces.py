"""Seeded episodes of every common environment configuration, as one digest each: the same
code gives the same digests, so a speed change that alters an observation, a reward, a
termination, an info or the game's record shows up as a different digest.

    .venv/bin/python bench/env_traces.py --seeds 40 > after.json
    PYTHONPATH=/tmp/envs-before/src .venv/bin/python bench/env_traces.py --seeds 40 > before.json
    diff before.json after.json

Each episode is played with random legal actions from a generator seeded by the episode's
seed; the digest covers every observation (bytes), mask, reward, termination, truncation and
info, and at the end the game's history of actions and its outcome.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from parlour.envs import SlabberjanEnv, SlapjackEnv, SplunkEnv, make_single


def _feed(h: Any, *parts: object) -> None:
    for part in parts:
        if isinstance(part, np.ndarray):
            h.update(part.dtype.str.encode())
            h.update(part.tobytes())
        else:
            h.update(json.dumps(part, sort_keys=True, default=str).encode())


def _obs(h: Any, obs: dict[str, Any]) -> None:
    _feed(h, obs["observation"], obs["action_mask"])


def _record(h: Any, env: Any) -> None:
    table = env.table if hasattr(env, "table") else env.env.table
    game = table.game
    _feed(h, [a.to_json() for a in game.history],
          repr(game.outcome), len(table.events), table.clock.now())


def _pick(mask: Any, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def aec_trace(make: Callable[[], SlabberjanEnv], seed: int, limit: int) -> str:
    env = make()
    h = hashlib.sha256()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    while env.agents and steps < limit:
        agent = env.agent_selection
        obs, reward, term, trunc, info = env.last()
        _feed(h, agent, reward, term, trunc, info)
        _obs(h, obs)
        for other in env.agents:  # every agent's observation, not only the mover's
            _obs(h, env.observe(other))
        env.step(None if term or trunc else _pick(obs["action_mask"], rng))
        _feed(h, dict(env.rewards), dict(env._cumulative_rewards))
        steps += 1
    _record(h, env)
    env.close()
    return h.hexdigest()


def parallel_trace(make: Callable[[], Any], seed: int, limit: int) -> str:
    env = make()
    h = hashlib.sha256()
    rng = np.random.default_rng(seed)
    observations, infos = env.reset(seed=seed)
    steps = 0
    while env.agents and steps < limit:
        for agent in sorted(observations):
            _obs(h, observations[agent])
        _feed(h, infos)
        # waits often, as a learner early in training does, so that the computers' moves
        # and the clock are exercised as well as the agents' own
        actions = {a: (0 if rng.random() < 0.5 else _pick(observations[a]["action_mask"], rng))
                   for a in env.agents}
        observations, rewards, terms, truncs, infos = env.step(actions)
        _feed(h, rewards, terms, truncs)
        steps += 1
    _feed(h, infos)
    _record(h, env)
    env.close()
    return h.hexdigest()


def single_trace(make: Callable[[], Any], seed: int, limit: int) -> str:
    env = make()
    h = hashlib.sha256()
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    _obs(h, obs)
    _feed(h, info)
    for _ in range(limit):
        obs, reward, term, trunc, info = env.step(_pick(obs["action_mask"], rng))
        _obs(h, obs)
        _feed(h, reward, term, trunc, info)
        if term or trunc:
            break
    _record(h, env)
    env.close()
    return h.hexdigest()


def configurations() -> dict[str, Callable[[int, int], str]]:
    easy3 = {1: "easy", 2: "easy", 3: "easy"}
    configs: dict[str, Callable[[int, int], str]] = {
        "slabberjan AEC 4": lambda s, n: aec_trace(lambda: SlabberjanEnv(4), s, n),
        "slabberjan AEC 7 chips": lambda s, n: aec_trace(
            lambda: SlabberjanEnv(7, reward="chips"), s, n),
        "slabberjan AEC 42": lambda s, n: aec_trace(lambda: SlabberjanEnv(42), s, n),
        "slabberjan AEC 3 + 39 easy": lambda s, n: aec_trace(
            lambda: SlabberjanEnv(42, opponents={k: "easy" for k in range(3, 42)}), s, n),
        "slabberjan AEC 1 + 3 easy": lambda s, n: aec_trace(
            lambda: SlabberjanEnv(4, opponents=easy3), s, n),
        "slabberjan AEC 2 + 3 normal paid": lambda s, n: aec_trace(
            lambda: SlabberjanEnv(5, opponents={1: "normal", 3: "normal", 4: "easy"},
                                  reward="paid", free_choice=True), s, n),
        "slapjack Parallel 2": lambda s, n: parallel_trace(lambda: SlapjackEnv(2), s, n),
        "slapjack Parallel 3 + 1 hard": lambda s, n: parallel_trace(
            lambda: SlapjackEnv(4, opponents={2: "hard"}, reaction="normal"), s, n),
        "splunk Parallel 2": lambda s, n: parallel_trace(lambda: SplunkEnv(), s, n),
        "splunk Parallel 1 + normal jokers": lambda s, n: parallel_trace(
            lambda: SplunkEnv(opponents={1: "normal"}, options={"jokers": True},
                              reaction=0.0), s, n),
    }
    for game, players in (("slabberjan", 4), ("slapjack", 2), ("splunk", 2)):
        for level in ("easy", "normal", "hard"):
            if game == "slabberjan" and level == "hard":
                continue  # minutes a game: Hard searches; its cost is not the env's
            # the races pinned with the learner reacting at once (reaction=0.0, the
            # default before the race benchmark's "opponents")
            kwargs = {} if game == "slabberjan" else {"reaction": 0.0}
            configs[f"single {game} v {level}"] = (
                lambda s, n, g=game, p=players, lv=level, kw=kwargs: single_trace(
                    lambda: make_single(g, players=p, opponents=lv, **kw), s, n))
    return configs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--steps", type=int, default=3000, help="at most this many a game")
    parser.add_argument("--only", help="configurations whose name contains this")
    parser.add_argument("--pin", metavar="FILE",
                        help="write the digests to FILE, leaving out the 42-seat tables "
                             "(tests/envs/test_envs_speed.py reads them)")
    args = parser.parse_args(argv)
    out: dict[str, list[str]] = {}
    for name, trace in configurations().items():
        if args.only and args.only not in name:
            continue
        big = "42" in name
        if big and args.pin:
            continue
        # a 42-seat episode observes every agent at every step: a tenth of the seeds
        seeds = max(1, args.seeds // 10) if big else args.seeds
        out[name] = [trace(seed, args.steps) for seed in range(seeds)]
        print(name, file=sys.stderr, flush=True)
    if args.pin:
        with open(args.pin, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
        return
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
