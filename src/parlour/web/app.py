"""The Parlour web app: the pages, the games' specs, and the WebSocket of live tables.

Routes: ``/`` (home: every game, and the open tables with friends), ``/<game>`` (a game's
page; ``?token=`` takes a friend's seat, ``?watch=`` watches a table), ``/table`` (create a
table with friends) and ``/table/<id>`` (its waiting room, the link to share),
``/table/<id>/qr.svg`` (its join link as a QR code), ``/table/<id>/screen`` (the table on a
big screen, as a spectator sees it), ``/rules/<game>`` (the rules file rendered),
``/games/<id>`` (a finished game's replay), ``/games/<id>.json`` (its record) and
``/games/<id>/steps.json`` (each step as a spectator saw it), ``/api/games`` (every game's
spec, JSON: what the pages build their titles, player counts and option controls from),
``/api/tables`` (the open tables, JSON), ``/static/...`` and ``/ws`` (the socket protocol
of ``docs/protocol.md``, :mod:`parlour.web.connection`).

A browser that asks for a page that is not there gets a page with a way home; only
``/api/...`` answers in JSON.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from markupsafe import Markup
from starlette.exceptions import HTTPException

from parlour.games import GAMES
from parlour.live import Lobby, codes
from parlour.nodes.leases import DEFAULT_TIMING, Timing
from parlour.store import Store, without_password
from parlour.web import qr
from parlour.web.caching import compress
from parlour.web.connection import Connection, Limits, serve_socket
from parlour.web.guard import Gate, Site, protect
from parlour.web.pages import STATIC, rules_article, rules_html, templates
from parlour.web.relay import Relay, SiteGate
from parlour.web.replays import STEPS_MAX, NotServed, finished_record, steps

RULES = Path(__file__).parent.parent / "rules"
#: What a table's id may be (``secrets.token_urlsafe`` makes them): anything else is no table.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")

__all__ = ["Connection", "Gate", "Limits", "Site", "create_app"]


def create_app(
    *,
    lobby: Lobby | None = None,
    rules_dir: Path | None = None,
    limits: Limits | None = None,
    gate: Gate | None = None,
    site: Site | None = None,
    store: Store | None = None,
    resume: bool = False,
    redis: str | None = None,
    timing: Timing | None = None,
) -> FastAPI:
    """The app. Tests pass their own ``lobby`` (stacked decks, stand-in computer players,
    short grace period) and ``rules_dir``; ``parlour serve`` passes its ``store`` and
    ``resume=True``: at start-up every unfinished table in the store is checked and waits
    for its people (those that cannot go on are closed with the reason). ``gate``: sockets
    and messages per client address; ``site``: the host names and origins served
    (:mod:`parlour.web.guard`); ``redis``: this node is one of several sharing the store
    and this Redis (:mod:`parlour.web.relay`); ``timing``: how often that node renews its
    leases and how long they live (:class:`~parlour.nodes.leases.Timing`; tests shorten
    it)."""
    the_lobby = lobby if lobby is not None else Lobby(store=store)
    # with several nodes the caps and rates per address hold across the site
    the_gate = gate if gate is not None else SiteGate() if redis is not None else Gate()
    relay = (Relay(redis, the_lobby, gate=the_gate if isinstance(the_gate, SiteGate) else None,
                   timing=timing if timing is not None else DEFAULT_TIMING)
             if redis is not None else None)
    rules = rules_dir if rules_dir is not None else RULES
    the_limits = limits if limits is not None else Limits()
    pages = templates()
    pages.env.globals["error_sentences"] = codes.for_pages()  # for static/lib/errors.js
    specs = [cls.spec for cls in GAMES.values()]
    titles = {spec.name: spec.title for spec in specs}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if relay is not None:
            await relay.start()
            print(f"Node {relay.node} of the site on {without_password(redis or '')}",
                  flush=True)
        if resume and relay is None:  # with several nodes, tables wait for a node to claim
            resumable, closed = the_lobby.resume_all()
            print(f"Resumed {resumable} unfinished tables"
                  + (f"; closed {closed} that cannot go on (see the log)" if closed else ""),
                  flush=True)
        yield
        if relay is not None:
            await relay.stop()
        the_lobby.close()

    app = FastAPI(title="Parlour", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.lobby = the_lobby
    compress(app)  # inside the guard: its refusals are small and sent as they are
    protect(app, site if site is not None else Site())
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def has_rules(game: str) -> bool:
        return (rules / f"{game}.md").is_file()

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return pages.TemplateResponse(request, name, context, status_code=status)

    @app.exception_handler(HTTPException)
    async def not_found(request: Request, exc: HTTPException) -> Response:
        if request.url.path.startswith("/api/") or request.url.path.endswith(".json"):
            return JSONResponse({"error": exc.detail}, status_code=exc.status_code)
        title = "Page not found" if exc.status_code == 404 else "Something went wrong"
        return page(request, "error.html", exc.status_code, title=title, detail=exc.detail)

    @app.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> HTMLResponse:
        return page(request, "home.html", specs=specs, titles=titles,
                    rules={s.name for s in specs if has_rules(s.name)},
                    tables=open_tables())

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        """Every game's spec: the one definition the pages read."""
        return {"games": [spec.to_json() for spec in specs]}

    @app.get("/api/tables")
    async def tables() -> dict[str, Any]:
        """The open tables with friends, for the home page to refresh."""
        return {"tables": open_tables()}

    def open_tables() -> list[dict[str, Any]]:
        # with several nodes the list is the site's, from the store; else this lobby's
        return the_lobby.site_tables() if relay is not None else the_lobby.open_tables()

    @app.get("/health")
    async def health() -> JSONResponse:
        """For a load balancer: whether this node's database (and Redis) answer."""
        database = the_lobby.store.ping()
        answer: dict[str, Any] = {"database": database}
        if relay is not None:
            answer["redis"] = await relay.healthy()
            answer["node"] = relay.node
        ok = all(v for k, v in answer.items() if k != "node")
        return JSONResponse({"ok": ok, **answer}, status_code=200 if ok else 503)

    @app.get("/table", response_class=HTMLResponse)
    async def new_table(request: Request) -> HTMLResponse:
        return page(request, "table.html")

    @app.get("/table/{table_id}", response_class=HTMLResponse)
    async def waiting_room(request: Request, table_id: str) -> HTMLResponse:
        # The page asks the socket about the table and says so if it is gone.
        return page(request, "table.html")

    @app.get("/table/{table_id}/qr.svg")
    async def join_code(request: Request, table_id: str) -> Response:
        """The table's join link as a QR code, for the phones in the room: the address this
        very page was asked by (a Host the site answers to), so the code opens what the
        waiting room's link says."""
        if not TABLE_ID.fullmatch(table_id):
            raise HTTPException(404, "There is no table here.")
        link = f"{request.base_url}table/{table_id}"
        return Response(qr.svg(link, title="The link to this table"),
                        media_type="image/svg+xml")

    @app.get("/table/{table_id}/screen", response_class=HTMLResponse)
    async def big_screen(request: Request, table_id: str) -> HTMLResponse:
        # a spectator made for a TV: the page watches the table through the socket
        return page(request, "screen.html")

    @app.get("/rules/{game}", response_class=HTMLResponse)
    async def rules_page(request: Request, game: str) -> HTMLResponse:
        cls = GAMES.get(game)
        if cls is None or not has_rules(game):
            raise HTTPException(404, "There are no rules here: the games are listed on the "
                                "home page.")
        body = Markup(rules_html((rules / f"{game}.md").read_text("utf-8")))
        return page(request, "rules.html", spec=cls.spec, body=body)

    @app.get("/{game}", response_class=HTMLResponse)
    async def game_page(request: Request, game: str) -> HTMLResponse:
        cls = GAMES.get(game)
        if cls is None:
            raise HTTPException(404, "There is no page here: the games are listed on the "
                                "home page.")
        # the rules below the table are the rules file's (none yet: none shown)
        article = (Markup(rules_article((rules / f"{game}.md").read_text("utf-8")))
                   if has_rules(game) else "")
        return page(request, f"{game}.html", spec=cls.spec, rules=article)

    @app.get("/games/{table_id}.json")
    async def game_record(table_id: str) -> dict[str, Any]:
        """A finished game's record; 404 with the reason for one in play."""
        try:
            return finished_record(the_lobby.store, table_id)
        except NotServed as exc:
            raise HTTPException(404, str(exc)) from None

    @app.get("/games/{table_id}/steps.json")
    async def game_steps(table_id: str, first: int = 0, count: int = STEPS_MAX
                         ) -> dict[str, Any]:
        """Steps of a finished game as a spectator saw them (the replay page reads these)."""
        try:
            return steps(finished_record(the_lobby.store, table_id), first, count)
        except NotServed as exc:
            raise HTTPException(404, str(exc)) from None

    @app.get("/games/{table_id}", response_class=HTMLResponse)
    async def replay_page(request: Request, table_id: str) -> HTMLResponse:
        try:
            record = finished_record(the_lobby.store, table_id)
        except NotServed as exc:
            raise HTTPException(404, f"No replay here: {exc}.") from None
        return page(request, "replay.html", spec=GAMES[record["game"]].spec, record=record,
                    table_id=table_id)

    @app.websocket("/ws")
    async def socket(ws: WebSocket) -> None:
        await serve_socket(ws, the_lobby, the_limits, the_gate, relay)

    return app
