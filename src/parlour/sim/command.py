"""``parlour simulate``: checks its flags, runs the games with a progress bar, prints results.

The command line (``parlour.cli``) only declares the flags and imports this module when the
subcommand runs, so other subcommands do not pay for multiprocessing. A flag whose extra is
not installed (``--ray``, ``--plot``) is one line naming the extra, and exit status 2,
before any game is played.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from typing import Any

from parlour.bots import LEVELS, RACE_GAMES
from parlour.bots.person import SYNTAX, is_person, parse_person
from parlour.engine import GameError
from parlour.games import game_class
from parlour.sim.progress import games_bar
from parlour.sim.report import PLOT_MISSING, plot, plot_available, text_table
from parlour.sim.simulate import RAY_MISSING, SimConfig, ray_available, simulate


def _fail(message: str) -> int:
    print(f"parlour simulate: {message}", file=sys.stderr)
    return 2


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs; a VALUE that reads as JSON (true, 5) is taken as such.

    >>> parse_options(["free_choice=true", "chips=5", "name=x"])
    {'free_choice': True, 'chips': 5, 'name': 'x'}
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--option wants KEY=VALUE, not {pair!r}")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def entry_name(game: str, text: str) -> str:
    """One ``--bots`` entry: a computer player's level, or a modelled person (its name made
    canonical); ``ValueError`` with one clear line if it is neither.

    >>> entry_name("slapjack", " Hard"), entry_name("slapjack", "person:400ms:80")
    ('hard', 'person:400')
    """
    name = text.strip().lower()
    if is_person(name):
        person = parse_person(name)
        if game not in RACE_GAMES:
            raise ValueError(f"{game} has no slap races: a modelled person ({name}) plays "
                             f"only {' and '.join(RACE_GAMES)}")
        return person.name
    if name not in LEVELS:
        shown = repr(name) if len(name) <= 40 else repr(name[:40] + "...")
        raise ValueError(f"unknown bot level {shown} in --bots "
                         f"(expected {', '.join(LEVELS)}, or {SYNTAX})")
    return name


def config_from_args(args: argparse.Namespace) -> SimConfig:
    """The simulation the flags ask for; ``ValueError`` with one clear line if they are bad."""
    spec = game_class(args.game).spec
    bots = tuple(entry_name(args.game, b) for b in args.bots.split(","))
    # without --players, a list of levels says how many play
    players: int = args.players if args.players is not None else max(len(bots), 2)
    try:
        spec.check_players(players)
    except GameError as exc:
        raise ValueError(str(exc)) from None
    if len(bots) == 1:
        bots *= players
    if len(bots) != players:
        raise ValueError(f"--bots names {len(bots)} levels for {players} players "
                         "(give one level, or one per player)")
    for flag, value in (("--games", args.games), ("--jobs", args.jobs),
                        ("--max-actions", args.max_actions)):
        if value < 1:
            raise ValueError(f"{flag} must be at least 1, not {value}")
    options = parse_options(args.option or [])
    try:
        spec.resolve_options(options, players=players, draw=lambda n: 0)
    except GameError as exc:
        raise ValueError(f"bad --option: {exc}") from None
    return SimConfig(args.game, players, bots, args.games, args.seed, args.jobs,
                     args.swap_seats, options, args.max_actions)


def run(args: argparse.Namespace) -> int:
    try:
        config = config_from_args(args)
    except ValueError as exc:
        return _fail(str(exc))
    if args.plot and not args.plot.lower().endswith(".png"):
        return _fail(f"--plot wants a .png file name, not {args.plot!r}")
    if args.plot and not plot_available():
        return _fail(PLOT_MISSING)
    if args.records:
        try:
            os.makedirs(args.records, exist_ok=True)
        except OSError as exc:
            return _fail(f"cannot use {args.records} for --records: {exc.strerror}")
        config = dataclasses.replace(config, records=args.records)
    ray_address: str | None = getattr(args, "ray", None)
    if ray_address is not None and not ray_available():
        return _fail(RAY_MISSING)
    with games_bar(config.games, quiet=args.quiet) as progress:
        result = simulate(config, progress, ray=ray_address)
    if args.plot:
        try:
            plot(result, args.plot)
        except OSError as exc:
            return _fail(f"cannot write {args.plot}: {exc.strerror}")
    if args.json:
        json.dump({k: v for k, v in result.items() if k != "lengths" or args.lengths},
                  sys.stdout)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text_table(result))
    return 0
