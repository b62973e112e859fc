"""An approximate best response against our Hard player, trained in bounded CPU time.

A learner plays one seat of ``make_single(game, opponents="hard")`` (every other seat is
Hard) and trains for ``--cpu`` seconds of CPU time; then its greedy policy plays
``--eval`` seeded episodes it never trained on, and its win rate against Hard is printed
with a 95% Wilson interval. That figure is a *lower bound* on how exploitable Hard is: a
better learner, or more time, could only find more.

The learner is the simplest one that could work on every game, numpy only: Q-learning
with a linear action value over the environment's observation and 256 fixed random ReLU
features of it, epsilon-greedy among the legal actions (the mask), seeded. The reward is
the environment's (+1 for a win, -1 / (n - 1) for a loss) plus potential-based shaping
(Ng, Harada and Russell 1999: adding ``gamma * phi(next) - phi(now)`` leaves the best
policy unchanged), where ``phi`` is the learner's share of what the game is won with,
read from its own observation: Splunk, the opponent's pile minus its own; Slapjack, its
own cards; Slabberjan, its own chips. It knows nothing else about the games.

    .venv/bin/python examples/best_response.py splunk --cpu 180 --eval 100
    .venv/bin/python examples/best_response.py slabberjan --players 4 --cpu 180
    .venv/bin/python examples/best_response.py slapjack --json

Random legal play is evaluated on the same episodes, as a floor.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.envs import make_single
from parlour.sim.stats import wilson

Obs = np.ndarray[Any, Any]

#: what a seat holds of what its game is won with, from its own observation
#: (the layouts of parlour.envs.encoding; index 0 is always the observing seat)
POTENTIALS: dict[str, Callable[[Obs], float]] = {
    "splunk": lambda x: float(x[1] - x[0]),      # piles / 27: the opponent's less its own
    "slapjack": lambda x: float(x[0]),           # its cards / 52
    "slabberjan": lambda x: float(x[21]),        # its chips / (chips x players)
}
PLAYERS = {"splunk": 2, "slapjack": 2, "slabberjan": 4}


@dataclass
class Learner:
    """Q-learning with a linear action value per action over the observation, random ReLU
    features of it and a bias, epsilon-greedy among the legal actions; each step's size is
    normalised by the features' squared length (NLMS), which keeps it stable whatever the
    game's layout."""

    size: int
    actions: int
    seed: int
    rate: float = 0.1
    epsilon: float = 0.05
    gamma: float = 0.99

    #: random ReLU features added to the observation, so that a linear value can weigh
    #: combinations (a call is worth what the stack it names holds)
    hidden: int = 256

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)
        self.projection = self.rng.normal(0.0, 1.0 / np.sqrt(self.size),
                                          (self.hidden, self.size))
        self.offset = self.rng.normal(0.0, 0.5, self.hidden)
        self.w = np.zeros((self.actions, self.size + self.hidden + 1))

    def features(self, x: Obs) -> Obs:
        x = x.astype(np.float64)
        return np.concatenate([x, np.maximum(self.projection @ x + self.offset, 0.0), [1.0]])

    def greedy(self, f: Obs, mask: Obs) -> int:
        return int(np.argmax(np.where(mask > 0, self.w @ f, -np.inf)))

    def act(self, f: Obs, mask: Obs) -> int:
        if self.rng.random() < self.epsilon:
            legal = np.flatnonzero(mask)
            return int(legal[self.rng.integers(len(legal))])
        return self.greedy(f, mask)

    def learn(self, f: Obs, a: int, reward: float, f_next: Obs | None,
              mask_next: Obs | None) -> None:
        target = reward
        if f_next is not None and mask_next is not None:
            target += self.gamma * float(np.max(np.where(mask_next > 0, self.w @ f_next,
                                                         -np.inf)))
        delta = target - float(self.w[a] @ f)
        self.w[a] += self.rate * delta * f / float(f @ f)


def make_env(game: str, players: int, reaction: str | None) -> Any:
    """Seat 0 learns, every other seat is Hard; in the races the learner's actions land
    after ``reaction`` (a speed's reaction times; ``"instant"``: within the tick), by
    default as Hard's do (the race benchmark)."""
    kwargs: dict[str, Any] = {}
    if reaction is not None:
        kwargs["reaction"] = 0.0 if reaction == "instant" else reaction
    return make_single(game, players=players, opponents="hard", seat=0, **kwargs)


def train(game: str, players: int, cpu: float, seed: int,
          reaction: str | None = None) -> tuple[Learner, dict[str, Any]]:
    env = make_env(game, players, reaction)
    phi = POTENTIALS[game]
    obs, _ = env.reset(seed=seed)
    learner = Learner(len(obs["observation"]), int(env.action_space.n), seed)
    start = time.process_time()
    episodes = steps = wins = 0
    while time.process_time() - start < cpu:
        obs, _ = env.reset(seed=seed * 1_000_003 + episodes)
        x = obs["observation"]
        f = learner.features(x)
        done = False
        while not done:
            a = learner.act(f, obs["action_mask"])
            obs, reward, terminated, truncated, _ = env.step(a)
            steps += 1
            x_next = obs["observation"]
            done = terminated or truncated
            shaped = reward + (0.0 if done else learner.gamma * phi(x_next)) - phi(x)
            f_next = None if terminated else learner.features(x_next)
            learner.learn(f, a, shaped, f_next, None if terminated else obs["action_mask"])
            x, f = x_next, (f_next if f_next is not None else f)
        episodes += 1
        wins += reward > 0
    env.close()
    return learner, {"episodes": episodes, "steps": steps, "training_wins": wins,
                     "cpu_s": time.process_time() - start}


def evaluate(game: str, players: int, episodes: int, seed: int,
             choose: Callable[[Obs, Obs], int], reaction: str | None = None
             ) -> dict[str, Any]:
    """The win rate over ``episodes`` seeded episodes (never trained on) of
    ``choose(observation, mask)`` in seat 0 against Hard in every other seat."""
    wins = finished = 0
    for i in range(episodes):
        episode_seed = 10_000_000 + seed * 1_000_003 + i
        env = make_env(game, players, reaction)
        obs, _ = env.reset(seed=episode_seed)
        done = False
        reward = 0.0
        while not done:
            obs, reward, terminated, truncated, _ = env.step(
                choose(obs["observation"], obs["action_mask"]))
            done = terminated or truncated
        finished += terminated
        wins += reward > 0
        env.close()
    lo, hi = wilson(wins, episodes)
    return {"episodes": episodes, "wins": wins, "finished": finished,
            "win_rate": wins / episodes, "ci95": [lo, hi]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=sorted(POTENTIALS))
    parser.add_argument("--players", type=int)
    parser.add_argument("--cpu", type=float, default=180.0, help="training CPU seconds")
    parser.add_argument("--eval", type=int, default=100, help="evaluation episodes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reaction", choices=["easy", "normal", "hard", "expert", "instant"],
                        help="races: the learner reacts as this speed does (default: as "
                             "Hard, the race benchmark; instant: within the tick, quicker "
                             "than any of our players)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    players = args.players or PLAYERS[args.game]
    reaction = None if args.game == "slabberjan" else args.reaction
    learner, trained = train(args.game, players, args.cpu, args.seed, reaction)
    f = learner.features
    result = evaluate(args.game, players, args.eval, args.seed,
                      lambda x, mask: learner.greedy(f(x), mask), reaction)
    random_rng = np.random.default_rng(args.seed)
    floor = evaluate(args.game, players, args.eval, args.seed,
                     lambda x, mask: int(random_rng.choice(np.flatnonzero(mask))), reaction)
    out = {"game": args.game, "players": players, "learner": "linear Q-learning",
           "reaction": reaction or "as Hard (the race benchmark)",
           "training": trained, "against_hard": result, "random_against_hard": floor}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    lo, hi = result["ci95"]
    print(f"{args.game}, {players} players (learner reacts: {out['reaction']}): trained "
          f"{trained['episodes']} episodes "
          f"({trained['steps']} steps) in {trained['cpu_s']:.0f} s CPU; against Hard it won "
          f"{result['wins']} of {result['episodes']}, {result['win_rate']:.1%} "
          f"[95% {lo:.1%} .. {hi:.1%}]; random play won {floor['wins']} of {floor['episodes']}")


if __name__ == "__main__":
    main()
