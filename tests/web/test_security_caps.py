"""What one client can hold, over a real socket on 127.0.0.1 (docs/security.md): sockets and
messages per client address, tables per address, a table nobody played freeing its slot,
the public list of open tables, spectators that cannot crowd out seats, a refused request
that changes nothing, the host removing someone from a seat, and a seat taken up on another
device. Clients come from several loopback addresses (127.0.0.2, 127.0.0.3, ...) so that the
per-address limits are seen as a server behind no proxy sees them."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import httpx
import websockets
from conftest import FAST_PACING, QuickFlipper, SocketClient, running, sleepy_players

from parlour.live import Lobby
from parlour.web import create_app
from parlour.web.guard import Gate


class Client(SocketClient):
    """A socket that starts a game or creates a friends' table in one call."""

    async def start(self) -> dict[str, Any]:
        welcome = await self.ask({"type": "start", "game": "slapjack", "players": 2})
        if welcome["type"] == "welcome":
            await self.next("state")
        return welcome

    async def create(self, name: str = "Ann", players: int = 3) -> dict[str, Any]:
        seated = await self.ask({"type": "create", "game": "slapjack", "players": players,
                                 "level": "easy", "name": name})
        if seated["type"] == "seated":
            await self.next("lobby")
        return seated


@contextmanager
def site(gate: Gate | None = None, **lobby_args: Any) -> Iterator[tuple[str, Lobby]]:
    lobby_args.setdefault("players", sleepy_players)
    lobby_args.setdefault("pacing", FAST_PACING)
    lobby = Lobby(**lobby_args)
    with running(create_app(lobby=lobby, gate=gate)) as url:
        yield url, lobby


@asynccontextmanager
async def connect(url: str, address: int = 1) -> AsyncIterator[Client]:
    """A socket from client address 127.0.0.<address>."""
    ws_url = url.replace("http", "ws") + "/ws"
    async with websockets.connect(ws_url, local_addr=(f"127.0.0.{address}", 0)) as ws:
        yield Client(ws)


async def refused_at_once(url: str, address: int = 1) -> dict[str, Any]:
    """The error a new socket gets when its address may not open one more; it is closed."""
    async with connect(url, address) as c:
        message = await c.next()
        await asyncio.wait_for(c.ws.wait_closed(), 5)
        assert c.ws.close_code == 1013
        return message


async def settle() -> None:
    await asyncio.sleep(0.1)


# -- sockets and messages per address ----------------------------------------------------------

async def test_sockets_per_address_are_capped_and_other_addresses_are_not_hurt() -> None:
    with site(Gate(per_address=3, idle_per_address=3)) as (url, _):
        async with connect(url, 2) as a, connect(url, 2) as b, connect(url, 2) as c:
            refused = await refused_at_once(url, 2)
            assert refused == {"type": "error", "code": "too_many_connections",
                               "reason": "at most 3 connections from one address"}
            async with connect(url, 3) as other:  # another address is served
                assert (await other.ask({"type": "ping", "id": 1})) == {"type": "pong", "id": 1}
            for client in (a, b, c):
                assert (await client.ask({"type": "ping"}))["type"] == "pong"
        await settle()
        async with connect(url, 2) as again:  # the address's sockets closed: room again
            assert (await again.ask({"type": "ping"}))["type"] == "pong"


async def test_idle_sockets_per_address_are_capped_apart_from_those_at_a_table() -> None:
    with site(Gate(per_address=10, idle_per_address=2)) as (url, _):
        async with connect(url, 2) as a, connect(url, 2):
            assert (await refused_at_once(url, 2))["code"] == "too_many_connections"
            assert (await a.start())["type"] == "welcome"  # at a table: no longer idle
            await settle()
            async with connect(url, 2) as c:
                assert (await c.ask({"type": "ping"}))["type"] == "pong"


async def test_an_addresss_sockets_share_one_rate_and_a_flooder_is_cut_off() -> None:
    with site(Gate(rate=10.0, burst=10)) as (url, _):
        async with connect(url, 2) as a, connect(url, 2) as b, connect(url, 3) as other:
            for i in range(8):  # within each socket's own rate (a burst of 30)...
                await a.send({"type": "ping", "id": i})
                await b.send({"type": "ping", "id": i})
            got = []
            for client in (a, b):
                with contextlib.suppress(TimeoutError):
                    while True:
                        got.append(await client.next(timeout=0.3))
            pongs = [m for m in got if m["type"] == "pong"]
            errors = {m.get("code") for m in got if m["type"] == "error"}
            assert 10 <= len(pongs) < 16 and errors == {"rate_limited"}  # ...not the address's
            for i in range(8):  # another address has its own share
                assert (await other.ask({"type": "ping", "id": i})) == {"type": "pong", "id": i}
            with_flood = [json.dumps({"type": "ping", "id": i}) for i in range(400)]
            for frame in with_flood:
                await a.ws.send(frame)
            codes = []
            while True:
                try:
                    message = await a.next(timeout=5)
                except websockets.ConnectionClosed:
                    break
                codes.append(message.get("code"))
            assert codes[-1] == "flooding" and a.ws.close_code == 1008
            assert (await other.ask({"type": "ping", "id": 9})) == {"type": "pong", "id": 9}


# -- tables per address ------------------------------------------------------------------------

async def test_tables_per_address_are_capped_and_a_table_nobody_played_frees_its_slot() -> None:
    with site(tables_per_address=2) as (url, lobby):
        async with connect(url, 2) as a, connect(url, 2) as b, connect(url, 2) as c:
            assert (await a.start())["type"] == "welcome"
            assert (await b.create())["type"] == "seated"
            refused = await c.start()
            assert refused["code"] == "too_many_tables" and len(lobby) == 2
            async with connect(url, 3) as other:  # another address opens tables
                assert (await other.start())["type"] == "welcome"
            await settle()
            assert len(lobby) == 2  # the other's table, never played, closed when it left
            await a.ws.close()
            await settle()
            assert len(lobby) == 1  # a's table was never played: it is gone at once
            assert (await c.start())["type"] == "welcome"
        await settle()
        assert len(lobby) <= 1  # b's waiting room waits a reload's time, uncounted
        async with connect(url, 2) as d, connect(url, 2) as e:
            assert (await d.create())["type"] == "seated"
            assert (await e.create())["type"] == "seated"


async def test_a_played_table_waits_for_its_person_and_counts() -> None:
    with site(tables_per_address=1, grace=30.0) as (url, lobby):
        async with connect(url, 2) as a:
            welcome = await a.start()
            await a.send({"type": "action", "action": {"type": "flip"}})
            await a.next("events")
        await settle()
        assert len(lobby) == 1
        async with connect(url, 2) as b:
            assert (await b.start())["code"] == "too_many_tables"
            back = await b.ask({"type": "resume", "token": welcome["token"]})
            assert back["type"] == "welcome" and back["table"] == welcome["table"]


async def test_the_public_list_is_capped_per_address_and_shows_the_hosts_name_only() -> None:
    with site(listed_per_address=2, tables_per_address=5) as (url, _):
        async with (connect(url, 2) as a1, connect(url, 2) as a2, connect(url, 2) as a3,
                    connect(url, 3) as b, connect(url, 4) as bob):
            for client in (a1, a2, a3):
                assert (await client.create("visit evil.example"))["type"] == "seated"
            seated = await b.create("Ann")
            await bob.send({"type": "sit", "table": seated["table"], "name": "<b>Bob</b>"})
            await bob.next("seated")
            tables = httpx.get(url + "/api/tables").json()["tables"]
            assert [t["host"] for t in tables] == ["visit evil.example"] * 2 + ["Ann"]
            assert tables[-1]["people"] == ["Ann"]  # a guest's name is not listed
            assert "<b>Bob</b>" not in httpx.get(url + "/").text


# -- seats: refusals, watchers, remove, elsewhere --------------------------------------------

async def test_spectators_cannot_crowd_out_the_seats_and_a_refused_request_changes_nothing(
        ) -> None:
    with site(max_links=2) as (url, lobby):
        async with (connect(url, 2) as ann, connect(url, 3) as s1, connect(url, 3) as s2,
                    connect(url, 3) as s3, connect(url, 4) as bob):
            table = (await ann.create("Ann"))["table"]
            other = (await bob.create("Bob", players=2))["table"]
            for spectator in (s1, s2):
                assert (await spectator.ask({"type": "watch", "table": table}))["seat"] is None
            await s3.ask({"type": "join", "table": other}, "lobby")
            for refused in ({"type": "watch", "table": table}, {"type": "join", "table": table}):
                assert (await s3.ask(refused))["code"] == "full"
            # s3 is still in the other table's waiting room: it hears of a change there
            await bob.send({"type": "speed", "level": "hard"})
            assert (await s3.next("lobby"))["table"] == other
            # a friend takes a seat all the same; a refused sit takes nothing
            carol = await s3.ask({"type": "sit", "table": table, "name": "Carol"}, "seated")
            assert carol["seat"] == 1
            async with connect(url, 4) as dan:
                for bad in ({"seat": 1}, {"seat": 9}):
                    error = await dan.ask({"type": "sit", "table": table, "name": "Dan", **bad})
                    assert error["code"] in ("taken", "bad_request")
            room = lobby.room(table)
            assert [s.name for s in room.seats] == ["Ann", "Carol", "Open seat"]
            assert [s.kind for s in room.seats] == ["person", "person", "open"]


async def test_the_host_removes_a_stranger_from_a_seat_before_the_start() -> None:
    with site() as (url, _):
        async with connect(url, 2) as ann, connect(url, 3) as eve, connect(url, 4) as bob:
            table = (await ann.create("Ann"))["table"]
            eves = await eve.ask({"type": "sit", "table": table, "name": "Eve"}, "seated")
            bobs = await bob.ask({"type": "sit", "table": table, "name": "Bob"}, "seated")
            for who, seat, code in [(bob, 1, "not_host"), (ann, 0, "bad_request"),
                                    (ann, "x", "bad_request")]:
                assert (await who.ask({"type": "remove", "seat": seat}, "error"))["code"] == code
            await ann.send({"type": "remove", "seat": eves["seat"]})
            told = await eve.next("error")
            assert told["code"] == "removed"
            lobby_now = await ann.next("lobby")
            while lobby_now["free"] != 1:
                lobby_now = await ann.next("lobby")
            assert [s["name"] for s in lobby_now["seats"]] == ["Ann", "Open seat", "Bob"]
            back = await eve.ask({"type": "join", "table": table, "token": eves["token"]},
                                 "error")
            assert back["code"] == "bad_token"
            assert (await ann.ask({"type": "remove", "seat": 1}, "error"))["code"] == "open_seat"
            await ann.send({"type": "begin"})
            await ann.next("lobby")
            assert (await ann.ask({"type": "remove", "seat": bobs["seat"]},
                                  "error"))["code"] == "started"


async def test_a_seat_taken_up_on_another_device_tells_the_first_one() -> None:
    with site() as (url, _):
        async with connect(url, 2) as phone:
            welcome = await phone.start()
            await phone.send({"type": "action", "action": {"type": "flip"}})
            await phone.next("events")
            async with connect(url, 2) as laptop:
                back = await laptop.ask({"type": "resume", "token": welcome["token"]})
                assert back["type"] == "welcome" and back["seat"] == 0
                told = await phone.next("error")
                assert told["code"] == "elsewhere" and "another device" in told["reason"]
                await phone.send({"type": "action", "action": {"type": "slap"}})
                assert (await phone.next("error"))["code"] == "no_table"
                await laptop.next("state")
                await laptop.send({"type": "action", "action": {"type": "slap"}})
                assert (await laptop.next())["type"] == "events"


# -- the computer players' CPU ----------------------------------------------------------------

def test_a_computer_that_thinks_too_hard_is_slowed_down_by_its_budget() -> None:
    """A table (or an address) whose computer players use more than their share of the CPU
    waits its debt off before its next move; within the share nothing changes."""
    from parlour.bots.base import Decision
    from parlour.games.slapjack import Flip
    from parlour.live.caps import Budgets

    class Costly(QuickFlipper):
        def decide(self, view: dict[str, Any], events: Any) -> Decision | None:
            return Decision(Flip(self.seat), 0.1)

        def cpu_cost(self, view: dict[str, Any]) -> float:
            return 0.005  # what each of its decisions is charged

    budgets = Budgets(per_table=0.01, per_address=1.0, burst=0.004)
    cheap = Budgets().player(QuickFlipper(1), "other", "1.2.3.4")
    costly = budgets.player(Costly(1), "table", "1.2.3.4")
    view: dict[str, Any] = {}
    first = costly.decide(view, [])
    second = costly.decide(view, [])
    assert first is not None and first.delay == 0.1  # within the burst
    assert second is not None and second.delay >= 0.1 + 0.05  # 1 ms over a 1% share
    for _ in range(3):
        assert cheap.decide({"winner": None, "players": [{}, {"out": False}], "slappable": False,
                             "turn": 1}, []) == Decision(Flip(1), QuickFlipper.flip_after)
    budgets.forget("table", "1.2.3.4")


def test_a_decision_is_charged_its_public_estimate_not_the_time_its_cards_made_it_take(
) -> None:
    """What a budget charges (and so the delay its debt adds) must not tell what a computer
    holds: a decision that took 5 ms because of its cards is charged its estimate."""
    import time

    from parlour.bots.base import Decision
    from parlour.games.slapjack import Flip
    from parlour.live.caps import Budgets

    class Pondering(QuickFlipper):
        def decide(self, view: dict[str, Any], events: Any) -> Decision | None:
            start = time.thread_time()
            while time.thread_time() - start < 0.005:  # 5 ms of CPU, bounded
                pass
            return Decision(Flip(self.seat), 0.1)

        def cpu_cost(self, view: dict[str, Any]) -> float:
            return 0.001

    budgets = Budgets(per_table=0.01, per_address=1.0, burst=0.5)
    player = budgets.player(Pondering(1), "table", "1.2.3.4")
    player.decide({}, [])
    left = player.budgets[0].left  # type: ignore[attr-defined]
    assert abs(left - (0.5 - 0.001)) < 2e-4  # the estimate, give or take 10 ms of refill
    budgets.forget("table", "1.2.3.4")


async def test_computer_moves_due_at_once_take_turns_with_the_sockets_and_other_owners() -> None:
    """Many computer moves falling due together (one client's many tables) do not hold the
    event loop: the loop serves its sockets between two moves, and another owner's move
    waits for one move at most."""
    from parlour.live.caps import Turns

    turns = Turns()
    ran: list[object] = []
    loop = asyncio.get_running_loop()
    now = loop.time()
    many, other = turns.clock("1.2.3.4"), turns.clock("5.6.7.8")
    for i in range(6):  # due one after another (a real clock's instants never tie)
        many.call_at(now + i * 1e-6, lambda i=i: ran.append(("many", i)))
    other.call_at(now + 1e-5, lambda: ran.append(("other", 0)))
    many.call_at(now, lambda: ran.append(("many", "cancelled"))).cancel()

    async def sockets() -> None:
        for _ in range(40):  # bounded
            ran.append("io")
            await asyncio.sleep(0)

    await asyncio.gather(sockets(), asyncio.sleep(0.05))
    moves = [m for m in ran if m != "io"]
    assert moves.index(("other", 0)) <= 1 and ("many", "cancelled") not in moves
    assert [m for m in moves if m != ("other", 0)] == [("many", i) for i in range(6)]
    at = [i for i, m in enumerate(ran) if m != "io"]
    assert all(b - a >= 2 for a, b in itertools.pairwise(at)), ran  # the sockets in between


async def test_a_socket_gone_during_its_handshake_gives_its_place_back() -> None:
    """A client that drops while its socket is accepted does not hold one of its address's
    places for ever."""
    from parlour.web.connection import Limits, serve_socket

    class Gone:
        client = type("Client", (), {"host": "127.0.0.9"})()

        async def accept(self) -> None:
            raise OSError("the client went away")

    gate = Gate(per_address=2)
    for _ in range(5):
        await serve_socket(Gone(), Lobby(), Limits(), gate)  # type: ignore[arg-type]
    assert gate.connections("127.0.0.9") == 0 and gate.open == 0
