"""Tables with friends over a real socket: creating a table, taking seats, the host's speed
and start, spectators, a dropped or departed person's seat played by the computer until
they are back, closing a table nobody is left at, the open tables on the home page, and
every message refused with a clear error when it is wrong (docs/protocol.md). What happens
at an instant (a seat handed on at once, a table put away after its grace period) is
checked on virtual time, without the socket."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
import websockets
from conftest import (
    FAST_PACING,
    Inbox,
    Mute,
    QuickFlipper,
    Sleepy,
    SocketClient,
    SteppedClock,
    command,
    crowd,
    json_values,
    running,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.bots.base import ComputerPlayer
from parlour.live import Lobby, Refused
from parlour.web import Limits, create_app
from parlour.web.app import Connection


def players(game: str, level: str, seat: int, *, seed: int | None = None) -> ComputerPlayer:
    """Seat 0 (the host's seat, when a computer takes it over) flips at once; any other
    computer sleeps, so the game moves only when the test or a takeover moves it."""
    return QuickFlipper(seat, seed=seed) if seat == 0 else Sleepy(seat, seed=seed)


class Client(SocketClient):
    """A socket that can wait for a message passing a check, or for quiet."""

    async def until(self, kind: str, check: Any, timeout: float = 5.0) -> dict[str, Any]:
        """The next message of ``kind`` for which ``check(message)`` holds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.next(kind, timeout=max(0.01, end - loop.time()))
            if check(message):
                return message

    async def error(self, message: dict[str, Any]) -> dict[str, Any]:
        return await self.ask(message, "error")

    async def quiet(self, seconds: float = 0.15) -> list[dict[str, Any]]:
        """Everything that arrives within ``seconds``."""
        got = []
        try:
            while True:
                got.append(await self.next(timeout=seconds))
        except TimeoutError:
            return got


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, Lobby]]:
    lobby = Lobby(grace=0.6, takeover=0.2, players=players, pacing=FAST_PACING)
    with running(create_app(lobby=lobby, gate=crowd())) as url:
        yield url, lobby


@asynccontextmanager
async def connect(site: tuple[str, Lobby]) -> AsyncIterator[Client]:
    async with websockets.connect(site[0].replace("http", "ws") + "/ws") as ws:
        yield Client(ws)


async def create(c: Client, players: int = 3, name: str = "Ann",
                 **extra: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    await c.send({"type": "create", "game": "slapjack", "players": players, "level": "easy",
                  "name": name, **extra})
    seated = await c.next("seated")
    return seated, await c.next("lobby")


async def sit(c: Client, table: str, name: str = "Bob") -> dict[str, Any]:
    await c.send({"type": "join", "table": table})
    await c.next("lobby")
    await c.send({"type": "sit", "table": table, "name": name})
    return await c.next("seated")


# -- creating and sitting ----------------------------------------------------------------------

async def test_the_creator_hosts_seat_0_and_a_friend_takes_the_next_free_seat(
        site: tuple[str, Lobby]) -> None:
    async with connect(site) as ann, connect(site) as bob:
        seated, lobby = await create(ann, players=3, name="  Ann \t ")
        assert seated["seat"] == 0 and seated["token"] and lobby["host"] == 0
        assert [s["kind"] for s in lobby["seats"]] == ["person", "open", "open"]
        assert lobby["seats"][0]["name"] == "Ann" and lobby["free"] == 2
        assert not lobby["started"] and lobby["level"] == "easy"
        bobs = await sit(bob, seated["table"])
        assert bobs["seat"] == 1 and bobs["token"] != seated["token"]
        update = await ann.until("lobby", lambda m: m["free"] == 1)
        assert [s["name"] for s in update["seats"][:2]] == ["Ann", "Bob"]
        assert "token" not in json.dumps(update["seats"])  # a seat's token is its owner's only


async def test_a_create_the_page_does_not_offer_is_refused_with_the_reason(
        site: tuple[str, Lobby]) -> None:
    base = {"type": "create", "game": "slapjack", "players": 2, "level": "normal", "name": "A"}
    cases = [({"game": "chess"}, "unknown game"), ({"game": None}, "must name a game"),
             ({"players": 9}, "2 to 4 players"), ({"players": True}, "2 to 4 players"),
             ({"level": "godlike"}, "speed"), ({"name": ""}, "type a name"),
             ({"name": " \n "}, "type a name"),
             ({"name": " \u200b\n "}, "only invisible characters"),
             ({"name": "x" * 25}, "at most 24"),
             ({"name": 7}, "'name' must be a string"), ({"options": [1]}, "must be an object"),
             ({"options": {"jokers": True}}, "option"), ({"seed": "s"}, "'seed'"),
             ({"seed": 7}, "dealt at random")]  # nobody chooses a friends' deal
    async with connect(site) as c:
        for change, words in cases:
            error = await c.error({**base, **change})
            assert (error["code"], error["about"]) == ("bad_request", "create"), change
            assert words in error["reason"], (change, error["reason"])
        del base["name"]
        assert "name" in (await c.error(base))["reason"]
        assert await c.quiet() == []  # nothing was opened


async def test_a_seat_is_refused_when_taken_full_started_or_badly_asked(
        site: tuple[str, Lobby]) -> None:
    async with connect(site) as ann, connect(site) as bob, connect(site) as cat:
        seated, _ = await create(ann, players=2)
        table = seated["table"]
        await bob.send({"type": "join", "table": table})
        await bob.next("lobby")
        for change, code in [({"seat": 0}, "taken"), ({"seat": 5}, "bad_request"),
                             ({"seat": "1"}, "bad_request"), ({"name": ""}, "bad_request"),
                             ({"table": "nope"}, "unknown_table"),
                             ({"table": ["x"]}, "bad_request")]:
            error = await bob.error({"type": "sit", "table": table, "name": "Bob", **change})
            assert (error["code"], error["about"]) == (code, "sit"), change
        await bob.send({"type": "sit", "name": "Bob", "seat": 1})  # the followed table
        assert (await bob.next("seated"))["seat"] == 1
        assert (await bob.error({"type": "sit", "name": "Bob"}))["code"] == "seated"
        assert (await cat.error({"type": "sit", "table": table, "name": "Cat"}))["code"] == "full"
        await ann.send({"type": "begin"})
        await ann.until("lobby", lambda m: m["started"])
        error = await cat.error({"type": "sit", "table": table, "name": "Cat"})
        assert error["code"] == "started" and "watch" in error["reason"]


async def test_only_the_host_sets_the_speed_and_starts(site: tuple[str, Lobby]) -> None:
    async with connect(site) as ann, connect(site) as bob, connect(site) as nobody:
        seated, _ = await create(ann, players=3)
        await sit(bob, seated["table"])
        assert (await bob.error({"type": "speed", "level": "hard"}))["code"] == "not_host"
        assert (await bob.error({"type": "begin"}))["code"] == "not_host"
        assert (await nobody.error({"type": "begin"}))["code"] == "no_seat"
        assert (await nobody.error({"type": "speed", "level": "hard"}))["code"] == "no_seat"
        error = await ann.error({"type": "speed", "level": "turbo"})  # not a speed
        assert (error["code"], error["about"]) == ("bad_request", "speed")
        await ann.send({"type": "speed", "level": "hard"})
        assert (await bob.until("lobby", lambda m: m["level"] == "hard"))["level"] == "hard"
        await ann.send({"type": "begin"})
        started = await bob.until("lobby", lambda m: m["started"])
        # the free seat got a computer player at the chosen speed
        assert started["seats"][2] == {"name": "Computer 2", "kind": "computer", "level": "hard"}
        assert started["free"] == 0
        assert (await ann.error({"type": "begin"}))["code"] == "started"
        assert (await ann.error({"type": "speed", "level": "easy"}))["code"] == "started"


async def test_a_host_who_leaves_before_the_start_hands_the_table_on(
        site: tuple[str, Lobby]) -> None:
    async with connect(site) as ann, connect(site) as bob:
        seated, _ = await create(ann, players=3)
        await sit(bob, seated["table"])
        await ann.send({"type": "leave"})
        after = await bob.until("lobby", lambda m: m["seats"][0]["kind"] == "open")
        assert after["host"] == 1 and after["free"] == 2
        await bob.send({"type": "begin"})  # Bob hosts now
        await bob.until("lobby", lambda m: m["started"])
        await ann.send({"type": "join", "table": seated["table"], "token": seated["token"]})
        assert (await ann.next("error"))["code"] == "bad_token"  # her seat was given up


async def test_the_last_person_leaving_before_the_start_closes_the_table(
        site: tuple[str, Lobby]) -> None:
    async with connect(site) as ann, connect(site) as eve:
        seated, _ = await create(ann)
        await eve.send({"type": "join", "table": seated["table"]})
        await eve.next("lobby")
        await ann.send({"type": "leave"})
        assert (await eve.until("lobby", lambda m: m["closed"]))["closed"]
        error = await eve.error({"type": "join", "table": seated["table"]})
        assert (error["code"], error["about"]) == ("unknown_table", "join")


async def test_join_with_a_token_holds_the_seat_and_a_wrong_token_is_refused(
        site: tuple[str, Lobby]) -> None:
    async with connect(site) as ann, connect(site) as other:
        seated, _ = await create(ann)
        other_seat, _ = await create(other)
    async with connect(site) as back:
        await back.send({"type": "join", "table": seated["table"], "token": seated["token"]})
        again = await back.next("seated")
        assert (again["seat"], again["token"]) == (0, seated["token"])
        await back.send({"type": "join", "table": seated["table"],
                         "token": other_seat["token"]})
        error = await back.next("error")
        assert (error["code"], error["about"]) == ("bad_token", "join")
        assert (await back.next("lobby"))["table"] == seated["table"]  # still looking on


# -- the game ------------------------------------------------------------------------------------

async def test_a_seat_resumed_before_the_start_waits_then_gets_the_deal(
        site: tuple[str, Lobby]) -> None:
    async with connect(site) as ann, connect(site) as page:
        seated, _ = await create(ann, players=2)
        await page.send({"type": "resume", "token": seated["token"]})
        welcome = await page.next("welcome")
        assert welcome["started"] is False and welcome["seat"] == 0 and welcome["host"]
        assert welcome["friends"] is True
        assert [m for m in await page.quiet() if m["type"] in ("state", "events")] == []
        await page.send({"type": "action", "action": {"type": "flip"}})
        assert (await page.next("error"))["code"] == "no_table"
        await ann.send({"type": "begin"})
        state = await page.next("state")
        assert state["view"]["seat"] == 0 and state["view"]["turn"] == 0
        await page.send({"type": "action", "action": {"type": "flip"}})
        flipped = await page.until("events", lambda m: m["view"]["flips"] == 1)
        assert flipped["events"][0]["player"] == 0


async def test_a_spectator_sees_the_public_view_only_and_cannot_act(
        site: tuple[str, Lobby]) -> None:
    async with connect(site) as ann, connect(site) as spy:
        error = await spy.error({"type": "watch", "table": "no-such-table"})
        assert (error["code"], error["about"]) == ("unknown_table", "watch")
        seated, _ = await create(ann, players=2)
        await spy.send({"type": "watch", "table": seated["table"]})
        welcome = await spy.next("welcome")
        assert welcome["seat"] is None and welcome["token"] is None
        assert welcome["started"] is False and not welcome["host"]
        await ann.send({"type": "resume", "token": seated["token"]})
        await ann.next("welcome")
        await ann.send({"type": "begin"})
        state = await spy.next("state")
        assert state["view"]["seat"] is None
        await ann.send({"type": "action", "action": {"type": "flip"}})
        seen = await spy.until("events", lambda m: m["view"]["flips"] == 1)
        assert seen["view"]["seat"] is None and seen["events"][0]["type"] == "flip"
        error = await spy.error({"type": "action", "action": {"type": "slap"}})
        assert error["code"] == "no_table"


async def test_a_dropped_person_is_played_by_the_computer_until_they_come_back(
        site: tuple[str, Lobby]) -> None:
    async with connect(site) as bob, connect(site) as spy:
        async with connect(site) as ann:
            seated, _ = await create(ann, players=3)
            await sit(bob, seated["table"])
            await ann.send({"type": "resume", "token": seated["token"]})  # her game page
            await ann.next("welcome")
            await ann.send({"type": "begin"})
            await ann.next("state")
            await spy.send({"type": "watch", "table": seated["table"]})
            await spy.next("state")
        # Ann's page closed on her turn: after the takeover delay a computer flips for her.
        seats = await spy.until("seats", lambda m: m["seats"][0].get("away"), timeout=3)
        assert seats["seats"][0] == {"name": "Ann", "kind": "person", "away": True,
                                     "level": "easy"}
        flip = await spy.until("events", lambda m: m["view"]["flips"] == 1)
        assert flip["events"][0]["player"] == 0 and flip["view"]["turn"] == 1
        async with connect(site) as ann:
            await ann.send({"type": "resume", "token": seated["token"]})
            welcome = await ann.next("welcome")
            assert welcome["seat"] == 0 and "away" not in welcome["seats"][0]
            state = await ann.next("state")
            assert state["view"]["flips"] == 1 and state["view"]["seat"] == 0
            back = await spy.until("seats", lambda m: "away" not in m["seats"][0])
            assert back["seats"][0] == {"name": "Ann", "kind": "person"}
            # Bob's turn: Ann's move is hers again, and refused as out of turn
            await ann.send({"type": "action", "action": {"type": "flip"}})
            assert "turn" in (await ann.next("error"))["reason"]


def test_a_person_who_leaves_is_replaced_at_once_and_the_last_one_out_closes_it(
        clock: SteppedClock) -> None:
    """On virtual time: ``leave`` hands the seat to a computer at that instant, not after
    the takeover delay; the last person out closes the table at once, not after ``grace``."""
    lobby = Lobby(clock=clock, grace=30.0, takeover=3.0, players=players, pacing=FAST_PACING)
    ann = lobby.create(command(type="create", game="slapjack", players=3, name="Ann"))
    room = ann.room
    bob = room.sit("Bob")
    room.begin(ann)
    for seating in (ann, bob):
        lobby.attach(seating.token, Inbox())
    spy = Inbox()
    lobby.watch(room.id, spy)
    clock.at(1.0)
    lobby.leave(ann.token)
    seats = [m for m in spy.messages if m["type"] == "seats"]
    assert seats and seats[-1]["seats"][0]["away"]  # at once, not after the takeover delay
    assert room.table is not None and 0 in room.table.computers
    assert lobby.find(ann.token) is not None  # she may still come back
    lobby.leave(bob.token)  # both gone on purpose: closed now, no grace period
    assert room.closed and len(lobby) == 0 and clock.now() == 1.0
    assert lobby.find(bob.token) is None
    with pytest.raises(Refused) as gone:
        lobby.watch(room.id, Inbox())
    assert gone.value.code == "unknown_table"


def test_a_table_everybody_dropped_from_is_put_away_after_the_grace_period_and_comes_back(
        clock: SteppedClock) -> None:
    """On virtual time: a started table whose only person dropped stays in memory for the
    grace period, not a moment less; then it is out of memory and in the store, and the
    seat's token brings it back as it was."""
    lobby = Lobby(clock=clock, grace=0.6, takeover=0.2, players=players, pacing=FAST_PACING)
    ann = lobby.create(command(type="create", game="slapjack", players=2, name="Ann"))
    room = ann.room
    waiting = Inbox()
    lobby.attach(ann.token, waiting, play=False)
    room.begin(ann)
    page = Inbox()
    lobby.attach(ann.token, page)  # from the waiting room to the game page
    room.detach(ann, waiting)
    clock.at(1.0)
    room.detach(ann, page)  # her page closed
    clock.at(1.599)
    assert room.id in lobby._rooms  # within the grace period
    clock.at(1.6)
    assert room.id not in lobby._rooms  # out of memory ...
    kept = lobby.store.table(room.id)
    assert kept is not None and kept.phase == "playing"  # ... and in the store
    again = Inbox()
    back = lobby.attach(ann.token, again, welcome=True)
    assert (again.messages[0]["type"], back.table_id, back.seat) == ("welcome", room.id, 0)
    state = again.messages[1]
    assert state["type"] == "state" and state["view"]["legal"] is not None
    assert state["version"] == len(back.room.game.history) == len(kept.actions)
    lobby.close()


# -- the home page -------------------------------------------------------------------------------

async def test_the_home_page_lists_tables_that_can_be_joined_only(
        site: tuple[str, Lobby]) -> None:
    url = site[0]
    async with connect(site) as ann, connect(site) as bob, connect(site) as cat:
        waiting, _ = await create(ann, players=3, name="<b>Ann</b>")
        full, _ = await create(bob, players=2, name="Bob")
        await sit(cat, full["table"], name="Cat")
        async with httpx.AsyncClient() as http:
            listed = (await http.get(url + "/api/tables")).json()
            home = (await http.get(url + "/")).text
            tables = {t["table"]: t for t in listed["tables"]}
            assert waiting["table"] in tables and full["table"] not in tables
            assert tables[waiting["table"]]["free"] == 2
            assert tables[waiting["table"]]["people"] == ["<b>Ann</b>"]
            assert f'href="/table/{waiting["table"]}"' in home
            assert f'/table/{full["table"]}' not in home
            assert "&lt;b&gt;Ann&lt;/b&gt;" in home and "<b>Ann</b>" not in home
            assert 'href="/table?game=slapjack"' in home
            await ann.send({"type": "begin"})
            await ann.until("lobby", lambda m: m["started"])
            listed = (await http.get(url + "/api/tables")).json()
            assert waiting["table"] not in {t["table"] for t in listed["tables"]}
            for path in ("/table", f"/table/{waiting['table']}", "/static/table.js",
                         "/static/home.js"):
                assert (await http.get(url + path)).status_code == 200, path


async def test_messages_of_the_wrong_shape_never_stop_a_table(
        site: tuple[str, Lobby]) -> None:
    async with connect(site) as ann:
        seated, _ = await create(ann, players=2)
        for message in [{"type": "join"}, {"type": "join", "table": 5},
                        {"type": "watch", "table": {"a": 1}}, {"type": "sit"},
                        {"type": "speed"}, {"type": "join", "table": seated["table"],
                                            "token": ["x"]}]:
            await ann.send(message)
            assert (await ann.next("error"))["reason"]
        await ann.send({"type": "join", "table": seated["table"], "token": seated["token"]})
        await ann.next("seated")
        await ann.send({"type": "begin"})
        assert (await ann.until("lobby", lambda m: m["started"]))["started"]


# -- anything at all ------------------------------------------------------------------------------


TYPES = ["create", "join", "sit", "speed", "begin", "watch", "leave", "resume", "action",
         "start", "remove"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=st.lists(st.tuples(
    st.integers(0, 2), st.sampled_from(TYPES),
    st.fixed_dictionaries({}, optional={
        "game": json_values | st.just("slapjack"),
        "players": json_values | st.integers(1, 5),
        "level": json_values | st.sampled_from(["easy", "hard"]),
        "name": json_values | st.just("Zoe"),
        "seat": json_values | st.integers(0, 3),
        "table": json_values | st.just("TABLE"),
        "token": json_values | st.just("TOKEN"),
        "options": json_values,
        "action": json_values | st.just({"type": "flip"})})),
    max_size=14))
async def test_whatever_three_browsers_send_the_lobby_stays_consistent(
        script: list[tuple[int, str, dict[str, Any]]]) -> None:
    """Any sequence of friends' messages from three connections: every reply is one of the
    protocol's messages, no exception escapes, and the lobby's bookkeeping holds (a seat's
    token names that seat; a started table's person seats are people or their computers)."""
    lobby = Lobby(players=players, pacing=FAST_PACING)
    conns = [Connection(Mute(), lobby, Limits(rate=None)) for _ in range(3)]  # type: ignore[arg-type]
    conns[0].receive(json.dumps({"type": "create", "game": "slapjack", "players": 3,
                                 "name": "Ann"}))
    first = json.loads(conns[0].outbox.queued[0])
    for who, kind, fields in script:
        message = {"type": kind, **fields}
        if message.get("table") == "TABLE":
            message["table"] = first["table"]
        if message.get("token") == "TOKEN":
            message["token"] = first["token"]
        conns[who].receive(json.dumps(message))
    for conn in conns:
        replies = [json.loads(m) for m in conn.outbox.queued]
        assert {m["type"] for m in replies} <= {
            "welcome", "state", "events", "error", "seated", "lobby", "seats", "pong"}
        assert not [m for m in replies if m.get("code") == "internal"]
    for room in list(lobby._rooms.values()):
        for s, seat in enumerate(room.seats):
            if seat.token_hash is not None and seat.kind == "person":
                assert lobby.places.get(seat.token_hash) == (room.id, s)
            if room.table is not None:
                assert seat.kind != "open"
                assert (seat.kind == "computer") <= (s in room.table.computers)
        for link in room.connections.links:  # nobody holds a seat that was freed
            assert link.seat is None or room.seats[link.seat].kind == "person"
    for conn in conns:
        conn.release()
    lobby.close()
    assert len(lobby) == 0
