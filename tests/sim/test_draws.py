"""A game that can end in a draw (a toy, tests/toy.py: none of the three games can), through
every reader of an outcome below the pages: the arena, a simulation's statistics and its
table, and ``parlour replay``. A draw is a finished game that is nobody's win."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from toy import Pebbles, PebblesPlayer, Take, Truce

from parlour.bots import PLAYERS
from parlour.bots.arena import play
from parlour.cli import main
from parlour.games import GAMES
from parlour.sim import SimConfig, simulate
from parlour.sim.report import text_table


@pytest.fixture
def pebbles(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pebbles and its computer player registered, for the test's duration."""
    monkeypatch.setitem(GAMES, "pebbles", Pebbles)  # type: ignore[index]
    monkeypatch.setitem(PLAYERS, "pebbles", {"easy": PebblesPlayer})  # type: ignore[index]
    yield


def test_the_arena_reports_a_draw_as_finished_with_no_winner() -> None:
    results = []
    for seed in range(12):
        game = Pebbles(2, seed=seed, options={"pebbles": 5})
        result = play(game, [PebblesPlayer(0, seed=seed), PebblesPlayer(1, seed=seed + 99)])
        assert game.outcome is not None and result.finished and result.stopped is None
        assert result.draw == game.outcome.draw
        assert result.winner == game.outcome.winner
        results.append(result)
    assert any(r.draw for r in results) and any(not r.draw for r in results)


def test_a_simulation_counts_draws_as_finished_games_nobody_won(pebbles: None) -> None:
    result = simulate(SimConfig("pebbles", 2, ("easy", "easy"), games=40, seed=3,
                                options={"pebbles": 5}))
    assert result["unfinished"] == 0 and result["finished"] == 40
    assert 0 < result["draws"] < 40
    wins = sum(e["wins"] for e in result["entries"])
    assert wins + result["draws"] == result["finished"]
    assert all(e["win_rate"] == e["wins"] / 40 for e in result["entries"])
    assert result["length"]["actions"]["count"] == 40  # a draw has a length too
    assert f"finished: 40 ({result['draws']} drawn)" in text_table(result)


def test_replay_says_a_drawn_game_was_a_draw(
        pebbles: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Pebbles(2, options={"pebbles": 2})
    game.apply(Truce(0))
    path = tmp_path / "drawn.json"
    path.write_text(json.dumps(game.record()))
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "a draw"
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == {
        "winner": None, "termination": "truce", "draw": True}
    won = Pebbles(2, options={"pebbles": 2})
    won.apply(Take(0, 2))
    path.write_text(json.dumps(won.record()))
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "winner: seat 0"
