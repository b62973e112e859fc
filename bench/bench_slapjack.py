"""Slapjack engine speed: actions per second replaying long recorded games.

Three ways through the same recorded actions, measured in the same run:

- ``checked``: ``Game.apply`` (every action checked, events built), as a live table does;
- ``fast``: ``Game.push`` (unchecked, no events), as a simulation does;
- ``reference``: :func:`reference_replay`, a minimal plain-Python Slapjack written only to
  be fast, with the same rules (J1 to J9) and the same decks and shuffles.

Targets (issue 2): fast >= 0.5 x reference, checked >= 0.25 x reference.

Run: ``.venv/bin/python bench/bench_slapjack.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import deque
from collections.abc import Sequence
from typing import Any

from replay_compare import add_keep_option, compare_replays

from parlour.engine import Game
from parlour.games.slapjack import Flip, Slap, Slapjack


def record_long_game(players: int, seed: int, min_actions: int) -> dict[str, Any]:
    """A seeded game with quick Jack slaps, some wrong and some late slaps, that lasts.

    The player with the fewest cards usually wins the Jack, as between evenly matched
    players, so that games run long.
    """
    for attempt in range(1000):
        game = Slapjack(players, seed=seed + attempt)
        rng = random.Random(seed + attempt)
        while game.outcome is None and len(game.history) < 200_000:
            view = game.view(None)
            seats = [s for s, p in enumerate(view["players"]) if not p["out"]]
            roll = rng.random()
            if view["slappable"] and roll < 0.9:
                behind = min(seats, key=lambda q: view["players"][q]["cards"])
                slapper = behind if rng.random() < 0.75 else rng.choice(seats)
                game.push(Slap(slapper, at=view["flips"]))
            elif roll < 0.03:
                game.push(Slap(rng.choice(seats), at=rng.choice([view["flips"], None])))
            elif view["turn"] is not None:
                game.push(Flip(view["turn"]))
        if len(game.history) >= min_actions:
            return game.record()
    raise RuntimeError("no game long enough")


def reference_replay(players: int, deck: Sequence[str], shuffles: Sequence[Sequence[str]],
                     actions: Sequence[tuple[int, int, int]]) -> list[int]:
    """Plain Slapjack, fast and nothing else. ``actions``: (kind 0=flip 1=slap, player, at or -1).

    Returns the card counts, to check that it played the same game.
    """
    stacks: list[deque[str]] = [deque() for _ in range(players)]
    for i, card in enumerate(deck):
        stacks[i % players].append(card)
    pile: list[str] = []
    out = [False] * players
    flips = 0
    owner = last = -1
    turn = 0
    next_shuffle = iter(shuffles)
    for kind, p, at in actions:
        if kind == 0:
            if pile and pile[-1][0] == "J":
                for q in range(players):
                    if not stacks[q] and not out[q]:
                        out[q] = True
            pile.append(stacks[p].popleft())
            flips += 1
            owner = last = p
            turn = -1
            for i in range(1, players + 1):
                q = (p + i) % players
                if stacks[q] and not out[q]:
                    turn = q
                    break
        else:
            if not pile or (at >= 0 and at != flips):
                continue
            if pile[-1][0] == "J":
                for q in range(players):
                    if q != p and not stacks[q] and not out[q]:
                        out[q] = True
                stacks[p].extend(next(next_shuffle))
                pile = []
                turn = p
            elif not stacks[p]:
                out[p] = True
            else:
                card = stacks[p].popleft()
                if owner == p or out[owner]:
                    pile.insert(0, card)
                else:
                    stacks[owner].append(card)
                if turn >= 0 and not stacks[turn]:
                    for i in range(1, players + 1):
                        q = (turn + i) % players
                        if stacks[q] and not out[q]:
                            turn = q
                            break
                    else:
                        turn = -1
        if sum(not o for o in out) > 1 and turn < 0 and pile and pile[-1][0] != "J":
            taker = last
            while out[taker]:
                taker = (taker + 1) % players
            stacks[taker].extend(next(next_shuffle))
            pile = []
            turn = taker
    return [len(s) for s in stacks]


def measure(record: dict[str, Any], repeats: int, *, keep: bool = False) -> dict[str, float]:
    players, deck, shuffles = record["players"], record["decks"][0], record["shuffles"]
    tuples = [(0 if a["type"] == "flip" else 1, a["player"], a.get("at", -1))
              for a in record["actions"]]

    def start(r: dict[str, Any]) -> Game:
        return Slapjack(players, decks=[deck], shuffles=shuffles)

    def counts(game: Game) -> object:
        return [p["cards"] for p in game.view(None)["players"]]

    def reference() -> list[object]:
        return [reference_replay(players, deck, shuffles, tuples)]

    return compare_replays([record], start, counts, reference, repeats, keep=keep)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--min-actions", type=int, default=3000,
                        help="length of the recorded games (actions)")
    parser.add_argument("--repeats", type=int, default=7, help="best of this many runs")
    add_keep_option(parser)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for players in (2, 4):
        record = record_long_game(players, args.seed, args.min_actions)
        rates = measure(record, args.repeats, keep=args.keep)
        rows.append({"players": players, **rates})
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
        return 0
    print(f"{'players':>7} {'actions':>8} {'reference/s':>12} {'fast/s':>10} {'checked/s':>10}"
          f" {'fast/ref':>9} {'checked/ref':>11}")
    for r in rows:
        print(f"{r['players']:>7} {r['actions']:>8} {r['reference']:>12,.0f} {r['fast']:>10,.0f}"
              f" {r['checked']:>10,.0f} {r['fast_ratio']:>9.2f} {r['checked_ratio']:>11.2f}")
    print("targets: fast/ref >= 0.50, checked/ref >= 0.25")
    return 0


if __name__ == "__main__":
    sys.exit(main())
