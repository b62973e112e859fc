"""Shared test helpers for the live tables, the server and the browser: a real uvicorn on
127.0.0.1 and a free port, a fast stand-in computer player, stacked decks that end soon, and
Debian's chromium driven by Playwright (``browser``, ``page``, ``phone``)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from hypothesis import strategies as st

from parlour.bots.base import AnyPlayer, ComputerPlayer, Decision
from parlour.bots.scheduler import Clock, VirtualClock
from parlour.engine import Game, Pacing
from parlour.engine.cards import standard_deck
from parlour.games.slapjack import Flip, Slap
from parlour.live import Refused, Room
from parlour.live.protocol import Act, Command, action_for, parse_message
from parlour.live.seats import Send
from parlour.store import Store, open_store
from parlour.web.guard import Gate
from parlour.web.server import config as serve_config

#: the tests' folder (its helper modules are here) and the repository
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


class QuickFlipper(ComputerPlayer):
    """Stand-in Slapjack player: flips ``flip_after`` seconds after its turn comes (but leaves
    a Jack on top for ``jack_after`` seconds: tests are people who need a moment to slap it),
    and slaps a Jack after ``slap_after`` seconds if that is set, nothing else ever."""

    game = "slapjack"
    level = "normal"
    flip_after = 0.02
    jack_after = 2.0
    slap_after: float | None = None

    def decide(self, view: dict[str, Any], events: Sequence[dict[str, Any]]) -> Decision | None:
        if view["winner"] is not None or view["players"][self.seat]["out"]:
            return None
        if view["slappable"] and self.slap_after is not None:
            return Decision(Slap(self.seat, at=view["flips"]), self.slap_after)
        if view["turn"] == self.seat:
            wait = max(self.flip_after, self.jack_after) if view["slappable"] else self.flip_after
            return Decision(Flip(self.seat), wait)
        return None


def quick_players(game: str, level: str, seat: int, *, seed: int | None = None) -> ComputerPlayer:
    """A ``make_player`` for tests: stand-ins that flip quickly and never slap."""
    return QuickFlipper(seat, seed=seed)


class Sleepy(QuickFlipper):
    """Takes a minute to flip: a test owns the table meanwhile."""

    flip_after = 60.0


def sleepy_players(game: str, level: str, seat: int, *, seed: int | None = None) -> Sleepy:
    return Sleepy(seat, seed=seed)


class SocketClient:
    """One browser's socket (a ``websockets`` connection), keeping every message it was
    sent in ``log``."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.log: list[dict[str, Any]] = []

    async def send(self, message: object) -> None:
        """Sends a JSON value, or text and bytes as they are (for malformed frames)."""
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def next(self, kind: str | None = None, timeout: float = 5.0) -> dict[str, Any]:
        """The next message (of type ``kind``, skipping others)."""
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            self.log.append(message)
            if kind is None or message["type"] == kind:
                return message

    async def ask(self, message: object, kind: str | None = None) -> dict[str, Any]:
        """Sends ``message``; the next message (of type ``kind``)."""
        await self.send(message)
        return await self.next(kind)


class Instant(ComputerPlayer[Any]):
    """A real computer player of any game that acts at once (for tests that are not races)."""

    def __init__(self, inner: ComputerPlayer[Any]) -> None:
        super().__init__(inner.seat, level=inner.level, seed=0)
        self.game = inner.game
        self.inner = inner

    def decide(self, view: Any, events: Sequence[dict[str, Any]]) -> Decision | None:
        decision = self.inner.decide(view, events)
        return None if decision is None else Decision(decision.action, 0.01)


class Hastened(ComputerPlayer):
    """A real computer player whose moves come ``speedup`` times sooner (browser tests of
    whole games at a person's pace)."""

    def __init__(self, inner: ComputerPlayer[Any], speedup: float) -> None:
        super().__init__(inner.seat)
        self.inner = inner
        self.speedup = speedup
        self.game, self.level = inner.game, inner.level

    def decide(self, view: Any, events: Sequence[dict[str, Any]]) -> Decision | None:
        decision = self.inner.decide(view, events)
        return None if decision is None else Decision(decision.action,
                                                      decision.delay / self.speedup)


def fast_players(game: str, level: str, seat: int, *, seed: int | None = None
                 ) -> ComputerPlayer[Any]:
    """Slapjack: :class:`QuickFlipper`; the other games: their real players, at once."""
    if game == "slapjack":
        return QuickFlipper(seat, seed=seed)
    from parlour.bots import make_player

    return Instant(make_player(game, level, seat, seed=seed))


def fast_decks(game: str, players: int) -> list[list[str]]:
    """Slapjack: :func:`quick_deck`; the other games: dealt at random."""
    return [quick_deck(players)] if game == "slapjack" else []


#: Slapjack pacing for tests: the same rules, a pause short enough to keep tests quick.
FAST_PACING = {"slapjack": Pacing(at_field="flips", after=frozenset({"deal", "take"}),
                                  held=frozenset({"flip"}),
                                  pause={"easy": 0.05, "normal": 0.05, "hard": 0.05})}


def command(**message: Any) -> Command:
    """A client command, parsed as the socket parses it: ``command(type="start", ...)``."""
    return parse_message(message)


_rooms_store: list[Store] = []


def room_of(game: Game, computers: Mapping[int, AnyPlayer], clock: Clock, *,
            pacing: Pacing | None = None, level: str = "normal",
            on_lag: Callable[[float], None] | None = None) -> Room:
    """A started room of its own (:meth:`Room.alone`): ``computers`` at their seats, people
    at the others, on ``clock``; every such room of a test run is kept in one in-memory
    store (a property test makes hundreds)."""
    if not _rooms_store:
        _rooms_store.append(open_store(":memory:"))
    return Room.alone(game, computers, clock=clock, pacing=pacing, level=level,
                      on_lag=on_lag, store=_rooms_store[0])


def seat_page(room: Room, seat: int, send: Send) -> None:
    """A game page at ``seat`` of ``room`` (a person's seat): told its state now and every
    change from now on."""
    room.attach(room.give_seat(seat), send)


def refusal(room: Room, seat: int, action: object, version: int | None = None
            ) -> tuple[str, str] | None:
    """A person's move as the socket carries it out (``version``: the view it was made on):
    ``None`` if applied (or held for a race), else the refusal's code and reason."""
    message: dict[str, Any] = {"type": "action", "action": action}
    if version is not None:
        message["version"] = version
    try:
        parsed = parse_message(message)
        assert isinstance(parsed, Act)
        room.commit(seat, action_for(parsed, room.spec, seat), parsed.version)
    except Refused as exc:
        return exc.code, exc.reason
    return None


def act(room: Room, seat: int, action: object) -> str | None:
    """A person's move as the socket carries it out: ``None`` if applied, else the reason."""
    refused = refusal(room, seat, action)
    return None if refused is None else refused[1]


def quick_deck(players: int) -> list[str]:
    """A deal after which a person at seat 0 who slaps every Jack beats computer players who
    never slap, soon: seat 0 holds no Jack, every other seat's last card is a Jack (its own
    last chance, J7), and the spare Jacks are seat 1's first cards."""
    counts = [52 // players + (1 if s < 52 % players else 0) for s in range(players)]
    jacks = [c for c in standard_deck() if c[0] == "J"]
    others = [c for c in standard_deck() if c[0] != "J"]
    stacks: list[list[str]] = [[] for _ in range(players)]
    for s in range(1, players):
        stacks[s] = [""] * counts[s]
        stacks[s][-1] = jacks.pop()
    for i, jack in enumerate(jacks):
        stacks[1][i] = jack
    for s in range(players):
        stacks[s] = [c or others.pop() for c in stacks[s]] if s else [
            others.pop() for _ in range(counts[0])]
    deck = [stacks[i % players][i // players] for i in range(52)]
    assert sorted(deck) == sorted(standard_deck())
    return deck


def quick_decks(game: str, players: int) -> list[list[str]]:
    return [quick_deck(players)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def crowd() -> Gate:
    """The gate of a site whose people all come from 127.0.0.1, as a test's do, where real
    people would each come from their own address: no cap or rate per address is tripped by
    a module that opens sockets faster than one person would. ``test_security_caps`` tests
    those caps with the default and small gates."""
    return Gate(per_address=10_000, idle_per_address=10_000, connect_rate=10_000.0,
                connect_burst=10_000)


@contextmanager
def running(app: Any, **options: Any) -> Iterator[str]:
    """Serves ``app`` with uvicorn on 127.0.0.1 in a thread, with the settings ``parlour
    serve`` uses (``options`` changes some); yields its base URL."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(serve_config(app, **options))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


CHROMIUM = "/usr/bin/chromium"
#: chromium as this machine can run it: as root, no GPU, and no calls to the outside world
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium (``scripts/setup --browser`` installs it). Without it the browser
    tests are skipped on a developer's machine, and fail in CI, where a skip would hide them."""
    if not os.path.exists(CHROMIUM):
        reason = f"{CHROMIUM} is not installed (scripts/setup --browser installs it)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A page in a fresh desktop-sized context (its own storage: a new person)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page in a fresh phone-sized touch context."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    yield context.new_page()
    context.close()


class Mute:
    """A socket for a bare :class:`~parlour.web.app.Connection` that accepts everything it is
    sent: the messages stay in the connection's queue for the test to read."""

    async def send_text(self, text: str) -> None:
        pass

    async def close(self, code: int = 1000) -> None:
        pass


#: any small JSON value, nested: what a careless or hostile client may put in any field
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 9) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=6)


# -- the store: SQLite always, PostgreSQL from a throwaway cluster --------------------------------

@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """One throwaway PostgreSQL server for the session (see :mod:`servers`); its URL."""
    from servers import postgres_server

    with postgres_server() as url:
        yield url


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """One throwaway redis-server for the session; its URL."""
    from servers import redis_server

    with redis_server() as url:
        yield url


_databases = iter(range(1, 1_000_000))


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: Any, tmp_path: Any) -> str:
    """Where a test's store is: a new SQLite file, then a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "parlour.db")
    from servers import new_database

    url: str = request.getfixturevalue("postgres")
    return new_database(url, f"t{next(_databases)}_{os.getpid()}")


# -- virtual time --------------------------------------------------------------------------------

class SteppedClock(VirtualClock):
    """A virtual clock a test moves on: ``Lobby(clock=...)`` runs its presence timers, its
    reaction limit and its tables' computer moves on it, and nothing happens between two
    :meth:`advance` calls."""

    def at(self, when: float) -> None:
        """Runs everything due up to ``when`` (what falls due meanwhile too); then it is
        ``when``."""
        assert when >= self.now(), "virtual time does not go back"
        reached: list[bool] = []
        # after whatever else is due then (what that puts on the clock for then, too)
        self.call_at(when, lambda: reached.append(True), order=2**62)
        self.run(lambda: bool(reached))

    def advance(self, seconds: float) -> None:
        self.at(self.now() + seconds)


@pytest.fixture
def clock() -> SteppedClock:
    """A virtual clock at 0, moved by the test (:class:`SteppedClock`)."""
    return SteppedClock()


class Inbox:
    """Collects what a table sends one watcher."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()

    def __call__(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        self.arrived.set()

    def events(self) -> list[dict[str, Any]]:
        return [e for m in self.messages for e in m.get("events", ())]

    async def until(self, test: Callable[[dict[str, Any]], bool], timeout: float = 5.0) -> None:
        async def wait() -> None:
            while not any(test(e) for e in self.events()):
                self.arrived.clear()
                await self.arrived.wait()

        await asyncio.wait_for(wait(), timeout)


def holds_game(obj: object, seen: set[int] | None = None) -> bool:
    """True if ``obj`` reaches a :class:`Game` through its attributes or containers."""
    seen = set() if seen is None else seen
    if id(obj) in seen or isinstance(obj, (str, int, float, bool, type(None))):
        return False
    seen.add(id(obj))
    if isinstance(obj, Game):
        return True
    if isinstance(obj, dict):
        return any(holds_game(k, seen) or holds_game(v, seen) for k, v in obj.items())
    if isinstance(obj, (list, tuple, set, frozenset)):
        return any(holds_game(v, seen) for v in obj)
    attrs = dict(getattr(obj, "__dict__", {}))
    for name in getattr(type(obj), "__slots__", ()):
        if hasattr(obj, name):
            attrs[name] = getattr(obj, name)
    return any(holds_game(v, seen) for v in attrs.values())


def example(name: str) -> Any:
    """The example script ``examples/<name>.py``, loaded as a module (not run)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
