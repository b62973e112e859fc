"""OpenSpiel's information-set MCTS playing Splunk against our Hard player.

The game is ``parlour_splunk`` (:mod:`parlour.spiel.splunk`: the races as reaction rounds,
the quicker seat by a fair coin). Seat 0 is OpenSpiel's ``ISMCTSBot``, which samples the
worlds it cannot tell apart with the state's ``resample_from_infostate`` (in Splunk a
state hides nothing: a card is drawn when it is first turned over, so the world is the
state itself and the unseen cards are chance nodes ahead) and evaluates a leaf by the
pile sizes (a rollout of random play in Splunk is a long run of wrong slaps that says
little); seat 1 is our Hard player (:class:`parlour.spiel.ParlourBot`).
The seats swap every other game, so that neither plays first more often.

    .venv/bin/python examples/splunk_ismcts.py                      # 20 games
    .venv/bin/python examples/splunk_ismcts.py --games 40 --simulations 200

It prints the IS-MCTS win rate with a 95% Wilson interval, and the CPU time it took.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts
from open_spiel.python.algorithms.mcts import Evaluator

import parlour.spiel  # noqa: F401  (registers the games)
from parlour.sim.stats import wilson
from parlour.spiel import ParlourBot


class PileEvaluator(Evaluator):  # type: ignore[misc]
    """A leaf is worth the share of the cards the opponent holds, from -1 to 1 (Splunk is
    won by running out of cards); the prior is uniform."""

    def evaluate(self, state: Any) -> np.ndarray[Any, Any]:
        if state.is_terminal():
            return np.array(state.returns())
        cards = [p["cards"] for p in state.parlour.view(None)["players"]]
        v = (cards[1] - cards[0]) / max(1, cards[0] + cards[1])
        return np.array([v, -v])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def ismcts_bot(game: Any, simulations: int, seed: int) -> Any:
    # its worlds come from the state's resample_from_infostate (OpenSpiel's own call)
    return ismcts.ISMCTSBot(game, PileEvaluator(), uct_c=1.5, max_simulations=simulations,
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
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--level", default="hard", help="our player's level")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = pyspiel.load_game("parlour_splunk")
    wins = draws = 0
    start = time.process_time()
    for g in range(args.games):
        seed = args.seed * 1000 + g
        seat = g % 2  # where IS-MCTS sits
        bots = [ismcts_bot(game, args.simulations, seed),
                ParlourBot(game, 1 - seat, args.level, seed=seed)]
        if seat == 1:
            bots.reverse()
        returns = play(game, bots, np.random.RandomState(seed))
        wins += returns[seat] > 0
        draws += returns[seat] == 0
        print(f"game {g + 1}: IS-MCTS at seat {seat} {'won' if returns[seat] > 0 else 'lost'}"
              f" ({wins} won so far)", flush=True)
    lo, hi = wilson(wins, args.games)
    cpu = time.process_time() - start
    print(f"IS-MCTS ({args.simulations} simulations a decision) against {args.level}: "
          f"{wins} of {args.games} won, {wins / args.games:.0%} "
          f"[95% {lo:.0%} .. {hi:.0%}], {draws} draws; {cpu:.0f} s CPU")


if __name__ == "__main__":
    main()
