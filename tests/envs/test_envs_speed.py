"""The environments' speed-ups change no episode: pinned seeded episodes play as they did
before them, a turn-based game's computer players asked only on their turn play as when
every one was asked after every change, and an observation handed out is the caller's own."""

from __future__ import annotations

import importlib.util
import json
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from conftest import ROOT

from parlour.envs import SlabberjanEnv, SplunkEnv, make_single
from parlour.envs import table as table_module

PINNED = ROOT / "tests" / "envs" / "pinned_episodes.json"


def traces() -> ModuleType:
    """``bench/env_traces.py``: the digest of a seeded episode (its observations, rewards,
    terminations, infos and the game's record)."""
    spec = importlib.util.spec_from_file_location("env_traces", ROOT / "bench" / "env_traces.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pinned_seeded_episodes_play_as_they_did() -> None:
    # Digests made with the code before the speed-ups (bench/env_traces.py --seeds 3): a
    # change that alters any observation, reward or record of these episodes fails here. A
    # deliberate change of the rules or of a layout is pinned again with
    # `bench/env_traces.py --seeds 3 --pin tests/envs/pinned_episodes.json`.
    pinned: dict[str, list[str]] = json.loads(PINNED.read_text())
    configurations = traces().configurations()
    assert set(pinned) <= set(configurations)
    differ = [(name, seed) for name, digests in pinned.items()
              for seed, digest in enumerate(digests)
              if configurations[name](seed, 3000) != digest]
    assert differ == []


@pytest.mark.parametrize("make", [
    lambda: SlabberjanEnv(4, opponents={1: "easy", 2: "normal", 3: "easy"}),
    lambda: SlabberjanEnv(6, opponents={s: "easy" for s in range(1, 6)}, reward="chips"),
    lambda: SlabberjanEnv(3, opponents={0: "hard", 2: "normal"}, free_choice=True),
])
def test_asking_only_the_seat_on_turn_plays_as_asking_every_seat(make: object,
                                                                 monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    module = traces()
    fast = [module.aec_trace(make, seed, 3000) for seed in range(6)]
    monkeypatch.setattr(table_module, "TURN_BASED", frozenset())
    every = [module.aec_trace(make, seed, 3000) for seed in range(6)]
    assert fast == every


def test_single_slabberjan_against_hard_plays_as_when_every_seat_was_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    module = traces()

    def make() -> object:
        return make_single("slabberjan", players=3, opponents="hard")

    fast = [module.single_trace(make, seed, 200) for seed in range(2)]
    monkeypatch.setattr(table_module, "TURN_BASED", frozenset())
    assert [module.single_trace(make, seed, 200) for seed in range(2)] == fast


def test_an_observation_changed_by_its_caller_leaves_the_next_one_alone() -> None:
    env = SplunkEnv()
    observations, _ = env.reset(seed=4)
    first = {a: o["observation"].copy() for a, o in observations.items()}
    for obs in observations.values():
        obs["observation"][:] = 9.0
        obs["action_mask"][:] = 0
    # a tick of waiting changes nothing the agents see (Splunk's first play is not due yet)
    again, _, _, _, _ = env.step({})
    for agent, obs in again.items():
        assert np.array_equal(obs["observation"], first[agent])
        assert obs["action_mask"][0] == 1


def test_the_parsed_action_cache_never_accepts_what_the_rules_refuse() -> None:
    # Actions are parsed once for all episodes; ``True == 1`` and ``1.0 == 1`` as dict keys,
    # so a cache keyed on the values alone took ``{"stack": True}`` for stack 1
    from parlour.engine import GameError
    from parlour.envs.table import Table

    for bad in (True, 1.0):
        table = Table("splunk", 2, {"first": 0}, {}, seed=1)
        seat = table.game.turn
        assert seat == 0
        with pytest.raises(GameError):
            table.game.parse_action({"type": "play", "stack": bad}, player=seat)
        first = Table("splunk", 2, {"first": 0}, {}, seed=2)  # parses the good form first
        assert first.act(seat, {"type": "play", "stack": 1})
        plays = table.game.plays
        assert not table.act(seat, {"type": "play", "stack": bad})
        assert table.game.plays == plays and table.game.turn == seat
