"""Splunk engine speed: whole games per second, and a replay against a plain baseline.

Random play: each game is random legal play from a seeded generator (one seed per game, so every run
plays the same games): ``push`` is the unchecked, event-free path simulations use; ``apply``
checks every action and builds its events. Two ways to pick the random actions:

- ``uniform``: any legal action of either seat, equally likely (``legal_actions``); many of
  them are wrong or late slaps, so games run long;
- ``people``: mostly plays; a slap on most slappable cards, a call now and then. It reads
  the public view only, as a front end would, and asks for no list of legal actions, so
  more of the time is the engine's own.

Replay: games of each policy are recorded first, then their actions are replayed three
ways in the same run, each fed the record's deck and options (``jokers``, ``first``):

- ``checked``: ``Game.apply`` (every action checked, events built), as a live table does;
- ``fast``: ``Game.push`` (unchecked, no events), as a simulation does;
- ``reference``: :func:`reference_replay`, a minimal plain-Python Splunk written only to be
  fast, with the same rules (P1 to P6), asserted to end every game with the same piles,
  stacks and winner as the engine.

The table gives actions and games per second for each, and the ratios fast/reference and
checked/reference (targets as for Slapjack: fast >= 0.5, checked >= 0.25).

    .venv/bin/python bench/bench_splunk.py
    .venv/bin/python bench/bench_splunk.py --games 500 --jokers --policy people --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from replay_compare import add_keep_option, compare_replays

from parlour.engine import Action, Game
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


def play(seed: int, checked: bool, policy: Policy, jokers: bool) -> Splunk:
    """Plays one whole game; returns the finished game."""
    game = Splunk(2, seed=seed, options={"jokers": jokers})
    rng = random.Random(seed)
    move: Callable[[Action], object] = game.apply if checked else game.push
    while game.winner is None:
        move(policy(game, rng))
    return game


def measure(games: int, checked: bool, policy: Policy, jokers: bool,
            seed: int) -> tuple[float, float]:
    """(games per second, mean actions per game) over ``games`` seeded games."""
    start = time.perf_counter()
    actions = sum(len(play(seed + i, checked, policy, jokers).history) for i in range(games))
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / games


# -- the reference ---------------------------------------------------------------------------

PLAY, CALL, SLAP = 0, 1, 2
_KIND = {"play": PLAY, "call": CALL, "slap": SLAP}
_VALUE = {**{r: i + 1 for i, r in enumerate("A23456789")}, "T": 10, "J": 10, "Q": 10, "K": 10,
          "X": 0}

End = tuple[list[list[str]], list[list[str]], int]


def reference_replay(deck: Sequence[str], first: int,
                     actions: Sequence[tuple[int, int, int, int]]) -> End:
    """Plain Splunk, fast and nothing else. ``actions``: (0 play, 1 call, 2 slap; player;
    stack or -1; at or -1).

    Returns (piles, stacks, winner or -1), to check that it played the same game.
    """
    value = _VALUE
    piles = [deque(deck[0::2]), deque(deck[1::2])]  # P1
    stacks = [[piles[s // 2].popleft()] for s in range(4)]  # P2
    plays, turn, winner = 0, first, -1
    last_player = last_stack = -1
    open_slap = settled = False
    for kind, p, s, at in actions:
        if kind == PLAY:  # P3
            stack = stacks[s]
            card = piles[p].popleft()
            stack.append(card)
            plays += 1
            last_player, last_stack, settled = p, s, False
            rank = card[0]
            n = len(stack)
            open_slap = rank == "X" or (n >= 3 and (stack[-2][0] == rank or (
                n >= 4 and stack[-3][0] == rank)))
            turn = 1 - p
            if not piles[turn]:  # P6: the opponent's last play stood
                winner = turn
            continue
        if kind == CALL:  # P4
            s = last_stack
            if sum(value[c[0]] for c in stacks[s]) > 21:
                taker, base = last_player, p
            else:
                taker, base = p, last_player
            settled, open_slap = True, False
        else:  # P5
            if (at >= 0 and at != plays) or (s == last_stack and settled):
                continue  # stale
            if s == last_stack and open_slap:
                taker, base = 1 - p, p
                settled, open_slap = True, False
            else:
                taker, base = p, 1 - p
                if s == last_stack:
                    settled, open_slap = True, False
        piles[taker].extend(stacks[s])
        pile = piles[base]
        if not pile:  # P6: no card for the base
            stacks[s] = []
            winner = base
            continue
        stacks[s] = [pile.popleft()]
        if not pile:  # P6: the last card laid as a base
            winner = base
            continue
        turn = taker
    return [list(p) for p in piles], stacks, winner


# -- the replay ------------------------------------------------------------------------------


def replay(records: Sequence[dict[str, Any]], repeats: int, *, keep: bool = False
           ) -> dict[str, float]:
    """Actions and games per second through ``apply``, ``push`` and the reference."""
    tuples = [[(_KIND[a["type"]], a["player"], a.get("stack", -1),
                -1 if a.get("at") is None else a["at"]) for a in r["actions"]] for r in records]

    def start(record: dict[str, Any]) -> Game:
        return Splunk(2, options=record["options"], decks=record["decks"])

    def end_of(game: Game) -> object:
        assert isinstance(game, Splunk)
        return ([list(p) for p in game.piles], game.stacks, game.winner)

    def reference() -> list[object]:
        return [reference_replay(r["decks"][0], r["options"]["first"], actions)
                for r, actions in zip(records, tuples, strict=True)]

    return compare_replays(records, start, end_of, reference, repeats, keep=keep)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per row (default 300)")
    parser.add_argument("--replay-actions", type=int, default=20_000,
                        help="record whole games until this many actions per policy "
                             "(default 20000)")
    parser.add_argument("--repeats", type=int, default=7, help="replay: best of this many runs")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed (default 0)")
    parser.add_argument("--jokers", action="store_true", help="play with the two jokers")
    parser.add_argument("--policy", choices=sorted(POLICIES), nargs="+",
                        default=["people", "uniform"], help="how random play picks actions")
    add_keep_option(parser)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    random_play = []
    for name in args.policy:
        for path in ("push", "apply"):
            rate, length = measure(args.games, path == "apply", POLICIES[name], args.jokers,
                                   args.seed)
            random_play.append({"policy": name, "path": path, "games": args.games,
                                "actions_per_game": length, "games_per_s": rate,
                                "actions_per_s": rate * length})
    replays = []
    for name in args.policy:
        records: list[dict[str, Any]] = []
        while sum(len(r["actions"]) for r in records) < args.replay_actions:
            game = play(args.seed + len(records), False, POLICIES[name], args.jokers)
            records.append(game.record())
        replays.append({"policy": name, "games": len(records),
                        **replay(records, args.repeats, keep=args.keep)})

    if args.json:
        json.dump({"random_play": random_play, "replay": replays}, sys.stdout, indent=1)
        print()
        return 0
    print("Random play (whole games, including the random player's cost)")
    print(f"{'policy':<8}  {'path':<5}  {'games':>5}  {'actions/game':>12}  "
          f"{'games/s':>9}  {'actions/s':>10}")
    for r in random_play:
        print(f"{r['policy']:<8}  {r['path']:<5}  {r['games']:>5}  "
              f"{r['actions_per_game']:>12.1f}  {r['games_per_s']:>9.1f}  "
              f"{r['actions_per_s']:>10.0f}")
    print()
    print("Replay of recorded games (same deck and options; best of "
          f"{args.repeats}{', jokers' if args.jokers else ''})")
    print(f"{'policy':<8} {'games':>5} {'actions':>7} {'ref act/s':>10} {'fast act/s':>10}"
          f" {'chk act/s':>10} {'ref g/s':>8} {'fast g/s':>8} {'chk g/s':>8}"
          f" {'fast/ref':>8} {'chk/ref':>7}")
    for r in replays:
        print(f"{r['policy']:<8} {r['games']:>5} {r['actions']:>7} {r['reference']:>10,.0f}"
              f" {r['fast']:>10,.0f} {r['checked']:>10,.0f} {r['reference_games']:>8,.1f}"
              f" {r['fast_games']:>8,.1f} {r['checked_games']:>8,.1f}"
              f" {r['fast_ratio']:>8.2f} {r['checked_ratio']:>7.2f}")
    print("for comparison, Slapjack's targets: fast/ref >= 0.50, checked/ref >= 0.25")
    return 0


if __name__ == "__main__":
    sys.exit(main())
