"""Every page in a real chromium, as a hostile world would test it.

Under the Content-Security-Policy the server sends with every page (no inline script, no
inline style, no eval, the socket and the files of this site only): the home page, a rules
page, the page that creates a table with friends, its waiting room and each game page, played
a little, raise no ``securitypolicyviolation``, no console error and no uncaught exception.

With that policy switched off (the pages must be safe on their own): names people type, however
hostile (markup with an event handler, the longest name allowed with no space to break it,
right-to-left text and marks, zero-width joiners), show as the very text the server keeps, on
the home page's list of open tables, in the waiting room and on each game page; no markup of
theirs ever becomes an element, nothing of theirs runs, and on a phone no name pushes the page
wider than the screen.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from conftest import running
from websockets.sync.client import ClientConnection, connect

from parlour.games import GAMES
from parlour.live import Lobby, Seating, names, protocol
from parlour.live.protocol import Create
from parlour.web import create_app

pytestmark = pytest.mark.browser

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")

# Recorded in the page before any of its own scripts run: what the policy blocked.
WATCH_CSP = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
});
"""


@pytest.fixture(scope="module")
def csp_site() -> Iterator[str]:
    with running(create_app(lobby=Lobby())) as url:
        yield url


class Watched:
    """A page whose policy violations, console errors and uncaught exceptions are kept."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.add_init_script(WATCH_CSP)
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))

    def problems(self) -> list[str]:
        """What went wrong since the last call."""
        violations: list[str] = self.page.evaluate("() => window.__violations.splice(0)")
        errors, self.errors = self.errors, []
        return violations + errors

    def until(self, predicate: str, **kwargs: Any) -> None:
        """Waits for ``predicate``, a function's source: under the policy, a bare expression
        would need eval."""
        self.page.wait_for_function(predicate, **kwargs)


def test_the_csp_blocks_nothing_on_any_page(browser: Any, csp_site: str) -> None:
    url = csp_site
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        w = Watched(context.new_page())
        page = w.page
        seen: dict[str, list[str]] = {}

        response = page.goto(url + "/")  # the server sends the policy itself
        assert response is not None and response.headers["content-security-policy"] == CSP
        page.wait_for_selector(".game-card")
        seen["home"] = w.problems()
        for game in GAMES:
            page.goto(f"{url}/rules/{game}")
            page.wait_for_selector("h1")
            seen[f"rules of {game}"] = w.problems()

        # A table with friends: the form the specs build, the waiting room, the game.
        page.goto(url + "/table?game=slabberjan")
        page.wait_for_selector("#game option[value=slabberjan]", state="attached")
        page.select_option("#game", "splunk")  # the form is built again for another game
        page.wait_for_selector("#option-jokers")
        page.select_option("#game", "slabberjan")
        page.fill("#players", "3")
        page.fill("#create-name", "Ann")
        page.click("#create-form button[type=submit]")
        page.wait_for_url(re.compile(r"/table/[\w-]+$"))
        page.wait_for_selector("#seats li.seat-me")
        page.click("#speed [data-level=hard]")
        page.wait_for_selector("#speed [data-level=hard][aria-checked=true]")
        seen["waiting room"] = w.problems()
        page.click("#begin")
        page.wait_for_url(re.compile(r"/slabberjan\?token="))
        page.wait_for_selector("#my-piece [data-piece]")
        seen["slabberjan with friends"] = w.problems()

        # Each game against the computer, played a little: cards and pieces drawn, moved and
        # animated, menus opened, settings changed.
        page.goto(url + "/slabberjan")
        w.until("() => document.body.dataset.state === 'playing'")
        page.click("#players-button")
        page.click("#players-menu [data-players='8']")
        if page.is_visible("dialog.ask[open]"):  # the computers had begun the first deal
            page.click("dialog.ask button[value=yes]")
        w.until("() => document.querySelectorAll('.sj-seat').length === 8")
        for _ in range(30):
            for button in ("#swap", "#draw", "#stand"):
                if page.is_enabled(button):
                    page.click(button)
                    break
            page.wait_for_timeout(150)
        seen["slabberjan"] = w.problems()

        page.goto(url + "/slapjack")
        w.until("() => document.body.dataset.state === 'playing'")
        for _ in range(30):
            bar = page.text_content("#bar") or ""
            page.keyboard.press("Space" if bar.startswith("Jack") else "f")
            page.wait_for_timeout(120)
        w.until("() => Number(document.getElementById('pile').dataset.flips) > 0")
        seen["slapjack"] = w.problems()

        page.goto(url + "/splunk")
        w.until("() => document.body.dataset.state === 'playing'")
        page.click("#jokers")
        w.until("() => document.getElementById('jokers').getAttribute('aria-checked') === 'true'")
        w.until("() => document.body.dataset.state === 'playing'")
        for i in range(30):
            page.keyboard.press(str(i % 4 + 1))
            page.wait_for_timeout(150)
        w.until("() => Number(document.getElementById('stacks').dataset.plays) > 0")
        seen["splunk"] = w.problems()

        assert {where: found for where, found in seen.items() if found} == {}
    finally:
        context.close()


def test_a_page_that_breaks_the_csp_is_caught(browser: Any, csp_site: str) -> None:
    """The watch above sees what the policy blocks: an inline script and an inline style."""
    context = browser.new_context()
    try:
        w = Watched(context.new_page())
        w.page.goto(csp_site + "/")
        w.page.wait_for_selector(".game-card")
        w.page.evaluate("""() => {
            const s = document.createElement("script");
            s.textContent = "window.__ran = 1";
            document.body.append(s);
            document.body.insertAdjacentHTML("beforeend", '<p style="color: red">x</p>');
        }""")
        w.until("() => window.__violations.length >= 2")
        assert w.page.evaluate("() => window.__ran") is None
        problems = w.problems()
        assert any("script-src" in v for v in problems)
        assert any("style-src" in v for v in problems)
    finally:
        context.close()


# -- hostile names ------------------------------------------------------------------------------

#: What people may type as a name, as the server receives it. The first is longer than the
#: server's limit: the test lifts the limit, since the pages must not count on it.
HOSTILE = [
    "<img src=x onerror=window.__pwned=1>",
    "<svg onload=__pwned=1>",
    "Wolfeschlegelsteinhausen",  # the longest name allowed, with nowhere to break
    "\u202eevil\u202c \u05d3\u05e0\u05d4\u200f",  # a right-to-left override, Hebrew, a mark
    "\U0001f469\u200d\U0001f4bb Zoe & \"Co\"",  # a zero-width joiner, & and quotes
]
#: The name the browser types in the waiting room.
TYPED = "<svg onload=__pwned=2>"

NO_MARKUP = """(names) => {
    // the boxes that hold a name: a name cut short on purpose (an ellipsis) is fine, one
    // that sticks out of its box is not
    const boxes = new Set();
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let text = walk.nextNode(); text; text = walk.nextNode()) {
        if (!names.some((n) => text.data.includes(n))) continue;
        let box = text.parentElement;
        while (box.parentElement && getComputedStyle(box).display === "inline") {
            box = box.parentElement;
        }
        // words for a screen reader only (.sr-only) are out of sight on purpose
        if (box.offsetParent !== null && !box.closest(".sr-only")) boxes.add(box);
    }
    const sticksOut = (box) => {
        if (box.scrollWidth > box.clientWidth + 1) return true;
        const { left, right } = box.getBoundingClientRect();
        for (let up = box.parentElement; up; up = up.parentElement) {
            if (getComputedStyle(up).overflowX === "visible") continue;
            const clip = up.getBoundingClientRect();  // a box that cuts off what sticks out
            if (left < clip.left - 1 || right > clip.right + 1) return true;
        }
        return false;
    };
    const out = [...boxes].filter((box) => getComputedStyle(box).textOverflow !== "ellipsis"
        && sticksOut(box));
    return {
        pwned: window.__pwned === undefined ? null : String(window.__pwned),
        // (the waiting room's QR code of its link, #qr, is the server's own image)
        planted: document.querySelectorAll("img:not(#qr), [onerror], [onload]").length,
        wide: document.documentElement.scrollWidth - window.innerWidth,
        out: out.map((box) => box.id || box.className || box.tagName),
    };
}"""
SAFE: dict[str, Any] = {"pwned": None, "planted": 0, "wide": 0, "out": []}


class HostDeals(Lobby):
    """The host (the longest hostile name) deals Slabberjan's first round, so that the round
    line names them and the bar the next seat's name."""

    def create(self, command: Create, owner: str | None = None) -> Seating:
        if command.spec.name == "slabberjan":
            command = dataclasses.replace(command, options={**command.options, "dealer": 0})
        return super().create(command, owner)


@pytest.fixture(scope="module")
def plain_site() -> Iterator[str]:
    with running(create_app(lobby=HostDeals(grace=30, takeover=30))) as url:
        yield url


def frames(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (an error fails the test with its reason)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=10))
        assert message["type"] != "error", message
        if message["type"] == kind:
            return message


def texts(page: Any, selector: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(selector, "ns => ns.map(n => n.textContent)")
    return found


@pytest.mark.parametrize(("game", "players", "names_on_page"), [
    ("slabberjan", 6, ".sj-name"),
    ("slapjack", 4, ".opponents .name"),
    ("splunk", 2, "#their-seat .name"),
])
def test_hostile_names_show_as_text_on_every_page(
        browser: Any, plain_site: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Any,
        game: str, players: int, names_on_page: str) -> None:
    monkeypatch.setattr(names, "NAME_MAX", 40)
    url = plain_site
    ws_url = url.replace("http://", "ws://") + "/ws"
    people = HOSTILE[:players - 1]  # the browser takes the last seat
    shown = [protocol.check_name(name) for name in people]  # as the server keeps them
    # the server's policy would block an inline handler: the page must not need it to
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, bypass_csp=True)
    sockets: list[ClientConnection] = []
    tokens: list[str] = []
    with ExitStack() as stack:
        stack.callback(context.close)
        host = stack.enter_context(connect(ws_url))
        sockets.append(host)
        host.send(json.dumps({"type": "create", "game": game, "players": players,
                              "level": "normal", "name": people[0]}))
        seated = frames(host, "seated")
        table = seated["table"]
        tokens.append(seated["token"])
        for name in people[1:]:
            ws = stack.enter_context(connect(ws_url))
            sockets.append(ws)
            ws.send(json.dumps({"type": "sit", "table": table, "name": name}))
            tokens.append(frames(ws, "seated")["token"])

        page = context.new_page()
        # The home page: its list as the server renders it, then as its script draws it;
        # the host's name is the only name a stranger put there that it shows.
        page.goto(url + "/")
        row = page.locator(f"#open-tables li:has(a[href='/table/{table}'])")
        for drawn_by in ("server", "script"):
            who = row.locator(".who").text_content() or ""
            assert who == "with " + shown[0], drawn_by
            assert page.evaluate(NO_MARKUP, [shown[0], TYPED]) == SAFE, drawn_by
            page.evaluate("""() => {
                document.getElementById("open-tables").firstElementChild.dataset.old = "1";
                document.dispatchEvent(new Event("visibilitychange"));
            }""")
            page.wait_for_function(
                "() => !document.querySelector('#open-tables [data-old]')", timeout=10000)

        # The waiting room: every name as it is; the browser takes the last seat by typing.
        page.goto(f"{url}/table/{table}")
        page.wait_for_selector("#sit-form", state="visible")
        assert texts(page, "#seats li.seat-person .who") == shown
        page.fill("#sit-name", TYPED)
        page.click("#sit-form button[type=submit]")
        page.wait_for_selector("#seats li.seat-me")
        assert texts(page, "#seats li.seat-me .who") == [TYPED]
        assert "Waiting for " + shown[0] + " (the host)" in (page.text_content("#status") or "")
        assert page.evaluate(NO_MARKUP, [*shown, TYPED]) == SAFE
        page.screenshot(path=str(tmp_path / f"{game}-room.png"), full_page=True)

        # The game: the host starts, the browser goes to its seat; the others' names show.
        host.send(json.dumps({"type": "begin"}))
        page.wait_for_url(re.compile(rf"/{game}\?token="))
        for ws, token in zip(sockets, tokens, strict=True):  # each holds its seat in the game
            ws.send(json.dumps({"type": "resume", "token": token}))
        page.wait_for_function("() => document.body.dataset.state !== 'waiting'")
        page.wait_for_timeout(500)
        on_page = [" ".join(t.split()) for t in texts(page, names_on_page)]
        for name in shown:
            assert any(t == name or t.startswith(name + " (") for t in on_page), (name, on_page)
        assert page.evaluate(NO_MARKUP, [*shown, TYPED]) == SAFE
        page.screenshot(path=str(tmp_path / f"{game}-game.png"))


def test_a_seat_taken_up_in_another_tab_leaves_the_first_page_saying_so(
        browser: Any, plain_site: str) -> None:
    url = plain_site
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    with ExitStack() as stack:
        stack.callback(context.close)
        host = stack.enter_context(connect(url.replace("http://", "ws://") + "/ws"))
        host.send(json.dumps({"type": "create", "game": "slapjack", "players": 2,
                              "level": "normal", "name": "Ann"}))
        token = frames(host, "seated")["token"]
        host.send(json.dumps({"type": "begin"}))
        frames(host, "lobby")
        first, second = context.new_page(), context.new_page()
        first.goto(f"{url}/slapjack?token={token}")
        first.wait_for_function("() => document.body.dataset.state === 'playing'")
        second.goto(f"{url}/slapjack?token={token}")
        second.wait_for_function("() => document.body.dataset.state === 'playing'")
        first.wait_for_function("() => document.getElementById('bar').textContent"
                                ".startsWith('This seat is now played on another device')")
        assert first.is_disabled("#flip") and first.is_disabled("#slap")
        assert not (second.text_content("#bar") or "").startswith("This seat")
        assert second.is_enabled("#slap")
