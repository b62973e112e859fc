"""Nothing is lost, in a real chromium (issue 11): a page whose server is killed and started
again on the same database and the same address reconnects by itself and plays its game to
the end; a page closed for two minutes, whose table the server put away meanwhile, offers
"Continue your game" and goes on with one press; a refused token is said plainly; a game
in play is given up only after a question answered; the game over links its replay, goes
into "Your games" on the home page and into the statistics; the replay page steps through
the game with the keyboard and the slider; a rematch at a friends' table keeps the seats.

The servers deal stacked Slapjack decks that end soon (``conftest.quick_deck``) and stand-in
computer players that flip quickly and never slap, so a person who slaps every Jack wins in
about fifty flips.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from axe import serious
from conftest import FAST_PACING, TESTS, free_port, quick_decks, quick_players, running

from parlour.games import game_class
from parlour.games.slabberjan import MATADORS
from parlour.live import Lobby
from parlour.store import StoredSeat, StoredTable, open_store
from parlour.web import create_app

pytestmark = pytest.mark.browser

HERE = TESTS

# Recorded in the page before any of its own scripts run: what the policy blocked.
WATCH_CSP = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`);
});
"""
BAR = "document.getElementById('bar').textContent"
FLIPS = "document.getElementById('pile').dataset.flips"
WHERE = "document.getElementById('step-where').textContent"


@contextmanager
def server_process(db: str, port: int, **env: str) -> Iterator[subprocess.Popen[str]]:
    """``tests/fast_server.py`` on ``db`` at 127.0.0.1:``port`` (a real process: the test
    kills it with SIGKILL)."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path),
                   "PARLOUR_TEST_PORT": str(port), **env}
    proc = subprocess.Popen([sys.executable, str(HERE / "fast_server.py"), db],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=environment)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip().rstrip("/")
        if url != f"http://127.0.0.1:{port}":
            proc.kill()
            raise AssertionError(proc.stderr.read() if proc.stderr else url)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


def flips(page: Any) -> int:
    return int(page.get_attribute("#pile", "data-flips") or 0)


def play(page: Any, *, moves: int | None = None, max_moves: int = 400) -> None:
    """Plays seat 0 of Slapjack with the keyboard: flips on its turn, slaps every Jack; to
    the end, or ``moves`` moves."""
    done = 0
    for _ in range(max_moves):
        state, bar, pile = page.evaluate(
            f"() => [document.body.dataset.state, {BAR}, {FLIPS}]")
        if state != "playing" or (moves is not None and done >= moves):
            return
        if bar.startswith("Jack! Slap it!"):
            page.keyboard.press(" ")
            done += 1
        elif bar.startswith("Your turn: flip a card"):
            page.keyboard.press("f")
            done += 1
        page.wait_for_function(
            f"([bar, flips]) => {BAR} !== bar || {FLIPS} !== flips",
            arg=[bar, pile], timeout=5000)
    if moves is None:
        raise AssertionError("the game did not end")


def token(page: Any) -> str | None:
    value: str | None = page.evaluate("() => sessionStorage.getItem('parlour.slapjack.token')")
    return value


def test_a_page_reconnects_by_itself_after_the_server_is_killed_and_started_again(
        page: Any, tmp_path: Path) -> None:
    db, port = str(tmp_path / "parlour.db"), free_port()
    url = f"http://127.0.0.1:{port}"
    with server_process(db, port) as first:
        page.goto(url + "/slapjack")
        page.wait_for_function(f"() => {BAR}.startsWith('Your turn')")
        play(page, moves=6)
        page.wait_for_function(f"() => {BAR}.startsWith('Your turn') || {BAR}.startsWith('Jack')")
        seen, mine = flips(page), token(page)
        assert seen > 0 and mine
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        page.wait_for_function(f"() => {BAR}.startsWith('Reconnecting')")
        # a screen reader hears it: the page's one live region says it (lib/speak.js)
        assert "Reconnecting" in (page.text_content("#spoken") or "")
        assert page.evaluate("() => document.body.classList.contains('offline')")
        page.wait_for_timeout(1500)  # a few tries fail meanwhile: the page keeps trying
        assert (page.text_content("#bar") or "").startswith("Reconnecting")
        assert page.evaluate("() => document.getElementById('flip').closest('[inert]') !== null")
        assert serious(page) == []  # the page while it reconnects (its controls inert)
    with server_process(db, port):
        # the same seat of the same game, where it was: nothing anybody saw is lost
        page.wait_for_function(f"() => {BAR}.startsWith('Your turn')", timeout=15000)
        assert not page.evaluate("() => document.body.classList.contains('offline')")
        assert page.evaluate("() => document.getElementById('flip').closest('[inert]') === null")
        assert token(page) == mine
        assert flips(page) == seen
        play(page)
        assert (page.text_content("#bar") or "").startswith("You won!")


def test_a_socket_closed_with_1012_comes_back_at_once(page: Any, quick_site: str) -> None:
    """1012: the table moved to another node. The page opens a new socket at once (no pause)
    and resumes its seat."""
    sockets: list[Any] = []
    opened: list[float] = []

    def through(ws: Any) -> None:  # every socket goes on to the real server
        opened.append(time.monotonic())
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket("**/ws", through)
    page.goto(quick_site + "/slapjack")
    page.wait_for_function(f"() => {BAR}.startsWith('Your turn')")
    play(page, moves=4)
    page.wait_for_function(f"() => {BAR}.startsWith('Your turn') || {BAR}.startsWith('Jack')")
    seen, mine = flips(page), token(page)
    closed = time.monotonic()
    sockets[-1].close(code=1012, reason="the table moved")
    page.wait_for_function("() => document.body.dataset.state === 'playing'"
                           " && !document.body.classList.contains('offline')")
    page.wait_for_function(f"() => {BAR}.startsWith('Your turn') || {BAR}.startsWith('Jack')")
    assert len(sockets) == 2
    assert opened[1] - closed < 0.15  # at once: not after the first pause (125 to 250 ms)
    assert token(page) == mine and flips(page) == seen
    play(page)
    assert (page.text_content("#bar") or "").startswith("You won!")


@pytest.fixture
def put_away_site(tmp_path: Path) -> Iterator[tuple[str, Lobby]]:
    """A server whose tables go out of memory 0.5 s after nobody is at them (into the store,
    a SQLite file)."""
    lobby = Lobby(store=open_store(tmp_path / "parlour.db"), players=quick_players,
                  pacing=FAST_PACING, decks=quick_decks, grace=0.5)
    with running(create_app(lobby=lobby)) as url:
        yield url, lobby


def start_slapjack(page: Any, url: str, *, moves: int) -> int:
    """Starts a Slapjack game against the computer and plays ``moves``; the cards flipped
    so far, once the game waits for the person again."""
    page.goto(url + "/slapjack")
    page.wait_for_function(f"() => {BAR}.startsWith('Your turn')")
    play(page, moves=moves)
    page.wait_for_function(f"() => {BAR}.startsWith('Your turn') || {BAR}.startsWith('Jack')")
    return flips(page)


def test_a_page_closed_for_two_minutes_comes_back_to_its_game(
        browser: Any, put_away_site: tuple[str, Lobby]) -> None:
    url, lobby = put_away_site
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        seen = start_slapjack(page, url, moves=6)
        tables = lobby.table_ids()
        assert len(tables) == 1
        page.close()  # the tab is closed: its sessionStorage goes with it
        page = context.new_page()
        page.wait_for_timeout(1500)
        assert lobby.table_ids() == []  # put away: out of memory, in the store
        # two minutes later on this device's clock
        page.clock.install()
        page.clock.fast_forward("02:00")
        page.goto(url + "/slapjack")
        page.wait_for_selector("#continue-game")
        offer = " ".join((page.text_content(".notice.offer") or "").split())
        assert "Your game of Slapjack (2 players, Normal) is waiting" in offer, offer
        assert page.evaluate("() => document.activeElement.id") == "continue-game"
        assert serious(page) == []  # the offer to continue
        assert lobby.table_ids() == []  # nothing is dealt before the person chooses
        page.keyboard.press("Enter")  # one press
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        assert lobby.table_ids() == tables
        assert flips(page) == seen
        assert page.is_hidden(".notice.offer")
        play(page)
        assert (page.text_content("#bar") or "").startswith("You won!")
        # over: nothing is offered any more in another tab
        page.close()
        page = context.new_page()
        page.goto(url + "/slapjack")
        page.wait_for_function(f"() => {BAR}.startsWith('Your turn')")
        assert page.is_hidden(".notice.offer")
    finally:
        context.close()


def test_the_home_page_continues_a_game_in_play_with_one_press(
        browser: Any, put_away_site: tuple[str, Lobby]) -> None:
    url, _ = put_away_site
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    try:
        page = context.new_page()
        seen = start_slapjack(page, url, moves=3)
        page.close()
        page = context.new_page()
        page.goto(url + "/")
        page.wait_for_selector("#mine:not([hidden])")
        item = " ".join((page.text_content(".my-games li.playing") or "").split())
        assert item == "Slapjack (2 players, Normal) last played just now Continue", item
        assert serious(page) == []  # the home page with Your games
        page.click(".my-games li.playing a")
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        assert page.is_hidden(".notice.offer")  # no second question
        assert flips(page) == seen
        assert "resume" not in page.url  # a reload comes back through this tab's token
    finally:
        context.close()


def test_a_refused_token_is_forgotten_and_said_plainly(
        page: Any, put_away_site: tuple[str, Lobby]) -> None:
    url, _ = put_away_site
    page.goto(url + "/slapjack")
    page.wait_for_function(f"() => {BAR}.startsWith('Your turn')")
    page.evaluate("""() => {
        const seats = JSON.parse(localStorage.getItem('parlour.seats'));
        for (const s of Object.values(seats)) s.token = 'not-a-token-anyone-gave';
        localStorage.setItem('parlour.seats', JSON.stringify(seats));
        sessionStorage.clear();
    }""")
    page.reload()
    page.click("#continue-game")
    page.wait_for_selector(".notice.offer.bad")
    said = page.text_content(".notice.offer") or ""
    assert "could not be continued" in said
    page.wait_for_function(f"() => {BAR}.startsWith('Your turn')")  # a new game meanwhile
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('parlour.seats'))")
    assert "not-a-token-anyone-gave" not in str(stored)


@pytest.fixture(scope="module")
def quick_site() -> Iterator[str]:
    lobby = Lobby(players=quick_players, pacing=FAST_PACING, decks=quick_decks)
    with running(create_app(lobby=lobby)) as url:
        yield url


def test_a_game_in_play_is_given_up_only_when_the_person_says_so(
        page: Any, quick_site: str) -> None:
    page.goto(quick_site + "/slapjack?seed=7")
    page.wait_for_function(f"() => {BAR}.startsWith('Your turn')")
    assert page.is_visible(".chosen-deal")  # a deal asked for by its number
    assert page.text_content(".chosen-deal") == "A chosen deal"
    # before our first move nothing is lost: a new speed deals at once
    page.click("[data-level=hard]")
    page.wait_for_function(f"() => {BAR}.startsWith('Your turn')")
    assert page.is_hidden("dialog.ask")
    play(page, moves=3)
    page.wait_for_function(f"() => {BAR}.startsWith('Your turn') || {BAR}.startsWith('Jack')")
    seen = flips(page)
    page.click("#new-game")
    dialog = page.locator("dialog.ask")
    dialog.wait_for()
    assert dialog.get_attribute("aria-labelledby") == "ask-title"
    assert " ".join((dialog.text_content() or "").split()).startswith("Give up this game?")
    assert page.evaluate("() => document.activeElement.textContent") == "Keep playing"
    page.keyboard.press("f")  # the game's keys wait while the question is open
    page.keyboard.press("Enter")  # the safe answer
    assert dialog.is_hidden()
    assert flips(page) == seen
    assert page.evaluate("() => document.activeElement.id") == "new-game"  # focus back
    # the speed: asked again, and "Give it up" deals at Easy
    page.click("[data-level=easy]")
    dialog.wait_for()
    assert "at Easy" in (dialog.text_content() or "")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Give it up"
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => {BAR}.startsWith('Your turn') && {FLIPS} === '0'")
    assert page.get_attribute("[data-level=easy]", "aria-checked") == "true"
    # the player count too
    play(page, moves=1)
    page.click("#players-button")
    page.click("[data-players='3']")
    dialog.wait_for()
    page.click("dialog.ask button[value=no]")
    assert page.text_content("#players-button") == "2 players"


def test_a_finished_game_is_in_your_games_with_its_replay_and_the_statistics(
        browser: Any, quick_site: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    context.add_init_script(WATCH_CSP)
    problems: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda m: m.type == "error" and problems.append(m.text))
        page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
        page.goto(quick_site + "/")
        page.wait_for_load_state("networkidle")  # Your games is drawn after a fetch
        assert page.is_hidden("#mine")  # nothing played on this device yet
        # an earlier record on this device: 3 played, 2 won, the last one lost
        page.evaluate("""() => localStorage.setItem('parlour.slapjack.stats',
            JSON.stringify({played: 3, won: 2, streak: 0, best: 2}))""")
        page.goto(quick_site + "/slapjack")
        page.wait_for_function(f"() => {BAR}.startsWith('Your turn')")
        assert page.text_content("#stats") == "3 played · 67% won · streak 0 · best 2"
        play(page)
        assert (page.text_content("#bar") or "").startswith("You won!")
        assert page.text_content("#stats") == "4 played · 75% won · streak 1 · best 2"
        replay = page.get_attribute("#replay-link", "href") or ""
        assert replay.startswith("/games/")
        table = replay.removeprefix("/games/")

        page.goto(quick_site + "/")
        page.wait_for_selector("#mine:not([hidden])")
        item = " ".join((page.text_content(".my-games li.won") or "").split())
        assert item.startswith("Won Slapjack against Computer 1 · 2 players, Normal just now"), item
        assert "4 played · 75% won · streak 1 · best 2" in (page.text_content(".my-stats") or "")
        page.click(".my-games li.won a")
        page.wait_for_url(f"**/games/{table}")
        page.wait_for_selector("#replay-controls:not([hidden])")
        last = int(page.get_attribute("#step-slider", "max") or 0)
        assert last > 50
        where = lambda: page.text_content("#step-where")  # noqa: E731
        assert where() == f"0 of {last}"
        assert page.text_content("#story-title") == "The deal"
        assert page.locator(".opponents .seat").count() == 1  # ours is "You", at the bottom
        assert page.text_content("#replay-who") == ("Played by You, Computer 1 (computer). "
                                                    f"Won by You. {last} moves.")
        page.keyboard.press("ArrowRight")
        assert where() == f"1 of {last}"
        assert page.get_attribute("#pile", "data-flips") == "1"
        assert page.url.endswith("#step=1")
        page.keyboard.press("End")
        assert where() == f"{last} of {last}"
        assert page.is_visible("#revealed")  # the deal nobody saw, at the end
        assert page.locator("#revealed .replay-card").count() == 52
        assert "won the game" in (page.text_content("#story") or "")
        assert serious(page) == []  # the replay's end, everything revealed
        # the story is the one live region: nothing of it is read out a second time
        assert page.locator("#spoken p").count() == 0
        page.keyboard.press("Home")
        assert where() == f"0 of {last}" and page.is_hidden("#revealed")
        # a replay shows each Jack that could be slapped, even to a viewer who plays
        # without slap hints
        page.evaluate("() => localStorage.setItem('parlour.hints', 'false')")
        for _ in range(last):  # bounded: the game's steps
            if page.evaluate("() => document.getElementById('pile').classList.contains('jack')"):
                break
            page.keyboard.press("ArrowRight")
        assert page.evaluate("() => document.getElementById('pile').classList.contains('jack')")
        page.keyboard.press("Home")
        page.focus("#step-slider")  # the slider's own keys
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert where() == f"2 of {last}"
        page.eval_on_selector("#step-slider", """(e, n) => {
            e.value = String(n); e.dispatchEvent(new Event('input', {bubbles: true})); }""", 40)
        assert where() == f"40 of {last}"
        page.keyboard.press(" ")  # plays...
        assert page.text_content("#step-play") == "Pause"
        page.wait_for_function(f"() => {WHERE}.startsWith('42 ')")
        page.keyboard.press(" ")  # ...and pauses
        assert page.text_content("#step-play") == "Play"
        stopped = where()
        page.wait_for_timeout(1200)
        assert where() == stopped
        # a shared link opens at its step
        page.click("#share")
        page.wait_for_function("() => document.getElementById('share').textContent"
                               " === 'Link copied'")
        link = page.evaluate("() => navigator.clipboard.readText()")
        step = stopped.split()[0]
        assert link == f"{quick_site}/games/{table}#step={step}"
        problems.extend(page.evaluate("() => window.__violations"))
        assert problems == []  # under the server's own policy: nothing blocked, nothing thrown
        other = browser.new_page()
        other.goto(link)
        other.wait_for_function(f"() => {WHERE} === '{stopped}'")
        assert (other.text_content("#replay-who") or "").startswith("Played by Player 1,")
        other.close()
    finally:
        context.close()


def seat_names(page: Any) -> list[str]:
    names: list[str] = page.eval_on_selector_all("#seats li .who",
                                                 "nodes => nodes.map(n => n.textContent)")
    return names


def play_both(ann: Any, bob: Any) -> None:
    """Ann (seat 0) flips on her turn and slaps every Jack; Bob (seat 1) only flips."""
    for _ in range(600):
        states = [p.evaluate("() => document.body.dataset.state") for p in (ann, bob)]
        if "playing" not in states:
            return
        for who, p in (("ann", ann), ("bob", bob)):
            bar = p.text_content("#bar") or ""
            if bar.startswith("Jack! Slap it!") and who == "ann":
                p.keyboard.press(" ")
            elif bar.startswith("Your turn: flip a card"):
                p.keyboard.press("f")
        ann.wait_for_timeout(30)
    raise AssertionError("the game did not end")


def test_a_rematch_keeps_the_seats_and_a_finished_tables_link_shows_its_result(
        browser: Any, quick_site: str) -> None:
    url = quick_site
    people = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    try:
        ann, bob, cy = (c.new_page() for c in people)
        ann.goto(url + "/table?game=slapjack")
        ann.wait_for_selector("#game option[value=slapjack]", state="attached")
        ann.fill("#players", "3")
        ann.fill("#create-name", "Ann")
        ann.click("#create-form button[type=submit]")
        ann.wait_for_selector("#seats li.seat-me")
        old = ann.url.rsplit("/", 1)[1]
        for page, name in ((bob, "Bob"), (cy, "Cy")):
            page.goto(f"{url}/table/{old}")
            page.fill("#sit-name", name)
            page.click("#sit-form button[type=submit]")
            page.wait_for_selector("#seats li.seat-me")
        ann.wait_for_function("() => document.querySelectorAll('#seats .remove').length === 2")
        assert bob.locator("#seats .remove").count() == 0  # only the host removes
        # the host gives Cy's seat back, after a question
        ann.click("#seats li:nth-child(3) .remove")
        ann.wait_for_selector("dialog.ask[open]")
        assert "Give Cy's seat back to the table?" in (ann.text_content("dialog.ask") or "")
        assert serious(ann) == []  # the waiting room with its Remove buttons and question
        ann.click("dialog.ask button[value=yes]")
        cy.wait_for_function("() => !document.getElementById('sit-form').hidden")
        assert seat_names(cy) == ["Ann", "Bob", "Free seat"]
        assert cy.locator("#seats li.seat-me").count() == 0
        cy.context.close()

        ann.click("#begin")
        ann.wait_for_url("**/slapjack?token=*")
        bob.wait_for_url("**/slapjack?token=*")
        tokens = (ann.url.rsplit("=", 1)[1], bob.url.rsplit("=", 1)[1])
        ann.wait_for_function("() => document.body.dataset.state === 'playing'")
        play_both(ann, bob)
        assert (ann.text_content("#bar") or "").startswith("You won!")
        assert ann.is_visible("#rematch") and ann.text_content("#rematch") == "Rematch"
        assert serious(ann) == []  # a friends' game over, with its rematch
        assert ann.get_attribute("#replay-link", "href") == f"/games/{old}"

        # Bob comes back to the table's link: its result, its replay and the rematch
        bob.goto(f"{url}/table/{old}")
        bob.wait_for_function("() => document.getElementById('status').textContent"
                              ".startsWith('The game is over')")
        assert bob.text_content("#status") == "The game is over: Ann won."
        assert bob.get_attribute("#replay", "href") == f"/games/{old}"
        assert bob.is_visible("#rematch") and bob.text_content("#rematch") == "Rematch"
        assert bob.is_hidden("#watch") and bob.is_hidden("#sit-form")
        assert serious(bob) == []  # a finished table's link: its result and the rematch
        bob.click("#rematch")
        bob.wait_for_function("old => location.pathname.startsWith('/table/')"
                              " && !location.pathname.endsWith(old)", arg=old)
        new = bob.url.rsplit("/", 1)[1]
        bob.wait_for_function("() => document.querySelector('#seats li.seat-me .who')")
        assert seat_names(bob) == ["Ann", "Bob", "Free seat"]
        assert bob.text_content("#seats li.seat-me .who") == "Bob"

        # Ann's game page is told, and joins the rematch with one press
        ann.wait_for_function(
            "() => document.getElementById('rematch').textContent === 'Join the rematch'")
        ann.click("#rematch")
        ann.wait_for_url(f"**/table/{new}")
        ann.wait_for_selector("#host:not([hidden])")  # still the host
        assert ann.text_content("#seats li.seat-me .who") == "Ann"
        ann.click("#begin")
        ann.wait_for_url("**/slapjack?token=*")
        bob.wait_for_url("**/slapjack?token=*")
        assert (ann.url.rsplit("=", 1)[1], bob.url.rsplit("=", 1)[1]) == tokens  # the same seats
        ann.wait_for_function("() => document.body.dataset.state === 'playing'")
        assert ann.locator(".opponents .seat .name").all_text_contents() == ["Bob", "Computer 2"]
    finally:
        for context in people:
            context.close()


def stored_game(store: Any, table: str, game: str, players: int, options: dict[str, Any],
                seed: int) -> int:
    """Puts a finished game into ``store`` as the server keeps one: random legal moves from
    ``seed``, every chance outcome in the record. Its number of moves."""
    rng = random.Random(seed)
    played = game_class(game)(players, seed=seed, options=options)
    while played.outcome is None:
        moves = [(s, a) for s in range(players) for a in played.view(s)["legal"]
                 if a["type"] != "slap" or rng.random() < 0.1]
        if not moves:
            moves = [(s, a) for s in range(players) for a in played.view(s)["legal"]]
        seat, action = rng.choice(moves)
        played.apply_json({**action, "player": seat})
    record = played.record()
    seats = [StoredSeat("You", "person")] + [StoredSeat(f"Computer {s}", "computer")
                                             for s in range(1, players)]
    store.new_table(StoredTable(table, game, players, record["options"], "normal",
                                friends=False, seed=None, decks=record["decks"],
                                shuffles=record["shuffles"], seats=seats))
    actions = record["actions"]
    outcome = played.outcome.to_json()
    for n, action in enumerate(actions):
        store.add_action(table, n, action, t=n * 0.5,
                         outcome=outcome if n == len(actions) - 1 else None)
    return len(actions)


@pytest.mark.parametrize(("game", "players", "options", "seed"), [
    ("splunk", 2, {"jokers": True}, 3), ("slabberjan", 20, {"chips": 10}, 2)])
def test_the_replay_of_splunk_and_of_a_long_slabberjan_game(
        page: Any, game: str, players: int, options: dict[str, Any], seed: int) -> None:
    """Each game's replay is drawn by its own page's modules; a game of more than 500 steps
    comes in two answers, and a jump past the first waits for the second."""
    lobby = Lobby()
    moves = stored_game(lobby.store, "T" + game, game, players, options, seed)
    problems: list[str] = []
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    page.add_init_script(WATCH_CSP)
    with running(create_app(lobby=lobby)) as url:
        page.goto(f"{url}/games/T{game}#step={moves}")  # the link of the last step
        page.wait_for_function(f"() => {WHERE} === '{moves} of {moves}'")
        assert page.is_visible("#revealed")
        assert page.locator("#story li").count() > 0
        if game == "splunk":
            assert page.locator("#revealed .replay-card").count() == 54  # with the jokers
            assert page.locator("#stacks .stack").count() == 4
        else:
            assert moves > 500
            assert page.locator("#seats .sj-seat").count() == players
            assert page.locator("#revealed .revealed-rounds li").count() > 1
            assert "won the game" in (page.text_content("#story") or "")
            # a piece is drawn as a matador as the game's spec from the server says (S4)
            drawn = page.eval_on_selector_all(
                "#revealed .revealed-piece svg",
                "ns => ns.map(n => [n.dataset.piece, n.classList.contains('matador')])")
            assert {kind for kind, _ in drawn} & MATADORS  # a matador was revealed
            assert all(matador == (kind in MATADORS) for kind, matador in drawn)
        assert serious(page) == []  # the replay's end, everything revealed
        page.keyboard.press("Home")
        page.wait_for_function(f"() => {WHERE} === '0 of {moves}'")
        for step in range(1, 6):
            page.keyboard.press("ArrowRight")
            assert page.text_content("#step-where") == f"{step} of {moves}"
        page.keyboard.press("PageDown")
        assert page.text_content("#step-where") == f"15 of {moves}"
        page.keyboard.press("ArrowLeft")
        assert page.text_content("#step-where") == f"14 of {moves}"
        problems.extend(page.evaluate("() => window.__violations"))
    assert problems == []
