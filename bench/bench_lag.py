"""The fairness curve of issue 18: a modelled 500 ms person against Normal Slapjack (two
players), at 0, 25, 50, 75, 100 and 150 ms one-way network delay (plus a jitter of 5 ms
and a tenth of the delay, each way), with the server's compensation (it pings the page and
settles races by reaction time, ``parlour.live.lag``) and without (races by arrival, as
before), in the same run; and the price of fairness: how long races are held open after
their first slap (median and 99th percentile).

Every game is played on the live table's own code (a room of its own, ``Room.alone``: every
move through ``Room.commit``) on a virtual clock, the person a
:class:`parlour.live.remote.RemoteSeat`: its messages and its moves take the delay, its
pings too. ``--calibration`` prints instead the table of ``docs/bots.md``: the person's
share of games against each speed at 0, 50 and 100 ms.

    python bench/bench_lag.py [--games 300] [--seed 1] [--calibration]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from figures import percentile

from parlour.bots import LEVELS, make_person, make_player
from parlour.games import new_game
from parlour.live.remote import play_at_lag
from parlour.sim.stats import wilson

LAGS_MS = (0, 25, 50, 75, 100, 150)
CALIBRATION_LAGS_MS = (0, 50, 100)


def jitter_for(delay: float) -> float:
    return 0.005 + delay / 10


def play_cell(game: str, level: str, person: str, delay: float, *, compensate: bool,
              games: int, seed: int) -> dict[str, Any]:
    """``games`` games, the person at seat 0 and 1 in turn; its shares and the holds."""
    races = won_races = won_games = 0
    held: list[float] = []
    for g in range(games):
        seat = g % 2
        rng = random.Random(f"{seed}:{g}")
        state = new_game(game, players=2, seed=rng.getrandbits(63))
        computer = make_player(game, level, 1 - seat, seed=rng.getrandbits(63))
        remote = make_person(game, person, seat, seed=rng.getrandbits(63))
        table = play_at_lag(state, {1 - seat: computer}, remote, delay=delay,
                            jitter=jitter_for(delay) if delay else 0.0, pings=compensate,
                            seed=rng.getrandbits(63), level=level)
        for event in state.events:
            if event.type in ("take", "slap") and event.public().get("reason", "jack") == "jack":
                who = event.public()["player"]
                races += 1
                won_races += who == seat
        won_games += state.outcome is not None and state.outcome.winner == seat
        held += table.held
    return {"races": races, "race_share": won_races / races if races else 0.0,
            "race_ci": wilson(won_races, races), "games": games,
            "game_share": won_games / games, "game_ci": wilson(won_games, games),
            "held": held}


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def share(cell: dict[str, Any], what: str) -> str:
    lo, hi = cell[f"{what}_ci"]
    return f"{pct(cell[f'{what}_share'])} [{pct(lo)}, {pct(hi)}]"


def curve(games: int, seed: int) -> None:
    print(f"# A person:500 against Normal Slapjack, 2 players, {games} games a cell "
          f"(seed {seed}); [95% CI]")
    print("| one-way lag | compensation | slap races won | games won | held: median | p99 |")
    print("| --- | --- | --- | --- | --- | --- |")
    base: float | None = None
    worst = 0.0
    for ms in LAGS_MS:
        for compensate in (False, True):
            start = time.perf_counter()
            cell = play_cell("slapjack", "normal", "person:500", ms / 1000,
                             compensate=compensate, games=games, seed=seed)
            held = cell["held"]
            median = f"{percentile(held, 50) * 1000:.0f} ms" if held else "-"
            p99 = f"{percentile(held, 99) * 1000:.0f} ms" if held else "-"
            print(f"| {ms} ms | {'on' if compensate else 'off'} | {share(cell, 'race')} "
                  f"| {share(cell, 'game')} | {median} | {p99} |", flush=True)
            if compensate:
                if base is None:
                    base = cell["race_share"]
                worst = max(worst, abs(cell["race_share"] - base))
            print(f"  ({cell['races']} races, {time.perf_counter() - start:.1f} s)",
                  file=sys.stderr)
    print(f"\nWith compensation, the race share strays at most {100 * worst:.1f} points from "
          "its share at 0 ms (the goal: within 5).")


def calibration(games: int, seed: int, people: Sequence[int] = (400, 500, 600)) -> None:
    print(f"# Games won by a modelled person against each speed at Slapjack, 2 players, "
          f"{games} games a cell (seed {seed}), with the server's compensation; [95% CI]")
    head = ["speed"] + [f"person:{ms} at {lag} ms" for ms in people
                        for lag in CALIBRATION_LAGS_MS]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for level in LEVELS:
        cells = []
        for ms in people:
            for lag in CALIBRATION_LAGS_MS:
                cell = play_cell("slapjack", level, f"person:{ms}", lag / 1000,
                                 compensate=True, games=games, seed=seed)
                cells.append(share(cell, "game"))
        print("| " + " | ".join([level, *cells]) + " |", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calibration", action="store_true")
    args = parser.parse_args(argv)
    if args.calibration:
        calibration(args.games, args.seed)
    else:
        curve(args.games, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
