"""The speeds against modelled people, and Splunk's calls against the exact chance.

``python -m parlour.sim.calibrate`` prints, as Markdown, the tables of ``docs/bots.md``:

- each speed against modelled people (:mod:`parlour.bots.person`) of 250, 300, 400, 500
  and 600 ms, at Slapjack (2 players) and Splunk: the person's win rate with its 95% Wilson
  interval. Every cell is one ``parlour simulate`` run (seats rotating, so neither side
  keeps the first move), printed beside the table, so any cell can be re-run alone;
- Splunk's calls: in games of Hard against a modelled person (who calls as Normal does),
  every play that could be called out,
  with the exact chance that its stack was over 21 given every public event
  (:class:`parlour.bots.splunk.CardMemory`), the chance the caller's own rule saw, whether it
  called and whether the call was right.

The runs are seeded: the same flags print the same tables (on any number of processes).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.bots import LEVELS
from parlour.bots.arena import play
from parlour.bots.splunk import CardMemory, chance_over, unseen_values
from parlour.engine import Action, Event, Game
from parlour.engine.spec import BEYOND_RULES, LEVEL_TITLES
from parlour.games import spec as game_spec
from parlour.sim.command import entry_name
from parlour.sim.progress import bar, games_bar
from parlour.sim.simulate import START_METHOD, Progress, SimConfig, deal, simulate, tiebreak_seed
from parlour.sim.stats import wilson

#: The people of the table: mean reaction times in milliseconds (250 ms: the quickest;
#: most adults 350 to 500).
PEOPLE = (250, 300, 350, 400, 450, 500, 600)
#: The tables Slapjack's speeds are measured at: one person against 1, 2 and 3 computers.
SLAPJACK_PLAYERS = (2, 3, 4)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def cell_bots(level: str, ms: int, players: int = 2, lag: int = 0) -> tuple[str, ...]:
    """One cell's entries: ``players - 1`` computers of ``level``, then the person (``lag``
    ms away each way, races by arrival: ``parlour.bots.person``)."""
    return (*[level] * (players - 1), f"person:{ms}" + (f"@{lag}" if lag else ""))


def cell_command(game: str, level: str, ms: int, games: int, seed: int,
                 players: int = 2, lag: int = 0) -> str:
    return (f"parlour simulate {game} --bots {','.join(cell_bots(level, ms, players, lag))} "
            f"--games {games} --seed {seed} --swap-seats")


def markdown_row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


#: The head of a speed's table: the people, then what the speed is meant to do.
RACE_HEAD = ("speed", *(f"person:{ms}" for ms in PEOPLE), "meant to")


def speed_title(level: str) -> str:
    return LEVEL_TITLES[level] + (" (beyond the rules page)" if level in BEYOND_RULES else "")


def race_table(game: str, games: int, seed: int, jobs: int,
               progress: Callable[[str], None] | None = None, players: int = 2,
               lag: int = 0) -> str:
    """The Markdown table of ``game`` at ``players`` (one person, the rest computers of
    one speed): a row per speed, a column per person, and what the game's page says of
    the speed. ``progress`` is told each cell's command once the cell is done."""
    about = game_spec(game).level_about
    rows = [markdown_row(RACE_HEAD), "|" + " --- |" * len(RACE_HEAD)]
    for level in LEVELS:
        cells = []
        for ms in PEOPLE:
            result = simulate(SimConfig(game, players, cell_bots(level, ms, players, lag),
                                        games, seed, jobs, swap_seats=True))
            person = result["entries"][-1]
            lo, hi = person["ci95"]
            rate = person["win_rate"]
            cells.append("-" if rate is None else f"{_pct(rate)} [{_pct(lo)}, {_pct(hi)}]")
            if progress:
                progress(cell_command(game, level, ms, games, seed, players, lag))
        rows.append(markdown_row([speed_title(level), *cells, about[level]]))
    return "\n".join(rows) + "\n"


# -- Splunk's calls -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Chance:
    """One play that could be called out: by whom, the chances, what happened."""

    caller: str
    """The level of the player who could call."""
    exact: float
    """The exact chance that the stack was over 21, from every public event."""
    seen: float
    """The chance from the cards face up on the stacks alone (Hard's rule)."""
    last_card: bool
    """The play was the accused's last card: Normal and Hard call whatever the odds (P6)."""
    called: bool
    right: bool | None
    """Whether the call found the stack over 21 (None: no call)."""


def _face_up(memory: CardMemory) -> list[dict[str, Any]]:
    return [{"up": [c for c in stack[1:] if c is not None]} for stack in memory.stacks]


def study_game(config: SimConfig, index: int) -> list[Chance]:
    """Every call opportunity of game ``index`` of ``config`` (a Splunk simulation)."""
    game, bots, seats = deal(config, index)
    memory = CardMemory()
    memory.see([e.public() for e in game.events])
    jokers = bool(game.options["jokers"])
    found: list[Chance] = []

    def observe(now: float, action: Action, events: Sequence[Event], g: Game) -> None:
        for event in events:
            e = event.public()
            if e["type"] == "call" and found and not found[-1].called:
                last = found[-1]
                found[-1] = Chance(last.caller, last.exact, last.seen, last.last_card,
                                   True, bool(e["over"]))
            memory.see([e])
            if e["type"] == "play":
                s, accused = e["stack"], e["player"]
                view = {"jokers": jokers, "stacks": _face_up(memory)}
                seen = chance_over(memory.up_total[s], unseen_values(view))  # type: ignore[arg-type]
                found.append(Chance(config.bots[seats[1 - accused]], memory.chance_over(s),
                                    seen, not memory.piles[accused], False, None))

    play(game, bots, tiebreak_seed=tiebreak_seed(config, index),
         max_actions=config.max_actions, max_time=config.max_time, observer=observe)
    return found


def _study_chunk(job: tuple[SimConfig, int, int]) -> list[Chance]:
    config, start, stop = job
    return [c for i in range(start, stop) for c in study_game(config, i)]


def study_calls(config: SimConfig, progress: Progress | None = None) -> list[Chance]:
    """:func:`study_game` over every game of ``config``, on ``config.jobs`` processes."""
    size = 25
    jobs = [(config, a, min(config.games, a + size)) for a in range(0, config.games, size)]
    found: list[Chance] = []
    done = 0
    workers = max(1, min(config.jobs, len(jobs)))
    with multiprocessing.get_context(START_METHOD).Pool(workers) as pool:
        for part in pool.imap(_study_chunk, jobs):
            found.extend(part)
            done += size
            if progress:
                progress(min(done, config.games), config.games)
    return found


#: Bins of the chance a caller's own rule gave (Hard's: the cards face up, P4).
BINS = ((0.5, 0.6), (0.6, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 1.0))


def calls_tables(found: Sequence[Chance], levels: Sequence[str]) -> str:
    """The Markdown tables of the call study: calls on the accused's last card (P6) and
    calls on stacks whose face-up cards alone are over 21 (certain) are left out."""
    out = []
    head = ["caller", "plays it could call", "judgement calls", "right (95% CI)",
            "mean exact chance of its calls", "not called, exact chance > 1/2",
            "called, exact chance < 1/2", "sure wins passed", "sure losses made",
            "an exact caller: calls, expected right"]
    out += ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for level in levels:
        mine = [c for c in found if c.caller == level and not c.last_card and c.seen < 1.0]
        calls = [c for c in mine if c.called]
        right = sum(bool(c.right) for c in calls)
        lo, hi = wilson(right, len(calls))
        exact = sum(c.exact for c in calls) / len(calls) if calls else 0.0
        missed = sum(c.exact > 0.5 and not c.called for c in mine)
        rash = sum(c.exact < 0.5 for c in calls)
        sure = [c for c in mine if c.exact in (0.0, 1.0)]  # the base had been seen
        passed = sum(c.exact == 1.0 and not c.called for c in sure)
        sure_wins = sum(c.exact == 1.0 for c in sure)
        lost = sum(c.exact == 0.0 and c.called for c in sure)
        ideal = [c.exact for c in mine if c.exact > 0.5]
        ideal_rate = sum(ideal) / len(ideal) if ideal else 0.0
        rate = f"{_pct(right / len(calls))} [{_pct(lo)}, {_pct(hi)}]" if calls else "-"
        out.append(f"| {LEVEL_TITLES.get(level, level)} | {len(mine)} | {len(calls)} | {rate} "
                   f"| {_pct(exact)} | {missed} | {rash} | {passed} of {sure_wins} | {lost} "
                   f"| {len(ideal)}, {_pct(ideal_rate)} |")
    out.append("")
    head = ["Hard's calls by the chance from the cards face up", "calls", "right",
            "95% CI (Wilson)",
            "mean exact chance", "exact chance < 1/2"]
    out += ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    calls = [c for c in found if c.caller == "hard" and c.called and not c.last_card
             and c.seen < 1.0]
    for lo_p, hi_p in BINS:
        inside = [c for c in calls if lo_p < c.seen <= hi_p]
        if not inside:
            continue
        right = sum(bool(c.right) for c in inside)
        lo, hi = wilson(right, len(inside))
        mean = sum(c.exact for c in inside) / len(inside)
        rash = sum(c.exact < 0.5 for c in inside)
        out.append(f"| over {lo_p:.0%} to {hi_p:.0%} | {len(inside)} "
                   f"| {_pct(right / len(inside))} | [{_pct(lo)}, {_pct(hi)}] | {_pct(mean)} "
                   f"| {_pct(rash / len(inside))} |")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m parlour.sim.calibrate",
        description="Print docs/bots.md's calibration tables: each speed against modelled "
        "people, and Splunk's calls against the exact chance.")
    parser.add_argument("--games", type=int, default=1000,
                        help="Slapjack games per cell (default 1000)")
    parser.add_argument("--splunk-games", type=int, default=500,
                        help="Splunk games per cell (default 500)")
    parser.add_argument("--call-games", type=int, default=2000,
                        help="Splunk games of Hard against --call-against for the calls "
                        "(default 2000)")
    parser.add_argument("--call-against", default="person:400",
                        help="Hard's opponent in the call study (default person:400)")
    parser.add_argument("--seed", type=int, default=2026, help="seed (default 2026)")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count(),
                        help="processes (default: one per core)")
    parser.add_argument("--only", choices=("races", "calls"), help="print only those tables")
    parser.add_argument("--lag", type=int, default=0,
                        help="the people's network delay each way, ms, with races settled "
                        "by arrival (no compensation; with it: bench/bench_lag.py "
                        "--calibration); default 0")
    args = parser.parse_args(argv)
    try:
        args.call_against = entry_name("splunk", args.call_against)
    except ValueError as exc:
        parser.exit(2, f"{parser.prog}: --call-against: {exc}\n")
    for flag, value in (("--games", args.games), ("--splunk-games", args.splunk_games),
                        ("--call-games", args.call_games), ("--jobs", args.jobs)):
        if value < 1:
            parser.exit(2, f"{parser.prog}: {flag} must be at least 1, not {value}\n")

    out = sys.stdout
    if args.only != "calls":
        tables = [*(("slapjack", n, args.games) for n in SLAPJACK_PLAYERS),
                  ("splunk", 2, args.splunk_games)]
        with bar(len(tables) * len(LEVELS) * len(PEOPLE), "cell") as cells:
            for game, players, games in tables:
                against = "one computer" if players == 2 else f"{players - 1} computers"
                out.write(f"### {game.capitalize()}, {players} players: the person's win rate "
                          f"against {against} (even share {1 / players:.0%}), "
                          f"{games} games a cell\n\n")
                cells.set_description(f"{game}, {players} players")

                def cell_done(_command: str) -> None:
                    cells.update()

                out.write(race_table(game, games, args.seed, args.jobs, progress=cell_done,
                                     players=players, lag=args.lag))
                command = cell_command(game, "hard", 400, games, args.seed, players, args.lag)
                out.write(f"\nA cell: `{command}` (the person is the last entry).\n\n")
                out.flush()
    if args.only != "races":
        config = SimConfig("splunk", 2, ("hard", args.call_against), args.call_games, args.seed,
                           args.jobs, swap_seats=True)
        with games_bar(args.call_games, description="calls") as progress:
            found = study_calls(config, progress)
        out.write(f"### Splunk calls: {args.call_games} games of Hard against "
                  f"{args.call_against}\n\n")
        out.write(calls_tables(found, ("hard", args.call_against)))
        last = sum(c.last_card for c in found)
        certain = sum(c.seen >= 1.0 and not c.last_card for c in found)
        out.write(f"\nLeft out: {last} plays of the accused's last card (P6: called whatever "
                  f"the odds) and {certain} plays whose face-up cards alone were over 21 "
                  "(certain).\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
