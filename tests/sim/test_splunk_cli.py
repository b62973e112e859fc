"""The command line reads Splunk: ``parlour replay`` and ``parlour rules splunk``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from parlour.cli import main
from parlour.games.splunk import Play, Splunk


def played(seed: int, *, jokers: bool = False) -> Splunk:
    """A whole game: mostly plays, sometimes a call or a slap, as people play."""
    game = Splunk(2, seed=seed, options={"jokers": jokers})
    rng = random.Random(seed)
    while game.winner is None:
        actions = game.legal_actions(0) + game.legal_actions(1)
        plays = [a for a in actions if isinstance(a, Play)]
        game.apply(rng.choice(plays if plays and rng.random() < 0.8 else actions))
    return game


@pytest.mark.parametrize("jokers", [False, True])
def test_replay_prints_the_final_view_outcome_and_public_events(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], jokers: bool) -> None:
    game = played(5, jokers=jokers)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"] == {"winner": game.winner, "termination": game.outcome.termination.value}
    assert out["outcome"]["termination"] in ("last_play_stood", "no_card_for_base",
                                             "last_card_as_base")
    assert out["view"] == game.view(None)
    assert out["events"] == [e.public() for e in game.events]
    kinds = {e["type"] for e in out["events"]}
    assert {"deal", "base", "first", "play", "win"} <= kinds
    assert kinds & {"call", "slap", "wrong_slap"}


def test_replay_as_text_ends_with_the_winner(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played(8)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(game.events) + 1
    assert lines[-1] == f"winner: seat {game.winner}"


def test_replay_names_an_illegal_action_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = Splunk(2, seed=2, options={"first": 0}).record()
    record["actions"] = [{"player": 0, "type": "play", "stack": 1},
                         {"player": 1, "type": "slap", "stack": 1, "at": 5}]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "action 1" in err and "'at' is 5 but 1 card has been played" in err


def test_replay_refuses_a_bad_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = {"game": "splunk", "players": 2, "seed": 1, "options": {"first": 3}}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "'first' must be a seat from 0 to 1, not 3" in capsys.readouterr().err


def test_rules_prints_the_splunk_rules_with_the_rulings(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "splunk"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# Splunk")
    for words in ("## Calling out", "## Slapping", "sandwich", "joker", "base first",
                  "**P1**", "**P6**"):
        assert words in text
