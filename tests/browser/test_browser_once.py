"""A move is sent once per view, in a real chromium: every press of a game's own buttons and
keys, doubled (the same key twice, and its button and what can be tapped instead, all before
the table can answer), through whole games of Slapjack, Splunk and Slabberjan, sends each
action once at the view it was pressed at, naming that view's ``version``; a repeated click
on Swap is one swap. A ``stale`` answer (the same move again at the same view, a call that
came after the slap that settled its play) is told without alarm, and the same slap again
once the table has answered the first (a double tap slower than the table) is told nothing.

The page's socket goes through a relay in the test (Playwright's ``route_web_socket``) that
keeps every action frame the page sends and the version of every view it was sent; while the
server does not number its views yet, the relay numbers them itself.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import test_browser as slapjack_tests
import test_browser_slabberjan as slabberjan_tests
import test_browser_splunk as splunk_tests
from conftest import FAST_PACING, running, sleepy_players

from parlour.live import Lobby
from parlour.web import create_app

pytestmark = pytest.mark.browser

#: Presses, all in one task of the page (no message of the server is read in between):
#: each key of ``keys`` twice, then each element of ``clicks`` clicked twice.
PRESS_TWICE = """([keys, clicks]) => {
    for (const key of keys) {
        for (const n of [1, 2]) {
            document.dispatchEvent(new KeyboardEvent("keydown", {
                key, code: key === " " ? "Space" : "", bubbles: true, cancelable: true }));
        }
    }
    for (const selector of clicks) {
        for (const n of [1, 2]) document.querySelector(selector).click();
    }
}"""


class Relay:
    """The page's socket, relayed: ``sent`` is every action frame the page sent, with its
    table and the version of the view it had been shown last; ``versions`` every table and
    version shown, in order; ``page`` sends the page a message of the test's."""

    def __init__(self, page: Any) -> None:
        self.sent: list[tuple[str, int | None, dict[str, Any]]] = []
        self.versions: list[tuple[str, int]] = []
        self.table = ""
        self.page: Any = None
        page.route_web_socket("**/ws", self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        self.page = ws

        def to_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "action":
                shown = self.versions[-1][1] if self.versions else None
                self.sent.append((self.table, shown, frame))
            server.send(message)

        def to_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "welcome":
                self.table = frame["table"]
            if frame.get("type") in ("state", "events"):
                if not isinstance(frame.get("version"), int):  # the server numbers none yet
                    frame["version"] = 1000 + len(self.versions)
                    message = json.dumps(frame)
                self.versions.append((self.table, frame["version"]))
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    def no_repeats(self) -> list[dict[str, Any]]:
        """Every action frame sent, having checked that each names the version of a view
        the page was shown (not one still to come) and that none was sent twice at one
        view."""
        for table, shown, frame in self.sent:
            assert isinstance(frame.get("version"), int), frame
            assert shown is not None and (table, frame["version"]) in self.versions, frame
            assert (self.versions.index((table, frame["version"]))
                    <= self.versions.index((table, shown))), frame
        sent = Counter((table, f["version"], json.dumps(f["action"], sort_keys=True))
                       for table, _, f in self.sent)
        assert [key for key, n in sent.items() if n > 1] == []
        return [frame for _, _, frame in self.sent]

    def check(self, presses: int) -> None:
        """Each of ``presses`` doubled presses sent its action once, at its view."""
        frames = self.no_repeats()
        assert len(frames) == presses, frames


def twice(page: Any, keys: list[str], clicks: list[str] | None = None) -> None:
    page.evaluate(PRESS_TWICE, [keys, clicks or []])


# each game's server as its own tests have it: quick computer players and stacked deals
@pytest.fixture(scope="module")
def slapjack_site() -> Iterator[str]:
    yield from slapjack_tests.serve()


@pytest.fixture(scope="module")
def sleepy_site() -> Iterator[str]:
    """Slapjack against a computer that never slaps (and flips after a minute)."""
    with running(create_app(lobby=Lobby(players=sleepy_players, pacing=FAST_PACING))) as url:
        yield url


@pytest.fixture(scope="module")
def splunk_site() -> Iterator[str]:
    yield from splunk_tests.site(splunk_tests.StandIn, splunk_tests.quick_deck())


@pytest.fixture(scope="module")
def slabberjan_site() -> Iterator[str]:
    yield from slabberjan_tests.serve()


def test_slapjack_a_whole_game_of_double_presses_flips_and_slaps_once_a_view(
        page: Any, slapjack_site: str) -> None:
    relay = Relay(page)
    presses: list[str] = []

    def flip() -> None:
        twice(page, ["f"], ["#flip", "#my-deck"])
        presses.append("flip")

    def slap() -> None:
        twice(page, [" "], ["#slap", "#pile"])
        presses.append("slap")

    page.goto(slapjack_site + "/slapjack")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    slapjack_tests.play(page, flip, slap)
    page.wait_for_function("() => document.body.dataset.state === 'won'")
    assert "slap" in presses and "flip" in presses
    relay.check(len(presses))
    # and F twice as a person presses it, in a new game: never twice at one view
    page.click("#new-game")
    page.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    page.keyboard.press("f")
    page.keyboard.press("f")
    page.wait_for_function("() => document.getElementById('pile').dataset.flips !== '0'")
    page.wait_for_timeout(300)  # a second flip at the same view would have been sent by now
    assert len(relay.no_repeats()) > len(presses)


def test_splunk_a_whole_game_of_double_presses_plays_calls_and_slaps_once_a_view(
        page: Any, splunk_site: str) -> None:
    relay = Relay(page)
    presses: list[str] = []

    def play(i: int) -> None:
        twice(page, [str(i + 1)], [f'.stack[data-stack="{i}"]'])
        presses.append("play")

    def call() -> None:
        twice(page, ["c"], ["#call"])
        presses.append("call")

    def slap(i: int) -> None:
        twice(page, [" "], ["#slap", f'.stack[data-stack="{i}"]'])
        presses.append("slap")

    deck = splunk_tests.quick_deck()
    splunk_tests.open_game(page, f"{splunk_site}/splunk?seed={splunk_tests.seed_for(deck, 0)}")
    splunk_tests.play_to_the_end(page, play=play, call=call, slap=slap)
    page.wait_for_function("() => document.body.dataset.state === 'won'")
    assert {"play", "call", "slap"} <= set(presses)
    relay.check(len(presses))


def test_slabberjan_a_repeated_click_on_swap_is_one_swap(page: Any,
                                                         slabberjan_site: str) -> None:
    relay = Relay(page)
    presses: list[str] = []

    def press(key: str, button: str) -> None:
        twice(page, [key], [f"#{button}"])
        presses.append(button)

    def swap() -> None:  # a person's double click, and the key twice
        page.dblclick("#swap")
        twice(page, ["s"])
        presses.append("swap")

    slabberjan_tests.play_two_player_game(
        page, slabberjan_site, swap=swap, stand=lambda: press("t", "stand"),
        draw=lambda: press("d", "draw"))
    assert presses == ["draw", "swap", "stand"]
    relay.check(len(presses))


#: What the page tells, as it tells it (a computer's next move may soon say something else):
#: each line of the news line or the log that starts "Too late", with its class.
TOO_LATE = """(selector) => {
    window.__told = [];
    const where = document.querySelector(selector);
    new MutationObserver(() => {
        const lines = where.matches("ol") ? [...where.children] : [where];
        for (const n of lines) {
            if (n.textContent.startsWith("Too late")) window.__told.push(n.className);
        }
    }).observe(where, { subtree: true, childList: true, characterData: true, attributes: true });
}"""


@pytest.mark.parametrize("game", ["slapjack", "splunk", "slabberjan"])
def test_a_stale_answer_is_told_without_alarm(page: Any, request: Any, game: str) -> None:
    relay = Relay(page)
    page.goto(f"{request.getfixturevalue(game + '_site')}/{game}")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    page.evaluate(TOO_LATE, "#log" if game == "slabberjan" else "#news")
    relay.page.send(json.dumps({"type": "error", "code": "stale", "about": "action",
                                "reason": "that was already done at this view"}))
    page.wait_for_function("() => window.__told.length > 0")
    assert not [c for c in page.evaluate("() => window.__told") if "bad" in c]
    assert "bad" not in (page.get_attribute("#bar", "class") or "")

#: Recorded in the page before its own scripts run: every error message its socket is sent
#: (the page's own handler has run once one shows here: it listens after this one).
HEARD_ERRORS = """
window.__errors = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
    constructor(...args) {
        super(...args);
        this.addEventListener("message", (e) => {
            const m = JSON.parse(e.data);
            if (m.type === "error") window.__errors.push(m.code);
        });
    }
};
"""


def test_a_second_slap_once_the_table_took_the_first_tells_nothing(
        page: Any, sleepy_site: str) -> None:
    page.add_init_script(HEARD_ERRORS)
    page.goto(f"{sleepy_site}/slapjack?seed={slapjack_tests.seed_where((True,))}")
    page.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    page.keyboard.press("f")  # a Jack, which nobody else slaps
    page.wait_for_function("() => document.getElementById('pile').classList.contains('jack')")
    page.keyboard.press(" ")
    page.wait_for_function("() => document.getElementById('news').textContent.startsWith('You')")
    assert slapjack_tests.text(page, "#news") == "You were first and took 1 card."
    # the same slap at the next view, as a double tap slower than the table: one slap per
    # card turns it away, and the page keeps what it said
    page.keyboard.press(" ")
    page.wait_for_function("() => window.__errors.length > 0")
    assert page.evaluate("() => window.__errors") in (["refused"], ["stale"])
    assert slapjack_tests.text(page, "#news") == "You were first and took 1 card."
    assert "bad" not in (page.get_attribute("#news", "class") or "")
