"""A PPO baseline per game, to compare with: MaskablePPO in the race benchmark preset.

``pip install sb3-contrib`` (it brings stable-baselines3 and torch; not one of Parlour's
extras). Each game is its registered Gymnasium id (:mod:`parlour.envs.registry`: one
learner against Normal computer players, reacting in the races as they do), trained for
``--steps`` environment steps from ``--seed`` with sb3-contrib's ``MaskablePPO`` and its
defaults (the mask is the environment's ``action_masks``), then its deterministic policy
plays ``--eval`` seeded episodes it never trained on; a random legal player plays the same
episodes. Both win rates come with 95% Wilson intervals, and the CPU time is printed.

    .venv/bin/python examples/ppo_baseline.py                      # every game
    .venv/bin/python examples/ppo_baseline.py --game splunk --steps 100000 --seed 3
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

import parlour.envs  # noqa: F401  (registers the ids)
from parlour.sim.stats import wilson

IDS = {"slabberjan": "parlour/Slabberjan-v0", "slapjack": "parlour/Slapjack-v0",
       "splunk": "parlour/Splunk-v0"}


def make(game: str) -> Any:
    env = gymnasium.make(IDS[game])
    return ActionMasker(env, lambda e: e.unwrapped.action_masks())


def play(game: str, choose: Any, episodes: int, seed: int) -> tuple[int, int]:
    """Wins and finished games of ``choose(obs, mask)`` on seeded episodes."""
    wins = finished = 0
    env = make(game)
    for i in range(episodes):
        obs, _ = env.reset(seed=10_000_000 + seed * 1_000_003 + i)
        done, reward = False, 0.0
        while not done:
            obs, reward, terminated, truncated, _ = env.step(
                choose(obs, env.unwrapped.action_masks()))
            done = terminated or truncated
        wins += reward > 0
        finished += terminated
    env.close()
    return wins, finished


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--game", choices=sorted(IDS), action="append")
    parser.add_argument("--steps", type=int, default=30_000, help="training steps")
    parser.add_argument("--eval", type=int, default=40, help="evaluation episodes")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for game in args.game or sorted(IDS):
        start = time.process_time()
        model = MaskablePPO("MultiInputPolicy", make(game), seed=args.seed, verbose=0)
        model.learn(total_timesteps=args.steps)
        trained = time.process_time() - start
        wins, finished = play(game, lambda obs, mask, model=model: int(model.predict(
            obs, action_masks=mask, deterministic=True)[0]), args.eval, args.seed)
        rng = np.random.default_rng(args.seed)
        floor, _ = play(game, lambda obs, mask, rng=rng: int(rng.choice(np.flatnonzero(mask))),
                        args.eval, args.seed)
        lo, hi = wilson(wins, args.eval)
        flo, fhi = wilson(floor, args.eval)
        print(f"{IDS[game]}: MaskablePPO, {args.steps} steps, seed {args.seed}, "
              f"{trained:.0f} s CPU of training: won {wins} of {args.eval} against Normal, "
              f"{wins / args.eval:.0%} [95% {lo:.0%} .. {hi:.0%}] ({finished} finished); "
              f"random legal play {floor} of {args.eval} [{flo:.0%} .. {fhi:.0%}]",
              flush=True)


if __name__ == "__main__":
    main()
