"""``parlour simulate``: the JSON of a small run, its statistics, its seeds and its flags."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path
from typing import Any

import pytest

from parlour.cli import main
from parlour.sim import SimConfig, play_one, simulate
from parlour.sim.stats import ratio_ci, summary, wilson


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["simulate", *args, "--json"]) == 0
    out = capsys.readouterr().out
    result: dict[str, Any] = json.loads(out)
    return result


def test_a_small_run_prints_win_rates_and_lengths_as_json(
        capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "slapjack", "--players", "3", "--bots", "hard,normal,easy",
                      "--games", "12", "--seed", "4", "--jobs", "1", "--quiet")
    assert result["game"] == "slapjack" and result["games"] == 12
    assert [e["bot"] for e in result["entries"]] == ["hard", "normal", "easy"]
    assert sum(e["wins"] for e in result["entries"]) == result["finished"]
    assert result["finished"] + result["unfinished"] == 12
    for e in result["entries"]:
        lo, hi = e["ci95"]
        assert lo <= e["win_rate"] <= hi
        assert (lo, hi) == pytest.approx(wilson(e["wins"], result["finished"]))
    actions = result["length"]["actions"]
    assert actions["count"] == result["finished"]
    assert actions["min"] <= actions["median"] <= actions["max"]
    assert "lengths" not in result


def simulate_on_a_terminal(*args: str) -> tuple[str, str]:
    """``parlour simulate ARGS`` in a process whose standard error is a terminal (a pty), as
    a person runs it: what it printed on standard output and on the terminal."""
    main_end, terminal = pty.openpty()
    # 24 rows of 100 columns, as a terminal window has (a new pty has none)
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    with subprocess.Popen([sys.executable, "-m", "parlour", "simulate", *args],
                          stdout=subprocess.PIPE, stderr=terminal, text=True) as run:
        os.close(terminal)
        shown = b""
        while True:
            try:
                chunk = os.read(main_end, 4096)
            except OSError:  # EIO: the process closed its end
                break
            if not chunk:
                break
            shown += chunk
        out = run.stdout.read() if run.stdout else ""
        assert run.wait() == 0
    os.close(main_end)
    return out, shown.decode("utf-8", "replace")


def test_on_a_terminal_the_progress_bar_counts_the_games_and_stdout_stays_json() -> None:
    out, shown = simulate_on_a_terminal("splunk", "--games", "3", "--jobs", "1", "--json")
    assert json.loads(out)["games"] == 3
    assert "3/3" in shown and "game" in shown


def test_without_a_terminal_or_with_quiet_there_is_no_progress_bar(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "splunk", "--games", "3", "--jobs", "1", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games"] == 3
    assert captured.err == ""  # a log or a pipe is not a terminal: nothing drawn in it
    out, shown = simulate_on_a_terminal("splunk", "--games", "3", "--jobs", "1", "--quiet")
    assert "splunk, 2 players, 3 games" in out and shown == ""


def test_the_table_names_the_seating_and_the_interval(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "slapjack", "--bots", "hard,easy", "--games", "4", "--jobs", "1",
                 "--quiet", "--swap-seats"]) == 0
    out = capsys.readouterr().out
    assert "seats rotate" in out and "95% CI (Wilson)" in out and "hard" in out


def test_the_same_seed_gives_the_same_results_on_any_number_of_processes() -> None:
    config = SimConfig("splunk", 2, ("hard", "easy"), games=10, seed=8, jobs=1)
    one = simulate(config)
    two = simulate(SimConfig("splunk", 2, ("hard", "easy"), games=10, seed=8, jobs=2))
    assert {k: v for k, v in one.items() if k != "config"} == \
        {k: v for k, v in two.items() if k != "config"}
    other = simulate(SimConfig("splunk", 2, ("hard", "easy"), games=10, seed=9, jobs=1))
    assert other["lengths"] != one["lengths"]


def test_swap_seats_rotates_the_entries() -> None:
    config = SimConfig("slapjack", 3, ("hard", "normal", "easy"), games=3, swap_seats=True)
    assert [play_one(config, i)["seats"] for i in range(3)] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    fixed = SimConfig("slapjack", 3, ("hard", "normal", "easy"), games=3)
    assert [play_one(fixed, i)["seats"] for i in range(3)] == [[0, 1, 2]] * 3


def test_a_game_that_hits_the_cap_is_unfinished_not_a_win(
        capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "splunk", "--games", "3", "--jobs", "1", "--quiet",
                      "--max-actions", "5")
    assert result["unfinished"] == 3 and result["stopped"] == {"max_actions": 3}
    assert all(e["wins"] == 0 and e["win_rate"] is None for e in result["entries"])


def test_slabberjan_reports_dealer_chips_per_round(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "slabberjan", "--players", "3", "--bots", "hard,easy,normal",
                      "--games", "10", "--jobs", "1", "--quiet", "--option", "chips=2")
    assert result["config"]["options"] == {"chips": 2}
    for e in result["entries"]:
        assert e["dealer_rounds"] > 0
        ratio, (lo, hi) = e["dealer_chips_per_round"], e["dealer_chips_per_round_ci95"]
        assert ratio == pytest.approx(e["dealer_chips"] / e["dealer_rounds"])
        assert lo <= ratio <= hi


def test_the_plot_is_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "arena.png"
    assert main(["simulate", "slapjack", "--games", "4", "--jobs", "1", "--quiet",
                 "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_matplotlib_plot_names_the_extra_and_plays_nothing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.setattr("parlour.sim.command.plot_available", lambda: False)
    path = tmp_path / "arena.png"
    assert main(["simulate", "slapjack", "--games", "2", "--plot", str(path)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) == 1 and not path.exists()
    assert "pip install 'parlour[plot]'" in lines[0]


@pytest.mark.parametrize("args, words", [
    (["slapjack", "--bots", "hard,wizard"], "unknown bot level 'wizard'"),
    (["slapjack", "--players", "3", "--bots", "hard,easy"], "names 2 levels for 3 players"),
    (["splunk", "--players", "3"], "Splunk is played by 2 to 2 players"),
    (["slapjack", "--games", "0"], "--games must be at least 1"),
    (["slapjack", "--jobs", "0"], "--jobs must be at least 1"),
    (["slabberjan", "--option", "chips=0"], "bad --option"),
    (["slabberjan", "--option", "chips"], "KEY=VALUE"),
    (["slapjack", "--plot", "arena.svg"], "wants a .png"),
])
def test_bad_flags_exit_2_with_one_clear_line(
        capsys: pytest.CaptureFixture[str], args: list[str], words: str) -> None:
    assert main(["simulate", *args, "--quiet"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]


@pytest.mark.parametrize("args", [["chess"], ["slapjack", "--games", "many"],
                                  ["slapjack", "--bogus"]])
def test_flags_argparse_refuses_also_give_one_line(
        capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", *args])
    assert exc.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_help_says_how_seats_are_assigned(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--swap-seats" in text and "sits at seat k in every game" in text


def test_statistics_helpers() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(0.192, abs=0.01)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    s = summary([5, 1, 3, 2, 4])
    assert (s["min"], s["median"], s["max"], s["mean"]) == (1, 3, 5, 3)
    ratio, lo, hi = ratio_ci([1, 1, 1, 1], [2, 2, 2, 2])
    assert ratio == lo == hi == 0.5  # no spread between games, no width


def test_records_replay_to_the_same_results(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from parlour.games import replay

    result = run_json(capsys, "splunk", "--bots", "hard,easy", "--games", "6", "--seed", "3",
                      "--jobs", "2", "--quiet", "--swap-seats", "--records", str(tmp_path))
    files = sorted(tmp_path.glob("splunk-3-*.json"))
    assert len(files) == 6
    wins = {"hard": 0, "easy": 0}
    for path in files:
        record = json.loads(path.read_text("utf-8"))
        game = replay(record)  # checked, action by action, by the reference reader
        assert game.outcome is not None
        wins[record["bots"][game.outcome.winner]] += 1
    assert wins == {e["bot"]: e["wins"] for e in result["entries"]}


def test_the_number_of_players_follows_the_bots(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "slabberjan", "--bots", "hard,easy,normal,easy", "--games", "2",
                      "--jobs", "1", "--quiet")
    assert result["players"] == 4 and len(result["entries"]) == 4


def test_more_jobs_than_games_starts_no_more_processes_than_it_needs() -> None:
    small = SimConfig("slapjack", 2, ("hard", "easy"), games=2, seed=1, jobs=64)
    many = simulate(small)
    one = simulate(SimConfig("slapjack", 2, ("hard", "easy"), games=2, seed=1, jobs=1))
    assert many["entries"] == one["entries"]
