"""How many whole games of Splunk per second, on the fast and on the checked path.

Each game is random legal play from a seeded generator (one seed per game, so every run
plays the same games): ``push`` is the unchecked, event-free path simulations use; ``apply``
checks every action and builds its events. Two ways to pick the random actions:

- ``uniform``: any legal action of either seat, equally likely (``legal_actions``); many of
  them are wrong or late slaps, so games run long;
- ``people``: mostly plays; a slap on most slappable cards, a call now and then. It reads
  the public view only, as a front end would, and asks for no list of legal actions, so
  more of the time is the engine's own.

    .venv/bin/python bench/bench_splunk.py
    .venv/bin/python bench/bench_splunk.py --games 500 --jokers --policy people
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from parlour.engine import Action
from parlour.games.splunk import Call, Play, Slap, Splunk

Policy = Callable[[Splunk, random.Random], Action]


def uniform(game: Splunk, rng: random.Random) -> Action:
    return rng.choice(game.legal_actions(0) + game.legal_actions(1))


def people(game: Splunk, rng: random.Random) -> Action:
    roll = rng.random()
    if game.open_slap is not None and roll < 0.8:
        return Slap(rng.randrange(2), game.last_stack or 0, at=game.plays)
    if game.last_player is not None and not game.settled and roll < 0.15:
        return Call(1 - game.last_player)
    turn = game.turn
    assert turn is not None
    return Play(turn, rng.randrange(4))


POLICIES: dict[str, Policy] = {"uniform": uniform, "people": people}


def play(seed: int, checked: bool, policy: Policy, jokers: bool) -> int:
    """Plays one whole game; returns how many actions it took."""
    game = Splunk(2, seed=seed, options={"jokers": jokers})
    rng = random.Random(seed)
    move: Callable[[Action], object] = game.apply if checked else game.push
    while game.winner is None:
        move(policy(game, rng))
    return len(game.history)


def measure(games: int, checked: bool, policy: Policy, jokers: bool,
            seed: int) -> tuple[float, float]:
    """(games per second, mean actions per game) over ``games`` seeded games."""
    start = time.perf_counter()
    actions = sum(play(seed + i, checked, policy, jokers) for i in range(games))
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / games


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per row (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed (default 0)")
    parser.add_argument("--jokers", action="store_true", help="play with the two jokers")
    parser.add_argument("--policy", choices=sorted(POLICIES), nargs="+",
                        default=["people", "uniform"], help="how random play picks actions")
    args = parser.parse_args(argv)
    print(f"{'policy':<8}  {'path':<5}  {'games':>5}  {'actions/game':>12}  "
          f"{'games/s':>9}  {'actions/s':>10}")
    for name in args.policy:
        for path in ("push", "apply"):
            rate, length = measure(args.games, path == "apply", POLICIES[name], args.jokers,
                                   args.seed)
            print(f"{name:<8}  {path:<5}  {args.games:>5}  {length:>12.1f}  "
                  f"{rate:>9.1f}  {rate * length:>10.0f}")


if __name__ == "__main__":
    main()
