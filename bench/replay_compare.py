"""The measurement every engine benchmark shares: the same recorded actions replayed through
the checked path (``Game.apply``), the fast path (``Game.push``) and a game's minimal
plain-Python reference, in the same run, with the reference asserted to play the same games.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from typing import Any

from parlour.engine import Action, Game


def best_of(repeats: int, run: Callable[[], object]) -> float:
    """The shortest of ``repeats`` timings of ``run``, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def compare_replays(
    records: Sequence[dict[str, Any]],
    start: Callable[[dict[str, Any]], Game],
    end_of: Callable[[Game], object],
    reference: Callable[[], list[object]],
    repeats: int,
    *,
    keep: bool = False,
) -> dict[str, float]:
    """Actions and games per second through ``apply``, ``push`` and ``reference``.

    ``start(record)`` is a record's game before any action; ``end_of(game)`` is what the
    reference returns for that game (one item per record), so that a reference that played
    another game is caught rather than timed.

    Each replayed game is let go once its end is read, as the reference lets go of its
    state and a simulation of its finished games: like for like. ``keep``: every game is
    kept until the run is over instead, as the first version of this bench did. Kept, a
    run holds every game's history and events at once (137 Splunk games, 20,000 events),
    and Python's cyclic garbage collector walks them again and again: a cost of holding
    many games in one process, which a live table (one game) or a simulation does not
    pay, and which the ratios then put on the engine.
    """
    parsed: list[list[Action]] = [[start(r).parse_action(a) for a in r["actions"]]
                                  for r in records]

    def engine(checked: bool) -> list[Any]:
        """The games' ends, or the games played (``keep``)."""
        kept: list[Any] = []
        for record, actions in zip(records, parsed, strict=True):
            game = start(record)
            move = game.apply if checked else game.push
            for action in actions:
                move(action)
            kept.append(game if keep else end_of(game))
        return kept

    ends = reference()
    for played in (engine(False), engine(True)):
        if keep:
            played = [end_of(g) for g in played]
        assert played == ends, "the reference played another game"
    actions = sum(len(a) for a in parsed)
    runs: dict[str, Callable[[], object]] = {
        "reference": reference, "fast": lambda: engine(False), "checked": lambda: engine(True)}
    # In turns (reference, fast, checked, reference, ...), best of each: a shared machine's
    # speed drifts over seconds, and timing the three one after another put the drift into
    # their ratios (a reference timed in a slow moment made the engine look fast).
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for name, run in runs.items():
            best[name] = min(best[name], best_of(1, run))
    rates: dict[str, float] = {}
    for name, elapsed in best.items():
        rates[name] = actions / elapsed
        rates[name + "_games"] = len(records) / elapsed
    return {"actions": actions, **rates,
            "fast_ratio": rates["fast"] / rates["reference"],
            "checked_ratio": rates["checked"] / rates["reference"]}


def add_keep_option(parser: argparse.ArgumentParser) -> None:
    """The ``--keep`` option of every engine bench (see :func:`compare_replays`)."""
    parser.add_argument("--keep", action="store_true",
                        help="keep every replayed game until the end of a run, the first "
                             "measure (default: each is let go once its end is read, as "
                             "the reference lets go of its own; see replay_compare)")
