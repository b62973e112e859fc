"""The Parlour web app: the pages, the static files and the WebSocket of live tables.

Routes: ``/`` (home: every game, and the open tables with friends), ``/<game>`` (a game's
page, for each game that can be played live and has one; ``?token=`` takes a friend's seat,
``?watch=`` watches a table), ``/table`` (create a table with friends) and ``/table/<id>``
(its waiting room, the link to share), ``/api/tables`` (the open tables, JSON),
``/rules/<game>`` (the rules file rendered), ``/static/...`` and ``/ws`` (the socket
protocol of ``docs/protocol.md``).

The socket endpoint trusts nothing it receives: each message is size-checked, rate-limited,
parsed and dispatched inside a guard, and every problem comes back as an ``error`` message;
no input stops the connection's table or the server. Game state reaches the socket only
through the messages a :class:`~parlour.live.Table` builds with
:func:`~parlour.live.message_for`.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, WebSocket
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.websockets import WebSocketDisconnect

from parlour.games import GAME_NAMES
from parlour.live import Lobby, LobbyError, Seating
from parlour.live.lobby import Room
from parlour.web.markdown import to_html

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
RULES = Path(__file__).parent.parent / "rules"

TITLES = {"slapjack": "Slapjack", "slabberjan": "Slabberjan", "splunk": "Splunk"}
BLURBS = {
    "slapjack": "Flip cards onto the pile and be the first to slap every Jack.",
    "slabberjan": "Swap pieces to the left and hope the lowest one is not yours.",
    "splunk": "Two players, four stacks: call out a stack over 21 or slap a pair.",
}


_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


@dataclass(frozen=True)
class Limits:
    """How much a connection may send. ``rate`` messages a second on average, ``burst`` at
    once (``rate=None``: no limit, for benchmarks); longer messages than ``max_bytes`` and
    more than ``max_queue`` unsent messages to a slow browser are not accepted."""

    rate: float | None = 20.0
    burst: int = 30
    max_bytes: int = 4096
    max_queue: int = 512


def _page(title: str, body: str) -> str:
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css"></head>
<body class="doc"><header class="top"><a class="brand" href="/">Parlour</a></header>
<main class="doc-main">{body}</main></body></html>"""


def create_app(
    *,
    lobby: Lobby | None = None,
    rules_dir: Path | None = None,
    limits: Limits | None = None,
) -> FastAPI:
    """The app. Tests pass their own ``lobby`` (stacked decks, stand-in computer players,
    short grace period) and ``rules_dir``; ``parlour serve`` uses the defaults."""
    the_lobby = lobby if lobby is not None else Lobby()
    rules = rules_dir if rules_dir is not None else RULES
    the_limits = limits if limits is not None else Limits()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        the_lobby.close()

    app = FastAPI(title="Parlour", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.lobby = the_lobby
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def playable(game: str) -> bool:
        return game in the_lobby.games and (STATIC / f"{game}.html").is_file()

    def games_list() -> list[dict[str, Any]]:
        return [{"game": game, "title": TITLES.get(game, game),
                 "seats": list(the_lobby.pacing[game].seats)}
                for game in GAME_NAMES if playable(game)]

    def open_tables_html() -> str:
        tables = the_lobby.open_tables()
        if not tables:
            return '<p class="none">No open table right now: create one and share its link.</p>'
        rows = []
        for t in tables:
            people = ", ".join(t["people"])
            rows.append(
                f'<li><a class="button" href="/table/{html.escape(t["table"])}">Join</a> '
                f'<span class="what"><b>{html.escape(TITLES.get(t["game"], t["game"]))}</b>, '
                f'{t["players"]} seats, {t["free"]} free</span> '
                f'<span class="who">with {html.escape(people)}</span></li>')
        return f'<ul class="open-tables">{"".join(rows)}</ul>'

    @app.get("/", response_class=HTMLResponse)
    async def home() -> str:
        cards = []
        for game in GAME_NAMES:
            links = []
            if playable(game):
                links.append(f'<a class="button primary" href="/{game}">Play</a>')
                links.append(f'<a class="button" href="/table?game={game}">With friends</a>')
            if (rules / f"{game}.md").is_file():
                links.append(f'<a class="button" href="/rules/{game}">Rules</a>')
            if not links:
                links.append('<span class="soon">Coming soon</span>')
            cards.append(
                f'<li class="game-card"><h2>{TITLES.get(game, game)}</h2>'
                f'<p>{html.escape(BLURBS.get(game, ""))}</p>'
                f'<p class="links">{" ".join(links)}</p></li>')
        body = ("<h1>Parlour</h1><p class=lead>Three folk card games. Read their rules, and "
                "play them in your browser against the computer or with friends.</p>"
                f'<ul class="games">{"".join(cards)}</ul>'
                '<section class="open-section" aria-labelledby="open-title">'
                '<h2 id="open-title">Open tables</h2>'
                '<p>Tables with friends waiting for players. Take a free seat, or '
                '<a href="/table">create a table</a> and share its link.</p>'
                f'<div id="open-tables" aria-live="polite">{open_tables_html()}</div>'
                '</section><script src="/static/home.js" defer></script>')
        return _page("Parlour", body)

    @app.get("/api/tables")
    async def tables() -> dict[str, Any]:
        """The games and the open tables with friends, for the home page to refresh."""
        return {"games": games_list(), "tables": the_lobby.open_tables()}

    @app.get("/table", response_class=FileResponse)
    async def new_table() -> FileResponse:
        return FileResponse(STATIC / "table.html", media_type="text/html")

    @app.get("/table/{table_id}", response_class=FileResponse)
    async def waiting_room(table_id: str) -> FileResponse:
        # The page asks the socket about the table and says so if it is gone.
        return FileResponse(STATIC / "table.html", media_type="text/html")

    @app.get("/rules/{game}", response_class=HTMLResponse)
    async def rules_page(game: str) -> str:
        path = rules / f"{game}.md"
        if game not in GAME_NAMES or not path.is_file():
            raise HTTPException(404, f"no rules for {game!r}")
        body = to_html(path.read_text("utf-8"))
        if playable(game):
            body += f'<p><a class="button primary" href="/{game}">Play {TITLES[game]}</a></p>'
        return _page(f"{TITLES.get(game, game)} rules - Parlour", body)

    @app.get("/{game}", response_class=FileResponse)
    async def game_page(game: str) -> FileResponse:
        if not playable(game):
            raise HTTPException(404, f"no page for {game!r}")
        return FileResponse(STATIC / f"{game}.html", media_type="text/html")

    @app.websocket("/ws")
    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        await Connection(ws, the_lobby, the_limits).run()

    return app


class Connection:
    """One browser's socket: its messages in, its seat's messages out."""

    def __init__(self, ws: WebSocket, lobby: Lobby, limits: Limits) -> None:
        self.ws = ws
        self.lobby = lobby
        self.limits = limits
        self.seating: Seating | None = None  # a seat this connection plays (a game page)
        self.holding: Seating | None = None  # a seat held from the waiting room
        self.watching: Room | None = None
        self.following: Room | None = None
        self.closed = False
        self._out: deque[str] = deque()
        self._wake = asyncio.Event()
        self._sending = False
        self._replying = False
        self._cut_off = False
        self._tokens = float(limits.burst)
        self._refilled = time.monotonic()
        self._warned = 0.0

    # -- out ---------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        """Queues a message (the table calls this synchronously)."""
        if self.closed:
            return
        if len(self._out) >= self.limits.max_queue:
            # The browser is not reading; drop it rather than hold memory for it.
            self.closed = self._cut_off = True
            self._out.clear()
        else:
            self._out.append(_encode(message))
            if self._replying:
                return  # the reading task sends it as soon as the message is handled
        self._wake.set()

    def error(self, code: str, reason: str, about: object = None) -> None:
        message: dict[str, Any] = {"type": "error", "code": code, "reason": reason}
        if isinstance(about, str):
            message["about"] = about
        self.send(message)

    async def _flush(self) -> None:
        """Sends everything queued, in order. Whoever calls first sends; a second caller
        returns at once, as the first one's loop picks up what was added meanwhile."""
        if self._sending:
            return
        self._sending = True
        try:
            while self._out and not self._cut_off:
                await self.ws.send_text(self._out.popleft())
            if self._cut_off:
                await self.ws.close(1008)
        finally:
            self._sending = False

    async def _writer(self) -> None:
        """Sends what the table says between the browser's own messages (computer moves)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._flush()
            except (WebSocketDisconnect, RuntimeError, OSError):
                return

    # -- in ----------------------------------------------------------------------------

    async def run(self) -> None:
        writer = asyncio.create_task(self._writer())
        try:
            while not self.closed:
                try:
                    incoming = await self.ws.receive()
                except (WebSocketDisconnect, RuntimeError, OSError):
                    break
                if incoming["type"] == "websocket.disconnect":
                    break
                text = incoming.get("text")
                self._replying = True
                try:
                    if text is None:
                        self.error("bad_message", "send JSON text, not binary frames")
                    else:
                        try:
                            self.receive(text)
                        except Exception:
                            log.exception("message handling failed")
                            self.error("internal", "the server could not handle that message")
                    # Answer at once from here rather than through the writer task: one
                    # scheduling hop less on every round trip.
                    await self._flush()
                except (WebSocketDisconnect, RuntimeError, OSError):
                    break
                finally:
                    self._replying = False
        finally:
            self.closed = True
            self._release()
            writer.cancel()
            with suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError, OSError):
                await writer

    def _allow(self) -> bool:
        rate = self.limits.rate
        if rate is None:
            return True
        now = time.monotonic()
        self._tokens = min(float(self.limits.burst), self._tokens + (now - self._refilled) * rate)
        self._refilled = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        if now - self._warned >= 1.0:
            self._warned = now
            self.error("rate_limited", "too many messages: they are being dropped")
        return False

    def receive(self, text: str) -> None:
        """Handles one message from the browser."""
        if not self._allow():
            return
        if len(text) > self.limits.max_bytes:
            self.error("too_big", f"a message may be at most {self.limits.max_bytes} bytes")
            return
        try:
            message = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            self.error("bad_json", "that message is not JSON")
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            self.error("bad_message", 'a message is a JSON object with a "type"')
            return
        kind = message["type"]
        handler = getattr(self, f"on_{kind}", None) if kind in HANDLED else None
        if handler is None:
            self.error("unknown_type", f"unknown message type {kind!r} "
                       f"(expected one of: {', '.join(HANDLED)})", kind)
            return
        handler(message)

    def _release(self) -> None:
        """Lets go of every place this connection had, without leaving any seat."""
        if self.seating is not None:
            self.lobby.detach(self.seating, self.send)
            self.seating = None
        if self.holding is not None:
            self.lobby.detach(self.holding, self.send)
            self.holding = None
        if self.watching is not None:
            self.lobby.unwatch(self.watching, self.send)
            self.watching = None
        if self.following is not None:
            self.lobby.unfollow(self.following, self.send)
            self.following = None

    def _leave(self) -> None:
        seat = self.seating or self.holding
        self._release()
        if seat is not None:
            self.lobby.leave(seat.token)

    def _refuse(self, exc: LobbyError, about: str) -> None:
        self.error(exc.code, str(exc), about)

    def on_start(self, message: dict[str, Any]) -> None:
        try:
            seating = self.lobby.open(message.get("game", "slapjack"),
                                      message.get("players", 2),
                                      message.get("level", "normal"),
                                      seed=message.get("seed"),
                                      options=message.get("options"))
        except LobbyError as exc:
            self._refuse(exc, "start")
            return
        self._leave()
        self._join(seating)

    def on_resume(self, message: dict[str, Any]) -> None:
        seating = self.lobby.find(message.get("token"))
        if seating is None:
            self.error("bad_token", "unknown or expired seat token", "resume")
            return
        self._join(seating)

    def _join(self, seating: Seating) -> None:
        self._release()
        try:
            self.seating = self.lobby.attach(seating.token, self.send, welcome=True)
        except LobbyError as exc:
            self._refuse(exc, "resume")

    # -- tables with friends -------------------------------------------------------------

    def _hold(self, seating: Seating, about: str) -> None:
        """Seats this connection in the waiting room: ``seated``, then ``lobby`` updates."""
        room = seating.room
        try:
            self.lobby.attach(seating.token, self.send, play=False)
        except LobbyError as exc:
            self._refuse(exc, about)
            return
        self.holding = seating
        self.send({"type": "seated", "table": room.id, "game": room.game,
                   "seat": seating.seat, "token": seating.token})
        if self.following is not None:
            self.lobby.unfollow(self.following, self.send)
        # follow() sends the room as it is now: with this seat taken
        self.following = self.lobby.follow(room.id, self.send)

    def on_create(self, message: dict[str, Any]) -> None:
        try:
            seating = self.lobby.create(message.get("game"), message.get("players", 2),
                                        message.get("level", "normal"),
                                        name=message.get("name"), seed=message.get("seed"),
                                        options=message.get("options"))
        except LobbyError as exc:
            self._refuse(exc, "create")
            return
        self._leave()
        self._hold(seating, "create")

    def on_join(self, message: dict[str, Any]) -> None:
        try:
            room = self.lobby.room(message.get("table"))
        except LobbyError as exc:
            self._refuse(exc, "join")
            return
        token = message.get("token")
        seating = self.lobby.find(token) if token is not None else None
        if token is not None and (seating is None or seating.room is not room):
            self.error("bad_token", "that seat token is not for this table", "join")
        self._release()
        if seating is not None and seating.room is room:
            self._hold(seating, "join")
        else:
            try:
                self.following = self.lobby.follow(room.id, self.send)
            except LobbyError as exc:
                self._refuse(exc, "join")

    def on_sit(self, message: dict[str, Any]) -> None:
        if self.holding is not None or self.seating is not None:
            self.error("seated", "you already have a seat here: leave it first", "sit")
            return
        table = message.get("table", self.following.id if self.following else None)
        try:
            seating = self.lobby.sit(table, message.get("name"), message.get("seat"))
        except LobbyError as exc:
            self._refuse(exc, "sit")
            return
        self._hold(seating, "sit")

    def _host(self, about: str) -> Seating | None:
        seating = self.holding or self.seating
        if seating is None:
            self.error("no_seat", "create a table or take a seat first", about)
        return seating

    def on_speed(self, message: dict[str, Any]) -> None:
        seating = self._host("speed")
        if seating is not None:
            try:
                self.lobby.set_level(seating, message.get("level"))
            except LobbyError as exc:
                self._refuse(exc, "speed")

    def on_begin(self, message: dict[str, Any]) -> None:
        seating = self._host("begin")
        if seating is not None:
            try:
                self.lobby.begin(seating)
            except LobbyError as exc:
                self._refuse(exc, "begin")

    def on_watch(self, message: dict[str, Any]) -> None:
        try:
            room = self.lobby.room(message.get("table"))
        except LobbyError as exc:
            self._refuse(exc, "watch")
            return
        self._release()
        try:
            self.watching = self.lobby.watch(room.id, self.send)
        except LobbyError as exc:
            self._refuse(exc, "watch")

    def on_action(self, message: dict[str, Any]) -> None:
        table = self.seating.room.table if self.seating is not None else None
        if self.seating is None or table is None:
            self.error("no_table", "start or resume a started table before acting", "action")
            return
        reason = table.act(self.seating.seat, message.get("action"))
        if reason is not None:
            self.error("refused", reason, "action")

    def on_leave(self, message: dict[str, Any]) -> None:
        self._leave()

    def on_ping(self, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"type": "pong"}
        if isinstance(message.get("id"), int | str):
            reply["id"] = message["id"]
        self.send(reply)


HANDLED = ("start", "resume", "action", "leave", "ping", "create", "join", "sit", "speed",
           "begin", "watch")

