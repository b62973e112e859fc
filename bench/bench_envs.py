"""Steps per second of every Parlour environment beside other libraries' card games, in one run.

Every environment is played with uniformly random legal actions (from its mask) for a
bounded number of steps (or seconds, for a slow row), resetting as episodes end (seeded at
the first reset only, as a training loop does); each row is the median of ``--repeats``
runs, interleaved (row 1, row 2, ..., then again) so that a busy shared machine slows
every row alike. A *step* is one call of the library's own
step: in an AEC environment one agent's action (Slabberjan: with the computer players'
turns in between played inside it), in a Parallel one a tick of every live agent, in
``make_single`` one call of the Gymnasium ``step``; in OpenSpiel one decision, with the
observation tensor of the seat to move made before it and chance nodes sampled in between
(not counted).

Rows (each if its library is installed):

- Parlour: Slabberjan AEC (4 agents, 42 agents, 1 agent + 3 computer players),
  ``make_single`` Slabberjan, Slapjack and Splunk (one learner against Easy, against Hard)
  and their Parallel environments with two agents; Parlour's OpenSpiel games.
- PettingZoo's classic environments, where pygame is installed (PettingZoo imports it for
  every one of them): texas_holdem, leduc_holdem, texas_holdem_no_limit (these three on
  RLCard too), connect_four, tictactoe.
- RLCard: leduc-holdem, limit-holdem, uno, doudizhu.
- OpenSpiel (C++ games, observation tensors): leduc_poker, hearts, gin_rummy; and its
  Python kuhn_poker.

The ratio column is each row's steps/s over the first Parlour row's (4-agent Slabberjan)
measured in the same run. ``--profile ROW`` runs one row under cProfile instead and prints
its busiest functions; ``--breakdown`` profiles every Parlour row and gives each part's
share of its time: the views, the observation encoding, the computer players, the
scheduler and clock, the rules, the environment code, and the rest.

    .venv/bin/python bench/bench_envs.py                       # every row, 3 repeats
    .venv/bin/python bench/bench_envs.py --only parlour --steps 20000
    .venv/bin/python bench/bench_envs.py --profile "single splunk v hard"
    .venv/bin/python bench/bench_envs.py --breakdown --steps 5000   # where the time goes
    .venv/bin/python bench/bench_envs.py --only parlour --cpu       # on a busy shared machine
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import json
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

#: a run: run(steps, budget) plays up to ``steps`` steps or ``budget`` seconds, whichever
#: comes first, and gives (steps played, seconds taken)
Run = Callable[[int, float], tuple[int, float]]
#: a row: (library, name, make) where make() gives its run
Row = tuple[str, str, Callable[[], Run]]


#: the clock a run is timed by: wall time, or with ``--cpu`` this process's CPU time (on a
#: shared machine a run descheduled for a while is not counted as slow)
now: Callable[[], float] = time.perf_counter


def installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def pick(mask: Any, rng: random.Random) -> int:
    """A uniformly random legal action from ``mask``. The random player is the bench's,
    not the environment's: it costs under a microsecond (``mask.nonzero`` and Python's
    ``randrange``), where ``np.flatnonzero`` and a numpy ``Generator`` cost four, a tenth
    of a Splunk step. Every row (RLCard's and OpenSpiel's too) draws the same way."""
    legal = mask.nonzero()[0]
    return int(legal[rng.randrange(len(legal))])


# -- PettingZoo environments (Parlour's and the classic ones) -----------------------------------

def aec_runner(make_env: Callable[[], Any]) -> Run:
    env = make_env()
    rng = random.Random(0)

    def run(steps: int, budget: float) -> tuple[int, float]:
        env.reset(seed=0)  # seeded once: the episodes after it follow from it
        start = now()
        for done in range(steps):
            if done % 64 == 0 and now() - start > budget:
                return done, now() - start
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
            else:
                obs = env.observe(agent)
                mask = obs["action_mask"] if isinstance(obs, dict) else None
                env.step(pick(mask, rng) if mask is not None
                         else int(env.action_space(agent).sample()))
            if not env.agents:
                env.reset()
        return steps, now() - start
    return run


def parallel_runner(make_env: Callable[[], Any]) -> Run:
    env = make_env()
    rng = random.Random(0)

    def run(steps: int, budget: float) -> tuple[int, float]:
        observations, _ = env.reset(seed=0)  # seeded once, as a training loop does
        start = now()
        for done in range(steps):
            if done % 64 == 0 and now() - start > budget:
                return done, now() - start
            actions = {a: pick(observations[a]["action_mask"], rng) for a in env.agents}
            observations, _, _, _, _ = env.step(actions)
            if not env.agents:
                observations, _ = env.reset()
        return steps, now() - start
    return run


def single_runner(make_env: Callable[[], Any]) -> Run:
    env = make_env()
    rng = random.Random(0)

    def run(steps: int, budget: float) -> tuple[int, float]:
        obs, _ = env.reset(seed=0)  # seeded once, as a training loop does
        start = now()
        for done in range(steps):
            if done % 64 == 0 and now() - start > budget:
                return done, now() - start
            obs, _, terminated, truncated, _ = env.step(pick(obs["action_mask"], rng))
            if terminated or truncated:
                obs, _ = env.reset()
        return steps, now() - start
    return run


def parlour_rows() -> list[Row]:
    from parlour.envs import SlabberjanEnv, SlapjackEnv, SplunkEnv, make_single

    rows: list[Row] = [
        ("parlour", "slabberjan AEC 4 agents", lambda: aec_runner(lambda: SlabberjanEnv(4))),
        ("parlour", "slabberjan AEC 42 agents",
         lambda: aec_runner(lambda: SlabberjanEnv(42))),
        ("parlour", "slabberjan AEC 1 agent + 3 easy",
         lambda: aec_runner(lambda: SlabberjanEnv(4, opponents={1: "easy", 2: "easy",
                                                                3: "easy"}))),
    ]
    for game, players in (("slabberjan", 4), ("slapjack", 2), ("splunk", 2)):
        for level in ("easy", "hard"):
            rows.append(("parlour", f"single {game} v {level}",
                         lambda g=game, n=players, lv=level: single_runner(
                             lambda: make_single(g, players=n, opponents=lv))))
    rows += [
        ("parlour", "slapjack Parallel 2 agents",
         lambda: parallel_runner(lambda: SlapjackEnv(2))),
        ("parlour", "splunk Parallel 2 agents", lambda: parallel_runner(lambda: SplunkEnv())),
    ]
    return rows


def pettingzoo_rows() -> list[Row]:
    rows: list[Row] = []
    if not installed("pygame"):  # PettingZoo's classic environments import it for rendering
        print("pettingzoo classic: skipped (pygame is not installed)", file=sys.stderr)
        return rows
    classic = [("connect_four", "connect_four_v3"), ("tictactoe", "tictactoe_v3")]
    if installed("rlcard"):
        classic = [("texas_holdem", "texas_holdem_v4"), ("leduc_holdem", "leduc_holdem_v4"),
                   ("texas_holdem_no_limit", "texas_holdem_no_limit_v6"), *classic]
    for name, module in classic:
        def make(module: str = module) -> Run:
            env_module = importlib.import_module(f"pettingzoo.classic.{module}")
            return aec_runner(env_module.env)
        rows.append(("pettingzoo", name, make))
    return rows


# -- RLCard ---------------------------------------------------------------------------------------

def rlcard_runner(name: str) -> Run:
    import rlcard

    env = rlcard.make(name, config={"seed": 0})
    rng = random.Random(0)

    def run(steps: int, budget: float) -> tuple[int, float]:
        state, _ = env.reset()
        start = now()
        for done in range(steps):
            if done % 64 == 0 and now() - start > budget:
                return done, now() - start
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            if env.is_over():
                state, _ = env.reset()
        return steps, now() - start
    return run


def rlcard_rows() -> list[Row]:
    if not installed("rlcard"):
        return []
    return [("rlcard", name, lambda n=name: rlcard_runner(n))
            for name in ("leduc-holdem", "limit-holdem", "uno", "doudizhu")]


# -- OpenSpiel --------------------------------------------------------------------------------

def spiel_runner(name: str, params: dict[str, Any] | None = None) -> Run:
    import pyspiel

    if name.startswith("parlour_"):
        import parlour.spiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game(name, params or {})
    rng = random.Random(0)
    chance = random.Random(0)
    tensor = game.get_type().provides_observation_tensor

    def run(steps: int, budget: float) -> tuple[int, float]:
        state = game.new_initial_state()
        start = now()
        done = 0
        while done < steps:
            if done % 64 == 0 and now() - start > budget:
                break
            if state.is_terminal():
                state = game.new_initial_state()
            elif state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(chance.choices(outcomes, probs)[0])
            else:
                if tensor:
                    state.observation_tensor()
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                done += 1
        return done, now() - start
    return run


def spiel_rows() -> list[Row]:
    if not installed("pyspiel"):
        return []
    rows: list[Row] = [("openspiel", name, lambda n=name: spiel_runner(n))
                       for name in ("leduc_poker", "hearts", "gin_rummy", "python_kuhn_poker")]
    rows += [("parlour", "openspiel parlour_slabberjan 4",
              lambda: spiel_runner("parlour_slabberjan")),
             ("parlour", "openspiel parlour_splunk", lambda: spiel_runner("parlour_splunk"))]
    return rows


#: where a step's time goes, by the file (and function) its time is spent in
CATEGORIES: tuple[tuple[str, Callable[[str, str], bool]], ...] = (
    ("views", lambda path, fn: "/parlour/games/" in path and fn in ("view", "legal_json")),
    ("observation encoding", lambda path, fn: path.endswith("parlour/envs/encoding.py")),
    ("computer players", lambda path, fn: "/parlour/bots/" in path
     and not path.endswith("scheduler.py")),
    ("scheduler and clock", lambda path, fn: path.endswith("parlour/bots/scheduler.py")),
    ("rules", lambda path, fn: "/parlour/games/" in path or "/parlour/engine/" in path),
    ("environment", lambda path, fn: "/parlour/envs/" in path or "/parlour/spiel/" in path
     or "pettingzoo" in path or "gymnasium" in path),
)


def breakdown(stats: pstats.Stats) -> dict[str, float]:
    """Each category's share of the profiled time (exclusive time of the functions in it;
    what no category claims, the random player, numpy and Python itself, is "other")."""
    shares = dict.fromkeys([name for name, _ in CATEGORIES] + ["other"], 0.0)
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = 0.0
    for (path, _, fn), (_, _, own, _, _) in raw.items():
        total += own
        name = next((n for n, match in CATEGORIES if match(path, fn)), "other")
        shares[name] += own
    return {name: t / total for name, t in shares.items()} if total else shares


def reference_rows() -> list[Row]:
    """The plain-Python tic-tac-toe AEC (``bench/tictactoe_aec.py``): Slabberjan's AEC
    goal is 0.35 times its steps per second (issue 34)."""
    from tictactoe_aec import TicTacToe

    return [("reference", "tic-tac-toe AEC, plain Python", lambda: aec_runner(TicTacToe))]


def all_rows() -> list[Row]:
    if installed("pyspiel"):
        import open_spiel.python.games  # noqa: F401  (registers python_kuhn_poker)
    return (parlour_rows() + reference_rows() + pettingzoo_rows() + rlcard_rows()
            + spiel_rows())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=10_000, help="steps a run")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="at most this long a run (a slow row plays fewer steps)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", help="rows whose library or name contains this")
    parser.add_argument("--profile", metavar="ROW", help="profile the row with this name")
    parser.add_argument("--breakdown", action="store_true",
                        help="profile every Parlour row and print where its time goes")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--cpu", action="store_true",
                        help="time runs by this process's CPU time, not wall time (a busy "
                             "shared machine; a library that works in other threads or "
                             "processes is not comparable then)")
    args = parser.parse_args(argv)
    global now
    now = time.process_time if args.cpu else time.perf_counter
    rows = all_rows()
    if args.profile:
        (row,) = [r for r in rows if r[1] == args.profile]
        run = row[2]()
        run(min(1000, args.steps), args.seconds)  # warm
        profile = cProfile.Profile()
        profile.runcall(run, args.steps, float("inf"))
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
        return
    if args.breakdown:
        names = [name for name, _ in CATEGORIES] + ["other"]
        print("| environment | " + " | ".join(names) + " |")
        print("| --- |" + " --- |" * len(names))
        for library, name, make in rows:
            if library != "parlour" or (args.only and args.only not in name):
                continue
            run = make()
            run(min(500, args.steps), args.seconds)
            profile = cProfile.Profile()
            profile.runcall(run, args.steps, args.seconds * 4)
            shares = breakdown(pstats.Stats(profile))
            print(f"| {name} | " + " | ".join(f"{shares[n]:.0%}" for n in names) + " |",
                  flush=True)
        return
    if args.only:
        rows = [r for r in rows if args.only in r[0] or args.only in r[1]]
    runners = []
    for library, name, make in rows:
        run = make()
        run(min(500, args.steps), args.seconds)  # warm: imports, caches, first episode
        runners.append((library, name, run))
    rates: dict[str, list[float]] = {name: [] for _, name, _ in runners}
    for _ in range(args.repeats):
        for _, name, run in runners:
            steps, elapsed = run(args.steps, args.seconds)
            rates[name].append(steps / elapsed)
    results = [{"library": library, "env": name,
                "steps_per_s": statistics.median(rates[name]),
                "min": min(rates[name]), "max": max(rates[name])}
               for library, name, _ in runners]
    base = results[0]["steps_per_s"] if results else 1.0
    for r in results:
        r["ratio"] = r["steps_per_s"] / base
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        return
    print(f"| library | environment | steps/s (median of {args.repeats}) | min .. max "
          f"| ratio to {results[0]['env'] if results else '-'} |")
    print("| --- | --- | --- | --- | --- |")
    for r in results:
        print(f"| {r['library']} | {r['env']} | {r['steps_per_s']:,.0f} "
              f"| {r['min']:,.0f} .. {r['max']:,.0f} | {r['ratio']:.2f} |")
    by_name = {r["env"]: r for r in results}
    aec, ttt = by_name.get("slabberjan AEC 4 agents"), by_name.get(
        "tic-tac-toe AEC, plain Python")
    if aec and ttt:
        paired = [a / t for a, t in zip(rates[aec["env"]], rates[ttt["env"]], strict=True)]
        print(f"\nslabberjan AEC 4 agents / plain tic-tac-toe AEC: "
              f"{aec['steps_per_s'] / ttt['steps_per_s']:.2f} (each repeat: "
              f"{', '.join(f'{p:.2f}' for p in paired)}; goal 0.35)")


if __name__ == "__main__":
    main()
