"""OpenSpiel's information-set MCTS playing Slabberjan against our Hard players.

The game is ``parlour_slabberjan`` (:mod:`parlour.spiel.slabberjan`). Seat 0 is OpenSpiel's
``ISMCTSBot``: before each decision it samples the worlds it cannot tell apart with the
state's ``resample_from_infostate`` (the other seats' pieces, drawn among every deal that
agrees with what seat 0 was told: its own piece, what its swaps showed it, the matadors
announced, who had to hold a matador to stand), searches them with UCT and evaluates a
leaf by one random rollout to the end of the game. Every other seat is our Hard player
(:class:`parlour.spiel.ParlourBot`), which samples the hidden pieces too and plays each
round through. With ``--free-choice`` every seat may stand instead of swapping, so seat 0
decides every turn, not only as the dealer.

    .venv/bin/python examples/slabberjan_ismcts.py                       # 20 games
    .venv/bin/python examples/slabberjan_ismcts.py --games 40 --free-choice

It prints the IS-MCTS win rate with a 95% Wilson interval beside the even share (one in
``players``), and the CPU time it took.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import parlour.spiel  # noqa: F401  (registers the games)
from parlour.sim.stats import wilson
from parlour.spiel import ParlourBot


def ismcts_bot(game: Any, simulations: int, seed: int) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1,
                                            random_state=np.random.RandomState(seed))
    return ismcts.ISMCTSBot(game, evaluator, uct_c=1.5, max_simulations=simulations,
                            max_world_samples=8, random_state=np.random.RandomState(seed),
                            use_observation_string=False,
                            allow_inconsistent_action_sets=False)


def play(game: Any, bots: list[Any], rng: np.random.RandomState) -> list[float]:
    """One game, chance sampled by its probabilities (ISMCTSBot has no ``restart_at``,
    which OpenSpiel's own ``evaluate_bots`` calls)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return list(state.returns())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--chips", type=int, default=3)
    parser.add_argument("--free-choice", action="store_true")
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--level", default="hard", help="the other seats' level")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = pyspiel.load_game("parlour_slabberjan", {
        "players": args.players, "chips": args.chips, "free_choice": args.free_choice})
    wins = 0
    start = time.process_time()
    for g in range(args.games):
        seed = args.seed * 1000 + g
        bots = [ismcts_bot(game, args.simulations, seed)] + [
            ParlourBot(game, s, args.level, seed=seed + s) for s in range(1, args.players)]
        returns = play(game, bots, np.random.RandomState(seed))
        wins += returns[0] > 0
        print(f"game {g + 1}: IS-MCTS {'won' if returns[0] > 0 else 'lost'} "
              f"({wins} won so far)", flush=True)
    lo, hi = wilson(wins, args.games)
    cpu = time.process_time() - start
    print(f"IS-MCTS ({args.simulations} simulations a decision) against {args.players - 1} "
          f"{args.level}: {wins} of {args.games} won, {wins / args.games:.0%} "
          f"[95% {lo:.0%} .. {hi:.0%}] (even share {1 / args.players:.0%}); {cpu:.0f} s CPU")


if __name__ == "__main__":
    main()
