"""Slabberjan engine speed: whole games per second, and a replay against a plain baseline.

Two measurements, in the same run:

1. Random play: whole games of random legal play from a seeded generator (one seed per
   game, so every run plays the same games): ``push`` is the unchecked, event-free path
   simulations use; ``apply`` checks every action and builds its events. This includes the
   bot's own cost (``legal_actions`` and the random choice).
2. Replay: the same kind of games are recorded first, then their actions are replayed three
   ways, each fed the record's decks (one per deal, redeals included) and options:

   - ``checked``: ``Game.apply`` (every action checked, events built), as a live table does;
   - ``fast``: ``Game.push`` (unchecked, no events), as a simulation does;
   - ``reference``: :func:`reference_replay`, a minimal plain-Python Slabberjan written only
     to be fast, with the same rules (S1 to S12: inns, cat undo, bird, knight, fool over
     fool, the dealer's bag, payments, eliminations), asserted to end every game with the
     same chips and winner as the engine.

   The table gives actions and games per second for each, and the ratios fast/reference and
   checked/reference (targets as for Slapjack: fast >= 0.5, checked >= 0.25).

    .venv/bin/python bench/bench_slabberjan.py
    .venv/bin/python bench/bench_slabberjan.py --players 2 6 42 --games 300 --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from replay_compare import add_keep_option, compare_replays

from parlour.engine import Action, Game
from parlour.games.slabberjan import KINDS, Slabberjan


def play(players: int, seed: int, checked: bool, free_choice: bool = False) -> Slabberjan:
    """Plays one whole game of seeded random legal play; returns the finished game."""
    game = Slabberjan(players, seed=seed, options={"free_choice": free_choice})
    rng = random.Random(seed)
    move: Callable[[Action], object] = game.apply if checked else game.push
    legal = game.legal_actions
    choice = rng.choice
    while game.winner is None:
        move(choice(legal(game.turn)))  # type: ignore[arg-type]
    return game


def measure(players: int, games: int, checked: bool, seed: int) -> tuple[float, float]:
    """(games per second, mean actions per game) over ``games`` seeded games."""
    start = time.perf_counter()
    actions = sum(len(play(players, seed + i, checked).history) for i in range(games))
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / games


# -- the reference ---------------------------------------------------------------------------

#: Piece to rank, high to low: knight 20, bird 19, cat 18, inn 17, 12 16, ..., fool 0.
_RANK = {kind: len(KINDS) - 1 - i for i, kind in enumerate(KINDS)}
_KNIGHT, _BIRD, _CAT, _INN, _FOOL = 20, 19, 18, 17, 0
SWAP, STAND, DRAW = 0, 1, 2
_KIND = {"swap": SWAP, "stand": STAND, "draw": DRAW}


def reference_replay(players: int, chips: int, dealer: int,
                     decks: Sequence[Sequence[str]],
                     actions: Sequence[tuple[int, int]]) -> tuple[list[int], int]:
    """Plain Slabberjan, fast and nothing else. ``actions``: (0 swap, 1 stand, 2 draw; player).

    ``decks`` gives the order of each deal, top first. Returns (chips, winner or -1), to
    check that it played the same game. Pieces are ranks (-1: an eliminated seat's hand).
    """
    n = players
    rank = _RANK
    purse = [chips] * n
    out = [False] * n
    hands = [-1] * n
    dealt: list[int] = []
    bag: list[int] = []
    active, pot, winner, top, turn = n, 0, -1, 0, 0
    deck_iter = iter(decks)

    def nxt(s: int) -> int:
        s += 1
        while True:
            if s == n:
                s = 0
            if not out[s]:
                return s
            s += 1

    def deal() -> None:  # S2, S3
        nonlocal bag, dealt, top, turn
        bag = [rank[x] for x in next(deck_iter)]
        s = dealer
        for i in range(active):
            s = nxt(s)
            hands[s] = bag[i]
        dealt = hands[:]
        top = active
        turn = nxt(dealer)

    def undo() -> None:  # S5 cat
        for s in range(n):
            if not out[s]:
                hands[s] = dealt[s]

    def pay(seats: list[int]) -> None:  # S11, S12
        nonlocal pot, active, winner
        if sum(1 for s in seats if not purse[s]) == active:
            return
        for s in seats:
            if purse[s]:
                purse[s] -= 1
                pot += 1
            else:
                out[s] = True
                active -= 1
                hands[s] = -1
        if active == 1:
            winner = out.index(False)
            purse[winner] += pot
            pot = 0

    def payers() -> list[int]:  # S10
        fools = []
        others = []
        for s in range(n):
            piece = hands[s]
            if piece == _FOOL:
                fools.append(s)
            elif piece > 0:
                others.append((piece, s))
        need = 2 if len(fools) >= 2 else 1
        if len(others) <= need:
            return fools + [s for _, s in others]
        cutoff = sorted(r for r, _ in others)[need - 1]
        return fools + [s for r, s in others if r <= cutoff]

    deal()
    for kind, p in actions:
        end = False
        if kind == SWAP:  # S4 to S7
            target = nxt(p)
            piece: int | None = hands[target]
            while piece == _INN:
                target = nxt(target)
                piece = None if target == p else hands[target]
            if piece is None:
                turn = nxt(p)
            elif piece == _CAT:
                undo()
                pay([p])
                turn = nxt(p)
            elif piece == _BIRD:
                turn = dealer
            elif piece == _KNIGHT:
                pay([p])
                end = True
            elif piece == _FOOL and hands[p] == _FOOL:
                deal()
            else:
                hands[p], hands[target] = piece, hands[p]
                turn = nxt(p)
        elif kind == STAND:
            if p == dealer:
                end = True
            else:
                turn = nxt(p)
        else:  # S8
            while top < 42:
                piece = bag[top]
                top += 1
                if piece < _INN:
                    hands[p] = piece
                    break
                if piece == _INN:
                    continue
                if piece == _CAT:
                    undo()
                    pay([p])
                elif piece == _KNIGHT:
                    pay([p])
                break
            end = True
        if end and winner < 0:  # S9, then the deal passes on (S1)
            pay(payers())
            if winner < 0:
                dealer = nxt(dealer)
                deal()
    return purse, winner


# -- the replay ------------------------------------------------------------------------------


def replay(records: Sequence[dict[str, Any]], repeats: int, *, keep: bool = False
           ) -> dict[str, float]:
    """Actions and games per second through ``apply``, ``push`` and the reference."""
    tuples = [[(_KIND[a["type"]], a["player"]) for a in r["actions"]] for r in records]

    def start(record: dict[str, Any]) -> Game:
        return Slabberjan(record["players"], options=record["options"], decks=record["decks"])

    def end_of(game: Game) -> object:
        assert isinstance(game, Slabberjan)
        return (game.chips, game.winner)

    def reference() -> list[object]:
        return [reference_replay(r["players"], r["options"]["chips"], r["options"]["dealer"],
                                 r["decks"], actions)
                for r, actions in zip(records, tuples, strict=True)]

    return compare_replays(records, start, end_of, reference, repeats, keep=keep)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[6, 42],
                        help="table sizes to measure (default: 6 42)")
    parser.add_argument("--games", type=int, default=200,
                        help="games per random-play row (default 200)")
    parser.add_argument("--replay-actions", type=int, default=10_000,
                        help="record whole games until this many actions per table size "
                             "(default 10000)")
    parser.add_argument("--repeats", type=int, default=7, help="replay: best of this many runs")
    parser.add_argument("--free-choice", action="store_true",
                        help="replay games with option free_choice (random stands)")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed (default 0)")
    add_keep_option(parser)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    random_play = []
    for players in args.players:
        for path in ("push", "apply"):
            rate, length = measure(players, args.games, path == "apply", args.seed)
            random_play.append({"players": players, "path": path, "games": args.games,
                                "actions_per_game": length, "games_per_s": rate,
                                "actions_per_s": rate * length})
    replays = []
    for players in args.players:
        records: list[dict[str, Any]] = []
        while sum(len(r["actions"]) for r in records) < args.replay_actions:
            records.append(play(players, args.seed + len(records), False,
                                args.free_choice).record())
        replays.append({"players": players, "games": len(records),
                        **replay(records, args.repeats, keep=args.keep)})

    if args.json:
        json.dump({"random_play": random_play, "replay": replays}, sys.stdout, indent=1)
        print()
        return 0
    print("Random play (whole games, including the random player's cost)")
    print(f"{'players':>7}  {'path':<5}  {'games':>5}  {'actions/game':>12}  "
          f"{'games/s':>9}  {'actions/s':>10}")
    for r in random_play:
        print(f"{r['players']:>7}  {r['path']:<5}  {r['games']:>5}  "
              f"{r['actions_per_game']:>12.1f}  {r['games_per_s']:>9.1f}  "
              f"{r['actions_per_s']:>10.0f}")
    print()
    print("Replay of recorded games (same decks and options; best of "
          f"{args.repeats}{', free_choice' if args.free_choice else ''})")
    print(f"{'players':>7} {'games':>5} {'actions':>7} {'ref act/s':>10} {'fast act/s':>10}"
          f" {'chk act/s':>10} {'ref g/s':>8} {'fast g/s':>8} {'chk g/s':>8}"
          f" {'fast/ref':>8} {'chk/ref':>7}")
    for r in replays:
        print(f"{r['players']:>7} {r['games']:>5} {r['actions']:>7} {r['reference']:>10,.0f}"
              f" {r['fast']:>10,.0f} {r['checked']:>10,.0f} {r['reference_games']:>8,.1f}"
              f" {r['fast_games']:>8,.1f} {r['checked_games']:>8,.1f}"
              f" {r['fast_ratio']:>8.2f} {r['checked_ratio']:>7.2f}")
    print("for comparison, Slapjack's targets: fast/ref >= 0.50, checked/ref >= 0.25")
    return 0


if __name__ == "__main__":
    sys.exit(main())
