"""The command line reads Slabberjan: ``parlour replay`` and ``parlour rules slabberjan``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from parlour.cli import main
from parlour.games.slabberjan import Slabberjan


def played(seed: int) -> Slabberjan:
    game = Slabberjan(5, seed=seed)
    rng = random.Random(seed)
    while game.winner is None:
        assert game.turn is not None
        game.apply(rng.choice(game.legal_actions(game.turn)))
    return game


def test_replay_prints_the_final_view_outcome_and_public_events(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played(11)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"] == {"winner": game.winner, "termination": "last_player_standing"}
    assert out["view"] == game.view(None)
    assert out["events"] == [e.public() for e in game.events]
    # the public events name matadors' words but never a hidden piece
    assert not any("got" in e or "gave" in e for e in out["events"])


def test_replay_names_an_illegal_action_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = Slabberjan(3, seed=2, options={"dealer": 0}).record()
    record["actions"] = [{"player": 2, "type": "swap"}]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "action 0" in err and "it is seat 1's turn" in err


def test_rules_prints_the_slabberjan_rules_with_the_rulings(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "slabberjan"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# Slabberjan")
    for words in ("Go by the Inn", "Meow", "Stand still in front of the bird", "Cut short",
                  "fool over fool", "S12"):
        assert words in text
