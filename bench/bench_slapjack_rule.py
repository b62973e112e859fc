"""Is the single-agent Slapjack environment an equal race? The simplest rule against Hard.

The rule "slap every Jack at once, flip on your turn, nothing else" sits in the agent's
seat of ``make_single("slapjack", opponents="hard", reaction="hard")``, and so does Hard
itself (``BotPolicy("hard")``), on the same seeded episodes, with a paired interval of the
difference (``evaluate.head_to_head``). Hard never misses a Jack nor slaps anything else
(``docs/bots.md``), so with the learner's reaction drawn as Hard's is, the rule should win
about half, as Hard does: a rule far above half means the environment gives the agent an
edge a person at a table would not have (``docs/research.md``, "How far from a best
response").

    .venv/bin/python bench/bench_slapjack_rule.py --episodes 1000
"""

from __future__ import annotations

import argparse
from typing import Any

from parlour.envs import make_single
from parlour.envs.evaluate import head_to_head
from parlour.envs.policies import BotPolicy, Choice
from parlour.envs.single import SingleAgentEnv

WAIT, FLIP, SLAP = 0, 1, 2


def rule(env: SingleAgentEnv, obs: dict[str, Any]) -> Choice:
    """A Jack on top: slap it; the seat's turn: flip; else wait (the env's reaction)."""
    mask = obs["action_mask"]
    table = env.env.table
    assert table is not None
    view = table.view(int(env.agent.removeprefix("seat_")))
    top = view.get("top")
    if top and str(top)[0] == "J" and mask[SLAP]:
        return SLAP
    if mask[FLIP]:
        return FLIP
    return WAIT


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    result = head_to_head(lambda: make_single("slapjack", opponents="hard", reaction="hard"),
                          rule, BotPolicy("hard"), args.episodes, seed=args.seed)
    (rule_rate, hard_rate), (rule_ci, hard_ci) = result.win_rates, result.win_cis
    print(f"the rule:  {result.wins[0]} of {args.episodes}: {rule_rate:.1%} "
          f"[{rule_ci[0]:.1%} .. {rule_ci[1]:.1%}]")
    print(f"Hard:      {result.wins[1]} of {args.episodes}: {hard_rate:.1%} "
          f"[{hard_ci[0]:.1%} .. {hard_ci[1]:.1%}]")
    low, high = result.ci
    print(f"rule less Hard (paired): {100 * result.difference:+.1f} points "
          f"[{100 * low:+.1f} .. {100 * high:+.1f}]")


if __name__ == "__main__":
    main()
