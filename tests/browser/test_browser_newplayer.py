"""The pages as a new player finds them (issue 23), in a real chromium at three sizes: a
desktop, a phone held upright and the same phone held sideways (844 x 390), with axe-core at
each size and state.

- No key a page tells a player to press changes a setting or deals anew: the focus stays on
  the setting last clicked, and Enter there is the page's key. A setting that would deal anew
  once the game has begun asks first.
- Names that would pass for the site's own words ("You", "Computer 3") or for another seat's
  are refused over the real socket with their codes; an invisible name gets its own reason;
  a name cut in the waiting room says so and keeps its graphemes whole.

The server runs in the test process on 127.0.0.1 and a free port, with the real computer
players made quick.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from axe import serious
from conftest import FAST_PACING, Hastened, QuickFlipper, quick_decks, running
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from websockets.sync.client import connect

from parlour.bots import ComputerPlayer, make_player
from parlour.games.slabberjan import SPEC as SLABBERJAN
from parlour.games.slabberjan import Slabberjan
from parlour.live import Lobby
from parlour.web import create_app

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SIDEWAYS = {**PHONE, "viewport": {"width": 844, "height": 390}}
SIZES = {"desktop": DESKTOP, "phone": PHONE, "sideways": SIDEWAYS}



def quick_players(game: str, level: str, seat: int, *, seed: int | None = None) -> ComputerPlayer:
    return Hastened(make_player(game, level, seat, seed=seed), 10.0)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    pacing = {"slabberjan": dataclasses.replace(
        SLABBERJAN.pacing, pause={"easy": 0.05, "normal": 0.05, "hard": 0.05})}
    with running(create_app(lobby=Lobby(players=quick_players, pacing=pacing))) as url:
        yield url


@pytest.fixture(params=list(SIZES))
def sized(request: Any, browser: Any) -> Iterator[Any]:
    """A page in a fresh context of each size (desktop, phone, phone sideways)."""
    context = browser.new_context(**SIZES[request.param])
    page = context.new_page()
    page.size = request.param
    yield page
    context.close()


def text(page: Any, selector: str) -> str:
    return " ".join((page.locator(selector).first.text_content() or "").split())


def clean(page: Any, state: str) -> None:
    found = serious(page)
    assert not found, f"{page.size}, {state}: {found}"


def sent(page: Any) -> list[dict[str, Any]]:
    """Every frame the page sends on its sockets, as it sends them (read it later)."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        ws.on("framesent", lambda payload: frames.append(json.loads(payload)))
    page.on("websocket", on_socket)
    return frames


def acted(page: Any, frames: list[dict[str, Any]], action: dict[str, Any],
          timeout: float = 15.0) -> bool:
    """Waits (bounded) until the page has sent ``action``; every action frame names the
    version of the view it was made on, which this ignores."""
    for _ in range(int(timeout / 0.05)):
        if any(f.get("type") == "action" and f.get("action") == action
               and isinstance(f.get("version"), int) for f in frames):
            return True
        page.wait_for_timeout(50)
    return False


def deals(frames: list[dict[str, Any]]) -> int:
    return sum(1 for f in frames if f.get("type") == "start")


def dealer_on_our_right(players: int) -> int:
    """A seed whose first dealer is the last seat: we play first, before anyone moved."""
    return next(s for s in range(1000) if Slabberjan(players, seed=s).dealer == players - 1)


def dealer_on_our_left(players: int) -> int:
    """A seed whose first dealer is seat 0 (ours): every computer plays before us."""
    return next(s for s in range(1000) if Slabberjan(players, seed=s).dealer == 0)


BAR = "s => document.getElementById('bar').textContent.startsWith(s)"


# -- 1. Enter never throws a game away ----------------------------------------------------------

def test_enter_on_a_setting_plays_the_page_key_and_a_begun_game_asks_first(
        sized: Any, site: str) -> None:
    page = sized
    frames = sent(page)
    page.goto(f"{site}/slabberjan?seed={dealer_on_our_left(5)}")
    page.wait_for_function(BAR, arg="Your turn", timeout=15000)
    clean(page, "our turn")
    # every computer played before us: the game has begun, so a setting asks first
    page.click("#free-choice")
    page.wait_for_selector("dialog.ask[open]")
    assert "Give up this game?" in text(page, "dialog.ask")
    clean(page, "asking before a new setting deals anew")
    page.click("dialog.ask button[value=yes]")
    page.wait_for_function(BAR, arg="Your turn", timeout=15000)
    assert text(page, "#free-choice") == "Free choice: on"
    dealt = deals(frames)
    # the focus is still on the switch just clicked; Enter, as the bar says, stands: it
    # neither flips the switch back nor deals anew
    page.focus("#free-choice")
    page.keyboard.press("Enter")
    assert acted(page, frames, {"type": "stand"})
    assert text(page, "#free-choice") == "Free choice: on"
    assert page.is_hidden("dialog.ask")
    assert deals(frames) == dealt  # the same game, one move on
    # the same on the speed and the sound: Enter there is the page's key
    for control in ("[data-level=hard]", "#sound"):
        page.focus(control)
        page.keyboard.press("Enter")
    assert page.get_attribute("[data-level=normal]", "aria-checked") == "true"
    assert text(page, "#sound") == "Sound: on"
    assert page.is_hidden("dialog.ask")
    # Space still presses a focused setting (the page tells nobody to press it)...
    page.focus("#free-choice")
    page.keyboard.press(" ")
    # ...and, the game having begun, asks first
    page.wait_for_selector("dialog.ask[open]")
    page.keyboard.press("Escape")
    assert text(page, "#free-choice") == "Free choice: on"
    assert deals(frames) == dealt


def test_before_anyone_moved_a_setting_deals_at_once(page: Any, site: str) -> None:
    page.goto(f"{site}/slabberjan?seed={dealer_on_our_right(5)}")
    page.wait_for_function(BAR, arg="Your turn", timeout=15000)
    page.click("#free-choice")  # nothing is lost yet: no question
    page.wait_for_function(BAR, arg="Your turn: swap with Computer 1, or stand", timeout=15000)
    assert page.is_hidden("dialog.ask")


# -- 2. names that impersonate --------------------------------------------------------------

def frames(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=5))
        if message["type"] in (kind, "error"):
            return message


def test_impostor_names_are_refused_over_the_socket_with_their_codes(site: str) -> None:
    ws_url = site.replace("http://", "ws://") + "/ws"
    create = {"type": "create", "game": "slabberjan", "players": 5, "level": "normal"}
    with connect(ws_url) as host:
        for name in ("You", "you", "\uff39\uff2f\uff35", "Y\u043eu", "Computer 3",
                     "computer-3", "Open seat", "Ann (computer)"):
            host.send(json.dumps({**create, "name": name}))
            error = frames(host, "seated")
            assert (error["type"], error.get("code")) == ("error", "reserved_name"), name
        host.send(json.dumps({**create, "name": "\u200b\u3164\u200d"}))
        error = frames(host, "seated")
        assert error["code"] == "bad_request"
        assert "only invisible characters" in error["reason"]
        host.send(json.dumps({**create, "name": "Ann"}))
        table = frames(host, "seated")["table"]
        with connect(ws_url) as friend:
            for name in ("ann", "A n n", "\u00c1nn", "\uff21nn"):
                friend.send(json.dumps({"type": "sit", "table": table, "name": name}))
                error = frames(friend, "seated")
                assert error.get("code") == "same_name", name
            friend.send(json.dumps({"type": "sit", "table": table, "name": "You"}))
            assert frames(friend, "seated")["code"] == "reserved_name"
            family = "\U0001f469\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
            friend.send(json.dumps({"type": "sit", "table": table, "name": family}))
            assert frames(friend, "seated")["type"] == "seated"
            lobby = frames(friend, "lobby")
            assert [s["name"] for s in lobby["seats"][:2]] == ["Ann", family]  # kept whole


def test_the_waiting_room_cuts_a_long_name_at_a_grapheme_and_says_so(
        sized: Any, site: str) -> None:
    page = sized
    page.goto(f"{site}/table?game=slabberjan")
    page.wait_for_selector("#create-name")
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # 7 code points
    page.fill("#create-name", "Wolfeschlegel " + family + family)  # 14 + 7 + 7
    value = page.input_value("#create-name")
    assert value == "Wolfeschlegel " + family  # the second family did not fit: gone whole
    assert "Cut to 24 characters" in text(page, "#create-name-note")
    clean(page, "a name cut")
    page.fill("#create-name", "Computer 2")
    page.click("#create-form button[type=submit]")
    page.wait_for_function(
        "() => document.getElementById('error').textContent.includes('the site uses')")
    assert page.is_visible("#create")  # nothing was created
    clean(page, "an impostor name refused")
    page.fill("#create-name", "\u200b\u3164")
    page.click("#create-form button[type=submit]")
    assert "only invisible characters" in text(page, "#error")


# -- 3 and 4. a phone held sideways; big Slabberjan tables ----------------------------------------

def sideways_page(browser: Any) -> Any:
    return browser.new_context(**SIDEWAYS).new_page()


OFF_SCREEN = """(selectors) => {
    const out = [];
    for (const s of selectors) {
        const nodes = [...document.querySelectorAll(s)].filter((n) => n.offsetParent !== null);
        if (!nodes.length) out.push(s + ': not shown');
        for (const n of nodes) {
            const r = n.getBoundingClientRect();
            const box = [r.left, r.top, r.right, r.bottom].map(Math.round);
            if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5
                    || r.bottom > innerHeight + 0.5)
                out.push(`${s} (${n.id || n.textContent.trim().slice(0, 20)}): ${box}`);
        }
    }
    return out;
}"""
SETTINGS = ".controls button, .controls .wins"
EVERY_GAME = {
    "slapjack": ["#pile", "#my-deck", "#flip", "#slap", "#bar", ".opponents .seat"],
    "splunk": [".stack", "#call", "#slap", "#bar", "#my-seat", "#their-seat"],
    "slabberjan": ["#swap", "#stand", "#draw", "#bar", "#my-piece", "#pot", "#bag", "#round",
                   ".sj-seat"],
}


@pytest.mark.parametrize("game", list(EVERY_GAME))
def test_sideways_every_control_and_the_table_fit_without_scrolling(
        browser: Any, site: str, game: str) -> None:
    context = browser.new_context(**SIDEWAYS)
    try:
        page = context.new_page()
        page.goto(f"{site}/{game}")
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        page.wait_for_timeout(300)
        assert page.evaluate(OFF_SCREEN, [SETTINGS, *EVERY_GAME[game]]) == []
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 844
        clean_as(page, f"{game} sideways")
    finally:
        context.close()


def clean_as(page: Any, state: str) -> None:
    found = serious(page)
    assert not found, f"{state}: {found}"


def deal(page: Any, players: int) -> None:
    page.click("#players-button")
    page.click(f"[data-players='{players}']")
    if page.is_visible("dialog.ask[open]"):
        page.click("dialog.ask button[value=yes]")
    page.wait_for_function("(n) => document.querySelectorAll('.sj-seat').length === n", arg=players)
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    page.wait_for_timeout(200)


CUT_NAMES = """() => [...document.querySelectorAll('.sj-name')].filter((n) => {
        const range = document.createRange();
        range.selectNodeContents(n);
        const text = range.getBoundingClientRect();  // the text's own box, to the fraction
        const tile = n.parentElement.getBoundingClientRect();
        return text.width > tile.width - 4 || text.left < tile.left || text.right > tile.right
            || n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1;
    }).map((n) => n.textContent)"""


@pytest.mark.parametrize(("size", "players"), [("laptop", 30), ("sideways", 12),
                                               ("sideways", 16), ("sideways", 5)])
def test_big_slabberjan_tables_show_every_name_whole(
        browser: Any, site: str, size: str, players: int) -> None:
    viewport = {"viewport": {"width": 1280, "height": 900}} if size == "laptop" else SIDEWAYS
    context = browser.new_context(**viewport)
    try:
        page = context.new_page()
        page.goto(f"{site}/slabberjan?seed={dealer_on_our_right(players)}")
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        if players != 5:
            deal(page, players)
        assert page.evaluate(CUT_NAMES) == []  # no "Compute…", no "Computer …"
        if size == "sideways":
            assert page.evaluate(OFF_SCREEN, [SETTINGS, *EVERY_GAME["slabberjan"]]) == []
        clean_as(page, f"slabberjan {players} {size}")
    finally:
        context.close()


IN_SIGHT = """(selector) => {
    const n = document.querySelector(selector);
    const r = n.getBoundingClientRect();
    if (r.height === 0 || r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth)
        return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 8));
    return hit !== null && (n.contains(hit) || hit.contains(n));
}"""


@pytest.mark.parametrize("size", ["phone", "sideways"])
def test_42_seats_keep_the_pot_the_round_and_every_announcement_in_sight(
        browser: Any, site: str, size: str) -> None:
    context = browser.new_context(**SIZES[size])
    try:
        page = context.new_page()
        page.goto(f"{site}/slabberjan?seed={dealer_on_our_right(42)}")
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        deal(page, 42)
        # our seat is first in the rows, as the page's own words say
        assert page.evaluate("() => document.querySelector('.sj-ring.grid .sj-seat').classList"
                             ".contains('mine')")
        assert "yours first" in text(page, "#rules")
        page.keyboard.press("s")  # our swap: the round goes on round the 42 seats
        for where in (0.0, 0.5, 1.0):  # scrolled to the top, the middle, the end of the rows
            # a phone scrolls the page through the rows, sideways the rows scroll in their box
            page.evaluate("""([f, inside]) => { const ring = document.getElementById('ring');
                if (inside) ring.scrollTop = f * ring.scrollHeight;
                else window.scrollTo(0, ring.offsetTop + f * Math.max(0, ring.offsetHeight - 200));
            }""", [where, size == "sideways"])
            page.wait_for_timeout(100)
            for selector in ("#pot", "#bag", "#round", "#log li", "#bar", "#swap"):
                assert page.evaluate(IN_SIGHT, selector), (size, where, selector)
        # an announcement (a matador's words, in quotes) is in sight whenever it comes
        page.wait_for_function("() => [...document.querySelectorAll('#log li')]"
                               ".some((li) => li.textContent.includes('\u201c'))", timeout=20000)
        index = page.evaluate("() => [...document.querySelectorAll('#log li')]"
                              ".findIndex((li) => li.textContent.includes('\u201c'))")
        assert page.evaluate(IN_SIGHT, f"#log li:nth-child({index + 1})") or index > 1
        clean_as(page, f"slabberjan 42 {size}")
    finally:
        context.close()


# -- 5. what a screen reader hears -----------------------------------------------------------------

class Flipper(QuickFlipper):
    """Flips a moment after its turn (long enough for a test to close a tab first)."""

    flip_after = 0.4
    jack_after = 0.4


def flippers(game: str, level: str, seat: int, *, seed: int | None = None) -> Flipper:
    return Flipper(seat, seed=seed)


@pytest.fixture(scope="module")
def slapjack_site() -> Iterator[str]:
    lobby = Lobby(players=flippers, pacing=FAST_PACING, decks=quick_decks)
    with running(create_app(lobby=lobby)) as url:
        yield url


SPOKEN = "() => [...document.querySelectorAll('#spoken p')].map((p) => p.textContent)"


def test_a_screen_reader_hears_what_happened_before_what_to_do(
        sized: Any, slapjack_site: str) -> None:
    page = sized
    page.goto(f"{slapjack_site}/slapjack")
    page.wait_for_function(BAR, arg="Your turn")
    page.keyboard.press("f")  # our card; then the computer's, a Jack (the deck is stacked)
    page.wait_for_function(BAR, arg="Jack! Slap it!", timeout=5000)
    heard = page.evaluate(SPOKEN)
    jack = next(i for i, line in enumerate(heard) if line.startswith("A Jack from Computer 1"))
    slap = next(i for i, line in enumerate(heard) if line.startswith("Jack! Slap it!"))
    assert jack < slap, heard
    # Chromium tells a screen reader the lines added in one go in an order of its own (Orca
    # heard "Jack! Slap it!" first): the newest line carries the ones before it, which are
    # hidden from it, so what the accessibility tree holds is one line in the order said
    tree = page.locator("#spoken").aria_snapshot()
    said = next(line for line in tree.splitlines() if "Jack! Slap it!" in line)
    assert "A Jack from Computer 1" in said, tree
    assert said.index("A Jack from Computer 1") < said.index("Jack! Slap it!"), tree
    clean(page, "a Jack on the pile")


def test_slabberjan_seats_are_read_as_words(page: Any, site: str) -> None:
    page.goto(f"{site}/slabberjan?seed={dealer_on_our_left(5)}")
    page.wait_for_function(BAR, arg="Your turn", timeout=15000)
    tree = page.locator("#seats").aria_snapshot()
    assert "Computer 1: 3 chips" in tree
    assert "You: 3 chips, the dealer, to play" in tree
    assert "●" not in tree and '"D"' not in tree  # the signs drawn are not read
    # the players popover (a slider in it) is a dialog, not a menu: axe's one critical finding
    page.click("#players-button")
    assert page.get_attribute("#players-menu", "role") == "dialog"
    clean(page, "the players popover open")


# -- 6. nothing left over -------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["slabberjan", "slapjack", "splunk"])
def test_behind_the_continue_offer_no_table_is_shown(browser: Any, site: str, game: str) -> None:
    context = browser.new_context(**DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{site}/{game}")
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        page.wait_for_timeout(300)
        page.evaluate("() => { for (const b of document.querySelectorAll('#swap, #stand, #flip,"
                      " .stack')) if (!b.disabled) { b.click(); return; } }")
        page.wait_for_timeout(300)
        page.close()
        page = context.new_page()
        page.goto(f"{site}/{game}")
        page.wait_for_selector("#continue-game")
        hidden = page.evaluate("""() => [...document.querySelectorAll(
            '.sj-ring, .sj-me, .opponents, .centre, .me, .stacks, #their-seat')]
            .filter((n) => getComputedStyle(n).visibility !== 'hidden').map((n) => n.className)""")
        assert hidden == []
        assert "Watching" not in page.inner_text(".table-area")
        if game == "slabberjan":
            assert text(page, "#my-what") == ""
        clean(page, f"{game}: the continue offer")
        page.click("#continue-game")
        page.wait_for_function("() => !document.body.classList.contains('offered')")
    finally:
        context.close()


# -- 7. the tour ----------------------------------------------------------------------------------

OVERLAP = """() => {
    const lit = document.querySelector('.guide-lit');
    const box = document.querySelector('dialog.guide').getBoundingClientRect();
    if (!lit) return 0;
    const r = lit.getBoundingClientRect();
    // a target too big to be beside (a third of the screen): nothing to keep clear
    if (r.width * r.height > innerWidth * innerHeight / 3) return 0;
    return Math.max(0, Math.min(box.right, r.right) - Math.max(box.left, r.left))
        * Math.max(0, Math.min(box.bottom, r.bottom) - Math.max(box.top, r.top));
}"""


@pytest.mark.parametrize("game", ["slabberjan", "slapjack", "splunk"])
def test_the_tour_never_covers_what_it_points_at(sized: Any, site: str, game: str) -> None:
    page = sized
    page.goto(f"{site}/{game}")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    page.click("#guide-again")
    page.wait_for_selector("dialog.guide[open]")
    count = int(text(page, ".guide-count").split(" of ")[1])
    words = {"four": 4, "five": 5, "six": 6}
    said = next(n for w, n in words.items() if w in text(page, ".guide-title"))
    assert said == count  # "Slapjack in five steps" has five
    assert page.is_hidden("dialog.guide button:text('Back')")  # nothing to go back to
    clean(page, f"{game}: the tour")
    for step in range(count):
        # the box moves (and the page scrolls) once the step is drawn: wait for it to settle
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(f"() => ({OVERLAP})() === 0", timeout=5000)
        assert page.evaluate(OVERLAP) == 0, (game, page.size, step)
        page.click("dialog.guide .button.primary")
    assert page.is_hidden("dialog.guide")


# -- 8. a closed tab ------------------------------------------------------------------------------

def test_a_closed_tab_finds_the_pile_where_it_left_it(browser: Any, slapjack_site: str) -> None:
    context = browser.new_context(**DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{slapjack_site}/slapjack")
        page.wait_for_function(BAR, arg="Your turn")
        page.click("#players-button")
        page.click("[data-players='4']")
        page.wait_for_function("() => document.querySelectorAll('.opponents .seat').length === 3")
        page.wait_for_function(BAR, arg="Your turn")
        page.keyboard.press("f")
        page.wait_for_function("() => document.getElementById('pile').dataset.flips === '1'")
        page.close()  # right after our flip; three computers would flip 0.4 s apart
        time.sleep(2.0)  # long enough for all three, had the table played on
        page = context.new_page()
        page.goto(f"{slapjack_site}/slapjack")
        page.click("#continue-game")
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        assert page.get_attribute("#pile", "data-flips") == "1"  # nothing flipped meanwhile
        # and the table goes on once we are back
        page.wait_for_function("() => document.getElementById('pile').dataset.flips === '2'",
                               timeout=5000)
    finally:
        context.close()


# -- 9. words ----------------------------------------------------------------------------------

def test_the_words_a_player_reads(browser: Any, site: str) -> None:
    context = browser.new_context(**DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{site}/rules/slapjack")
        rules = text(page, "main")
        assert "2 to 8" not in rules and "2 to 4" in rules  # the seats this site offers
        page.goto(f"{site}/slabberjan")
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        titles = page.eval_on_selector_all(".controls [title]", "ns => ns.map(n => n.title)")
        assert titles and not [t for t in titles if re.search(r"\b[SJPG]\d+\b", t)], titles
        page.goto(f"{site}/table?game=splunk")
        page.wait_for_selector("#options [data-option]")
        assert not re.search(r"\b[SJPG]\d+\b", text(page, "#create"))
    finally:
        context.close()


def test_slapjack_sideways_has_its_bar_below_the_pile(browser: Any, slapjack_site: str) -> None:
    context = browser.new_context(**SIDEWAYS)
    try:
        page = context.new_page()
        page.goto(f"{slapjack_site}/slapjack")
        page.wait_for_function(BAR, arg="Your turn")
        pile = page.locator("#pile").bounding_box()
        bar = page.locator("#bar").bounding_box()
        assert bar["y"] >= pile["y"] + pile["height"]  # below it, as the seed says
    finally:
        context.close()


# -- 10. quick reactions; Splunk's progress ---------------------------------------------------

def test_quick_reactions_over_the_socket(site: str) -> None:
    ws_url = site.replace("http://", "ws://") + "/ws"
    with connect(ws_url) as host, connect(ws_url) as friend, connect(ws_url) as spectator:
        host.send(json.dumps({"type": "create", "game": "splunk", "players": 2,
                              "level": "normal", "name": "Ann"}))
        table = frames(host, "seated")["table"]
        friend.send(json.dumps({"type": "sit", "table": table, "name": "Bob"}))
        token = frames(friend, "seated")["token"]
        host.send(json.dumps({"type": "begin"}))
        friend.send(json.dumps({"type": "resume", "token": token}))
        frames(friend, "welcome")
        spectator.send(json.dumps({"type": "watch", "table": table}))
        frames(spectator, "welcome")
        friend.send(json.dumps({"type": "react", "reaction": "nice"}))
        for ws in (friend, spectator):  # to every game page and spectator, the code alone
            got = frames(ws, "reaction")
            assert got == {"type": "reaction", "seat": 1, "reaction": "nice"}
        friend.send(json.dumps({"type": "react", "reaction": "wow"}))  # too soon
        assert frames(friend, "reaction")["code"] == "slow_down"
        friend.send(json.dumps({"type": "react", "reaction": "<b>hi</b>"}))  # no free text
        error = frames(friend, "reaction")
        assert error["code"] == "bad_request" and "<b>" not in error["reason"]
        spectator.send(json.dumps({"type": "react", "reaction": "nice"}))
        assert frames(spectator, "reaction")["code"] == "no_seat"
    with connect(ws_url) as alone:
        alone.send(json.dumps({"type": "start", "game": "splunk", "players": 2,
                               "level": "normal"}))
        frames(alone, "welcome")
        alone.send(json.dumps({"type": "react", "reaction": "nice"}))
        assert frames(alone, "reaction")["code"] == "no_reactions"


def test_a_reaction_shows_at_the_seat_that_sent_it(sized: Any, site: str) -> None:
    page = sized
    ws_url = site.replace("http://", "ws://") + "/ws"
    with connect(ws_url) as host:
        host.send(json.dumps({"type": "create", "game": "splunk", "players": 2,
                              "level": "normal", "name": "Ann"}))
        seated = frames(host, "seated")
        table = seated["table"]
        with connect(ws_url) as friend:
            friend.send(json.dumps({"type": "sit", "table": table, "name": "Bob"}))
            token = frames(friend, "seated")["token"]
        host.send(json.dumps({"type": "begin"}))
        page.goto(f"{site}/splunk?token={token}")
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        host.send(json.dumps({"type": "resume", "token": seated["token"]}))  # its game page
        frames(host, "welcome")
        host.send(json.dumps({"type": "react", "reaction": "well_played"}))
        page.wait_for_selector("#their-seat .reaction")
        assert text(page, "#their-seat .reaction") == "Well played"
        assert any("Ann: Well played" in line for line in page.evaluate(SPOKEN))
        clean(page, "a friend's reaction")
        page.click("#react-button")
        clean(page, "the reactions open")
        page.click("[data-reaction=heart]")
        assert frames(host, "reaction")["seat"] == 0  # its own, sent back to it too
        got = frames(host, "reaction")
        assert (got["seat"], got["reaction"]) == (1, "heart")
        page.wait_for_selector("#my-seat .reaction")


def test_a_long_splunk_game_shows_the_cards_in_each_hand_over_time(
        page: Any, site: str) -> None:
    page.goto(f"{site}/splunk")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    for _ in range(4):  # our plays; the computer plays between them
        page.wait_for_function(BAR, arg="Your turn", timeout=10000)
        page.click(".stack.playable")
        page.wait_for_timeout(200)
    page.wait_for_selector("#progress:not([hidden])")
    assert page.locator("#progress-lines polyline").count() == 2
    label = page.get_attribute("#progress-lines", "aria-label") or ""
    assert re.fullmatch(r"Cards in hand over \d+ plays: You from 24 to \d+, "
                        r"Computer 1 from 24 to \d+", label), label
    assert text(page, "#progress-now").startswith("After ")
    clean(page, "splunk with its progress")
