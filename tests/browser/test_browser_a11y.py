"""Every page in every state, checked by axe-core at a desktop's size and a phone's: nothing
serious or critical (``tests/axe.py``). The home page, each rules page, the form that creates
a table with friends and its waiting room; each game page in play and at its end, whole
games played through to a win; and the replay page of each finished game.

The server runs in the test process with stand-in computer players and stacked deals that
end soon (the same as the games' own browser tests).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import test_browser as slapjack_tests
import test_browser_slabberjan as slabberjan_tests
import test_browser_splunk as splunk_tests
from axe import serious
from conftest import FAST_PACING, QuickFlipper, quick_deck, running

from parlour.bots import ComputerPlayer
from parlour.games.slabberjan import SPEC as SLABBERJAN
from parlour.live import Lobby
from parlour.web import create_app

pytestmark = pytest.mark.browser

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 2},
}


def players(game: str, level: str, seat: int, *, seed: int | None = None) -> ComputerPlayer:
    if game == "slapjack":
        return QuickFlipper(seat, seed=seed)
    if game == "splunk":
        return splunk_tests.StandIn(seat, seed=seed)
    return slabberjan_tests.quick_players(game, level, seat, seed=seed)


def decks(game: str, count: int) -> list[list[str]]:
    if game == "slapjack":
        return [quick_deck(count)]
    if game == "splunk":
        return [splunk_tests.quick_deck()]
    return slabberjan_tests.STACKS.get(count, [])


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    pacing = {**FAST_PACING, **splunk_tests.FAST, "slabberjan": dataclasses.replace(
        SLABBERJAN.pacing, pause={"easy": 0.05, "normal": 0.05, "hard": 0.05})}
    lobby = Lobby(players=players, decks=decks, pacing=pacing, tables_per_address=None)
    with running(create_app(lobby=lobby)) as url:
        yield url


@pytest.fixture(params=list(SIZES))
def page(request: Any, browser: Any) -> Iterator[Any]:
    context = browser.new_context(**SIZES[request.param])
    yield context.new_page()
    context.close()


def check(page: Any, where: str) -> None:
    found = serious(page)
    assert found == [], f"{where}: " + "\n".join(found)


def tables(page: Any) -> list[str]:
    """The ids of the tables the page is welcomed to, as its socket hears them."""
    ids: list[str] = []

    def frames(ws: Any) -> None:
        def heard(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "welcome":
                ids.append(message["table"])

        ws.on("framereceived", heard)

    page.on("websocket", frames)
    return ids


def test_the_home_rules_and_friends_pages(page: Any, site: str) -> None:
    page.goto(site + "/")
    page.wait_for_selector(".game-card")
    check(page, "home")
    for game in ("slabberjan", "slapjack", "splunk"):
        page.goto(f"{site}/rules/{game}")
        page.wait_for_selector("h1")
        check(page, f"rules of {game}")
    page.goto(site + "/table?game=slabberjan")
    page.wait_for_selector("#game option[value=slabberjan]", state="attached")
    check(page, "create a table")
    page.fill("#players", "3")
    page.fill("#create-name", "Ann")
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r"/table/[\w-]+$"))
    page.wait_for_selector("#seats li.seat-me")
    check(page, "waiting room")
    page.goto(site + "/no-such-page")
    check(page, "page not found")


def replay(page: Any, site: str, table: str, game: str) -> None:
    page.goto(f"{site}/games/{table}")
    page.wait_for_selector("#replay-controls:not([hidden])")  # its script drew the steps
    check(page, f"replay of {game}")


def test_slapjack_in_play_at_its_end_and_its_replay(page: Any, site: str) -> None:
    ids = tables(page)
    page.goto(site + "/slapjack")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    check(page, "slapjack at the start")
    page.keyboard.press("f")
    page.wait_for_function("() => document.getElementById('pile').dataset.flips !== '0'")
    page.click("#new-game")  # a game in play is given up only when we say so
    page.wait_for_selector("dialog.ask[open]")
    check(page, "slapjack asking to give up the game")
    page.keyboard.press("Escape")
    page.click("#players-button")
    check(page, "slapjack with the players menu open")
    page.keyboard.press("Escape")
    seen: list[str] = []

    def slap() -> None:
        if not seen:
            check(page, "slapjack with a Jack on top")
            seen.append("jack")
        page.keyboard.press(" ")

    slapjack_tests.play(page, lambda: page.keyboard.press("f"), slap)
    assert seen
    page.wait_for_function("() => document.body.dataset.state === 'won'")
    check(page, "slapjack won")
    replay(page, site, ids[-1], "slapjack")


def test_slabberjan_in_play_at_its_end_and_its_replay(page: Any, site: str) -> None:
    ids = tables(page)
    page.goto(site + "/slabberjan")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    check(page, "slabberjan at the start")
    page.click("#players-button")
    page.click("[data-players='12']")
    slabberjan_tests.give_up_if_asked(page)
    page.wait_for_function("() => document.querySelectorAll('.sj-seat').length === 12")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    check(page, "slabberjan with 12 seats")
    slabberjan_tests.STACKS[2] = slabberjan_tests.TWO_PLAYER_GAME
    page.goto(f"{site}/slabberjan?seed={slabberjan_tests.seed_for(2, 0)}")
    slabberjan_tests.choose_players_and_chips(page, 2, 1)
    slabberjan_tests.wait_bar(page, "You are the dealer")
    page.click("#draw")
    slabberjan_tests.wait_bar(page, "Your turn: swap")
    check(page, "slabberjan after a reveal")
    page.click("#swap")
    slabberjan_tests.wait_bar(page, "Your turn: you hold an inn")
    check(page, "slabberjan with a bubble")
    page.click("#stand")
    slabberjan_tests.wait_bar(page, "You won!")
    check(page, "slabberjan won")
    replay(page, site, ids[-1], "slabberjan")


def test_splunk_in_play_at_its_end_and_its_replay(page: Any, site: str) -> None:
    ids = tables(page)
    deck = splunk_tests.quick_deck()
    splunk_tests.open_game(page, f"{site}/splunk?seed={splunk_tests.seed_for(deck, 0)}")
    check(page, "splunk at the start")
    seen: list[str] = []

    def slap(i: int) -> None:
        if not seen:
            check(page, "splunk with a slap open")
            seen.append("slap")
        page.keyboard.press(" ")

    splunk_tests.play_to_the_end(page, play=lambda i: page.keyboard.press(str(i + 1)),
                                 call=lambda: page.keyboard.press("c"), slap=slap)
    assert seen
    page.wait_for_function("() => document.body.dataset.state === 'won'")
    check(page, "splunk won")
    replay(page, site, ids[-1], "splunk")


# -- the keyboard: rings, radio groups and menus ------------------------------------------------

RING = """() => {
    const el = document.activeElement;
    const cs = getComputedStyle(el);
    const width = parseFloat(cs.outlineWidth) || 0;
    const ring = cs.outlineStyle !== "none" && width > 0;
    const w = Math.max(0, width + (parseFloat(cs.outlineOffset) || 0));  // beyond the border
    const r = el.getBoundingClientRect();
    const clippers = [];
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const s = getComputedStyle(up);
        if (s.overflowX === "visible" && s.overflowY === "visible") continue;
        const c = up.getBoundingClientRect();
        if (r.left - w < c.left - 0.5 || r.right + w > c.right + 0.5
            || r.top - w < c.top - 0.5 || r.bottom + w > c.bottom + 0.5) {
            clippers.push(up.id || up.className || up.tagName);
        }
    }
    return {what: el.id || el.getAttribute("data-level") || el.className || el.tagName,
            ring, clippers, body: el === document.body};
}"""


@pytest.mark.parametrize("path", ["/", "/table", "/slapjack", "/slabberjan", "/splunk"])
def test_every_stop_of_the_tab_key_shows_a_whole_ring(browser: Any, site: str,
                                                      path: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(site + path)
        page.wait_for_timeout(800)
        seen: list[dict[str, Any]] = []
        for _ in range(40):
            page.keyboard.press("Tab")
            now = page.evaluate(RING)
            if now["body"] or (seen and now["what"] == seen[0]["what"]):
                break
            seen.append(now)
        assert len(seen) >= 3, seen
        bad = [s for s in seen if not s["ring"] or s["clippers"]]
        assert bad == [], bad
    finally:
        context.close()


@pytest.mark.parametrize("game, races", [("slapjack", True), ("splunk", True),
                                          ("slabberjan", False)])
def test_a_screen_reader_is_told_which_speed_suits_a_listener_in_a_race(
        browser: Any, site: str, game: str, races: bool) -> None:
    """Heard through Orca, a call to slap takes about half a second to say: in the races the
    speed buttons' description points a listener to Easy (Slabberjan has no race)."""
    from playwright.sync_api import expect

    page = browser.new_page()
    try:
        page.goto(f"{site}/{game}")
        group = page.locator(".speed[role=radiogroup]")
        listen = re.compile("With a screen reader, try Easy")
        if races:
            expect(group).to_have_accessible_description(listen)
            box = page.locator("#speed-listen").bounding_box()
            assert box is not None and box["width"] <= 1  # for the ear, not the eye
        else:
            expect(group).not_to_have_accessible_description(listen)
    finally:
        page.close()


def test_the_open_tables_are_not_read_again_when_nothing_changed(browser: Any,
                                                                  site: str) -> None:
    """The home page's list of open tables is a live region, refreshed every few seconds:
    a refresh that finds the same tables leaves it as it is, or a screen reader reads "No
    open table right now" again and again (heard through Orca, docs/accessibility.md)."""
    page = browser.new_page()
    try:
        page.goto(site + "/")
        page.wait_for_selector("#open-tables > *")
        page.evaluate("""() => {
            window.replaced = 0;
            new MutationObserver((m) => { window.replaced += m.length; })
              .observe(document.getElementById('open-tables'), { childList: true, subtree: true });
        }""")
        for _ in range(3):  # a refresh as the page makes one when it is shown again
            with page.expect_response(lambda r: "/api/tables" in r.url):
                page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
            page.wait_for_timeout(100)
        assert page.evaluate("() => window.replaced") == 0
    finally:
        page.close()


def focused(page: Any) -> str:
    found: str = page.evaluate("""() => {
        const el = document.activeElement;
        return el.dataset.level || el.dataset.players || el.dataset.chips || el.id || el.tagName;
    }""")
    return found


def test_the_speed_radios_and_the_menus_move_with_the_arrow_keys(page: Any, site: str) -> None:
    page.goto(site + "/slabberjan")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    # one Tab stop for the whole group: the checked speed
    tabbable = page.eval_on_selector_all(".speed [role=radio]", "rs => rs.map(r => r.tabIndex)")
    assert tabbable == [-1, 0, -1, -1]
    page.focus(".speed [aria-checked=true]")
    page.keyboard.press("ArrowRight")
    slabberjan_tests.give_up_if_asked(page)  # once a computer moved, a new speed asks first
    assert focused(page) == "hard"
    page.wait_for_selector(".speed [data-level=hard][aria-checked=true]")
    page.keyboard.press("ArrowLeft")
    slabberjan_tests.give_up_if_asked(page)
    page.keyboard.press("ArrowLeft")
    slabberjan_tests.give_up_if_asked(page)
    assert focused(page) == "easy"
    page.wait_for_selector(".speed [data-level=easy][aria-checked=true]")
    page.keyboard.press("End")
    slabberjan_tests.give_up_if_asked(page)
    page.wait_for_selector(".speed [data-level=expert][aria-checked=true]")
    # a menu: opened from its button with the arrow key, moved in, closed with Escape
    page.focus("#chips-button")
    page.keyboard.press("ArrowDown")
    page.wait_for_selector("#chips-menu", state="visible")
    assert focused(page) == "3"  # the current choice
    page.keyboard.press("ArrowDown")
    assert focused(page) == "5"
    page.keyboard.press("Home")
    assert focused(page) == "1"
    page.keyboard.press("Escape")
    page.wait_for_selector("#chips-menu", state="hidden")
    assert focused(page) == "chips-button"
    # the grid of player counts: down goes a row (four) down
    page.focus("#players-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#players-menu", state="visible")
    assert focused(page) == "5"  # the default, 5 players
    page.keyboard.press("ArrowDown")  # 2 3 4 5 / 6 8 10 12 / 16 20 30 42
    assert focused(page) == "12"
    page.keyboard.press("ArrowRight")
    assert focused(page) == "16"
    page.keyboard.press("Enter")
    slabberjan_tests.give_up_if_asked(page)
    page.wait_for_function("() => document.querySelectorAll('.sj-seat').length === 16")
    assert focused(page) == "players-button"


# -- what a screen reader hears -----------------------------------------------------------------

def spoken(page: Any) -> str:
    said: str = page.evaluate(
        "() => [...document.querySelectorAll('#spoken p')].map((p) => p.textContent).join(' | ')")
    return said


def test_a_screen_reader_hears_the_flips_slaps_takes_and_the_end(page: Any, site: str) -> None:
    page.goto(site + "/slapjack")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    region = page.locator("#spoken")
    assert region.get_attribute("aria-live") == "polite" and region.get_attribute("role") == "log"
    assert page.evaluate("() => document.getElementById('bar').getAttribute('aria-live')") is None
    heard: list[str] = []

    def slap() -> None:
        heard.append(spoken(page))
        page.keyboard.press(" ")

    slapjack_tests.play(page, lambda: page.keyboard.press("f"), slap)
    page.wait_for_function("() => document.getElementById('spoken').textContent"
                           ".includes('You won the game!')")
    said = " | ".join(heard) + " | " + spoken(page)
    assert re.search(r"You flip the \w+ of \w+\.", said), said
    assert re.search(r"Computer 1 flips the \w+ of \w+\.", said), said
    assert "Jack! Slap it!" in said and "You were first and took" in said, said
