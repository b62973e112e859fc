"""A small learner for Splunk against Easy, in nothing but numpy: it learns to win.

The environment is :func:`parlour.envs.make_single` as it comes: +1 for a win, -1 for a
loss, nothing in between, and a turn timer that plays for a seat that sits on its turn (so
stalling loses; before issue 21 stalling was the best a learner found, and it never won).

The learner is tabular one-step Q-learning over 40 states read off the observation (which
stack a slap is open on, the face-up total of the stack a call is open on in four bands,
whether it is the seat's turn): each value the mean of its targets, an action not yet tried
in a state first, epsilon-greedy among the actions the mask opens. It learns what to do in
each state; the states are ours. The learner, not the environment, adds a shaping reward,
``phi(s') - phi(s)`` with ``phi`` how far ahead in cards the seat is (potential-based
shaping, Ng, Harada and Russell, 1999), which says at once what a play, a slap or a call
did to the piles. Every ``--every`` episodes the greedy policy is evaluated on the same
seeded episodes, with the win rate's 95% interval.

    .venv/bin/python examples/splunk_learner.py                 # about a minute
    .venv/bin/python examples/splunk_learner.py --episodes 400 --json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from parlour.envs import make_single
from parlour.envs.evaluate import evaluate
from parlour.envs.single import SingleAgentEnv
from parlour.sim.stats import wilson

ACTIONS = 10  # the Splunk codec: wait, play on 0-3, call, slap 0-3
STACK, FIRST = 23, 6  # the codec's numbers per stack, and where the stacks begin
#: the states: the stack a slap is open on (or none) x the face-up total of the stack a
#: call is open on (none, under 11, 11 to 15, 16 or more) x whether it is the seat's turn
STATES = 5 * 4 * 2


def state(observation: np.ndarray[Any, Any]) -> int:
    """The learner's state, read off the observation (the codec's layout)."""
    stacks = observation[FIRST:FIRST + 4 * STACK].reshape(4, STACK)
    slapped = np.flatnonzero(stacks[:, 18:21].sum(axis=1))
    slap = int(slapped[0]) if len(slapped) else 4
    callable_ = np.flatnonzero(stacks[:, 21])
    if len(callable_):
        total = round(float(stacks[callable_[0], 2]) * 100)
        call = 1 if total < 11 else 2 if total < 16 else 3
    else:
        call = 0
    turn = int(observation[2] > 0.5)
    return (slap * 4 + call) * 2 + turn


def env_maker(tick: float) -> SingleAgentEnv:
    return make_single("splunk", opponents="easy", seat=0, tick=tick)


def potential(obs: dict[str, Any]) -> float:
    """How far ahead the seat is in cards, -5 to 5 (observation 0 and 1: each pile / 27)."""
    mine, theirs = float(obs["observation"][0]), float(obs["observation"][1])
    return 5 * (theirs - mine) / max(1e-9, mine + theirs)


class RunningMeans:
    """Per state and action, the mean of the targets it was given; greedy among the
    actions the mask opens, an action not yet tried in a state first, and at random among
    the open ones ``epsilon`` of the time."""

    def __init__(self, rng: np.random.Generator, epsilon: float = 0.1) -> None:
        self.total = np.zeros((STATES, ACTIONS))
        self.count = np.zeros((STATES, ACTIONS))
        self.rng = rng
        self.epsilon = epsilon

    def values(self, s: int, untried: float = math.inf) -> np.ndarray[Any, Any]:
        seen = self.count[s] > 0
        return np.where(seen, self.total[s] / np.maximum(self.count[s], 1), untried)

    def best(self, s: int, mask: np.ndarray[Any, Any], untried: float = math.inf) -> int:
        return int(np.argmax(np.where(mask.astype(bool), self.values(s, untried), -np.inf)))

    def explore(self, s: int, mask: np.ndarray[Any, Any]) -> int:
        if self.rng.random() < self.epsilon:
            return int(self.rng.choice(np.flatnonzero(mask)))
        return self.best(s, mask)

    def greedy(self, env: SingleAgentEnv, obs: dict[str, Any]) -> int:
        """The best action known (one never tried counts as worth nothing)."""
        return self.best(state(obs["observation"]), obs["action_mask"], untried=0.0)


def train(policy: RunningMeans, env: SingleAgentEnv, episodes: int, *, seed: int,
          gamma: float = 0.5) -> list[float]:
    """``episodes`` of one-step Q-learning on the shaped reward (each value the mean of
    its targets); each episode's return (the environment's own reward). A short horizon
    (``gamma``): with shaping, what an action did shows in the next steps' rewards."""
    returns: list[float] = []
    for episode in range(episodes):
        obs, _ = env.reset(seed=seed + episode)
        s = state(obs["observation"])
        total = 0.0
        while True:
            action = policy.explore(s, obs["action_mask"])
            following, reward, terminated, truncated, _ = env.step(action)
            total += reward
            done = terminated or truncated
            t = state(following["observation"])
            # the change in how far ahead the seat is (undiscounted: a discounted potential
            # would add (gamma - 1) * phi to every step, a drift that drowns it)
            target = reward + (0.0 if done else potential(following) - potential(obs))
            if not done:
                mask = following["action_mask"]
                target += gamma * float(policy.values(t, 0.0)[policy.best(t, mask, 0.0)])
            policy.total[s, action] += target
            policy.count[s, action] += 1
            obs, s = following, t
            if done:
                break
        returns.append(total)
    return returns


def win_rate(policy: RunningMeans, tick: float, episodes: int) -> dict[str, Any]:
    played = evaluate(lambda: env_maker(tick), policy.greedy, episodes, seed=99)
    wins = sum(e.won for e in played)
    return {"wins": wins, "episodes": episodes, "ci": wilson(wins, episodes),
            "truncated": sum(e.truncated for e in played)}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--eval-episodes", type=int, default=20)
    parser.add_argument("--tick", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    policy = RunningMeans(np.random.default_rng(args.seed))
    env = env_maker(args.tick)
    curve = [(0, win_rate(policy, args.tick, args.eval_episodes))]
    start = time.process_time()
    done = 0
    while done < args.episodes:
        batch = min(args.every, args.episodes - done)
        train(policy, env, batch, seed=args.seed * 100_000 + done)
        done += batch
        curve.append((done, win_rate(policy, args.tick, args.eval_episodes)))
        if not args.json:
            print(f"after {done} episodes: {curve[-1][1]}", flush=True)
    result = {"curve": curve, "cpu_seconds": time.process_time() - start}
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
    return result


if __name__ == "__main__":
    main()
