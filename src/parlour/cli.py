"""The ``parlour`` command line.

Each subcommand is a small function; bad flags and bad input exit with status 2 and one line
on standard error that says what is wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from importlib import resources
from typing import Any, NoReturn

from parlour.games import GAME_NAMES, replay


def _fail(message: str) -> int:
    print(f"parlour: {message}", file=sys.stderr)
    return 2


def cmd_rules(args: argparse.Namespace) -> int:
    text = resources.files("parlour").joinpath("rules", f"{args.game}.md").read_text("utf-8")
    sys.stdout.write(text)
    return 0


def describe_event(event: dict[str, Any]) -> str:
    """One line of plain text for a public event."""
    rest = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
    return f"{event['type']}: {rest}" if rest else event["type"]


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as fh:
            record = json.load(fh)
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return _fail(f"{args.file} is not JSON: {exc}")
    from parlour.engine import GameError

    try:
        game = replay(record)
    except GameError as exc:
        return _fail(f"bad record {args.file}: {exc}")
    outcome = game.outcome
    events = [e.public() for e in game.events]
    if args.json:
        result = {"view": game.view(None), "outcome": outcome.to_json() if outcome else None,
                  "events": events}
        json.dump(result, sys.stdout)
        sys.stdout.write("\n")
        return 0
    for i, event in enumerate(events):
        print(f"{i:5d}  {describe_event(event)}")
    if outcome is None:
        print("the game is not over")
    else:
        print("a draw" if outcome.winner is None else f"winner: seat {outcome.winner}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    if args.lan is not None and (args.host or args.allowed_host or args.origin):
        return _fail("--lan chooses the address, host and origin itself: leave out --host, "
                     "--allowed-host and --origin (they are for a site behind a proxy)")
    from parlour.web.server import serve

    if args.lan is not None:
        return serve(args.lan, args.port, args.db, redis=args.redis, lan=True)
    return serve(args.host or "127.0.0.1", args.port, args.db,
                 allowed_hosts=args.allowed_host or (), origins=args.origin or (),
                 redis=args.redis)


def cmd_simulate(args: argparse.Namespace) -> int:
    from parlour.sim.command import run

    return run(args)


class _Parser(argparse.ArgumentParser):
    """Bad flags exit 2 with one line naming the problem, not a usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="parlour", description="Play, replay and study Slabberjan, Slapjack and Splunk.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    rules = sub.add_parser("rules", help="print the rules of a game, with Parlour's rulings")
    rules.add_argument("game", choices=GAME_NAMES)
    rules.set_defaults(run=cmd_rules)

    rep = sub.add_parser("replay", help="replay a game record and print its events")
    rep.add_argument("file", help="a game record (JSON, see shared/spec/records.md)")
    rep.add_argument("--json", action="store_true",
                     help="print {view, outcome, events} as one JSON object")
    rep.set_defaults(run=cmd_replay)

    sim = sub.add_parser(
        "simulate", help="play many seeded games between computer players; print statistics",
        description="Play seeded games between computer players on several processes and "
        "print each entry's win rate (95% Wilson interval) and game-length statistics. "
        "Entry k of --bots sits at seat k in every game, unless --swap-seats rotates the "
        "seats (entry k at seat (k+i) mod N in game i) to cancel a first-seat advantage.")
    sim.add_argument("game", choices=GAME_NAMES)
    sim.add_argument("--players", type=int,
                     help="players per game (default: one per --bots level, at least 2)")
    sim.add_argument("--bots", default="normal", metavar="LEVEL[,LEVEL...]",
                     help="easy|normal|hard|expert, or a modelled person "
                     "person:MEAN[:SD[:MISS[:WRONG]]] (reaction time in ms, e.g. person:400; "
                     "Slapjack and Splunk), one for all or one per entry (default normal)")
    sim.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    sim.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                     help="processes (default: one per core); with --ray, Ray tasks at once")
    sim.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                     help="run the games as Ray tasks: on the cluster at ADDRESS, or on a "
                     "local Ray instance without one; the same results as --jobs "
                     "(needs pip install 'parlour[ray]')")
    sim.add_argument("--swap-seats", action="store_true",
                     help="rotate the entries round the seats from game to game")
    sim.add_argument("--option", action="append", metavar="KEY=VALUE",
                     help="a game option, e.g. free_choice=true (repeatable)")
    sim.add_argument("--max-actions", type=int, default=100_000,
                     help="stop a game after this many actions; it counts as unfinished")
    sim.add_argument("--json", action="store_true", help="print the results as one JSON object")
    sim.add_argument("--lengths", action="store_true",
                     help="with --json, include every finished game's length")
    sim.add_argument("--plot", metavar="FILE.png", help="draw win rates and game lengths")
    sim.add_argument("--records", metavar="DIR",
                     help="save every game's record there (replay one with 'parlour replay')")
    sim.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    sim.set_defaults(run=cmd_simulate)

    srv = sub.add_parser("serve", help="run the web server: play in your browser")
    srv.add_argument("--host", help="address to listen on (127.0.0.1)")
    srv.add_argument("--lan", nargs="?", const="", default=None, metavar="ADDRESS",
                     help="party mode: listen on this machine's address on its local network "
                     "(or ADDRESS: private, loopback or link-local, never public), answer to "
                     "it alone, and print it with a QR code for the phones in the room")
    srv.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    srv.add_argument("--db", metavar="PATH|URL",
                     help="where games are kept: a SQLite file or a postgresql:// URL "
                     "(default: parlour.db in your data directory)")
    srv.add_argument("--redis", metavar="URL",
                     help="run as one node of a site: the nodes share --db (PostgreSQL) and "
                     "this Redis, e.g. redis://127.0.0.1:6379/0 (docs/deploy.md)")
    srv.add_argument("--allowed-host", action="append", metavar="NAME",
                     help="a host name the site is reached by, besides 127.0.0.1, localhost "
                     "and the --host address (repeatable; e.g. cards.example.org)")
    srv.add_argument("--origin", action="append", metavar="URL",
                     help="an origin whose pages may open the socket, besides the site's own "
                     "(repeatable; behind a proxy: e.g. https://cards.example.org)")
    srv.set_defaults(run=cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
