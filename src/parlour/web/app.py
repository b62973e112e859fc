"""The Parlour web app: the pages, the static files and the WebSocket of live tables.

Routes: ``/`` (home, leads to every game), ``/<game>`` (a game's page, for each game that can
be played live and has one), ``/rules/<game>`` (the rules file rendered), ``/static/...``
and ``/ws`` (the socket protocol of ``docs/protocol.md``).

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

    @app.get("/", response_class=HTMLResponse)
    async def home() -> str:
        cards = []
        for game in GAME_NAMES:
            links = []
            if playable(game):
                links.append(f'<a class="button primary" href="/{game}">Play</a>')
            if (rules / f"{game}.md").is_file():
                links.append(f'<a class="button" href="/rules/{game}">Rules</a>')
            if not links:
                links.append('<span class="soon">Coming soon</span>')
            cards.append(
                f'<li class="game-card"><h2>{TITLES.get(game, game)}</h2>'
                f'<p>{html.escape(BLURBS.get(game, ""))}</p>'
                f'<p class="links">{" ".join(links)}</p></li>')
        body = ("<h1>Parlour</h1><p class=lead>Three folk card games. Read their rules, and "
                "play them in your browser against the computer.</p>"
                f'<ul class="games">{"".join(cards)}</ul>')
        return _page("Parlour", body)

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
        self.seating: Seating | None = None
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
            if self.seating is not None:
                self.lobby.detach(self.seating, self.send)
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

    def _leave(self) -> None:
        if self.seating is not None:
            self.lobby.detach(self.seating, self.send)
            self.lobby.leave(self.seating.token)
            self.seating = None

    def on_start(self, message: dict[str, Any]) -> None:
        try:
            seating = self.lobby.open(message.get("game", "slapjack"),
                                      message.get("players", 2),
                                      message.get("level", "normal"),
                                      seed=message.get("seed"),
                                      options=message.get("options"))
        except LobbyError as exc:
            self.error("bad_request", str(exc), "start")
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
        if self.seating is not None:
            self.lobby.detach(self.seating, self.send)
        self.seating = seating
        self.send({"type": "welcome", **seating.describe()})
        self.lobby.attach(seating.token, self.send)

    def on_action(self, message: dict[str, Any]) -> None:
        if self.seating is None:
            self.error("no_table", 'start or resume a table before acting', "action")
            return
        reason = self.seating.table.act(self.seating.seat, message.get("action"))
        if reason is not None:
            self.error("refused", reason, "action")

    def on_leave(self, message: dict[str, Any]) -> None:
        self._leave()

    def on_ping(self, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"type": "pong"}
        if isinstance(message.get("id"), int | str):
            reply["id"] = message["id"]
        self.send(reply)


HANDLED = ("start", "resume", "action", "leave", "ping")

