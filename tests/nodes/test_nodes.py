"""Several nodes, one site: real ``parlour`` node processes on one PostgreSQL database and
one Redis (both started here, throwaway). Friends and a spectator on different nodes play
one table; killing the owner moves the table to another node with nothing lost; a slap race
between nodes is settled at the owner; a message from another node that cannot be parsed is
dropped."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack as ExitStack_async
from contextlib import ExitStack, asynccontextmanager, suppress
from typing import Any

import httpx
import pytest
import websockets
from servers import new_database
from sockets import Seat, friends_table, kill, seat_at, server_process

from parlour.engine.cards import standard_deck
from parlour.games import replay
from parlour.nodes import keys

CARDS = frozenset(standard_deck())
_databases = iter(range(1, 10_000))


@pytest.fixture
def site(postgres: str, redis_url: str) -> Iterator[list[tuple[str, Any]]]:
    """Three nodes of one site: [(url, process), ...]."""
    import redis

    redis.Redis.from_url(redis_url).flushall()
    db = new_database(postgres, f"nodes{next(_databases)}_{int(time.time() * 1000) % 10**6}")
    with ExitStack() as stack:
        yield [stack.enter_context(server_process(db, redis_url)) for _ in range(3)]


async def counted(redis_url: str, key: str, url: str, count: int) -> None:
    """Waits (at most 5 s) until the node at ``url`` has added ``count`` to the site's
    hash of counts ``key`` (a node adds its counts every second)."""
    import redis.asyncio

    async with httpx.AsyncClient() as http:
        node = (await http.get(f"{url}/health")).json()["node"]
    client = redis.asyncio.Redis.from_url(redis_url)
    try:
        deadline = time.monotonic() + 5
        while int(await client.hget(key, node) or 0) != count:
            assert time.monotonic() < deadline, f"{key}: never {count} from {node}"
            await asyncio.sleep(0.05)
    finally:
        await client.aclose()


def cards_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} & CARDS
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


@asynccontextmanager
async def reconnected(url: str, token: str) -> AsyncIterator[Seat]:
    """A page coming back to its seat: a new socket and ``resume`` until the table answers
    (at most 15 s); the seat with its state."""
    deadline = time.monotonic() + 15
    while True:
        assert time.monotonic() < deadline, "the table never came back"
        ws = await websockets.connect(url.replace("http", "ws") + "/ws", origin=url)  # type: ignore[arg-type]
        seat = Seat(ws)
        try:
            await seat.send({"type": "resume", "token": token})
            await seat.next("welcome", timeout=1)
            await seat.next("state", timeout=1)
            break
        except (TimeoutError, websockets.ConnectionClosed):
            await ws.close()
            await asyncio.sleep(0.1)
    try:
        yield seat
    finally:
        await ws.close()


async def drain(seat: Seat) -> None:
    """Reads everything ``seat`` was sent until it has been quiet for a moment."""
    with suppress(TimeoutError):
        while True:
            await seat.next("never", timeout=0.5)


async def test_friends_and_a_spectator_on_three_nodes_play_one_table(
        site: list[tuple[str, Any]]) -> None:
    (a, _), (b, _), (c, _) = site
    async with seat_at(a) as ann, seat_at(b) as bob, seat_at(c) as spy:
        await ann.send({"type": "create", "game": "slapjack", "players": 3, "name": "Ann"})
        anns = await ann.next("seated")
        async with httpx.AsyncClient() as http:  # the site's list, from any node
            listed = (await http.get(f"{c}/api/tables")).json()["tables"]
        assert [t["table"] for t in listed] == [anns["table"]]
        await bob.send({"type": "sit", "table": anns["table"], "name": "Bob"})
        bobs = await bob.next("seated")
        assert bobs["seat"] == 1
        await ann.send({"type": "begin"})
        for person, seated in ((ann, anns), (bob, bobs)):
            await person.send({"type": "resume", "token": seated["token"]})
            assert (await person.next("welcome"))["seat"] == seated["seat"]
            await person.next("state")
        await spy.send({"type": "watch", "table": anns["table"]})
        assert (await spy.next("welcome"))["seat"] is None
        await spy.next("state")
        await asyncio.gather(ann.play_slapjack(0), bob.play_slapjack(1, slaps=False))
        for who in (bob, spy):
            await drain(who)
        assert ann.views[-1]["winner"] == 0
        # every socket saw the same game, in the same order: the public flips agree
        assert spy.views[-1]["flips"] == ann.views[-1]["flips"] == bob.views[-1]["flips"]
        # no seat is told a card the spectator (the public) was not told
        public = cards_in(spy.views)
        assert public and cards_in(ann.views) <= public and cards_in(bob.views) <= public
    async with httpx.AsyncClient() as http:
        record = (await http.get(f"{b}/games/{anns['table']}.json")).json()
    assert replay(record).outcome.winner == 0  # type: ignore[union-attr]


async def read_for(seat: Seat, seconds: float) -> None:
    """Reads everything ``seat`` is sent for ``seconds``: its view is the latest then."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    with suppress(TimeoutError):
        while (left := end - loop.time()) > 0:
            await seat.next("never", timeout=left)


async def play_legal(seat: Seat, rng: random.Random, stop: asyncio.Event) -> None:
    """A person who plays whatever the latest view lists as legal (a random pick), until
    the end."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 120
    while not stop.is_set():
        assert loop.time() < deadline, "the game did not end"
        view = seat.views[-1]
        if view.get("winner") is not None:
            stop.set()
            return
        if view["legal"]:
            await seat.send({"type": "action", "action": rng.choice(view["legal"])})
        # a quick person, within the rate limit (20 a second), who looks before acting again
        await read_for(seat, 0.06)


async def follow(seat: Seat, stop: asyncio.Event) -> None:
    """A spectator reading what it is told as it comes, until the game ends."""
    while not stop.is_set():
        with suppress(TimeoutError):
            await seat.next("events", timeout=0.3)


@pytest.mark.parametrize("game, players", [("splunk", 2), ("slabberjan", 3)])
async def test_a_game_of_each_kind_is_played_to_its_end_across_three_nodes(
        site: list[tuple[str, Any]], game: str, players: int) -> None:
    (a, _), (b, _), (c, _) = site
    options = {"chips": 1} if game == "slabberjan" else {}
    async with seat_at(a) as ann, seat_at(b) as bob, seat_at(c) as spy:
        anns, _ = await friends_table(ann, bob, spy, game, players, **options)
        stop = asyncio.Event()
        await asyncio.gather(play_legal(ann, random.Random(1), stop),
                             play_legal(bob, random.Random(2), stop), follow(spy, stop))
        for who in (ann, bob, spy):
            await drain(who)
    async with httpx.AsyncClient() as http:
        record = (await http.get(f"{c}/games/{anns['table']}.json")).json()
    end = replay(record)
    assert end.outcome is not None
    # the spectator (on a third node) saw the game end exactly as the record says
    assert spy.views[-1] == end.view(None)
    for seat, who in ((0, ann), (1, bob)):
        assert who.views[-1] == end.view(seat)  # each seat as the owner would tell it


async def test_the_owner_is_killed_and_the_game_finishes_on_another_node(
        site: list[tuple[str, Any]]) -> None:
    (a, owner), (b, _), (c, _) = site
    async with seat_at(a) as ann, seat_at(b) as bob, seat_at(c) as spy:
        anns, bobs = await friends_table(ann, bob, spy)
        await asyncio.gather(ann.play_slapjack(0, moves=4),
                             bob.play_slapjack(1, moves=2, slaps=False))
        await asyncio.sleep(0.2)
        told = spy.views[-1]
        kill(owner)
    # the pages reconnect (as a page does, on 1012 or silence) to the nodes still there,
    # and a node takes the table over from the store once the dead node's lease runs out
    async with reconnected(b, anns["token"]) as ann, reconnected(c, bobs["token"]) as bob, \
            seat_at(b) as spy:
        assert ann.views[-1]["flips"] >= told["flips"]  # nothing anybody was told is lost
        await spy.send({"type": "watch", "table": anns["table"]})
        await spy.next("state")
        await asyncio.gather(ann.play_slapjack(0), bob.play_slapjack(1, slaps=False))
        assert ann.views[-1]["winner"] == 0
        # the new spectator is told the game to its end too (and a socket that reads what
        # it is sent closes at once: an unread queue holds up the closing handshake)
        while spy.views[-1]["winner"] is None:
            await spy.next("events")
        assert spy.views[-1]["flips"] == ann.views[-1]["flips"]
    async with httpx.AsyncClient() as http:
        record = (await http.get(f"{c}/games/{anns['table']}.json")).json()
    game = replay(record)
    assert game.outcome is not None and game.outcome.winner == 0
    assert len(record["actions"]) >= told["flips"]


async def test_a_slap_race_between_nodes_is_settled_at_the_owner_in_order_of_arrival(
        site: list[tuple[str, Any]]) -> None:
    (a, _), (b, _), _ = site
    async with seat_at(a) as ann, seat_at(b) as bob:
        await friends_table(ann, bob, None)
        # play until a Jack is on the pile (seat 1's first cards are Jacks: quick_deck)
        for _ in range(60):
            view = ann.views[-1]
            if view["slappable"]:
                break
            mover = ann if view["turn"] == 0 else bob if view["turn"] == 1 else None
            if mover is not None:
                await mover.send({"type": "action", "action": {"type": "flip"}})
            await ann.next("events")
        view = ann.views[-1]
        assert view["slappable"]
        at = view["flips"]
        # Bob's slap goes through a relay (node b to node a); Ann's reaches the owner at once
        await bob.send({"type": "action", "action": {"type": "slap", "at": at}})
        await ann.send({"type": "action", "action": {"type": "slap", "at": at}})
        taken = []
        for _ in range(6):
            events = (await ann.next("events"))
            taken += [e for e in events["events"] if e["type"] in ("take", "slap_ignored")]
            if any(e["type"] == "take" for e in taken) and len(taken) >= 2:
                break
        takes = [e for e in taken if e["type"] == "take"]
        assert len(takes) == 1  # one wins the pile; the later slap is stale, no penalty
        assert takes[0]["player"] in (0, 1)
        assert len([e for e in taken if e["type"] == "slap_ignored"]) <= 1


async def test_a_node_stopped_normally_hands_its_tables_over_at_once(
        site: list[tuple[str, Any]], redis_url: str) -> None:
    import redis.asyncio

    (a, owner), (b, _), _ = site
    async with seat_at(a) as me:
        await me.send({"type": "start", "game": "slapjack", "players": 2})
        welcome = await me.next("welcome")
        await me.next("state")
        await me.play_slapjack(0, moves=3)
    client = redis.asyncio.from_url(redis_url)
    try:
        assert await client.get(keys.lease(welcome["table"])) is not None
        owner.terminate()  # SIGTERM: a normal stop
        owner.wait(20)
        # no lease to wait for: the next node asked takes the table at once
        assert await client.get(keys.lease(welcome["table"])) is None
        assert await client.keys(keys.alive("*")) != []  # the other nodes are alive
    finally:
        await client.aclose()
    async with seat_at(b) as me:
        await me.send({"type": "resume", "token": welcome["token"]})
        assert (await me.next("welcome"))["table"] == welcome["table"]
        await me.next("state")
        await me.play_slapjack(0)
        assert me.views[-1]["winner"] == 0


async def test_every_node_says_whether_its_database_and_redis_answer(
        site: list[tuple[str, Any]]) -> None:
    async with httpx.AsyncClient() as http:
        answers = [(await http.get(f"{url}/health")).json() for url, _ in site]
    assert all(a["ok"] and a["database"] and a["redis"] for a in answers)
    assert len({a["node"] for a in answers}) == 3


async def test_the_connections_per_address_hold_across_the_site(
        site: list[tuple[str, Any]], redis_url: str) -> None:
    """32 sockets from one address at once: 20 on one node, then the twelve left on
    another; the 13th there is refused (every test socket comes from 127.0.0.1)."""
    (a, _), (b, _), _ = site
    async with seat_at(a) as host:
        await host.send({"type": "create", "game": "slapjack", "players": 2, "name": "Ann"})
        table = (await host.next("seated"))["table"]
        async with ExitStack_async() as stack:
            for _ in range(19):
                seat = await stack.enter_async_context(seat_at(a))
                await seat.send({"type": "join", "table": table})
                await seat.next("lobby")
            await counted(redis_url, keys.address("127.0.0.1"), a, 20)
            for _ in range(12):
                seat = await stack.enter_async_context(seat_at(b))
                await seat.send({"type": "join", "table": table})
                await seat.next("lobby")
            refused = await stack.enter_async_context(seat_at(b))  # the 33rd of the address
            assert (await refused.next("error"))["code"] == "too_many_connections"


async def test_the_tables_per_address_hold_across_the_site(
        site: list[tuple[str, Any]], redis_url: str) -> None:
    """Ten tables per address: six opened on one node, then four on another; the eleventh
    there is refused."""
    (a, _), (b, _), _ = site
    async with ExitStack_async() as stack:
        for url, count in ((a, 6), (b, 4)):
            for _ in range(count):
                seat = await stack.enter_async_context(seat_at(url))
                await seat.send({"type": "start", "game": "slapjack", "players": 2})
                await seat.next("state")
            if url == a:  # b's own tables it knows at once; a's once a has added them
                await counted(redis_url, keys.tables_of("127.0.0.1"), a, count)
        one_more = await stack.enter_async_context(seat_at(b))
        await one_more.send({"type": "start", "game": "slapjack", "players": 2})
        assert (await one_more.next("error"))["code"] == "too_many_tables"


BAD_MESSAGES = ('{"v": 2, "kind": "frame"}', "not json",
                '{"v": 1, "kind": "frame", "conn": "x", "node": 5}',
                '{"v": 1, "kind": "close", "conn": "x", "code": true}', "[]",
                '{"v": 1, "kind": "shout", "conn": "x"}')


def test_a_node_message_that_cannot_be_parsed_is_refused_by_the_parser() -> None:
    from parlour.nodes.bus import BadMessage, NodeMessage, parse

    for bad in BAD_MESSAGES:
        with pytest.raises(BadMessage):
            parse(bad)
    frame = NodeMessage("frame", "n:1", "n", "127.0.0.1", '{"type": "ping"}')
    assert parse(frame.encode()) == frame


async def test_a_node_sent_messages_it_cannot_parse_drops_them_and_plays_on(
        site: list[tuple[str, Any]], redis_url: str) -> None:
    """Junk published to every node's channel: each drops it (no traceback in its log,
    which ``server_process`` checks) and a table across two nodes plays on."""
    import redis.asyncio

    from parlour.nodes.bus import channel

    client = redis.asyncio.Redis.from_url(redis_url)
    try:
        for _ in range(50):  # bounded: each node says it is alive once it has started
            nodes = [key.decode().removeprefix(keys.alive(""))
                     for key in await client.keys(keys.alive("*"))]
            if len(nodes) == 3:
                break
            await asyncio.sleep(0.1)
        assert len(nodes) == 3
        for node in nodes:
            for bad in BAD_MESSAGES:
                await client.publish(channel(node), bad)
    finally:
        await client.aclose()
    (a, _), (b, _), _ = site
    async with seat_at(a) as ann, seat_at(b) as bob:
        await ann.send({"type": "create", "game": "slapjack", "players": 2, "name": "Ann"})
        table = (await ann.next("seated"))["table"]
        await bob.send({"type": "sit", "table": table, "name": "Bob"})
        assert (await bob.next("seated"))["seat"] == 1
        # a table the site does not have is refused, and leaves nothing behind in Redis
        await bob.send({"type": "watch", "table": "NoSuchTable"})
        assert (await bob.next("error"))["code"] == "unknown_table"
    client = redis.asyncio.Redis.from_url(redis_url)
    try:
        assert not await client.exists(keys.lease("NoSuchTable"))
    finally:
        await client.aclose()


async def test_a_node_that_stalled_lets_go_of_the_leases_it_lost(redis_url: str) -> None:
    """Node A stalls past its alive key; B takes A's table over. At A's next renewal the
    table is no longer A's, and A is told to let go of it (two owners would both play)."""
    import redis.asyncio

    from parlour.nodes.leases import Leases

    client = redis.asyncio.Redis.from_url(redis_url)
    let_go: list[str] = []
    a = Leases(client, "node-a", on_lost=let_go.append)
    b = Leases(client, "node-b")
    try:
        await b.start()
        await client.set(a.alive_key("node-a"), "1", px=3000)  # A is alive (renewed by hand)
        assert await a.claim("t1") == "node-a" and await a.claim("t2") == "node-a"
        assert await b.claim("t1") == "node-a"  # A is not known dead: its lease holds
        await client.delete(a.alive_key("node-a"))  # A stalled: its alive key ran out
        assert await b.claim("t1") == "node-b"
        assert await a.renew() == ["t1"]
        assert let_go == ["t1"] and a.mine == {"t2"} and "t1" not in a.since
        assert await a.claim("t1") == "node-b"  # and it stays B's
    finally:
        await b.stop()
        await a.stop()
        await client.aclose()


def test_every_redis_name_is_distinct_per_argument_and_the_one_the_nodes_use() -> None:
    from parlour.nodes import bus
    from parlour.nodes.leases import Leases

    names = ["t1", "t2", "n1", "127.0.0.1", "::1", "a:1", "a", ""]
    every = [keys.TABLES]
    for name in names:
        every += [keys.lease(name), keys.alive(name), keys.node_channel(name),
                  keys.tables_of(name), keys.address(name)]
        every += [keys.rate(name, window) for window in (0, 1, 17)]
    assert len(set(every)) == len(every)
    assert all(n.startswith(keys.PREFIX) for n in every)
    # what the other modules use is these names, not spellings of their own
    assert bus.channel("n1") == keys.node_channel("n1")
    assert Leases.key("t1") == keys.lease("t1") and Leases.alive_key("n1") == keys.alive("n1")
    assert keys.alive("n1").startswith(keys.alive(""))
    assert keys.lease("t1").removeprefix(keys.lease("")) == "t1"


async def test_a_live_node_keeps_its_leases_and_a_dead_ones_are_taken_over(
        redis_url: str) -> None:
    """On short times to live: B's own renewals keep its lease and its ``alive`` key past
    their times to live; A renews no more (killed), and once its ``alive`` key has run out
    its table is B's to take, though A's lease has not run out yet."""
    import redis.asyncio

    from parlour.nodes.leases import Leases, Timing

    client = redis.asyncio.Redis.from_url(redis_url)
    a = Leases(client, "node-a", timing=Timing(renew=0.05, alive_ttl=0.2, lease_ttl=30))
    b = Leases(client, "node-b", timing=Timing(renew=0.05, alive_ttl=0.2, lease_ttl=0.3))
    try:
        await b.start()
        await a.renew()  # A is alive, renewed by hand
        assert await a.claim("t1") == "node-a" and await b.claim("t2") == "node-b"
        assert await b.claim("t1") == "node-a"  # A is alive: its lease holds
        await asyncio.sleep(0.6)  # three times B's lease's ttl; A stopped renewing at once
        assert await client.exists(keys.lease("t1"))  # A's lease has not run out...
        assert await a.claim("t2") == "node-b"  # ...B's was renewed, and B is alive...
        assert not await b.alive("node-a")  # ...and A is known dead: its table is B's
        assert await b.claim("t1") == "node-b"
    finally:
        await b.stop()
        await a.stop()
        await client.aclose()


async def test_a_page_relayed_to_the_owner_is_pinged_there_and_its_lag_shown(
        site: list[tuple[str, Any]]) -> None:
    """Bob's page is on node b, his table's owner is node a: the owner's stand-in pings him
    through b (his answers come back relayed), so the round trip it measures is his
    through his node, and Ann, at the owner, is shown his connection."""
    (a, _), (b, _), _ = site
    async with seat_at(a) as ann, seat_at(b) as bob:
        for seat in (ann, bob):
            await seat.send({"type": "pong", "id": 0})  # as lib/socket.js does on open
        await friends_table(ann, bob, None)
        pinged = 0
        shown: list[dict[str, Any]] = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 15
        while not any(s["seat"] == 1 for s in shown):
            assert loop.time() < deadline, f"never shown Bob's connection ({pinged} pings)"
            for who in (bob, ann):
                with suppress(TimeoutError):
                    message = json.loads(await asyncio.wait_for(who.ws.recv(), 0.1))
                    if message["type"] == "ping":
                        pinged += who is bob
                        await who.send({"type": "pong", "id": message["id"]})
                    elif message["type"] == "connection" and who is ann:
                        shown = message["seats"]
        assert pinged >= 1
        bobs = next(s for s in shown if s["seat"] == 1)
        assert 0 <= bobs["ms"] < 1000 and bobs["fair"]
