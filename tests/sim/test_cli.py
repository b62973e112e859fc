"""The command line as a user meets it: `parlour replay` and `parlour rules`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from parlour.cli import main
from parlour.games.slapjack import Flip, Slap, Slapjack


def recorded_game(tmp_path: Path) -> tuple[Path, Slapjack]:
    game = Slapjack(2, seed=5)
    while game.outcome is None:
        view = game.view(None)
        if view["slappable"]:
            game.apply(Slap(view["flips"] % 2, at=view["flips"]))
        else:
            game.apply(Flip(view["turn"]))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.record()))
    return path, game


def test_replay_json_prints_the_final_view_the_outcome_and_every_public_event(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, game = recorded_game(tmp_path)
    assert main(["replay", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["view"] == game.view(None)
    assert result["outcome"]["winner"] == game.outcome.winner  # type: ignore[union-attr]
    assert result["events"] == [e.public() for e in game.events]
    assert result["events"][0]["type"] == "deal"


def test_replay_of_an_unfinished_game_has_a_null_outcome(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "short.json"
    path.write_text(json.dumps({"game": "slapjack", "players": 3, "seed": 7,
                                "actions": [{"player": 0, "type": "flip"},
                                            {"player": 2, "type": "slap", "at": 1}]}))
    assert main(["replay", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["outcome"] is None
    assert [e["type"] for e in result["events"]][:2] == ["deal", "flip"]


def test_replay_without_json_prints_one_line_per_event(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, game = recorded_game(tmp_path)
    assert main(["replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(game.events) + 1
    assert lines[-1] == f"winner: seat {game.outcome.winner}"  # type: ignore[union-attr]


@pytest.mark.parametrize(("content", "reason"), [
    ("{not json", "is not JSON"),
    ('["a list"]', "a record must be a JSON object"),
    ('{"game": "poker", "players": 2}', "unknown game 'poker'"),
    ('{"game": "slapjack", "players": 1}', "Slapjack is played by 2 to 8 players, not 1"),
    ('{"game": "slapjack", "players": 2, "decks": [["AS"]]}', "deck 0 must hold exactly"),
    ('{"game": "slapjack", "players": 2, "actions": [{"player": 1, "type": "flip"}]}',
     "action 0: seat 1 cannot flip: it is seat 0's turn to flip"),
    ('{"game": "slapjack", "players": 2, "actions": [{"player": 0, "type": "flip"},'
     ' {"player": 0, "type": "slap", "at": 9}]}', "action 1: seat 0 cannot slap: 'at' is 9"),
    ('{"game": "slapjack", "players": 2, "actions": [{"player": 0, "type": "fly"}]}',
     "action 0: unknown action type 'fly'"),
    ('{"game": "slapjack", "players": 2, "options": {"speed": 3}}',
     "slapjack has no option 'speed'"),
])
def test_replay_of_a_bad_record_exits_2_with_one_line_naming_the_problem(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, reason: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["replay", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1 and reason in captured.err


def test_replay_of_a_missing_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "/nonexistent/game.json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_rules_prints_our_own_text_with_the_rulings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "slapjack"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# Slapjack")
    for point in ("Late slaps", "Running out of cards", "When nobody can turn a card"):
        assert point in text


def test_a_wrong_flag_exits_2_with_usage() -> None:
    done = subprocess.run([sys.executable, "-m", "parlour", "rules", "chess"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "invalid choice: 'chess'" in done.stderr
