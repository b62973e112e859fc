"""The server's locks, over a real socket on 127.0.0.1 (docs/security.md): security headers
on every response, HEAD wherever GET answers, the configured host names only, the site's
own origins only on the socket, no seat token in a log line, and frames at the edges of the
protocol (too big, counted in bytes, not valid text) answered as documented."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from conftest import FAST_PACING, running, sleepy_players
from starlette.routing import Route

from parlour.live import Lobby
from parlour.web import create_app
from parlour.web.guard import CSP, Site


def app(**args: Any) -> Any:
    return create_app(lobby=Lobby(players=sleepy_players, pacing=FAST_PACING), **args)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with running(app(site=Site.of(["cards.example.org"], ["https://cards.example.org"]))) as url:
        yield url


def every_get_path() -> list[str]:
    """One address for every GET route of the app (parameters filled in), a static file, a
    missing page and a missing API."""
    paths = []
    for route in app().routes:
        if isinstance(route, Route) and route.methods and "GET" in route.methods:
            paths.append(route.path.replace("{game}", "slapjack")
                         .replace("{table_id}", "AbCdEf"))
    assert {"/", "/api/games", "/api/tables", "/slapjack"} <= set(paths)
    return [*paths, "/static/style.css", "/nowhere", "/api/nothing", "/rules/chess"]


# -- headers, HEAD, hosts ---------------------------------------------------------------------

def test_every_response_carries_the_security_headers(site: str) -> None:
    """Pages, static files, the API, errors, and the host refusal alike."""
    answers = [httpx.get(site + path) for path in every_get_path()]
    answers.append(httpx.get(site + "/", headers={"Host": "evil.example"}))
    answers.append(httpx.post(site + "/"))
    assert {a.status_code for a in answers} >= {200, 400, 404, 405}
    for answer in answers:
        assert answer.headers["content-security-policy"] == CSP, answer.url
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"
    # what a browser is sent: its own scripts only, never inline, and never framed
    sent = answers[0].headers["content-security-policy"]
    assert "script-src 'self';" in sent and "frame-ancestors 'none'" in sent
    assert "unsafe-inline" not in sent and "unsafe-eval" not in sent


def test_head_answers_wherever_get_does(site: str) -> None:
    for path in every_get_path():
        get, head = httpx.get(site + path), httpx.head(site + path)
        assert head.status_code == get.status_code, path
        assert head.content == b"" and head.headers["content-type"] == get.headers[
            "content-type"]
    assert httpx.head(site + "/").status_code == 200


def test_only_the_configured_host_names_are_served(site: str) -> None:
    port = site.rsplit(":", 1)[1]
    for host in ("127.0.0.1", "localhost", f"localhost:{port}", "cards.example.org"):
        assert httpx.get(site + "/", headers={"Host": host}).status_code == 200, host
    for host in ("evil.example", "127.0.0.1.evil.example", "cards.example.org.evil.example"):
        refused = httpx.get(site + "/", headers={"Host": host})
        assert refused.status_code == 400 and "Slapjack" not in refused.text, host


def test_parlour_serve_takes_allowed_hosts_and_origins(tmp_path: Path) -> None:
    """``parlour serve --allowed-host NAME`` (repeatable) answers to NAME as well as to
    127.0.0.1 and localhost, and to nothing else; ``--origin`` lets that site's pages in."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "XDG_DATA_HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "parlour", "serve", "--port", "0",
                             "--allowed-host", "cards.example.org", "--allowed-host",
                             "Games.Example.NET", "--origin", "https://cards.example.org"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        url = ""
        for _ in range(5):  # bounded: the lines before the address
            match = re.search(r"http://127\.0\.0\.1:\d+/", proc.stdout.readline())
            if match:
                url = match.group(0)
                break
        assert url
        for host in ("cards.example.org", "games.example.net", "127.0.0.1", "localhost"):
            assert httpx.get(url, headers={"Host": host}, timeout=10).status_code == 200, host
        assert httpx.get(url, headers={"Host": "evil.example"}, timeout=10).status_code == 400
        assert httpx.head(url, timeout=10).status_code == 200
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.parametrize("flags", [
    ["--origin", "cards.example.org"],          # no scheme: it used to become "://"
    ["--origin", "https://cards.example.org:abc"],  # a port that is not a number
    ["--origin", "ftp://cards.example.org"],
    ["--allowed-host", "https://cards.example.org"],  # a URL where a name belongs
])
def test_a_bad_host_or_origin_is_one_line_and_exit_2_before_anything_is_opened(
        tmp_path: Path, flags: list[str]) -> None:
    db = tmp_path / "games.db"
    done = subprocess.run([sys.executable, "-m", "parlour", "serve", "--port", "0", "--db",
                           str(db), *flags], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and flags[1] in lines[0], lines
    assert not db.exists()  # no database was created (nor locked, nor migrated)


# -- the socket's origin ------------------------------------------------------------------------

async def can_open(url: str, origin: str | None = None, host: str | None = None) -> bool:
    """Whether a socket from a page of ``origin`` (none: not a browser) is accepted and
    answers a ping; ``host``: the name the client reached the server by."""
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    if host is not None:
        url = url.replace("127.0.0.1", host)
    try:
        async with websockets.connect(url, origin=origin,  # type: ignore[arg-type]
                                      host="127.0.0.1", port=port) as ws:
            await ws.send('{"type": "ping", "id": 1}')
            return json.loads(await asyncio.wait_for(ws.recv(), 5)) == {"type": "pong", "id": 1}
    except websockets.InvalidStatus as exc:
        assert exc.response.status_code == 403
        return False


async def test_a_page_of_another_site_cannot_open_the_socket(
        site: str, caplog: pytest.LogCaptureFixture) -> None:
    ws = site.replace("http", "ws") + "/ws"
    port = site.rsplit(":", 1)[1]
    assert await can_open(ws)  # not a browser: no Origin
    assert await can_open(ws, origin=site)
    assert await can_open(ws, origin=f"http://localhost:{port}", host="localhost")
    assert await can_open(ws, origin="https://cards.example.org")  # configured
    assert await can_open(ws, origin="https://cards.example.org",
                          host="cards.example.org")  # behind a proxy
    for foreign in ("http://evil.example", f"http://localhost:{port}", "null",
                    f"https://127.0.0.1:{port}", "http://127.0.0.1", "file://",
                    "http://cards.example.org"):
        assert not await can_open(ws, origin=foreign), foreign
    assert not await can_open(ws, host="evil.example")  # DNS rebinding
    assert not await can_open(ws, origin=f"http://evil.example:{port}", host="evil.example")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # refusals are no bug


# -- no token in a log ---------------------------------------------------------------------------

class Keep(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


async def test_uvicorns_log_never_prints_a_query_string() -> None:
    keep = Keep()
    loggers = [logging.getLogger(n) for n in ("uvicorn.access", "uvicorn.error")]
    with running(app(), log_level="info") as url:
        for logger in loggers:
            logger.addHandler(keep)
        try:
            assert httpx.get(url + "/slapjack?token=SeCrEt-ToKeN").status_code == 200
            async with websockets.connect(url.replace("http", "ws") + "/ws?token=SeCrEt-ToKeN"):
                pass
            await asyncio.sleep(0.1)
        finally:
            for logger in loggers:
                logger.removeHandler(keep)
    assert any("GET /slapjack?" in line for line in keep.lines), keep.lines
    assert not any("SeCrEt" in line for line in keep.lines), keep.lines


# -- frames at the edges ------------------------------------------------------------------------

@asynccontextmanager
async def socket_to(url: str) -> AsyncIterator[Any]:
    async with websockets.connect(url.replace("http", "ws") + "/ws", max_size=None) as ws:
        yield ws


async def answer(ws: Any, frame: str) -> dict[str, Any]:
    await ws.send(frame)
    text = await asyncio.wait_for(ws.recv(), 5)
    assert text.isascii()  # every message goes out as ASCII JSON
    message: dict[str, Any] = json.loads(text)
    return message


async def test_frames_over_the_limit_are_answered_too_big_counting_bytes(site: str) -> None:
    async with socket_to(site) as ws:
        euro = json.dumps({"type": "ping", "id": "€" * 1400}, ensure_ascii=False)
        assert len(euro) < 4096 < len(euro.encode())
        assert (await answer(ws, euro))["code"] == "too_big"
        for size in (5000, 64 * 1024, 200 * 1024):  # beyond uvicorn's old 64 KiB limit too
            assert (await answer(ws, "x" * size))["code"] == "too_big", size
        assert await answer(ws, '{"type": "ping", "id": 2}') == {"type": "pong", "id": 2}


async def test_text_that_is_not_valid_is_never_echoed_nor_logged(
        site: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    async with socket_to(site) as ws:
        for _ in range(4):  # within the rate limit
            assert await answer(ws, '{"type": "ping", "id": "\\ud800"}') == {"type": "pong"}
            bad = await answer(ws, '{"type": "\\ud800"}')
            assert bad["code"] == "unknown_type" and "\\ud800" not in json.dumps(bad)
            bad = await answer(ws, '{"type": "action", "action": {"type": "\\udfff"}}')
            assert bad["code"] == "no_table"
            bad = await answer(ws, '{"type": "sit", "name": "\\ud800", "table": "x"}')
            assert bad["code"] == "bad_request"
            bad = await answer(ws, '{"type": "watch", "table": "\\ud800"}')
            assert bad["code"] == "unknown_table"
        assert await answer(ws, '{"type": "ping", "id": 3}') == {"type": "pong", "id": 3}
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
