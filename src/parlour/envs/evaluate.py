"""Policies measured against each other: seeded episodes, and head to head with paired
confidence intervals.

:func:`head_to_head` plays policy ``a`` and policy ``b`` in the agent's seat of the same
episodes (the same seeds: the same deals, the same opponents' seeds), so that the luck of
the deal cancels in the difference of their results. The interval of the difference is
the paired one, from the spread of the per-episode differences: much narrower than two
independent intervals when the deal decides much of a game.

>>> from parlour.envs import make_single
>>> from parlour.envs.policies import BotPolicy
>>> result = head_to_head(lambda: make_single("slabberjan", players=3, opponents="easy"),
...                       BotPolicy("hard"), BotPolicy("easy"), episodes=4, seed=1)
>>> result.episodes, len(result.ci)
(4, 2)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from parlour.envs.policies import Policy
from parlour.envs.single import SingleAgentEnv
from parlour.envs.table import derive, seat_of
from parlour.sim.stats import Z95, wilson


@dataclass(frozen=True, slots=True)
class Episode:
    """How one episode went for the agent."""

    seed: int
    won: bool
    reward: float
    """The sum of the agent's rewards."""
    steps: int
    truncated: bool


def episode_seed(seed: int, index: int) -> int:
    """The environment seed of episode ``index`` of an evaluation seeded ``seed``."""
    return derive(seed, "evaluate", index) % 2**31


def run_episode(env: SingleAgentEnv, policy: Policy, seed: int, *,
                max_steps: int = 1_000_000) -> Episode:
    """One episode of ``policy`` in ``env`` from ``env.reset(seed=seed)``."""
    obs, _ = env.reset(seed=seed)
    total, steps = 0.0, 0
    terminated = truncated = False
    while not (terminated or truncated):
        if steps >= max_steps:
            raise RuntimeError(f"episode {seed} did not end in {max_steps} steps")
        choice = policy(env, obs)
        code, delay = choice if isinstance(choice, tuple) else (choice, None)
        obs, reward, terminated, truncated, _ = env.step(code, delay=delay)
        total += reward
        steps += 1
    table = env.env.table
    assert table is not None
    outcome = table.game.outcome
    won = outcome is not None and outcome.winner == seat_of(env.agent)
    return Episode(seed, won, total, steps, bool(truncated))


def evaluate(make_env: Callable[[], SingleAgentEnv], policy: Policy, episodes: int, *,
             seed: int = 0) -> list[Episode]:
    """``episodes`` seeded episodes of ``policy``, in one environment."""
    env = make_env()
    try:
        return [run_episode(env, policy, episode_seed(seed, i)) for i in range(episodes)]
    finally:
        env.close()


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two policies over the same episodes."""

    episodes: int
    wins: tuple[int, int]
    win_rates: tuple[float, float]
    win_cis: tuple[tuple[float, float], tuple[float, float]]
    """Each win rate's own 95% interval (Wilson)."""
    difference: float
    """``a``'s win rate minus ``b``'s."""
    ci: tuple[float, float]
    """The paired 95% interval of the difference."""
    mean_rewards: tuple[float, float]


def paired_ci(a: Sequence[float], b: Sequence[float], z: float = Z95
              ) -> tuple[float, tuple[float, float]]:
    """The mean of ``a[i] - b[i]`` and its normal-approximation interval.

    >>> mean, (low, high) = paired_ci([1, 1, 0, 1], [1, 0, 0, 1])
    >>> mean, round(low, 2), round(high, 2)
    (0.25, -0.24, 0.74)
    """
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = statistics.fmean(diffs)
    half = z * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return mean, (mean - half, mean + half)


def head_to_head(make_env: Callable[[], SingleAgentEnv], a: Policy, b: Policy,
                 episodes: int, *, seed: int = 0) -> HeadToHead:
    """``a`` and ``b`` each play the same ``episodes`` seeded episodes; see the module
    docstring."""
    if episodes < 2:
        raise ValueError(f"a paired interval needs 2 episodes or more, not {episodes}")
    first = evaluate(make_env, a, episodes, seed=seed)
    second = evaluate(make_env, b, episodes, seed=seed)
    wins = (sum(e.won for e in first), sum(e.won for e in second))
    difference, ci = paired_ci([float(e.won) for e in first], [float(e.won) for e in second])
    return HeadToHead(
        episodes, wins, (wins[0] / episodes, wins[1] / episodes),
        (wilson(wins[0], episodes), wilson(wins[1], episodes)), difference, ci,
        (statistics.fmean(e.reward for e in first), statistics.fmean(e.reward for e in second)))
