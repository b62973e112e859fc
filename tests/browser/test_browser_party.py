"""A party in one room, in a real chromium: a table with friends shows a QR code of its link
in its waiting room, which a second browser (a phone) reads and follows to take a seat; the
laptop's own screen shows the table as a spectator made for a TV (``/table/<id>/screen``),
42 seats round a 1920 x 1080 screen with every announcement inside it in large type, and
Slapjack's pile and Splunk's stacks as sensibly. PARLOUR_DOCS_SCREENSHOTS=1 puts the
screenshots in docs/ (the README's), else in each test's own folder.

The 42-seat deal is stacked (the first dealer is the computer at seat 41, so the host at seat
0 swaps first) so that five matadors speak in the first round, on every side of the screen:
inns at seats 5 and 17, cats at 26 and 32 ("meow") and the bird at 38 ("stand still in front
of the bird", the longest words). The stand-in computers play the
first round only, so the screen holds still for the test to measure.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from axe import serious
from conftest import running
from qr import read_png

from parlour.bots import make_player
from parlour.bots.base import ComputerPlayer, Decision
from parlour.games.slabberjan import PIECES, Draw, Stand, Swap
from parlour.games.slabberjan import SPEC as SLABBERJAN
from parlour.live import Lobby, Seating
from parlour.live.protocol import Create
from parlour.web import create_app

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs"
#: PARLOUR_DOCS_SCREENSHOTS=1 takes the README's screenshots again, into docs/; otherwise
#: they go to the test's own folder, to look at when a test fails.
TO_DOCS = os.environ.get("PARLOUR_DOCS_SCREENSHOTS") == "1"


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    return DOCS if TO_DOCS else tmp_path
TV = {"width": 1920, "height": 1080}
ACTIONS = {"swap": Swap, "stand": Stand, "draw": Draw}
#: The stacked 42-seat deal: seat -> piece (the rest: numbers and the like, and the fools at
#: seats 10 and 30, which the pieces passed along the swaps never are).
PLACED = {5: "inn", 17: "inn", 26: "cat", 32: "cat", 38: "bird", 39: "knight", 40: "knight",
          41: "bird"}
SPOKEN = {5: "go by the Inn", 17: "go by the Inn", 26: "meow", 32: "meow",
          38: "stand still in front of the bird"}


class FirstRound(ComputerPlayer):
    """Stand-in Slabberjan player: in the first round it stands if it may, else does what it
    must; then it waits for good, so the screen stays as the first round left it."""

    game = "slabberjan"
    level = "normal"

    def decide(self, view: dict[str, Any], events: Sequence[dict[str, Any]]) -> Decision | None:
        legal = [action["type"] for action in view.get("legal") or []]
        if (view["winner"] is not None or view["round"] > 1 or view["turn"] != self.seat
                or not legal):
            return None
        return Decision(ACTIONS["stand" if "stand" in legal else legal[0]](self.seat), 0.02)


def players(game: str, level: str, seat: int, *, seed: int | None = None) -> ComputerPlayer:
    if game == "slabberjan":
        return FirstRound(seat, seed=seed)
    return make_player(game, level, seat, seed=seed)


def decks(game: str, players: int) -> list[list[str]]:
    if game != "slabberjan" or players != 42:
        return []
    rest = [p for p in PIECES if p != "fool"]
    for piece in PLACED.values():
        rest.remove(piece)
    return [[PLACED[s] if s in PLACED else "fool" if s in (10, 30) else rest.pop(0)
             for s in range(42)]]


class DealerAtSeat41(Lobby):
    """The page does not choose the first dealer; at 42 seats this test does."""

    def create(self, command: Create, owner: str | None = None) -> Seating:
        if command.spec.name == "slabberjan" and command.players == 42:
            command = dataclasses.replace(command, options={**command.options, "dealer": 41})
        return super().create(command, owner)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    pacing = {"slabberjan": dataclasses.replace(
        SLABBERJAN.pacing, pause={"easy": 0.02, "normal": 0.02, "hard": 0.02})}
    lobby = DealerAtSeat41(grace=10, takeover=30.0, players=players, pacing=pacing,
                           decks=decks, max_links=300)
    with running(create_app(lobby=lobby)) as url:
        yield url


def create_table(page: Any, url: str, game: str, seats: int, name: str = "Ann") -> str:
    """The host creates a table with friends in the page; its join link."""
    page.goto(f"{url}/table?game={game}")
    page.wait_for_selector(f"#game option[value={game}]", state="attached")
    page.select_option("#game", game)
    if page.is_editable("#players"):
        page.fill("#players", str(seats))
    page.fill("#create-name", name)
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r"/table/[\w-]+$"))
    link: str = page.input_value("#link")
    return link


def inside(box: dict[str, float], width: float = TV["width"], height: float = TV["height"]
           ) -> bool:
    return (box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width
            and box["y"] + box["height"] <= height)


def meet(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def font_px(locator: Any) -> float:
    return float(locator.evaluate("n => parseFloat(getComputedStyle(n).fontSize)"))


def test_the_waiting_room_shows_a_qr_code_of_its_link_that_a_phone_follows_to_a_seat(
        browser: Any, site: str, shots: Path) -> None:
    host = browser.new_context(viewport={"width": 1280, "height": 800})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True, device_scale_factor=2)
    try:
        page = host.new_page()
        link = create_table(page, site, "slabberjan", 5)
        page.wait_for_function("() => document.getElementById('qr').naturalWidth > 0")
        # what a camera sees: the whole screen, the code on it among everything else
        assert read_png(page.screenshot()) == [link]
        size = page.locator("#qr").bounding_box()
        assert size is not None and size["width"] >= 200  # a camera at arm's length reads it
        assert page.get_attribute("#qr", "alt")
        assert serious(page) == []
        page.screenshot(path=str(shots / "friends-qr.png"), full_page=True)

        # the phone opens what it read and takes a seat; the host sees it taken
        guest = phone.new_page()
        guest.goto(read_png(page.screenshot())[0])
        guest.fill("#sit-name", "Bob")
        guest.click("#sit-form button[type=submit]")
        guest.wait_for_selector("#seats li.seat-me")
        page.wait_for_function(
            "() => document.querySelectorAll('#seats li.seat-person').length === 2")
        assert "Bob" in page.inner_text("#seats")
    finally:
        phone.close()
        host.close()


def test_the_big_screen_shows_42_seats_and_every_announcement_inside_it_in_large_type(
        browser: Any, site: str, shots: Path) -> None:
    host = browser.new_context(viewport={"width": 1280, "height": 800})
    tv = browser.new_context(viewport=TV)
    try:
        page = host.new_page()
        link = create_table(page, site, "slabberjan", 42)
        page.wait_for_selector("#screen:not([hidden])")
        screen = tv.new_page()
        screen.goto(site + str(page.get_attribute("#screen", "href")))
        screen.wait_for_function("() => document.getElementById('screen-qr').naturalWidth > 0")
        assert screen.locator(".screen-seat").count() == 42
        assert read_png(screen.screenshot()) == [link]  # the room joins from the TV too
        assert "1 of 42 seats taken" in screen.inner_text("#screen-status")
        assert serious(screen) == []
        screen.screenshot(path=str(shots / "screen-waiting.png"))

        page.click("#begin")  # the host's page goes to their seat, and swaps first
        page.wait_for_url(re.compile(r"/slabberjan\?token="))
        page.wait_for_selector("#swap:not([disabled])")
        page.click("#swap")
        screen.wait_for_function(
            "() => [...document.querySelectorAll('#screen-log li')]"
            ".some(li => li.textContent.startsWith('Round 2'))", timeout=30000)

        bubbles = screen.locator(".screen-bubble")
        said = {int(str(bubbles.nth(i).get_attribute("data-seat"))): bubbles.nth(i).inner_text()
                for i in range(bubbles.count())}
        assert said == {seat: f"“{words}”" for seat, words in SPOKEN.items()}
        sides = {str(bubbles.nth(i).get_attribute("data-side")) for i in range(bubbles.count())}
        assert sides == {"top", "right", "bottom", "left"}

        seats = [screen.locator(".screen-seat").nth(i) for i in range(42)]
        boxes = [s.bounding_box() for s in seats]
        assert all(b is not None and inside(b) for b in boxes)
        assert not [(i, j) for i in range(42) for j in range(i + 1, 42)
                    if meet(boxes[i], boxes[j])]  # type: ignore[arg-type]
        assert min(font_px(s.locator(".seat-name")) for s in seats) >= 20
        spoken = [bubbles.nth(i).bounding_box() for i in range(bubbles.count())]
        assert all(b is not None and inside(b) for b in spoken)
        assert not [(a, b) for i, a in enumerate(spoken) for b in spoken[i + 1:]
                    if meet(a, b)]  # type: ignore[arg-type]
        assert min(font_px(bubbles.nth(i)) for i in range(bubbles.count())) >= 28
        news = screen.locator("#screen-news")
        assert "stand still in front of the bird" in news.inner_text()
        box = news.bounding_box()
        assert box is not None and inside(box) and font_px(news) >= 32
        assert "Pot" in screen.inner_text("#screen-board")
        assert serious(screen) == []
        screen.screenshot(path=str(shots / "screen-slabberjan-42.png"))
    finally:
        tv.close()
        host.close()


@pytest.mark.parametrize("game, seats", [("slapjack", 4), ("splunk", 2)])
def test_the_big_screen_shows_the_race_games_too(
        browser: Any, site: str, shots: Path, game: str, seats: int) -> None:
    host = browser.new_context(viewport={"width": 1280, "height": 800})
    tv = browser.new_context(viewport=TV)
    try:
        page = host.new_page()
        table = create_table(page, site, game, seats).rsplit("/", 1)[1]
        screen = tv.new_page()
        screen.goto(f"{site}/table/{table}/screen")
        screen.wait_for_selector("#screen-join:not([hidden])")
        page.click("#begin")
        screen.wait_for_selector("#screen-join", state="hidden")
        if game == "slapjack":  # the host flips on their phone when the turn is theirs
            screen.wait_for_selector(".board-line >> text=/flips next/")
            if "Ann flips next" in screen.inner_text("#screen-board"):
                page.wait_for_url(re.compile(r"/slapjack\?token="))
                page.wait_for_selector("#flip:not([disabled])")
                page.click("#flip")
        screen.wait_for_selector(".board-card svg" if game == "slapjack" else ".board-stack")
        assert screen.locator(".screen-seat").count() == seats
        boxes = [screen.locator(".screen-seat").nth(i).bounding_box() for i in range(seats)]
        assert all(b is not None and inside(b) for b in boxes)
        assert "Ann" in screen.inner_text("#screen-seats")
        assert serious(screen) == []
        screen.screenshot(path=str(shots / f"screen-{game}.png"))
    finally:
        tv.close()
        host.close()
