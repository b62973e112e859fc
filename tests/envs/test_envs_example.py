"""The example learner (examples/slabberjan_dealer.py) runs, end to end, in a very short
version: it trains, evaluates against its baselines and draws its learning curve."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, example

pytest.importorskip("pettingzoo")

def load_example() -> Any:
    return example("slabberjan_dealer")


def test_a_short_run_of_the_example_learns_and_draws_its_curve(tmp_path: Path) -> None:
    example = load_example()
    out = tmp_path / "curve.png"
    result = example.main(["--episodes", "40", "--every", "20", "--eval-episodes", "6",
                           "--players", "3", "--out", str(out)])
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [episode for episode, _, _ in result["curve"]] == [0, 20, 40]
    assert set(result["baselines"]) == {"coin toss (Easy)", "draw below a 6 (Normal)"}
    assert result["decisions"] > 0
    assert set(result["policy"].values()) <= {"draw", "stand"}


def test_by_default_it_draws_here_and_leaves_the_committed_curve_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    committed = ROOT / "examples" / "slabberjan_dealer.png"
    before = committed.read_bytes()
    monkeypatch.chdir(tmp_path)
    load_example().main(["--episodes", "4", "--every", "4", "--eval-episodes", "2",
                         "--players", "3"])
    assert (tmp_path / "slabberjan_dealer.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert committed.read_bytes() == before


def test_the_committed_curve_is_there() -> None:
    png = ROOT / "examples" / "slabberjan_dealer.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
