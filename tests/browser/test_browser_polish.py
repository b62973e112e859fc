"""The defects a new user found, each with the test that would have caught it: words meant
for developers reaching people (a refusal naming "seat 0", a bad setting's reason, "seat 0"
in the rules pages), a slap at a Jack someone already took, and the layouts that cut off
what must be seen (a phone held sideways, 42 seats on a laptop, bubbles off the screen or
over the counters, the bottom panel over the seats); keyboard hints on touch screens and a
tap's focus rectangle; the big tile after New game.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import test_browser as slapjack_tests
import test_browser_slabberjan as slabberjan_tests
import test_browser_splunk as splunk_tests
from axe import serious
from conftest import running

from parlour.bots import make_player
from parlour.games.slabberjan import SPEC as SLABBERJAN
from parlour.live import Lobby, codes
from parlour.web import create_app

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def slow_site() -> Iterator[str]:
    """Slapjack's computers never flip in a test's time, but slap a Jack 0.3 s after it
    shows; the other games have their real computer players."""
    def watchers(game: str, level: str, seat: int, *, seed: int | None = None) -> Any:
        if game != "slapjack":
            return make_player(game, level, seat, seed=seed)
        return slapjack_tests.Watcher(seat, seed=seed)

    with running(create_app(lobby=Lobby(players=watchers, tables_per_address=None))) as url:
        yield url


def text(page: Any, selector: str) -> str:
    value: str = page.locator(selector).first.text_content() or ""
    return " ".join(value.split())


SEEN_AND_HEARD = """() => [...document.querySelectorAll('#news, #bar, #log, #error, #spoken')]
    .map((n) => n.textContent).join(' | ')"""

#: What the server says to a developer: never shown to a person.
INTERNAL = re.compile(r"\bseat \d|cannot \w+:|played here by|'\w+'", re.I)


def relayed(page: Any) -> list[Any]:
    """The page's socket, relayed to the real server; the test may slip in frames of its own
    (``routes[0].send(...)``)."""
    routes: list[Any] = []

    def handler(ws: Any) -> None:
        ws.connect_to_server()
        routes.append(ws)

    page.route_web_socket("**/ws", handler)
    return routes


@pytest.mark.parametrize("game", ["slabberjan", "slapjack", "splunk"])
def test_a_refused_move_is_told_in_words_for_people(page: Any, slow_site: str,
                                                    game: str) -> None:
    routes = relayed(page)
    page.goto(f"{slow_site}/{game}")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    # a move lost a race, and a setting was refused: the server's reasons name the seat by
    # its number and the game by its code
    routes[0].send(json.dumps({"type": "error", "code": "refused", "about": "action",
                               "reason": "seat 0 cannot slap: the game is over"}))
    routes[0].send(json.dumps({"type": "error", "code": "bad_request", "about": "start",
                               "reason": f"{game} is played here by 2 to 4 players, not 9"}))
    # and a code whose sentence the page has only from the server's list (parlour.live.codes)
    routes[0].send(json.dumps({"type": "error", "code": "rate_limited",
                               "reason": "at most 20 messages a second from seat 0"}))
    page.wait_for_function("() => document.getElementById('spoken')"
                           " && document.getElementById('spoken').textContent.includes('Easy')")
    said = page.evaluate(SEEN_AND_HEARD)
    assert not INTERNAL.search(said), said
    assert codes.BY_CODE["bad_request"].said("start") in said
    assert codes.BY_CODE["rate_limited"].said() in said
    assert "Too late: the table moved on before your move arrived." in said


def test_a_table_that_cannot_be_created_says_why_in_words_for_people(
        page: Any, slow_site: str) -> None:
    def answer(ws: Any) -> None:
        ws.on_message(lambda message: ws.send(json.dumps({
            "type": "error", "code": "bad_request", "about": "create",
            "reason": "slapjack is played here by 2 to 4 players, not 9"})))

    page.route_web_socket("**/ws", answer)
    page.goto(slow_site + "/table?game=slapjack")
    page.wait_for_selector("#game option[value=slapjack]", state="attached")
    page.fill("#create-name", "Ann")
    page.click("#create-form button[type=submit]")
    page.wait_for_function("() => document.getElementById('error').textContent !== ''")
    shown = text(page, "#error")
    assert not INTERNAL.search(shown), shown
    assert shown.startswith("A table cannot be created with these settings")


@pytest.mark.parametrize("game", ["slabberjan", "slapjack", "splunk"])
def test_the_rules_pages_speak_of_players_not_seat_numbers(slow_site: str, game: str) -> None:
    page = httpx.get(f"{slow_site}/rules/{game}").text
    body = re.sub(r"<[^>]+>", " ", page)
    assert not re.search(r"\bseat \d|`|\bstacks? 0\b", body, re.I), game


def test_slapping_a_jack_someone_already_took_says_it_was_too_late(
        page: Any, slow_site: str) -> None:
    page.goto(f"{slow_site}/slapjack?seed={slapjack_tests.seed_where((True,))}")
    page.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    page.keyboard.press("f")  # a Jack: the computer slaps it 0.3 s later
    page.wait_for_selector("#pile-badge:not([hidden])")
    assert text(page, "#pile-badge") == "Computer 1 slapped the Jack!"
    page.keyboard.press(" ")
    page.wait_for_function("() => document.getElementById('news').textContent.startsWith('Too')")
    assert text(page, "#news") == "Too late: Computer 1 took that Jack first."


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


#: A seed for each game whose deal has us (seat 0 of the default table) move first.
FIRST = {"slapjack": lambda: 1, "splunk": lambda: splunk_tests.seed_for(None, 0),
         "slabberjan": lambda: slabberjan_tests.seed_for(5, 4)}


@pytest.mark.parametrize("game", ["slapjack", "splunk", "slabberjan"])
def test_a_touch_screen_shows_no_keyboard_hints(browser: Any, slow_site: str,
                                                game: str) -> None:
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"{slow_site}/{game}?seed={FIRST[game]()}")  # a deal where we move first
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        page.wait_for_function(
            "() => document.getElementById('bar').textContent.startsWith('Your')")
        shown = page.evaluate("""() => [...document.querySelectorAll(
            '.table-area kbd, .key-note')].filter((n) => n.offsetParent !== null)
            .map((n) => n.textContent)""")
        assert shown == []
        hint = text(page, "#bar .hint")
        assert not re.search(r"\bSpace\b|\bor [A-Z]\b|\(\w\)|press|Enter|1 to 4", hint), hint
    finally:
        context.close()


def test_a_keyboard_shows_its_hints(page: Any, slow_site: str) -> None:
    page.goto(f"{slow_site}/slapjack")
    page.wait_for_function("() => document.getElementById('bar').textContent.startsWith('Your')")
    assert page.is_visible("#slap kbd") and page.is_visible(".key-note")
    assert "Space always slaps" in text(page, ".key-note")
    assert text(page, "#bar .hint") == "Tap your deck, Flip or F"


def test_a_tap_on_the_pile_draws_no_focus_rectangle(browser: Any, slow_site: str) -> None:
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"{slow_site}/slapjack")
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        page.tap("#pile")
        ring = page.evaluate("""() => {
            const pile = document.getElementById("pile");
            const s = getComputedStyle(pile);
            return {visible: pile.matches(":focus-visible"), outline: s.outlineStyle,
                    tap: s.webkitTapHighlightColor};
        }""")
        assert not ring["visible"] and ring["outline"] == "none", ring
        assert ring["tap"] == "rgba(0, 0, 0, 0)", ring
    finally:
        context.close()


def test_less_motion_when_asked(browser: Any, slow_site: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(f"{slow_site}/slapjack?seed={slapjack_tests.seed_where((True,))}")
        page.wait_for_function(
            "() => document.getElementById('bar').textContent.startsWith('Your turn')")
        page.keyboard.press("f")  # a Jack: the card would fly in, the pile glow and shake
        page.wait_for_function("() => document.getElementById('pile').classList.contains('jack')")
        moving = page.evaluate("""() => document.getAnimations()
            .filter((a) => a.playState === "running")
            .map((a) => [a.animationName || "script", a.effect.getComputedTiming().duration,
                         a.effect.getComputedTiming().iterations])
            .filter(([, duration, times]) => duration > 20 || times > 1)""")
        assert moving == []
    finally:
        context.close()


def give_up(page: Any) -> None:
    """Says yes to giving up the game in play, which a new deal asks once we have moved."""
    page.wait_for_selector("dialog.ask[open]")
    page.click("dialog.ask button[value=yes]")


def jack_shown(page: Any) -> dict[str, Any]:
    shown: dict[str, Any] = page.evaluate("""() => ({
        bar: document.getElementById("bar").textContent,
        glow: document.getElementById("pile").classList.contains("jack"),
        hot: document.getElementById("slap").classList.contains("hot"),
        news: document.getElementById("news").textContent,
    })""")
    return shown


def test_slap_hints_can_be_turned_off_and_are_off_at_expert(page: Any, slow_site: str) -> None:
    seed = slapjack_tests.seed_where((True,))
    page.goto(f"{slow_site}/slapjack?seed={seed}")
    page.wait_for_function("() => document.getElementById('bar').textContent.startsWith('Your')")
    assert text(page, "#hints") == "Slap hints: on"
    page.click("#hints")
    assert text(page, "#hints") == "Slap hints: off"
    page.keyboard.press("f")  # a Jack, and no word of it but the card itself
    page.wait_for_function("() => document.getElementById('pile').dataset.flips === '1'")
    now = jack_shown(page)
    assert not now["glow"] and not now["hot"], now
    assert "Slap it" not in now["bar"] and "A Jack" not in now["news"], now
    page.wait_for_selector("#pile-badge:not([hidden])")  # the computer took it
    page.click("#hints")  # on again, kept on this device
    page.click("#new-game")
    give_up(page)
    page.wait_for_function("() => document.getElementById('bar').textContent.startsWith('Your')")
    page.keyboard.press("f")
    page.wait_for_function("() => document.getElementById('pile').classList.contains('jack')")
    assert jack_shown(page)["bar"].startswith("Jack! Slap it!")
    # Expert: marked as beyond the rules page, and no hints whatever the switch says
    expert = page.locator(".speed [data-level=expert]")
    assert " ".join(expert.inner_text().split()) == "Expert · beyond the rules"
    page.click(".speed [data-level=expert]")
    give_up(page)
    page.wait_for_function("() => document.getElementById('bar').textContent.startsWith('Your')")
    assert text(page, "#speed-about").startswith("Beyond the rules page")
    assert text(page, "#hints") == "Slap hints: off"
    assert page.get_attribute("#hints", "aria-disabled") == "true"
    page.click("#hints", force=True)  # a click does nothing
    assert text(page, "#hints") == "Slap hints: off"
    page.keyboard.press("f")
    page.wait_for_function("() => document.getElementById('pile').dataset.flips === '1'")
    now = jack_shown(page)
    assert not now["glow"] and "Slap it" not in now["bar"] and "A Jack" not in now["news"], now
    assert text(page, "#wins-where") == "Expert, 2 players"
    page.click(".speed [data-level=normal]")
    give_up(page)
    page.wait_for_function("() => document.getElementById('bar').textContent.startsWith('Your')")
    assert text(page, "#hints") == "Slap hints: on"
    from parlour.games.slapjack import SPEC
    assert text(page, "#speed-about") == SPEC.level_about["normal"]  # Slapjack's own words


# -- Slabberjan ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sj_site() -> Iterator[str]:
    """Slabberjan with the quick real computer players and stacked deals of its own tests."""
    pacing = {"slabberjan": dataclasses.replace(
        SLABBERJAN.pacing, pause={"easy": 0.05, "normal": 0.05, "hard": 0.05, "expert": 0.05})}
    lobby = Lobby(players=slabberjan_tests.quick_players, pacing=pacing,
                  decks=slabberjan_tests.stacked, tables_per_address=None)
    with running(create_app(lobby=lobby)) as url:
        yield url


def test_the_big_tile_shows_the_piece_after_a_new_game_deals_the_same_piece(
        page: Any, sj_site: str) -> None:
    # the game ends with us holding an inn; the next deals us an inn again
    slabberjan_tests.play_two_player_game(
        page, sj_site, lambda: page.click("#swap"), lambda: page.click("#stand"),
        lambda: page.click("#draw"))
    assert page.locator("#my-piece [data-piece=inn]").count() == 1
    slabberjan_tests.STACKS[2] = [slabberjan_tests.deck("3", "inn")]
    page.click("#new-game")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    assert text(page, "#my-what").startswith("Your piece: an inn")
    assert page.locator("#my-piece [data-piece=inn]").count() == 1
    # and once more, before any move: the same piece again
    page.evaluate("() => { document.getElementById('log').firstElementChild.dataset.old = '1'; }")
    page.click("#new-game")
    slabberjan_tests.give_up_if_asked(page)
    page.wait_for_function("() => !document.querySelector('#log [data-old]')"
                           " && document.body.dataset.state === 'playing'")
    assert text(page, "#my-what").startswith("Your piece: an inn")
    assert page.locator("#my-piece [data-piece=inn]").count() == 1


# -- layouts that cut off what must be seen -------------------------------------------------------

IN_VIEW = """(selectors) => selectors.map((s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return [s, r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight];
}).filter(([, ok]) => !ok).map(([s]) => s)"""


def test_slapjack_on_a_phone_held_sideways_shows_the_pile_flip_and_slap(
        browser: Any, slow_site: str) -> None:
    context = browser.new_context(**{**PHONE, "viewport": {"width": 844, "height": 390}})
    try:
        page = context.new_page()
        page.goto(slow_site + "/slapjack")
        page.wait_for_function(
            "() => document.getElementById('bar').textContent.startsWith('Your')")
        assert page.evaluate(IN_VIEW, ["#pile", "#flip", "#slap", "#bar", "#my-deck"]) == []
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 844
    finally:
        context.close()


def deal_42(page: Any, site: str) -> None:
    """A Slabberjan table of 42 seats, dealt and in play."""
    page.goto(site + "/slabberjan")
    page.click("#players-button")
    page.click("[data-players='42']")
    slabberjan_tests.give_up_if_asked(page)
    page.wait_for_function("() => document.querySelectorAll('.sj-seat').length === 42")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")


def test_slabberjan_with_42_seats_on_a_laptop_keeps_swap_stand_and_draw_in_sight(
        browser: Any, sj_site: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        deal_42(page, sj_site)
        page.wait_for_timeout(200)
        assert page.evaluate(IN_VIEW, ["#swap", "#stand", "#draw", "#bar", "#pot", "#bag"]) == []
        clipped = page.evaluate("""() => [...document.querySelectorAll('.sj-name')]
            .filter((n) => n.scrollWidth > n.clientWidth).map((n) => n.textContent)""")
        assert clipped == []
        assert not page.evaluate("() => document.getElementById('ring').classList.contains('grid')")
    finally:
        context.close()


def test_slabberjan_with_42_seats_on_a_phone_never_hides_a_row_under_the_panel(
        browser: Any, sj_site: str) -> None:
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        deal_42(page, sj_site)
        # the panel is opaque: no row shows through it
        colour = page.evaluate("() => getComputedStyle(document.querySelector('.sj-dock'))"
                               ".backgroundColor")
        assert colour.startswith("rgb("), colour
        assert page.evaluate(IN_VIEW, ["#swap", "#stand", "#draw"]) == []
        # scrolled to the end, every row is above the panel
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_timeout(100)
        under = page.evaluate("""() => {
            const dock = document.querySelector('.sj-dock').getBoundingClientRect();
            return [...document.querySelectorAll('.sj-seat')]
                .filter((s) => s.getBoundingClientRect().bottom > dock.top + 0.5)
                .map((s) => s.dataset.seat);
        }""")
        assert under == []
    finally:
        context.close()


@pytest.mark.parametrize("size", [PHONE, {"viewport": {"width": 1280, "height": 800}}])
def test_a_bubble_stays_on_the_screen_and_off_the_pot_and_the_bag(
        browser: Any, sj_site: str, size: dict[str, Any]) -> None:
    # three players, seat 2 deals: our 5 must try seat 1, whose cat says "meow"
    slabberjan_tests.STACKS[3] = [slabberjan_tests.deck("5", "cat", "7")]
    context = browser.new_context(**size)
    try:
        page = context.new_page()
        page.goto(f"{sj_site}/slabberjan?seed={slabberjan_tests.seed_for(3, 2)}")
        page.click("#players-button")
        page.click("[data-players='3']")
        slabberjan_tests.give_up_if_asked(page)
        slabberjan_tests.wait_bar(page, "Your turn: swap with Computer 1")
        page.click("#swap")
        found = page.wait_for_function("""() => {
            const b = document.querySelector('.sj-bubble');
            if (!b) return null;
            const r = b.getBoundingClientRect();
            const meets = (k) => r.left < k.right && k.left < r.right && r.top < k.bottom
                && k.top < r.bottom;
            const counters = [...document.querySelectorAll('.sj-pot, .sj-bag')]
                .map((n) => n.getBoundingClientRect());
            return {left: r.left, right: r.right, width: document.documentElement.clientWidth,
                    top: r.top + scrollY, covers: counters.some(meets)};
        }""").json_value()
        assert found["left"] >= 0 and found["right"] <= found["width"], found
        assert found["top"] >= 0 and not found["covers"], found
    finally:
        context.close()


# -- sound ---------------------------------------------------------------------------------------

def test_sounds_wait_for_the_first_key_and_a_mute_is_remembered(page: Any, slow_site: str) -> None:
    seed = slapjack_tests.seed_where((True,))
    page.goto(f"{slow_site}/slapjack?seed={seed}")
    page.wait_for_function("() => document.getElementById('bar').textContent.startsWith('Your')")
    state = "() => [document.body.dataset.audio || null, document.body.dataset.sound || null]"
    assert page.evaluate(state) == [None, None]  # nothing made before the person acts
    assert text(page, "#sound") == "Sound: on"
    page.keyboard.press("f")  # a Jack: flipped, then slapped by the computer
    page.wait_for_function("() => document.body.dataset.sound === 'slap'")
    assert page.evaluate(state)[0] == "ready"
    page.click("#sound")
    assert text(page, "#sound") == "Sound: off"
    assert page.get_attribute("#sound", "aria-checked") == "false"
    page.reload()
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    assert text(page, "#sound") == "Sound: off"  # remembered on this device
    page.click("#new-game")
    give_up(page)
    page.wait_for_function("() => document.getElementById('bar').textContent.startsWith('Your')")
    page.keyboard.press("f")
    page.wait_for_selector("#pile-badge:not([hidden])")  # flipped and slapped, in silence
    page.wait_for_timeout(200)
    assert page.evaluate(state) == ["ready", None]  # muted: nothing played


# -- a first game teaches -------------------------------------------------------------------------

#: A browser driven by automation is not toured; this one says it is a person.
PERSON = "Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false });"


@pytest.mark.parametrize("game", ["slapjack", "splunk", "slabberjan"])
def test_a_first_game_is_toured_once_skippably_and_the_tour_comes_back(
        browser: Any, slow_site: str, game: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.add_init_script(PERSON)
        page.goto(f"{slow_site}/{game}")
        page.wait_for_selector("dialog.guide[open]")
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        assert re.fullmatch(r"1 of [45]", text(page, ".guide-count"))
        assert page.locator(".guide-lit").count() == 1
        assert serious(page) == []
        assert page.evaluate("() => document.activeElement.textContent") == "Next"
        page.keyboard.press("Enter")  # the next step points at something else
        assert text(page, ".guide-count").startswith("2 of")
        if game == "slapjack":
            assert page.evaluate("() => document.querySelector('.guide-lit').id") == "my-deck"
            page.keyboard.press("f")  # the game's keys rest while the tour is open
            page.wait_for_timeout(200)
            assert page.get_attribute("#pile", "data-flips") == "0"
        # nothing had the focus before the tour: it goes to the game's buttons, not to the
        # document, where a screen reader read the whole page (docs/accessibility.md). Read
        # in the page the moment the tour closes (a listener after the tour's own): a
        # computer's move a moment later may disable the button the focus went to
        page.evaluate("""() => document.querySelector('dialog.guide').addEventListener(
            'keydown', (e) => {
                if (e.key !== 'Escape') return;
                const game = '.actions button:not(:disabled), .sj-act:not(:disabled)';
                window.focusOnClose = [document.activeElement.matches(game),
                                       !!document.querySelector(game)];
            })""")
        page.keyboard.press("Escape")
        assert page.is_hidden("dialog.guide")
        assert page.locator(".guide-lit").count() == 0
        on_button, any_open = page.evaluate("() => window.focusOnClose")
        assert on_button or not any_open
        page.reload()
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        page.wait_for_timeout(300)
        assert page.is_hidden("dialog.guide")  # once is enough
        page.click("#guide-again")
        page.wait_for_selector("dialog.guide[open]")
        assert text(page, ".guide-count").startswith("1 of")
        page.click("dialog.guide >> text=Skip the tour")
        assert page.is_hidden("dialog.guide")
    finally:
        context.close()


def test_a_double_press_of_flip_is_one_flip_and_no_alarm(page: Any, slow_site: str) -> None:
    page.goto(f"{slow_site}/slapjack?seed={slapjack_tests.seed_where((False,))}")
    page.wait_for_function("() => document.getElementById('bar').textContent.startsWith('Your')")
    page.keyboard.press("f")
    page.keyboard.press("f")  # before the server answered: the same view, no second flip
    page.wait_for_function("() => document.getElementById('pile').dataset.flips === '1'")
    page.wait_for_timeout(400)
    # if the answer came first, the second press is told it is not our turn: never "too late"
    assert text(page, "#news") in ("", "It is Computer 1's turn to flip."), text(page, "#news")
    assert page.get_attribute("#pile", "data-flips") == "1"
