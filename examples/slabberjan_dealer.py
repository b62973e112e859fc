"""A tabular learner for Slabberjan's dealer decision (draw or stand), against Easy players.

Without ``free_choice`` the dealer's draw-or-stand is the only real choice in Slabberjan:
every other turn is forced (a piece below the inn must try to swap, a matador stands). So
one seat learns in :func:`parlour.envs.make_single` with ``reward="paid"`` (each step,
minus the chips it paid), takes its forced turns as the mask says, and at each of its dealer
decisions picks draw or stand from a table of two running means per piece it holds (21
kinds): epsilon-greedy, nothing but numpy.

Every ``--every`` training episodes the greedy policy is evaluated on the same fixed
episodes (seeds) as two baselines: a coin toss (what our Easy player does at this choice)
and Normal's threshold (draw below a 6). The figure is chips lost per dealer decision
(lower is better), with 95% intervals; the PNG is ``--out``, by default
``slabberjan_dealer.png`` in the current directory: the committed picture
(``examples/slabberjan_dealer.png``, the one docs/research.md shows) is drawn again only
when asked for by name.

    .venv/bin/python examples/slabberjan_dealer.py                     # about 30 s
    .venv/bin/python examples/slabberjan_dealer.py --episodes 6000 --players 5
    .venv/bin/python examples/slabberjan_dealer.py --out examples/slabberjan_dealer.png
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from parlour.envs import make_single
from parlour.games.slabberjan import KINDS, RANK

DRAW, STAND = 2, 1  # the Slabberjan codec's action numbers (0 is swap)
#: policy(piece index, rng) -> DRAW or STAND
Policy = Callable[[int, np.random.Generator], int]


def piece_of(obs: dict[str, Any]) -> int:
    """The seat's own piece: the first 21 numbers of its observation are its one-hot."""
    return int(np.argmax(obs["observation"][:len(KINDS)]))


def is_choice(mask: np.ndarray[Any, Any]) -> bool:
    """A dealer decision: both draw and stand are open."""
    return bool(mask[DRAW] and mask[STAND])


@dataclass
class Table:
    """Running mean of the chips each action brought, per piece."""

    total: np.ndarray[Any, Any] = field(default_factory=lambda: np.zeros((len(KINDS), 3)))
    count: np.ndarray[Any, Any] = field(default_factory=lambda: np.zeros((len(KINDS), 3)))

    def update(self, piece: int, action: int, reward: float) -> None:
        self.total[piece, action] += reward
        self.count[piece, action] += 1

    def value(self, piece: int, action: int) -> float:
        n = self.count[piece, action]
        return float(self.total[piece, action] / n) if n else 0.0

    def greedy(self, piece: int, rng: np.random.Generator) -> int:
        draw, stand = self.value(piece, DRAW), self.value(piece, STAND)
        return DRAW if draw > stand else STAND


def run_episode(env: Any, seed: int, choose: Policy, rng: np.random.Generator,
                learn: Table | None = None) -> list[float]:
    """One game; the chips each dealer decision brought (its step's reward)."""
    obs, _ = env.reset(seed=seed)
    outcomes: list[float] = []
    done = False
    steps = 0
    while not done and steps < 5000:
        mask = obs["action_mask"]
        if is_choice(mask):
            piece = piece_of(obs)
            action = choose(piece, rng)
        else:
            piece, action = -1, int(np.flatnonzero(mask)[0])  # a forced turn
        obs, reward, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
        steps += 1
        if piece >= 0:
            outcomes.append(reward)
            if learn is not None:
                learn.update(piece, action, reward)
    return outcomes


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    n = len(values)
    if n < 2:
        return (float(np.mean(values)) if values else 0.0, 0.0)
    return float(np.mean(values)), 1.96 * float(np.std(values, ddof=1)) / math.sqrt(n)


def coin(piece: int, rng: np.random.Generator) -> int:
    return DRAW if rng.random() < 0.5 else STAND


def threshold(piece: int, rng: np.random.Generator) -> int:
    return DRAW if RANK[KINDS[piece]] < RANK["6"] else STAND


def evaluate(env: Any, choose: Policy, seeds: Sequence[int]) -> tuple[float, float]:
    """Chips lost per dealer decision (mean, 95% half-width) over the evaluation seeds."""
    rng = np.random.default_rng(0)
    chips: list[float] = []
    for seed in seeds:
        chips += [-r for r in run_episode(env, seed, choose, rng)]
    return mean_ci(chips)


def train(episodes: int, every: int, eval_episodes: int, players: int, seed: int,
          epsilon: float = 0.2) -> dict[str, Any]:
    env = make_single("slabberjan", players=players, opponents="easy", seat=0,
                      reward="paid")
    rng = np.random.default_rng(seed)
    table = Table()
    eval_seeds = [10_000_000 + seed * 100_000 + i for i in range(eval_episodes)]
    baselines = {"coin toss (Easy)": evaluate(env, coin, eval_seeds),
                 "draw below a 6 (Normal)": evaluate(env, threshold, eval_seeds)}

    def explore(piece: int, r: np.random.Generator) -> int:
        return coin(piece, r) if r.random() < epsilon else table.greedy(piece, r)

    curve: list[tuple[int, float, float]] = [(0, *evaluate(env, table.greedy, eval_seeds))]
    for episode in range(1, episodes + 1):
        run_episode(env, seed * 1_000_003 + episode, explore, rng, learn=table)
        if episode % every == 0 or episode == episodes:
            curve.append((episode, *evaluate(env, table.greedy, eval_seeds)))
    policy = {KINDS[p]: ("draw" if table.greedy(p, rng) == DRAW else "stand")
              for p in range(len(KINDS)) if table.count[p, DRAW] + table.count[p, STAND]}
    return {"curve": curve, "baselines": baselines, "policy": policy,
            "decisions": int(table.count.sum()), "players": players}


def plot(result: dict[str, Any], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs = [c[0] for c in result["curve"]]
    ys = np.array([c[1] for c in result["curve"]])
    err = np.array([c[2] for c in result["curve"]])
    ax.plot(xs, ys, marker="o", color="#4c72b0", label="tabular learner (greedy)")
    ax.fill_between(xs, ys - err, ys + err, color="#4c72b0", alpha=0.2)
    for (name, (mean, half)), colour in zip(result["baselines"].items(),
                                            ("#c44e52", "#55a868"), strict=False):
        ax.axhline(mean, color=colour, linestyle="--", label=f"{name}: {mean:.3f}")
        ax.axhspan(mean - half, mean + half, color=colour, alpha=0.1)
    ax.set_xlabel("training episodes (games against Easy players)")
    ax.set_ylabel("chips lost per dealer decision (lower is better)")
    ax.set_title(f"Slabberjan, {result['players']} players: learning the dealer's "
                 "draw-or-stand")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--episodes", type=int, default=8000, help="training games (8000)")
    parser.add_argument("--every", type=int, default=500, help="evaluate every N (500)")
    parser.add_argument("--eval-episodes", type=int, default=400,
                        help="games per evaluation, the same seeds each time (400)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="slabberjan_dealer.png",
                        help="the PNG to draw (slabberjan_dealer.png here; the committed "
                             "one only by name)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    result = train(args.episodes, args.every, args.eval_episodes, args.players, args.seed)
    plot(result, args.out)
    final, half = result["curve"][-1][1:]
    print(f"{args.episodes} training games, {result['decisions']} dealer decisions, "
          f"{time.perf_counter() - start:.0f} s")
    for name, (mean, h) in result["baselines"].items():
        print(f"  {name:<24} {mean:.3f} +- {h:.3f} chips lost per dealer decision")
    print(f"  {'learner':<24} {final:.3f} +- {half:.3f}")
    print("  learned: draw on " + ", ".join(k for k, v in result["policy"].items()
                                            if v == "draw"))
    print(f"  figure: {args.out}")
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
