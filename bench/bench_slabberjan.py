"""How many whole games of Slabberjan per second, on the fast and on the checked path.

Each game is random legal play from a seeded generator (one seed per game, so every run
plays the same games): ``push`` is the unchecked, event-free path simulations use; ``apply``
checks every action and builds its events.

    .venv/bin/python bench/bench_slabberjan.py
    .venv/bin/python bench/bench_slabberjan.py --players 2 6 42 --games 300
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from parlour.engine import Action
from parlour.games.slabberjan import Slabberjan


def play(players: int, seed: int, checked: bool) -> int:
    """Plays one whole game; returns how many actions it took."""
    game = Slabberjan(players, seed=seed)
    rng = random.Random(seed)
    move: Callable[[Action], object] = game.apply if checked else game.push
    legal = game.legal_actions
    choice = rng.choice
    while game.winner is None:
        move(choice(legal(game.turn)))  # type: ignore[arg-type]
    return len(game.history)


def measure(players: int, games: int, checked: bool, seed: int) -> tuple[float, float]:
    """(games per second, mean actions per game) over ``games`` seeded games."""
    start = time.perf_counter()
    actions = sum(play(players, seed + i, checked) for i in range(games))
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / games


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[6, 42],
                        help="table sizes to measure (default: 6 42)")
    parser.add_argument("--games", type=int, default=200, help="games per row (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed (default 0)")
    args = parser.parse_args(argv)
    print(f"{'players':>7}  {'path':<5}  {'games':>5}  {'actions/game':>12}  "
          f"{'games/s':>9}  {'actions/s':>10}")
    for players in args.players:
        for path in ("push", "apply"):
            rate, length = measure(players, args.games, path == "apply", args.seed)
            print(f"{players:>7}  {path:<5}  {args.games:>5}  {length:>12.1f}  "
                  f"{rate:>9.1f}  {rate * length:>10.0f}")


if __name__ == "__main__":
    main()
