"""The page shows the player their connection (issue 18): the server pings the page, which
answers; the page then says "Connection: N ms", and says so when the connection is past the
cap and slap races can no longer be made fair. Checked by axe-core in both states, at a
desktop's size and a phone's."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from axe import serious
from conftest import FAST_PACING, running, sleepy_players

from parlour.live import Lobby
from parlour.web import create_app

pytestmark = pytest.mark.browser

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 2},
}


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, Lobby, list[asyncio.AbstractEventLoop]]]:
    loops: list[asyncio.AbstractEventLoop] = []
    lobby = Lobby(players=sleepy_players, pacing=FAST_PACING, tables_per_address=None)
    # the server's loop, to reach its tables: told of each table it opens, inside it
    lobby.on_room = lambda ident, added: loops.append(asyncio.get_running_loop())
    app = create_app(lobby=lobby)
    with running(app) as url:
        yield url, lobby, loops


@pytest.fixture(params=list(SIZES))
def page(request: Any, browser: Any) -> Iterator[Any]:
    context = browser.new_context(**SIZES[request.param])
    yield context.new_page()
    context.close()


def test_the_page_shows_its_connection_and_when_races_can_no_longer_be_fair(
        page: Any, site: tuple[str, Lobby, list[asyncio.AbstractEventLoop]]) -> None:
    url, lobby, loops = site
    page.goto(url + "/slapjack")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    # the server's own pings, answered by the page: a connection on this machine
    page.wait_for_function(
        "() => /^Connection: \\d+ ms$/.test(document.getElementById('connection').textContent)")
    assert page.is_visible("#connection")
    found = serious(page)
    assert found == [], "\n".join(found)
    # the same seat, now measured far away (as if on a slow network): the page says so
    ids = lobby.table_ids()
    room = lobby.room(ids[-1])
    assert room.table is not None

    def far() -> None:
        for _ in range(16):
            room.sample_lag(0, 0.600)

    loops[-1].call_soon_threadsafe(far)
    page.wait_for_function(
        "() => document.getElementById('connection').textContent.includes('300 ms')")
    text = page.text_content("#connection")
    assert "slower than 175 ms" in text and "no longer be made fair" in text
    found = serious(page)
    assert found == [], "\n".join(found)
