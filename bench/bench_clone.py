"""Snapshots: what a copy of a game costs, ``Game.clone`` beside rebuilding it from its record.

For each game and size, random legal play (seeded) reaches a position ``--moves`` actions in
(or the game's end, if sooner); then, in the same run, that position is copied again and
again five ways:

- ``clone``: :meth:`Game.clone`, the state copied (what a planner calls at every node);
- ``deepcopy`` and ``pickle``: ``copy.deepcopy`` (a clone) and a ``pickle`` round trip;
- ``replay fast``: a new game from the record's decks and options, every action ``push``-ed
  (the cheapest replay there is: unchecked, no events);
- ``replay checked``: :func:`parlour.games.replay` of the record (checked, with events), the
  only way to copy a game before ``clone``.

The table gives microseconds per copy and the ratio of the fast replay to the clone.

    .venv/bin/python bench/bench_clone.py
    .venv/bin/python bench/bench_clone.py --moves 50 200 --json
"""

from __future__ import annotations

import argparse
import copy
import json
import pickle
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from parlour.engine import Game
from parlour.games import GAMES, replay

CASES: tuple[tuple[str, int], ...] = (
    ("slabberjan", 4), ("slabberjan", 42), ("slapjack", 2), ("slapjack", 6), ("splunk", 2))


def position(name: str, players: int, moves: int, seed: int) -> Game:
    game = GAMES[name](players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        actions = [a for s in range(players) for a in game.legal_actions(s)]
        if not actions:
            break
        game.apply(rng.choice(actions))
    return game


def replay_fast(game: Game) -> Game:
    record = game.record()
    twin = type(game)(game.players, seed=game.seed, options=record["options"],
                      decks=record["decks"], shuffles=record["shuffles"])
    for action in game.history:
        twin.push(action)
    return twin


def per_copy(copier: Callable[[Game], Game], game: Game, budget: float) -> float:
    """Microseconds per copy, over ``budget`` seconds of copies (at least 20)."""
    done, start = 0, time.perf_counter()
    while True:
        for _ in range(20):
            copier(game)
        done += 20
        elapsed = time.perf_counter() - start
        if elapsed >= budget:
            return elapsed / done * 1e6


WAYS: dict[str, Callable[[Game], Game]] = {
    "clone": lambda g: g.clone(),
    "deepcopy": copy.deepcopy,
    "pickle": lambda g: pickle.loads(pickle.dumps(g, pickle.HIGHEST_PROTOCOL)),
    "replay fast": replay_fast,
    "replay checked": lambda g: replay(g.record()),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--moves", type=int, nargs="+", default=[20, 200])
    parser.add_argument("--seconds", type=float, default=0.3, help="per figure (0.3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    for name, players in CASES:
        for moves in args.moves:
            game = position(name, players, moves, args.seed)
            row: dict[str, Any] = {"game": name, "players": players,
                                   "actions": len(game.history)}
            for way, copier in WAYS.items():
                twin = copier(game)
                assert twin.record() == game.record(), (name, way)
                row[way] = per_copy(copier, game, args.seconds)
            row["replay fast / clone"] = row["replay fast"] / row["clone"]
            rows.append(row)
            if not args.json:
                print(f"{name:>10} {players:>2}p {row['actions']:>4} actions: "
                      + "  ".join(f"{w} {row[w]:8.1f} us" for w in WAYS)
                      + f"  replay fast/clone {row['replay fast / clone']:6.1f}x",
                      flush=True)
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
