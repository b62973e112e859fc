"""A table with friends in a real chromium (ruling G3): two people in two browser contexts at
one Slabberjan table with a computer player, and a spectator in a third. Each person sees
their own piece and never the other's, in the page and in every WebSocket frame received;
the spectator sees no piece before the reveal; a person whose page closes is played by the
computer, and comes back to their seat with the link's token.

The deck is stacked so that the three dealt pieces have names found nowhere else in the
protocol ("white bread", "chamber pot", "scary face"): a frame that names another seat's
piece is caught by a plain text search. The first dealer is the computer at seat 2, so seat
0 moves first and nothing moves until the test lets it.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from axe import serious
from conftest import running
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from parlour.bots.base import ComputerPlayer, Decision
from parlour.games.slabberjan import PIECES, Draw, Stand, Swap
from parlour.games.slabberjan import SPEC as SLABBERJAN
from parlour.live import Lobby, Seating
from parlour.live.protocol import Create
from parlour.web import create_app

pytestmark = pytest.mark.browser

ANN, BOB, COMPUTER = "white bread", "chamber pot", "scary face"
SECRETS = (ANN, BOB, COMPUTER)
ACTIONS = {"swap": Swap, "stand": Stand, "draw": Draw}
NAMES = "nodes => nodes.map(n => n.textContent)"


class Quick(ComputerPlayer):
    """Stand-in Slabberjan player: on its turn, stands if it may, else does what it must."""

    game = "slabberjan"
    level = "normal"

    def decide(self, view: dict[str, Any], events: Sequence[dict[str, Any]]) -> Decision | None:
        legal = [action["type"] for action in view.get("legal") or []]
        if view["winner"] is not None or view["turn"] != self.seat or not legal:
            return None
        kind = "stand" if "stand" in legal else legal[0]
        return Decision(ACTIONS[kind](self.seat), 0.05)


def quick(game: str, level: str, seat: int, *, seed: int | None = None) -> ComputerPlayer:
    return Quick(seat, seed=seed)


def stacked(game: str, players: int) -> list[list[str]]:
    """Seat 0 (left of the dealer, seat 2) draws first: Ann, Bob, then the computer."""
    rest = list(PIECES)
    for piece in SECRETS:
        rest.remove(piece)
    return [[*SECRETS, *rest]]


class DealerAtSeat2(Lobby):
    """The page does not choose the first dealer; this test does."""

    def create(self, command: Create, owner: str | None = None) -> Seating:
        return super().create(dataclasses.replace(command, options={**command.options,
                                                                     "dealer": 2}), owner)


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, Lobby]]:
    pacing = {"slabberjan": dataclasses.replace(
        SLABBERJAN.pacing, pause={"easy": 0.05, "normal": 0.05, "hard": 0.05})}
    # takeover: long enough that a slow page load between the waiting room and the game
    # never hands the first move to the computer, short enough for a quick test
    lobby = DealerAtSeat2(grace=10, takeover=3.0, players=quick, pacing=pacing, decks=stacked)
    with running(create_app(lobby=lobby)) as url:
        yield url, lobby


class Person:
    """One browser context (a person's own browser) and every frame its pages received."""

    def __init__(self, browser: Any, **context: Any) -> None:
        self.context = browser.new_context(**context)
        self.frames: list[str] = []
        self.page = self.new_page()

    def new_page(self) -> Any:
        page = self.context.new_page()
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: self.frames.append(str(payload))))
        return page

    def pieces_in_page(self) -> set[str]:
        """Every piece drawn face up in the page (its own seat may show it twice)."""
        found: list[str] = self.page.eval_on_selector_all(
            "[data-piece]", "nodes => nodes.map(n => n.dataset.piece)")
        return set(found)

    def close(self) -> None:
        self.context.close()


def test_two_people_and_a_spectator_each_see_only_their_own_secrets_and_a_dropped_person_comes_back(
        browser: Any, site: tuple[str, Lobby]) -> None:
    url, lobby = site
    ann = Person(browser, viewport={"width": 1280, "height": 800})
    bob = Person(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                 has_touch=True)
    spy = Person(browser, viewport={"width": 1280, "height": 800})
    try:
        # Ann creates a three-seat table and shares its link; Bob takes a seat.
        ann.page.goto(url + "/table?game=slabberjan")
        ann.page.wait_for_selector("#game option[value=slabberjan]", state="attached")
        ann.page.fill("#players", "3")
        ann.page.fill("#create-name", "Ann")
        ann.page.click("#create-form button[type=submit]")
        ann.page.wait_for_url(re.compile(r"/table/[\w-]+$"))
        link = ann.page.input_value("#link")
        table = link.rsplit("/", 1)[1]
        bob.page.goto(link)
        bob.page.fill("#sit-name", "Bob")
        bob.page.click("#sit-form button[type=submit]")
        bob.page.wait_for_selector("#seats li.seat-me")
        spy.page.goto(link)
        spy.page.wait_for_selector("#sit-form", state="visible")
        ann.page.wait_for_function(
            "() => document.querySelectorAll('#seats li.seat-person').length === 2")

        # Ann starts: both go to the game page with their own token, the spy may watch.
        ann.page.click("#begin")
        ann.page.wait_for_url(re.compile(r"/slabberjan\?token="))
        bob.page.wait_for_url(re.compile(r"/slabberjan\?token="))
        spy.page.click("#watch")
        spy.page.wait_for_url(re.compile(r"/slabberjan\?watch="))
        for person in (ann, bob):
            person.page.wait_for_selector("#my-piece [data-piece]")
        spy.page.wait_for_selector("#watching", state="visible")
        spy.page.wait_for_function("() => document.body.dataset.state !== 'waiting'")

        # What each one sees: their own piece, never another's; the spy no piece at all.
        assert ann.pieces_in_page() == {ANN}
        assert bob.pieces_in_page() == {BOB}
        assert spy.pieces_in_page() == set()
        assert spy.page.is_disabled("#swap") and spy.page.is_disabled("#stand")
        names = spy.page.eval_on_selector_all(".sj-name", "ns => ns.map(n => n.textContent)")
        assert {"Ann", "Bob", "Computer 2"} <= {n.strip() for n in names}
        room = lobby.room(table)
        assert not room.game.history  # nobody has moved: every piece is still secret
        assert room.game.view(0)["piece"] == ANN  # the stacked deal is what the pages show
        for person, mine in ((ann, ANN), (bob, BOB)):
            frames = "\n".join(person.frames)
            assert mine in frames
            assert not [p for p in SECRETS if p != mine and p in frames]
        assert not [p for p in SECRETS if p in "\n".join(spy.frames)]
        assert '"seat":null' in "\n".join(spy.frames)

        # Ann's page closes on her turn: the computer plays her seat, Bob's turn comes.
        ann_game = ann.page.url
        ann.page.close()
        bob.page.wait_for_function(
            "() => document.getElementById('bar').textContent.startsWith('Your turn')",
            timeout=15000)
        assert room.table is not None and 0 in room.table.computers
        assert any('"away":true' in f for f in spy.frames)

        # Ann comes back with her link: her seat, her piece as it is now, no computer.
        ann.page = ann.new_page()
        ann.page.goto(ann_game)
        ann.page.wait_for_selector("#my-piece [data-piece]")
        now = room.game.view(0)["piece"]
        assert ann.pieces_in_page() == {now}
        assert room.table is not None and 0 not in room.table.computers
        welcome = [f for f in ann.frames if '"type":"welcome"' in f][-1]
        assert '"seat":0' in welcome
        # Before the reveal the spy still has no piece; Bob never saw the computer's.
        assert spy.pieces_in_page() == set()
        assert COMPUTER not in "\n".join(bob.frames)
    finally:
        for person in (ann, bob, spy):
            person.close()


@pytest.fixture(scope="module")
def slapjack_site() -> Iterator[str]:
    from conftest import FAST_PACING, QuickFlipper, quick_decks

    class Slow(QuickFlipper):
        flip_after = 60.0  # the computer at seat 2 waits: the test owns the table

    def slow(game: str, level: str, seat: int, *, seed: int | None = None) -> ComputerPlayer:
        return Slow(seat, seed=seed)

    # A stacked deal: Ann at seat 0 holds no Jack, so her first flip leaves Bob "Your turn".
    lobby = Lobby(players=slow, pacing=FAST_PACING, decks=quick_decks)
    with running(create_app(lobby=lobby)) as url:
        yield url


def test_the_slapjack_page_seats_a_friend_at_seat_1_and_a_spectator_watches(
        browser: Any, slapjack_site: str, tmp_path: Any) -> None:
    url = slapjack_site
    ann = Person(browser, viewport={"width": 1280, "height": 800})
    bob = Person(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                 has_touch=True, device_scale_factor=2)
    spy = Person(browser, viewport={"width": 1280, "height": 800})
    try:
        ann.page.goto(url + "/table?game=slapjack")
        ann.page.wait_for_selector("#game option[value=slapjack]", state="attached")
        ann.page.fill("#players", "3")
        ann.page.fill("#create-name", "Ann")
        ann.page.click("#create-form button[type=submit]")
        ann.page.wait_for_url(re.compile(r"/table/[\w-]+$"))
        link = ann.page.input_value("#link")
        bob.page.goto(link)
        bob.page.fill("#sit-name", "Bob")
        bob.page.click("#sit-form button[type=submit]")
        ann.page.wait_for_function(
            "() => document.querySelectorAll('#seats li.seat-person').length === 2")
        ann.page.click("#begin")
        bob.page.wait_for_url(re.compile(r"/slapjack\?token="))
        ann.page.wait_for_url(re.compile(r"/slapjack\?token="))
        spy.page.goto(url + "/slapjack?watch=" + link.rsplit("/", 1)[1])

        # Bob sits at seat 1: the others are Ann and Computer 2, and it is Ann's turn.
        bob.page.wait_for_function(
            "() => document.getElementById('bar').textContent.startsWith('Ann flips next')")
        names = bob.page.eval_on_selector_all(".opponents .name", NAMES)
        assert names == ["Computer 2", "Ann"]
        assert bob.page.get_attribute("#my-seat", "data-seat") == "1"
        assert not bob.page.is_visible("#new-game")  # not his table to redeal
        ann.page.wait_for_function(
            "() => document.getElementById('bar').textContent.startsWith('Your turn')")
        ann.page.keyboard.press("f")
        bob.page.wait_for_function(
            "() => document.getElementById('bar').textContent.startsWith('Your turn')")

        # The spectator: every seat across the table, nothing to press.
        spy.page.wait_for_selector(".watching-label", state="visible")
        spy.page.wait_for_function("() => document.getElementById('pile').dataset.flips === '1'")
        names = spy.page.eval_on_selector_all(".opponents .name", NAMES)
        assert names == ["Ann", "Bob", "Computer 2"]
        assert not spy.page.is_visible("#my-seat")
        assert spy.page.is_disabled("#slap") and spy.page.is_disabled("#flip")
        assert "Bob flips next" in spy.page.text_content("#bar")
        spy.page.keyboard.press("Space")  # a spectator's keys send nothing
        spy.page.wait_for_timeout(100)
        assert not [f for f in spy.frames if '"type":"error"' in f]
        for person, name in ((bob, "slapjack-friend-phone.png"), (spy, "slapjack-watch.png")):
            person.page.screenshot(path=str(tmp_path / name))
    finally:
        for person in (ann, bob, spy):
            person.close()


SPOKEN = "() => [...document.querySelectorAll('#spoken p')].map((p) => p.textContent)"
# Every reaction bubble the page adds, with the seat box it went into and where it showed
# (recorded as it appears: a bubble is shown for a few seconds only).
WATCH_BUBBLES = """() => {
  window.bubbles = [];
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (!(node instanceof Element) || !node.classList.contains('reaction')) continue;
      const box = node.closest('[data-seat], #my-seat');
      requestAnimationFrame(() => {
        const r = node.getBoundingClientRect();
        window.bubbles.push({text: node.textContent,
          seat: box.id === 'my-seat' ? 'mine' : Number(box.dataset.seat),
          inside: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth
            && r.width > 0});
      });
    }
  }).observe(document.body, {childList: true, subtree: true});
}"""


def test_three_friends_react_at_once_and_everyone_sees_each_at_its_seat(
        browser: Any, site: tuple[str, Lobby]) -> None:
    """Three people at one table (a desktop, a phone, a phone sideways) and a spectator: each
    person's reaction, sent within the same second as the others', reaches all four pages, is
    shown at the sender's seat on screen and is said with the sender's name; the spectator
    has no React button; axe finds nothing serious with the bubbles up."""
    url, _ = site
    people = {
        "Ann": Person(browser, viewport={"width": 1280, "height": 800}),
        "Bob": Person(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                      has_touch=True),
        "Cy": Person(browser, viewport={"width": 844, "height": 390}, is_mobile=True,
                     has_touch=True),
    }
    spy = Person(browser, viewport={"width": 1280, "height": 800})
    said = {"Ann": ("nice", "Nice one!", "Ann: Nice one!"),
            "Bob": ("heart", "\u2665", "Bob: sends a heart"),
            "Cy": ("oops", "Oops!", "Cy: Oops!")}
    try:
        ann = people["Ann"].page
        ann.goto(url + "/table?game=slabberjan")
        ann.wait_for_selector("#game option[value=slabberjan]", state="attached")
        ann.fill("#players", "3")
        ann.fill("#create-name", "Ann")
        ann.click("#create-form button[type=submit]")
        ann.wait_for_url(re.compile(r"/table/[\w-]+$"))
        link = ann.input_value("#link")
        for name in ("Bob", "Cy"):
            page = people[name].page
            page.goto(link)
            page.fill("#sit-name", name)
            page.click("#sit-form button[type=submit]")
            page.wait_for_selector("#seats li.seat-me")
        ann.wait_for_function(
            "() => document.querySelectorAll('#seats li.seat-person').length === 3")
        spy.page.goto(link)
        ann.click("#begin")
        for person in people.values():
            person.page.wait_for_url(re.compile(r"/slabberjan\?token="))
            person.page.wait_for_selector("#react-button", state="visible")
        spy.page.wait_for_selector("#watch", state="visible")
        spy.page.click("#watch")
        spy.page.wait_for_url(re.compile(r"/slabberjan\?watch="))
        spy.page.wait_for_function("() => document.body.dataset.state !== 'waiting'")
        assert spy.page.is_hidden("#react-button")  # a spectator has no seat to react from
        # no computer plays here, so no line says what a computer's speed does
        assert all(p.page.is_hidden("#speed-about") for p in people.values())

        for page in (*(p.page for p in people.values()), spy.page):
            page.evaluate(WATCH_BUBBLES)
        for name, person in people.items():  # one after another, as fast as people click
            person.page.click("#react-button")
            person.page.click(f"[data-reaction={said[name][0]}]")

        seats = {"Ann": 0, "Bob": 1, "Cy": 2}
        viewers = {**{n: p.page for n, p in people.items()}, "spy": spy.page}
        for viewer, page in viewers.items():
            expected = sorted(
                ("mine" if name == viewer and page.query_selector("#my-seat") else seats[name],
                 words) for name, (_, words, _) in said.items())
            try:
                page.wait_for_function("n => window.bubbles.length >= n", arg=3, timeout=5000)
            except PlaywrightTimeout:
                pytest.fail(f"{viewer} saw {page.evaluate('window.bubbles')}")
            bubbles = page.evaluate("window.bubbles")
            assert sorted((b["seat"], b["text"]) for b in bubbles) == expected, viewer
            assert all(b["inside"] for b in bubbles), f"{viewer}: {bubbles}"
            heard = page.evaluate(SPOKEN)
            for name, (_, _, line) in said.items():
                if name == viewer:
                    line = line.replace(name, "You", 1)
                assert line in heard, f"{viewer} heard {heard}"
        bob = people["Bob"].page
        bob.click("#react-button")
        found = serious(bob)
        assert not found, f"phone, three reactions shown and the menu open: {found}"
        # each frame carries a code and a seat, never words a person typed
        reactions = [json.loads(f) for f in spy.frames if '"type":"reaction"' in f]
        assert sorted((r["seat"], r["reaction"]) for r in reactions) == [
            (0, "nice"), (1, "heart"), (2, "oops")]
    finally:
        for person in (*people.values(), spy):
            person.close()
