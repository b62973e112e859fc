"""The web server over a real socket: pages, the protocol of docs/protocol.md, everything a
browser can send wrong, reconnecting with a seat token, and secrecy of every message (G3)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from conftest import (
    FAST_PACING,
    Mute,
    QuickFlipper,
    SocketClient,
    json_values,
    quick_decks,
    running,
    sleepy_players,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.engine.cards import standard_deck
from parlour.live import Lobby
from parlour.web import Limits, create_app
from parlour.web.app import Connection

CARDS = frozenset(standard_deck(jokers=True))


class Client(SocketClient):
    """A socket that starts a Slapjack game and acts in one call."""

    async def start(self, players: int = 2, level: str = "normal", **extra: Any) -> dict[str, Any]:
        await self.send({"type": "start", "game": "slapjack", "players": players,
                         "level": level, **extra})
        welcome = await self.next("welcome")
        await self.next("state")
        return welcome

    async def act(self, **action: Any) -> None:
        await self.send({"type": "action", "action": action})


@asynccontextmanager
async def server(**lobby_args: Any) -> AsyncIterator[str]:
    lobby_args.setdefault("players", sleepy_players)
    lobby_args.setdefault("pacing", FAST_PACING)
    lobby_args.setdefault("decks", quick_decks)  # seat 0 holds no Jack
    limits = lobby_args.pop("limits", None)
    app = create_app(lobby=Lobby(**lobby_args), limits=limits)
    with running(app) as url:
        yield url.replace("http", "ws") + "/ws"


@asynccontextmanager
async def client(url: str) -> AsyncIterator[Client]:
    async with websockets.connect(url) as ws:
        yield Client(ws)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with running(create_app(lobby=Lobby(players=sleepy_players, pacing=FAST_PACING))) as url:
        yield url


# -- pages ------------------------------------------------------------------------------------

def test_the_home_page_leads_to_the_slapjack_page_and_the_rules(site: str) -> None:
    home = httpx.get(site + "/")
    assert home.status_code == 200
    assert 'href="/slapjack"' in home.text and 'href="/rules/slapjack"' in home.text
    page = httpx.get(site + "/slapjack")
    assert page.status_code == 200 and "On the Parlour page" in page.text
    assert httpx.get(site + "/static/slapjack.js").status_code == 200
    assert httpx.get(site + "/static/style.css").status_code == 200


def test_every_game_is_served_as_its_one_spec(site: str) -> None:
    """GET /api/games: what the pages build their titles, players and options from."""
    from parlour.games import GAMES

    games = {g["name"]: g for g in httpx.get(site + "/api/games").json()["games"]}
    assert list(games) == list(GAMES)
    for name, cls in GAMES.items():
        spec = games[name]
        assert spec["title"] == cls.spec.title and spec["seats"] == list(cls.spec.seats)
        assert set(spec["actions"]) == set(cls.spec.actions)
        assert "legal" in spec["view"]  # every view lists the actions open to the seat
    chips = next(o for o in games["slabberjan"]["options"] if o["name"] == "chips")
    assert (chips["kind"], chips["default"], chips["low"], chips["high"]) == ("int", 3, 1, 1000)
    home = httpx.get(site + "/").text
    assert all(spec["title"] in home and spec["blurb"] in home for spec in games.values())


def test_the_rules_page_renders_the_rules_file(site: str) -> None:
    page = httpx.get(site + "/rules/slapjack")
    assert page.status_code == 200
    assert "<h1" in page.text and "Slapjack" in page.text and "#" not in page.text.split(
        "<main", 1)[1].split("<h1", 1)[0]
    assert httpx.get(site + "/rules/chess").status_code == 404
    assert httpx.get(site + "/chess").status_code == 404


def test_a_game_offers_its_rules_once_they_are_written(tmp_path: Path) -> None:
    (tmp_path / "splunk.md").write_text("# Splunk\n\nTwo players, *four* stacks.\n<b>x</b>\n")
    with running(create_app(rules_dir=tmp_path, lobby=Lobby(pacing=FAST_PACING))) as url:
        home = httpx.get(url + "/").text
        assert 'href="/rules/splunk"' in home and 'href="/rules/slabberjan"' not in home
        assert 'href="/slabberjan"' in home  # its page is there all the same
        rules = httpx.get(url + "/rules/splunk").text
        assert "<em>four</em>" in rules and "<b>x</b>" not in rules  # no raw HTML
        missing = httpx.get(url + "/rules/slabberjan")
        assert missing.status_code == 404 and 'href="/"' in missing.text
        assert missing.headers["content-type"].startswith("text/html")


def test_a_missing_page_is_a_page_with_a_way_home_and_a_missing_api_is_json(site: str) -> None:
    page = httpx.get(site + "/nowhere/at/all")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "Page not found" in page.text and 'href="/"' in page.text
    api = httpx.get(site + "/api/nothing")
    assert api.status_code == 404 and api.headers["content-type"] == "application/json"


# -- malformed and illegal messages -----------------------------------------------------------

async def test_malformed_messages_get_an_error_and_change_nothing() -> None:
    async with server() as url, client(url) as c:
        welcome = await c.start()
        for bad, code in [("{not json", "bad_json"), (b"\x00\x01", "bad_message"),
                          ("[1, 2]", "bad_message"), ('{"type": 7}', "bad_message"),
                          ('"flip"', "bad_message"), ("x" * 5000, "too_big"),
                          ('{"type": "teleport"}', "unknown_type")]:
            await c.send(bad)
            error = await c.next()
            assert error["type"] == "error" and error["code"] == code, bad
        await c.act(type="flip")  # the table is fine and still ours
        events = await c.next("events")
        assert events["events"][0] == {"type": "flip", "player": 0, "card": events["view"]["top"],
                                       "at": 1}
        await c.send({"type": "resume", "token": welcome["token"]})
        assert (await c.next("welcome"))["table"] == welcome["table"]


async def test_acting_before_sitting_down_is_refused() -> None:
    async with server() as url, client(url) as c:
        await c.act(type="flip")
        error = await c.next()
        assert error["code"] == "no_table"


async def test_illegal_actions_are_refused_with_the_reason() -> None:
    async with server() as url, client(url) as c:
        await c.start()
        await c.act(type="flip")
        flipped = await c.next("events")
        for action, words in [({"type": "flip"}, "seat 1's turn"),
                              ({"type": "slap", "at": 5}, "flipped so far"),
                              ({"type": "slap", "at": "one"}, "integer"),
                              ({"type": "swap"}, "unknown action type")]:
            await c.act(**action)
            error = await c.next()
            assert error["type"] == "error" and error["code"] == "refused"
            assert words in error["reason"], (action, error)
        await c.send({"type": "action", "action": "flip"})
        assert (await c.next())["code"] == "refused"
        # nothing changed: the view is the one after the flip
        await c.send({"type": "resume", "token": c.log[0]["token"]})
        state = await c.next("state")
        assert state["view"] == flipped["view"]


async def test_every_view_has_a_version_and_an_action_sent_twice_at_one_is_stale() -> None:
    """Act once per view version (docs/protocol.md): every ``state`` and ``events`` says how
    many actions were applied; the same action sent twice at one version (a double press)
    is answered ``stale`` and changes nothing; a ``version`` that is no whole number from 0
    is refused ``bad_request``."""
    async with server() as url, client(url) as c:
        await c.start()
        state = c.log[-1]
        assert state["type"] == "state" and state["version"] == 0
        flip = {"type": "action", "action": {"type": "flip"}, "version": 0}
        await c.send(flip)
        await c.send(flip)  # pressed twice before the first answer came
        events = await c.next("events")
        assert events["version"] == 1 and [e["type"] for e in events["events"]] == ["flip"]
        repeat = await c.next()
        assert (repeat["type"], repeat["code"], repeat["about"]) == ("error", "stale", "action")
        for bad in (-1, "1", 1.5, True, [0], {"n": 0}):
            await c.send({**flip, "version": bad})
            refused = await c.next()
            assert refused["code"] == "bad_request" and "version" in refused["reason"], bad
        # nothing changed: one flip, and the view is the one after it
        await c.send({"type": "resume", "token": c.log[0]["token"]})
        again = await c.next("state")
        assert again["version"] == 1 and again["view"] == events["view"]


async def test_a_bad_start_is_refused_and_the_current_table_stays() -> None:
    async with server() as url, client(url) as c:
        welcome = await c.start()
        for start, words in [({"players": 9}, "2 to 4 players"), ({"level": "godlike"}, "speed"),
                             ({"game": "chess"}, "unknown game"), ({"seed": "x"}, "seed")]:
            await c.send({"type": "start", "game": "slapjack", "players": 2, **start})
            error = await c.next()
            assert error["code"] == "bad_request" and words in error["reason"]
        await c.act(type="flip")
        assert (await c.next("events"))["view"]["flips"] == 1
        assert welcome["players"] == 2


async def test_a_flood_of_slaps_costs_one_card_and_never_stops_the_server() -> None:
    """Past the burst the excess is dropped unread with one warning a second; a connection
    that keeps flooding after its warning is cut off (``flooding``, close 1008)."""
    async with server() as url, client(url) as c:
        await c.start()
        await c.act(type="flip")
        await c.next("events")
        with contextlib.suppress(websockets.ConnectionClosed):
            for _ in range(300):
                await c.act(type="slap", at=1)
            for _ in range(100):
                await c.next(timeout=2)
        assert c.ws.close_code == 1008
        wrong = [e for m in c.log if m["type"] == "events" for e in m["events"]
                 if e["type"] == "wrong_slap"]
        assert len(wrong) == 1  # our own card: it went under the pile, once
        errors = [m["code"] for m in c.log if m["type"] == "error"]
        assert set(errors) <= {"refused", "rate_limited", "flooding"}
        assert errors.index("rate_limited") < errors.index("flooding") == len(errors) - 1
        with pytest.raises(websockets.InvalidStatus):  # the flooder's address waits a while
            async with client(url):
                pass
        async with websockets.connect(url, local_addr=("127.0.0.2", 0)) as ws:  # others don't
            assert (await Client(ws).start())["seat"] == 0


async def test_a_browser_that_does_not_read_is_cut_off_not_buffered_forever() -> None:
    class Stuck:
        """A socket whose peer reads nothing: every send waits for ever."""

        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()

        async def close(self, code: int = 1000) -> None:
            pass

    conn = Connection(Stuck(), Lobby(), Limits(max_queue=5))
    writer = asyncio.create_task(conn.outbox.writer())
    for i in range(50):
        conn.send({"type": "pong", "id": i})
        await asyncio.sleep(0)
    assert conn.closed and not conn.outbox.queued
    writer.cancel()


# -- reconnecting -----------------------------------------------------------------------------

async def test_a_dropped_connection_comes_back_to_its_seat_with_its_token() -> None:
    async with server(grace=0.5) as url:
        async with client(url) as c:
            welcome = await c.start()
            await c.act(type="flip")
            before = (await c.next("events"))["view"]
        async with client(url) as c:
            await c.send({"type": "resume", "token": welcome["token"]})
            back = await c.next("welcome")
            assert (back["table"], back["seat"]) == (welcome["table"], welcome["seat"])
            assert (await c.next("state"))["view"] == before
        await asyncio.sleep(0.8)  # nobody came back within the grace period: put away
        async with client(url) as c:
            await c.send({"type": "resume", "token": welcome["token"]})
            assert (await c.next("welcome"))["table"] == welcome["table"]
            assert (await c.next("state"))["view"]["flips"] >= before["flips"]  # from the store
            await c.send({"type": "leave"})  # done with it: the token stops working
        async with client(url) as c:
            await c.send({"type": "resume", "token": welcome["token"]})
            assert (await c.next())["code"] == "bad_token"
            await c.send({"type": "resume", "token": 12})
            assert (await c.next())["code"] == "bad_request"


async def test_starting_a_new_game_closes_the_old_table() -> None:
    lobby = Lobby(players=sleepy_players, pacing=FAST_PACING)
    with running(create_app(lobby=lobby)) as http:
        async with client(http.replace("http", "ws") + "/ws") as c:
            first = await c.start()
            second = await c.start(players=3, level="hard")
            assert second["table"] != first["table"] and second["players"] == 3
            assert len(lobby) == 1
            await c.send({"type": "leave"})
            await c.send({"type": "ping"})
            await c.next("pong")
            assert len(lobby) == 0


# -- secrecy ----------------------------------------------------------------------------------

def strings_in(obj: object, skip: frozenset[str] = frozenset({"token", "table"})) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            if key not in skip:
                yield from strings_in(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from strings_in(value)


async def test_no_message_to_a_seat_holds_a_card_it_may_not_see() -> None:
    """G3: a whole 3-player game read from seat 0's socket. Nobody sees any stack (J1), so a
    message may name a card only while it is face up on top of the pile: the card a flip in
    that message turned, or the top card of the view it carries."""

    class Fast(QuickFlipper):
        flip_after = 0.002

    def fast(game: str, level: str, seat: int, *, seed: int | None = None) -> Fast:
        return Fast(seat, seed=seed)

    async with server(players=fast, decks=None) as url, client(url) as c:
        await c.start(players=3, seed=11)
        turned: set[str] = set()
        view = c.log[-1]["view"]
        for _ in range(5000):
            if view["winner"] is not None:
                break
            if view["slappable"]:
                await c.act(type="slap", at=view["flips"])
            elif view["turn"] == 0:
                await c.act(type="flip")
            message = await c.next()
            if message["type"] == "events":
                view = message["view"]
        assert view["winner"] == 0, "the game did not end"
        for message in c.log:
            face_up = {e["card"] for e in message.get("events", []) if e["type"] == "flip"}
            turned |= face_up
            if "view" in message:
                face_up.add(message["view"]["top"])
            shown = {s for s in strings_in(message) if s in CARDS}
            assert shown <= face_up, (message, shown - face_up)
            text = json.dumps(message)
            assert "decks" not in text and "shuffles" not in text
        assert len(turned) > 4


# -- the command ------------------------------------------------------------------------------

def test_parlour_serve_prints_where_games_are_and_its_address_and_serves_the_home_page(
        tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "XDG_DATA_HOME": str(tmp_path / "data")}
    proc = subprocess.Popen([sys.executable, "-m", "parlour", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        kept = proc.stdout.readline()  # the default: the user's data directory
        assert kept.strip() == f"Games are kept in {tmp_path / 'data' / 'parlour' / 'parlour.db'}"
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        home = httpx.get(match.group(0), timeout=10)
        assert home.status_code == 200 and "Slapjack" in home.text
    finally:
        proc.terminate()
        proc.wait(10)


def test_parlour_serve_says_so_when_the_port_is_taken() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "parlour", "serve", "--port", str(port),
                               "--db", ":memory:"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr



messages = st.fixed_dictionaries(
    {"type": st.sampled_from(["start", "resume", "action", "leave", "ping", "flip", ""])},
    optional={"action": json_values | st.fixed_dictionaries(
                  {"type": st.sampled_from(["flip", "slap", "swap"])},
                  optional={"at": json_values}),
              "players": json_values, "level": json_values | st.sampled_from(["easy", "hard"]),
              "game": json_values | st.just("slapjack"), "token": json_values, "seed": json_values,
              "id": json_values})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sent=st.lists(st.one_of(st.text(max_size=30), st.builds(json.dumps, json_values),
                               st.builds(json.dumps, messages)), max_size=12))
async def test_nothing_a_browser_sends_breaks_its_connection(sent: list[str]) -> None:
    """Every frame gets handled: no exception escapes, and everything sent back is one of the
    protocol's messages."""
    lobby = Lobby(players=sleepy_players, pacing=FAST_PACING)
    conn = Connection(Mute(), lobby, Limits(rate=None))
    conn.receive(json.dumps({"type": "start", "game": "slapjack", "players": 2}))
    for text in sent:
        conn.receive(text)
    replies = [json.loads(m) for m in conn.outbox.queued]
    assert {m["type"] for m in replies} <= {"welcome", "state", "events", "error", "pong"}
    assert all(m["code"] in ERROR_CODES for m in replies if m["type"] == "error")
    lobby.close()


ERROR_CODES = {"bad_json", "bad_message", "too_big", "unknown_type", "bad_request",
               "bad_token", "no_table", "refused", "rate_limited"}
