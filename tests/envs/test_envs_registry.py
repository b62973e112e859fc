"""The environments registered with Gymnasium, and the race benchmark preset they use."""

from __future__ import annotations

import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from parlour.bots.base import REACTION_TIMES  # noqa: E402
from parlour.envs import SlapjackEnv, SplunkEnv, make_single  # noqa: E402
from parlour.envs.registry import PRESETS  # noqa: E402


@pytest.mark.parametrize("env_id", sorted(PRESETS))
def test_each_registered_id_makes_an_environment_that_passes_gymnasiums_checker(env_id):
    env = gymnasium.make(env_id)
    assert env.spec is not None and env.spec.id == env_id
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    env.close()


def test_an_id_names_its_module_so_no_import_is_needed():
    env = gymnasium.make("parlour.envs:parlour/Slapjack-v0", opponents="hard")
    assert env.unwrapped.env.opponents == {1: "hard"}
    assert env.unwrapped.env.reaction == REACTION_TIMES["hard"]  # still the preset


def test_the_race_preset_learner_reacts_as_its_opponents_do():
    for game in ("slapjack", "splunk"):
        for level in ("easy", "hard"):
            env = make_single(game, opponents=level)
            assert env.env.reaction == REACTION_TIMES[level]
        assert make_single(game, opponents="easy", reaction=0.0).env.reaction == 0.0
    # learners racing only each other: an equal race, at once
    assert SplunkEnv().reaction == 0.0
    assert SlapjackEnv(3, opponents={2: "normal"}).reaction == REACTION_TIMES["normal"]


def test_at_a_mixed_table_the_learner_reacts_as_the_quickest_computer():
    assert SlapjackEnv(4, opponents={1: "easy", 2: "hard", 3: "normal"}).reaction == \
        REACTION_TIMES["hard"]
    assert SlapjackEnv(3, opponents={1: "hard", 2: "easy"}, reaction="easy").reaction == \
        REACTION_TIMES["easy"]
    with pytest.raises(ValueError, match="unknown speed 'wizard'"):
        SlapjackEnv(3, opponents={1: "hard"}, reaction="wizard")


@pytest.mark.parametrize(("env_id", "kwargs"), [
    ("parlour/Slabberjan-v0", {"variant": "small", "players": 3}),
    ("parlour/Splunk-v0", {"options": {"variant": "small"}}),
])
def test_the_small_variants_are_options_of_the_environments_too(env_id, kwargs):
    env = gymnasium.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=True)
    env.reset(seed=2)
    game = env.unwrapped.env.table.game
    assert game.options["variant"] == "small"
    done, steps = False, 0
    while not done and steps < 5000:
        mask = env.unwrapped.action_masks()
        _, _, terminated, truncated, _ = env.step(int(mask.nonzero()[0][-1]))
        done, steps = terminated or truncated, steps + 1
    assert done
