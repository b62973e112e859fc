"""The modelled person (parlour.bots.person), the Expert speed, and the speeds' calibration
against people: seated by the arena and by ``parlour simulate``, seeded, reacting as its
parameters say, and ordered as docs/bots.md's table says."""

from __future__ import annotations

import json
import math
import statistics
from typing import Any

import pytest
from conftest import ROOT

from parlour.bots import LEVELS, make_player
from parlour.bots.arena import play
from parlour.bots.base import REACTION_TIMES
from parlour.bots.person import Person, parse_person
from parlour.bots.slapjack import SlapjackPerson
from parlour.bots.splunk import SplunkPerson
from parlour.cli import main
from parlour.engine import RecordError
from parlour.games import game_class, new_game
from parlour.games.slapjack import Slap
from parlour.sim import SimConfig, simulate
from parlour.sim.calibrate import RACE_HEAD, SLAPJACK_PLAYERS, markdown_row, speed_title


def jack_view(flips: int, card: str = "JS") -> dict[str, Any]:
    """Seat 1's view just after seat 0 flipped ``card``, the ``flips``-th card."""
    return {"game": "slapjack", "seat": 1,
            "players": [{"cards": 20, "out": False, "waiting": False},
                        {"cards": 20, "out": False, "waiting": False}],
            "pile": 3, "top": card, "top_player": 0, "flips": flips, "turn": 1,
            "slappable": card[0] == "J", "winner": None}


def slaps(player: Any, n: int, card: str = "JS") -> list[float | None]:
    """The player's verdict on ``n`` cards in a row: its reaction time, or None (no slap)."""
    out: list[float | None] = []
    for flips in range(1, n + 1):
        d = player.decide(jack_view(flips, card), [])
        out.append(d.delay if d is not None and isinstance(d.action, Slap) else None)
    return out


# -- what a person is ------------------------------------------------------------------------


def test_a_person_is_named_by_its_reaction_time_and_defaults_fill_the_rest() -> None:
    p = parse_person("person:400")
    assert (p.mean, p.sd, p.miss, p.wrong) == pytest.approx((0.4, 0.08, 0.05, 0.01))
    assert parse_person("PERSON:350ms:50:0.1:0.02") == Person(0.35, 0.05, 0.1, 0.02)
    for name in ("person:400", "person:450:60", "person:300:60:0.2", "person:500:100:0.05:0"):
        assert parse_person(name).name == name


@pytest.mark.parametrize("bad", ["person", "person:", "person:fast", "person:400:x",
                                 "person:-5", "person:400:80:1.5", "person:400:80:0.1:-1",
                                 "person:1:2:3:4:5", "persona:400", "person:nan"])
def test_a_bad_person_says_what_is_wrong(bad: str) -> None:
    with pytest.raises(ValueError, match="bad person"):
        parse_person(bad)


def test_a_person_plays_only_the_race_games() -> None:
    assert isinstance(make_player("slapjack", "person:400", 0, seed=1), SlapjackPerson)
    assert isinstance(make_player("splunk", "person:400", 1, seed=1), SplunkPerson)
    with pytest.raises(RecordError, match="slap races"):
        make_player("slabberjan", "person:400", 0, seed=1)


# -- its hands follow its parameters ----------------------------------------------------------


def test_reaction_times_are_log_normal_with_the_given_mean_and_sd() -> None:
    person = parse_person("person:400:80:0:0")
    times = [t for t in slaps(make_player("slapjack", person.name, 1, seed=7), 4000)
             if t is not None]
    assert len(times) == 4000  # MISS 0: every Jack is slapped
    assert statistics.fmean(times) == pytest.approx(0.400, rel=0.03)
    assert statistics.stdev(times) == pytest.approx(0.080, rel=0.10)
    # the logarithms are normal: Kolmogorov-Smirnov distance to the fitted normal
    rt = person.reaction_time
    normal = statistics.NormalDist(math.log(rt.median), rt.spread)
    logs = sorted(math.log(t) for t in times)
    n = len(logs)
    ks = max(max((i + 1) / n - normal.cdf(x), normal.cdf(x) - i / n)
             for i, x in enumerate(logs))
    assert ks < 0.04  # the 0.1% critical value for n = 4000 is about 0.031


def test_quicker_people_react_quicker() -> None:
    def median(ms: int) -> float:
        times = slaps(make_player("slapjack", f"person:{ms}", 1, seed=3), 801)
        return statistics.median(t for t in times if t is not None)

    m300, m400, m600 = median(300), median(400), median(600)
    assert m300 < m400 < m600
    assert m400 == pytest.approx(0.4 / math.sqrt(1.04), rel=0.05)  # a log-normal's median


def test_misses_and_wrong_slaps_follow_their_probabilities() -> None:
    jacks = slaps(make_player("slapjack", "person:400:80:0.2:0.05", 1, seed=5), 4000)
    missed = sum(t is None for t in jacks) / len(jacks)
    assert missed == pytest.approx(0.2, abs=0.025)
    for card in ("QH", "7C"):  # a person is as likely to slap any wrong card by mistake
        wrong = slaps(make_player("slapjack", "person:400:80:0.2:0.05", 1, seed=6), 4000, card)
        assert sum(t is not None for t in wrong) / 4000 == pytest.approx(0.05, abs=0.015)


# -- seated like a computer player ---------------------------------------------------------


@pytest.mark.parametrize("game_name", ["slapjack", "splunk"])
def test_the_arena_seats_a_person_and_the_same_seeds_give_the_same_game(
        game_name: str) -> None:
    runs = []
    for seed in (11, 11, 12):
        game = new_game(game_name, players=2, seed=1)
        bots = [make_player(game_name, "hard", 0, seed=seed),
                make_player(game_name, "person:400", 1, seed=seed + 1)]
        result = play(game, bots, tiebreak_seed=0)
        assert result.finished
        runs.append((game.record()["actions"], result.time))
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_parlour_simulate_seats_a_person(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "slapjack", "--bots", "Hard, person:450ms:90", "--games", "6",
                 "--jobs", "1", "--quiet", "--json", "--swap-seats"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [e["bot"] for e in result["entries"]] == ["hard", "person:450"]
    assert sum(e["wins"] for e in result["entries"]) == result["finished"] == 6
    assert main(["simulate", "splunk", "--bots", "normal,person:500", "--games", "2",
                 "--jobs", "1", "--quiet"]) == 0
    assert "person:500" in capsys.readouterr().out


@pytest.mark.parametrize("args, says", [
    (["slapjack", "--bots", "hard,person:quick"], "bad person 'person:quick'"),
    (["slapjack", "--bots", "hard,person:400:80:2"], "MISS is a probability"),
    (["slapjack", "--bots", "hard,persn:400"], "unknown bot level 'persn:400'"),
    (["slabberjan", "--bots", "hard,person:400"], "slabberjan has no slap races"),
])
def test_a_bad_person_on_the_command_line_exits_2_with_one_line(
        args: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *args, "--games", "2", "--jobs", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_a_person_given_to_players_instead_of_bots_exits_2_with_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "slapjack", "--players", "person:400"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--players: invalid int value: 'person:400'" in err and err.count("\n") == 1


# -- Expert ----------------------------------------------------------------------------------


def test_expert_is_a_speed_of_every_game_marked_beyond_the_rules() -> None:
    for name in ("slabberjan", "slapjack", "splunk"):
        spec = game_class(name).spec
        levels = spec.to_json()["levels"]
        assert [lv["name"] for lv in levels] == list(LEVELS)
        assert [lv["beyond_rules"] for lv in levels] == [False, False, False, True]
        assert all(lv["about"] for lv in levels)
        assert make_player(name, "expert", 0, seed=1).level == "expert"
        # its own pause, the shortest (J10 and the other games' pacing)
        pauses = [spec.pacing.pause_for(level) for level in LEVELS]
        assert pauses == sorted(pauses, reverse=True) and len(set(pauses)) == len(LEVELS)


def test_expert_reacts_quickest() -> None:
    medians = [REACTION_TIMES[level].median for level in LEVELS]
    assert medians == sorted(medians, reverse=True)
    expert = slaps(make_player("slapjack", "expert", 1, seed=2), 801)
    hard = slaps(make_player("slapjack", "hard", 1, seed=2), 801)
    assert statistics.median(t for t in expert if t is not None) < statistics.median(
        t for t in hard if t is not None)


# -- calibration, on a short seeded run ---------------------------------------------------------


def person_wins(game: str, level: str, ms: int, games: int) -> float:
    result = simulate(SimConfig(game, 2, (level, f"person:{ms}"), games, seed=2026, jobs=1,
                                swap_seats=True))
    rate: float = result["entries"][1]["win_rate"]
    return rate


def test_the_speeds_hold_against_people_at_slapjack() -> None:
    # docs/bots.md has the full table; here 60 games a cell, seeded, far from any edge
    assert person_wins("slapjack", "easy", 600, 60) > 0.6  # a slow beginner beats Easy
    assert 0.25 < person_wins("slapjack", "normal", 500, 60) < 0.75  # an even match
    assert person_wins("slapjack", "hard", 400, 60) < 0.45  # Hard beats a 400 ms person
    assert person_wins("slapjack", "hard", 600, 60) < person_wins("slapjack", "easy", 600, 60)
    assert person_wins("slapjack", "expert", 300, 60) < person_wins("slapjack", "hard", 300, 60)


def test_the_speeds_hold_against_people_at_splunk() -> None:
    assert person_wins("splunk", "easy", 600, 30) > 0.6
    assert person_wins("splunk", "hard", 600, 30) < person_wins("splunk", "easy", 600, 30)
    assert person_wins("splunk", "hard", 400, 30) < person_wins("splunk", "normal", 400, 30)


def test_the_docs_give_the_command_and_the_table_it_makes() -> None:
    docs = (ROOT / "docs" / "bots.md").read_text("utf-8")
    assert "python -m parlour.sim.calibrate" in docs
    # the table as the command writes it now: its head, and a row per speed saying what
    # that speed is meant to do in the words the game's page shows (a stale table fails)
    tables = len(SLAPJACK_PLAYERS) + 1  # Slapjack's at each table size, and Splunk's
    assert docs.count(markdown_row(RACE_HEAD)) == tables
    for level in LEVELS:
        rows = [line for line in docs.splitlines()
                if line.startswith(f"| {speed_title(level)} |")
                and len(line.strip("|").split("|")) == len(RACE_HEAD)]
        words = [game_class(game).spec.level_about[level]
                 for game in ["slapjack"] * len(SLAPJACK_PLAYERS) + ["splunk"]]
        assert [row.rsplit("|", 2)[1].strip() for row in rows] == words, level


def test_the_call_study_agrees_with_how_the_calls_came_out() -> None:
    from parlour.sim.calibrate import study_game

    config = SimConfig("splunk", 2, ("hard", "normal"), games=4, seed=2026, swap_seats=True)
    found = [c for i in range(4) for c in study_game(config, i)]
    calls = [c for c in found if c.called]
    assert calls and {c.caller for c in found} == {"hard", "normal"}
    # where the exact chance is certain, the call came out that way
    assert all(c.right for c in calls if c.exact == 1.0)
    assert not any(c.right for c in calls if c.exact == 0.0)
    # Hard calls when everything seen makes it likelier than not (or on a last card, P6)
    assert all(c.exact > 0.5 or c.last_card for c in calls if c.caller == "hard")


def test_the_calibration_command_prints_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    from parlour.sim.calibrate import main as calibrate

    assert calibrate(["--games", "2", "--splunk-games", "2", "--call-games", "3",
                      "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("| Expert (beyond the rules page) |") == len(SLAPJACK_PLAYERS) + 1
    assert "person:600" in out and "sure wins passed" in out
    with pytest.raises(SystemExit) as exit_:
        calibrate(["--games", "0"])
    assert exit_.value.code == 2
    with pytest.raises(SystemExit) as exit_:
        calibrate(["--call-against", "person:fast"])  # not a person: one line, exit 2
    assert exit_.value.code == 2
