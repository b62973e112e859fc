"""The training smoke test of issue 21: a learner on Splunk against Easy, with a bounded
budget, wins games instead of stalling (before, truncation at 0 beat a loss at -1, and PPO
learned to never act and never won)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import example

pytest.importorskip("pettingzoo")

def load_example() -> Any:
    return example("splunk_learner")


@pytest.mark.slow
def test_a_learner_on_splunk_against_easy_wins_within_a_bounded_budget() -> None:
    example = load_example()
    result = example.main(["--episodes", "150", "--every", "50", "--eval-episodes", "20",
                           "--json"])
    curve = result["curve"]
    assert [episodes for episodes, _ in curve] == [0, 50, 100, 150]
    assert curve[0][1]["wins"] == 0  # untrained, it waits: the table plays for it, it loses
    assert max(point["wins"] for _, point in curve[1:]) >= 2
    assert all(point["truncated"] == 0 for _, point in curve)  # nothing stalls to the limit
    assert result["cpu_seconds"] < 600
