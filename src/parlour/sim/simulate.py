"""Many seeded games between computer players, on several processes, and their statistics.

A simulation is a :class:`SimConfig`: a game, one bot level per *entry* (``--bots``), a
number of games and a seed. Game ``i`` is fully determined by ``(seed, i)``: the game's own
seed, each computer player's seed and the arena's tie-break order are all derived from that
pair, so the results do not depend on how many processes ran them or in which order.

Seats: by default entry ``k`` sits at seat ``k`` in every game. With ``swap_seats`` the
entries rotate, entry ``k`` sitting at seat ``(k + i) % players`` in game ``i``, which
cancels any advantage of a seat (Slapjack's seat 0 flips first).

>>> result = simulate(SimConfig("slapjack", players=2, bots=("hard", "easy"), games=4, seed=1))
>>> result["games"], len(result["entries"]), result["finished"] + result["unfinished"]
(4, 2, 4)
"""

from __future__ import annotations

import itertools
import json
import logging
import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from parlour.bots import AnyPlayer, make_player
from parlour.bots.arena import play
from parlour.engine import Action, Event, Game
from parlour.engine.seeds import derived_seed
from parlour.games import game_class, new_game
from parlour.sim.stats import ratio_ci, summary, wilson

#: How worker processes start: fork where there is one (it skips re-importing Parlour,
#: which is most of a short run), else spawn. The workers only play games: no threads or
#: open resources are inherited that fork could break.
#: how worker processes start: fork where it exists (fast), else spawn
START_METHOD = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"

#: Called with (games done, games in all) as the simulation goes.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SimConfig:
    """What to simulate; see the module docstring for seats and seeds."""

    game: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    jobs: int = 1
    swap_seats: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    max_actions: int = 100_000
    max_time: float = 1e6
    #: a directory to save every game's record in, as ``GAME-SEED-INDEX.json``
    records: str | None = None

    def seat_of(self, entry: int, index: int) -> int:
        return (entry + index) % self.players if self.swap_seats else entry


def _derived_seed(*parts: object) -> int:
    return derived_seed("parlour-sim", *parts)


def deal(config: SimConfig, index: int) -> tuple[Game, list[AnyPlayer], list[int]]:
    """Game ``index`` of a simulation before its first move: the game, its players by seat
    and the entry at each seat."""
    seats = [0] * config.players
    for entry in range(config.players):
        seats[config.seat_of(entry, index)] = entry
    game = new_game(config.game, players=config.players,
                    seed=_derived_seed(config.seed, index, "game"), options=dict(config.options))
    bots = [make_player(config.game, config.bots[seats[s]], s,
                        seed=_derived_seed(config.seed, index, "seat", s))
            for s in range(config.players)]
    return game, bots, seats


def tiebreak_seed(config: SimConfig, index: int) -> int:
    """The seed of game ``index``'s tie-break order (:func:`parlour.bots.arena.play`)."""
    return _derived_seed(config.seed, index, "ties")


def play_one(config: SimConfig, index: int) -> dict[str, Any]:
    """Plays game ``index`` of a simulation; a small JSON-ready dict of how it went."""
    game, bots, seats = deal(config, index)
    # the game's own statistics (its spec says which), from its public events
    metric = game.spec.metrics(game.players) if game.spec.metrics is not None else None

    def observe(now: float, action: Action, events: Sequence[Event], game: Game) -> None:
        if metric is not None:
            metric.see(events)

    if metric is not None:
        metric.see(game.events)  # what happened at the setup (Slabberjan's first deal)
    result = play(game, bots, tiebreak_seed=tiebreak_seed(config, index),
                  max_actions=config.max_actions, max_time=config.max_time,
                  observer=observe if metric is not None else None)
    by_seat = metric.result() if metric else {}
    if config.records:
        path = os.path.join(config.records, f"{config.game}-{config.seed}-{index:06d}.json")
        with open(path, "w", encoding="utf-8") as fh:
            # records may carry extra keys: who sat where, for the reader
            json.dump({**game.record(), "bots": [config.bots[e] for e in seats]}, fh)
    return {
        "index": index,
        "seats": [config.seat_of(e, index) for e in range(config.players)],
        "winner": None if result.winner is None else seats[result.winner],
        "draw": result.draw,
        "actions": result.actions,
        "seconds": result.time,
        "stopped": result.stopped,
        "metrics": {name: [values[config.seat_of(e, index)] for e in range(config.players)]
                    for name, values in by_seat.items()},
    }


def _play_chunk(job: tuple[SimConfig, int, int]) -> list[dict[str, Any]]:
    config, start, stop = job
    return [play_one(config, i) for i in range(start, stop)]


def _chunks(config: SimConfig) -> Iterator[tuple[SimConfig, int, int]]:
    # small chunks keep the progress bar moving and the processes evenly loaded
    size = max(1, min(50, config.games // (config.jobs * 8) or 1))
    for start in range(0, config.games, size):
        yield config, start, min(config.games, start + size)


#: What ``--ray`` without Ray says (one line).
RAY_MISSING = "--ray needs Ray, which is not installed: pip install 'parlour[ray]'"


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _run_on_ray(config: SimConfig, progress: Progress | None,
                address: str | None) -> list[dict[str, Any]]:
    """The same chunks as :func:`run_games`, as Ray tasks, at most ``config.jobs`` in flight.

    ``address`` names a running Ray cluster (``ray.init(address)``); ``None`` starts a local
    instance with ``config.jobs`` CPUs on 127.0.0.1 and stops it at the end. Each game is
    seeded by its index alone, so the results are those of ``--jobs`` whatever ran where.
    """
    import ray

    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        else:
            ray.init(num_cpus=config.jobs, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.ERROR, _node_ip_address="127.0.0.1")
        started = True
    try:
        task = ray.remote(num_cpus=1)(_play_chunk)
        chunks = iter(_chunks(config))
        pending = [task.remote(chunk) for chunk in itertools.islice(chunks, config.jobs)]
        games: list[dict[str, Any]] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            games.extend(ray.get(done[0]))
            if progress:
                progress(len(games), config.games)
            nxt = next(chunks, None)
            if nxt is not None:
                pending.append(task.remote(nxt))
    finally:
        if started:
            ray.shutdown()
    games.sort(key=lambda g: g["index"])
    return games


def run_games(config: SimConfig, progress: Progress | None = None, *,
              ray: str | None = None) -> list[dict[str, Any]]:
    """Plays every game of ``config`` on ``config.jobs`` processes, in index order; with
    ``ray`` (a cluster's address, or ``""`` for a local instance) as Ray tasks instead."""
    if ray is not None:
        return _run_on_ray(config, progress, ray or None)
    games: list[dict[str, Any]] = []
    if config.jobs <= 1:
        for chunk in _chunks(config):
            games.extend(_play_chunk(chunk))
            if progress:
                progress(len(games), config.games)
    else:
        chunks = list(_chunks(config))
        with multiprocessing.get_context(START_METHOD).Pool(min(config.jobs, len(chunks))) as pool:
            for done in pool.imap_unordered(_play_chunk, chunks):
                games.extend(done)
                if progress:
                    progress(len(games), config.games)
    games.sort(key=lambda g: g["index"])
    return games


def summarize(config: SimConfig, games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The statistics of a simulation as one JSON-ready object."""
    # a draw is a finished game that is nobody's win
    finished = [g for g in games if g["winner"] is not None or g["draw"]]
    n = len(finished)
    entries = []
    for e, level in enumerate(config.bots):
        wins = sum(g["winner"] == e for g in finished)
        lo, hi = wilson(wins, n)
        entries.append({"entry": e, "bot": level,
                        "seat": e if not config.swap_seats else "rotating",
                        "wins": wins, "win_rate": wins / n if n else None, "ci95": [lo, hi]})
    metrics: dict[str, list[float]] = {}
    for g in games:
        for name, values in g["metrics"].items():
            totals = metrics.setdefault(name, [0.0] * config.players)
            for e, v in enumerate(values):
                totals[e] += v
    for name, totals in metrics.items():
        for e, total in enumerate(totals):
            entries[e][name] = total
    for name, (num, den) in game_class(config.game).spec.ratios.items():
        if num in metrics and den in metrics:
            for e, entry in enumerate(entries):
                ratio, lo, hi = ratio_ci([g["metrics"][num][e] for g in games],
                                         [g["metrics"][den][e] for g in games])
                entry[name], entry[name + "_ci95"] = ratio, [lo, hi]
    stopped: dict[str, int] = {}
    for g in games:
        if g["stopped"]:
            stopped[g["stopped"]] = stopped.get(g["stopped"], 0) + 1
    return {
        "config": {**asdict(config), "options": dict(config.options), "bots": list(config.bots)},
        "game": config.game, "players": config.players, "games": len(games),
        "finished": n, "unfinished": len(games) - n, "stopped": stopped,
        "draws": sum(g["draw"] for g in finished),
        "entries": entries,
        "length": {"actions": summary([g["actions"] for g in finished]),
                   "seconds": summary([g["seconds"] for g in finished])},
        "lengths": [g["actions"] for g in finished],
    }


def simulate(config: SimConfig, progress: Progress | None = None, *,
             ray: str | None = None) -> dict[str, Any]:
    """Runs a simulation (``ray``: as Ray tasks, see :func:`run_games`) and returns
    :func:`summarize` of it: the same whichever way the games ran."""
    return summarize(config, run_games(config, progress, ray=ray))
