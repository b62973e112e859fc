"""Nothing is lost: a real server process is killed with SIGKILL mid-game and started again
on the same database; every seat comes back by its token, the games go on to their end and
their records hold every action any socket was told of. Also: finished games are served as
records and replays (never an unfinished one), rematches keep the seats, and a bad database
is a one-line error and exit 2."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import httpx
import pytest
from conftest import TESTS
from sockets import friends_table, kill, seat_at, server_process

from parlour.games import replay

HERE = TESTS


async def test_a_killed_server_loses_nothing_anybody_was_told(tmp_path: Path) -> None:
    db = str(tmp_path / "parlour.db")
    with server_process(db) as (url, proc):
        # against the computer
        async with seat_at(url) as me:
            await me.send({"type": "start", "game": "slapjack", "players": 2})
            solo = await me.next("welcome")
            await me.next("state")
            await me.play_slapjack(0, moves=6)
        solo_told, solo_events = me.views[-1], me.events_seen
        # with friends: two people and a spectator
        async with seat_at(url) as ann, seat_at(url) as bob, seat_at(url) as spy:
            anns, bobs = await friends_table(ann, bob, spy)
            await asyncio.gather(ann.play_slapjack(0, moves=5),
                                 bob.play_slapjack(1, moves=2, slaps=False))
            await asyncio.sleep(0.2)
            kill(proc)  # in the middle of everything, sockets open
            told = {"ann": ann.views[-1], "bob": bob.views[-1], "spy": spy.views[-1]}
            spy_events = spy.events_seen
    assert told["ann"]["winner"] is None

    with server_process(db) as (url, proc):
        async with seat_at(url) as me:
            await me.send({"type": "resume", "token": solo["token"]})
            assert (await me.next("welcome"))["table"] == solo["table"]
            back = (await me.next("state"))["view"]
            assert back["flips"] >= solo_told["flips"]  # nothing told was lost
            await me.play_slapjack(0)
            assert me.views[-1]["winner"] == 0
        async with seat_at(url) as ann, seat_at(url) as bob, seat_at(url) as spy:
            for person, seated in ((ann, anns), (bob, bobs)):
                await person.send({"type": "resume", "token": seated["token"]})
                assert (await person.next("welcome"))["seat"] == seated["seat"]
                await person.next("state")
            assert ann.views[-1]["flips"] >= told["ann"]["flips"]
            await spy.send({"type": "watch", "table": anns["table"]})
            await spy.next("state")
            await asyncio.gather(ann.play_slapjack(0), bob.play_slapjack(1, slaps=False))
            assert ann.views[-1]["winner"] == 0
        async with httpx.AsyncClient(base_url=url) as http:
            for table, seen, told_of in ((solo["table"], solo_told, solo_events),
                                         (anns["table"], told["spy"], spy_events)):
                record = (await http.get(f"/games/{table}.json")).json()
                game = replay(record)  # the record replays, to the end people saw
                assert game.outcome is not None and game.outcome.winner == 0
                # every action anybody was told of (one events message each) is in it
                assert len(record["actions"]) >= told_of
                before_kill = replay({**record, "actions": record["actions"][:told_of]})
                assert before_kill.view(None)["flips"] == seen["flips"]


async def test_the_record_of_a_game_in_play_is_never_served(tmp_path: Path) -> None:
    with server_process(str(tmp_path / "p.db")) as (url, _):
        async with seat_at(url) as me:
            await me.send({"type": "start", "game": "slapjack", "players": 2})
            welcome = await me.next("welcome")
            async with httpx.AsyncClient(base_url=url) as http:
                for path in (f"/games/{welcome['table']}.json",
                             f"/games/{welcome['table']}/steps.json"):
                    answer = await http.get(path)
                    assert answer.status_code == 404
                    assert "not over" in answer.json()["error"]
                    assert "decks" not in answer.text
                page = await http.get(f"/games/{welcome['table']}")
                assert page.status_code == 404 and "not over" in page.text
                assert (await http.get("/games/nosuchgame.json")).status_code == 404


async def test_a_finished_game_has_a_replay_step_by_step_as_a_spectator_saw_it(
        tmp_path: Path) -> None:
    with server_process(str(tmp_path / "p.db")) as (url, _):
        async with seat_at(url) as me:
            await me.send({"type": "start", "game": "slapjack", "players": 2})
            welcome = await me.next("welcome")
            await me.next("state")
            await me.play_slapjack(0)
        async with httpx.AsyncClient(base_url=url) as http:
            record = (await http.get(f"/games/{welcome['table']}.json")).json()
            total = len(record["actions"]) + 1
            steps = (await http.get(f"/games/{welcome['table']}/steps.json",
                                    params={"first": 0, "count": 500})).json()
            assert steps["total"] == total and steps["steps"][0]["step"] == 0
            assert steps["steps"][0]["events"][0]["type"] == "deal"
            last = steps["steps"][-1]
            assert last["step"] == total - 1 and last["view"]["winner"] == 0
            assert all(step["view"]["legal"] == [] for step in steps["steps"])  # spectator's
            bad = await http.get(f"/games/{welcome['table']}/steps.json",
                                 params={"count": 100000})
            assert bad.status_code == 404
            page = await http.get(f"/games/{welcome['table']}")
            assert page.status_code == 200 and "Won by" in page.text


async def test_a_rematch_keeps_the_seats_and_the_tokens(tmp_path: Path) -> None:
    with server_process(str(tmp_path / "p.db")) as (url, _):
        async with seat_at(url) as ann, seat_at(url) as bob:
            anns, bobs = await friends_table(ann, bob, None)
            await bob.send({"type": "rematch"})  # too soon
            assert (await bob.next("error"))["code"] == "not_over"
            await asyncio.gather(ann.play_slapjack(0), bob.play_slapjack(1, slaps=False))
            await bob.send({"type": "rematch"})
            offer = await ann.next("rematch")
            seated = await bob.next("seated")
            assert seated["table"] == offer["table"] != anns["table"]
            assert (seated["seat"], seated["token"]) == (1, bobs["token"])
            await ann.send({"type": "rematch"})
            again = await ann.next("seated")
            assert (again["table"], again["token"]) == (offer["table"], anns["token"])
            lobby = await ann.next("lobby")
            assert [s["name"] for s in lobby["seats"]] == ["Ann", "Bob", "Open seat"]
            assert lobby["host"] == 0 and not lobby["started"]
            await bob.send({"type": "begin"})
            assert (await bob.next("error"))["code"] == "not_host"
            await ann.send({"type": "begin"})
            assert (await ann.next("lobby"))["started"]
        async with seat_at(url) as late:  # the old table's link tells of the rematch
            await late.send({"type": "join", "table": anns["table"]})
            old = await late.next("lobby")
            assert old["rematch"] == offer["table"] and old["outcome"]["winner"] == 0


@pytest.mark.parametrize("content", [b"not a database at all" * 50, None])
def test_a_bad_database_is_one_line_and_exit_2(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "bad.db"
    if content is not None:
        path.write_bytes(content)
    else:
        path.mkdir()  # a directory where the file should be
    done = subprocess.run([sys.executable, "-m", "parlour", "serve", "--db", str(path),
                           "--port", "0"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0]


async def test_a_second_server_on_the_same_file_is_refused_and_the_first_plays_on(
        tmp_path: Path) -> None:
    """Two servers on one SQLite file would both resume its tables and play them twice: the
    second is refused at start-up (one line naming the file, exit 2)."""
    db = str(tmp_path / "parlour.db")
    with server_process(db) as (url, _):
        async with seat_at(url) as me:
            await me.send({"type": "start", "game": "slapjack", "players": 2})
            await me.next("welcome")
            await me.next("state")
            await me.play_slapjack(0, moves=2)
            second = subprocess.run([sys.executable, "-m", "parlour", "serve", "--db", db,
                                     "--port", "0"], capture_output=True, text=True, timeout=60)
            assert second.returncode == 2
            lines = second.stderr.strip().splitlines()
            assert len(lines) == 1 and db in lines[0] and "another" in lines[0], lines
            before = me.views[-1]["flips"]
            await me.play_slapjack(0, moves=2)  # the first server goes on
            assert me.views[-1]["flips"] > before
            # and the file can be backed up meanwhile, as the README says
            with closing(sqlite3.connect(db)) as live, \
                    closing(sqlite3.connect(tmp_path / "backup.db")) as copy:
                live.backup(copy)
                kept = copy.execute("SELECT COUNT(*) FROM parlour_actions").fetchone()[0]
            assert kept >= 4
