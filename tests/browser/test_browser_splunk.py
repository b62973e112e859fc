"""The Splunk page in a real chromium: whole games against the computer with the keyboard
and with clicks, the account of every call and slap (whose, the total, who took the stack),
a computer's slap and a wrong slap shown, the jokers option reaching the game, wins kept per
speed and jokers, a friend's seat token resumed, and the phone layout.

The server runs in the test process on 127.0.0.1 and a free port. Its computer players are
stand-ins that play at once, always on the same stack, never call, and slap only when a test
asks them to; the stacked deck (:func:`quick_deck`) makes them push that stack over 21 and
play a pair early, so a person who calls only sure calls and slaps every slap wins in about
twenty-five moves.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from conftest import running
from websockets.sync.client import connect

from parlour.bots.base import ComputerPlayer, Decision
from parlour.engine import Pacing
from parlour.engine.cards import standard_deck
from parlour.games.splunk import Play, Slap, Splunk
from parlour.live import Lobby, Seating
from parlour.live.protocol import Create
from parlour.web import create_app

pytestmark = pytest.mark.browser

#: Splunk's live pacing with a pause short enough to keep tests quick.
FAST = {"splunk": Pacing(at_field="plays",
                         after=frozenset({"call", "slap", "wrong_slap"}),
                         held=frozenset({"play"}),
                         pause={"easy": 0.05, "normal": 0.05, "hard": 0.05})}


class StandIn(ComputerPlayer):
    """A Splunk stand-in: plays on ``stack`` ``play_after`` seconds after its turn comes
    (but leaves an open slap alone for ``slap_window`` seconds, so that a test can slap it),
    never calls, and slaps an open slap after ``slap_after`` seconds if that is set."""

    game = "splunk"
    level = "normal"
    stack = 3
    play_after = 0.03
    slap_window = 2.0
    slap_after: float | None = None

    def decide(self, view: dict[str, Any], events: Sequence[dict[str, Any]]) -> Decision | None:
        if view["winner"] is not None:
            return None
        if view["slap_open"] is not None and self.slap_after is not None:
            return Decision(Slap(self.seat, view["slap_open"], at=view["plays"]),
                            self.slap_after)
        if view["turn"] == self.seat:
            wait = self.play_after if view["slap_open"] is None else self.slap_window
            return Decision(Play(self.seat, self.stack), wait)
        return None


class Slapper(StandIn):
    """Plays one card, on stack 1 (index 0), then only slaps every pair, sandwich or joker,
    after 0.3 s."""

    stack = 0
    slap_after = 0.3

    def decide(self, view: dict[str, Any], events: Sequence[dict[str, Any]]) -> Decision | None:
        decision = super().decide(view, events)
        if decision is not None and decision.action.type == "play" and view["plays"] >= 2:
            return None
        return decision


class Sleeper(StandIn):
    """Never plays in a test's time."""

    play_after = 60.0


def quick_deck() -> list[str]:
    """Seat 0 (the person) gets low cards; seat 1's first plays are K, Q, 5 (stack 4 goes
    over 21 on the third) and then 8, 8 (a pair on the new base)."""
    person = ["2C", "3C", "AS", "2S", "3S", "4S", "6S", "7S", "9S", "AH", "2H", "3H", "4H",
              "6H", "7H", "9H", "AD", "2D", "3D", "4D", "6D", "7D", "9D", "AC", "4C", "6C"]
    computer = ["TC", "JC", "KS", "QS", "5C", "8C", "8D"]
    rest = [c for c in standard_deck() if c not in person + computer]
    computer += rest
    deck = [card for pair in zip(person, computer, strict=True) for card in pair]
    assert sorted(deck) == sorted(standard_deck())
    return deck


def slapper_deck() -> list[str]:
    """The person's first card is the 9 of Spades, the computer's the 9 of Hearts: a pair
    on stack 1 when both play there; the person's next card, the 2 of Clubs, makes nothing."""
    person = ["3C", "4C", "9S", "2C"]
    computer = ["5C", "6C", "9H", "7C"]
    rest = [c for c in standard_deck() if c not in person + computer]
    person += rest[:22]
    computer += rest[22:]
    return [card for pair in zip(person, computer, strict=True) for card in pair]


def seed_for(deck: list[str] | None, first: int) -> int:
    """A seed that makes ``first`` play first (with this stacked deck, if any)."""
    decks = [deck] if deck is not None else []
    return next(s for s in range(100)
                if Splunk(2, seed=s, decks=decks).options["first"] == first)


class HostFirst(Lobby):
    """A table with friends is dealt at random (nobody may choose its seed); this test's
    lobby only makes the host, at seat 0, play first."""

    def create(self, command: Create, owner: str | None = None) -> Seating:
        return super().create(dataclasses.replace(command, options={**command.options,
                                                                     "first": 0}), owner)


def site(player: type[StandIn], deck: list[str] | None) -> Iterator[str]:
    def players(game: str, level: str, seat: int, *, seed: int | None = None) -> StandIn:
        return player(seat, seed=seed)

    def decks(game: str, players: int) -> list[list[str]]:
        return [deck] if deck is not None else []

    lobby = HostFirst(players=players, pacing=FAST, decks=decks)
    with running(create_app(lobby=lobby)) as url:
        yield url


@pytest.fixture(scope="module")
def quick_site() -> Iterator[str]:
    yield from site(StandIn, quick_deck())


@pytest.fixture(scope="module")
def slapper_site() -> Iterator[str]:
    yield from site(Slapper, slapper_deck())


@pytest.fixture(scope="module")
def idle_site() -> Iterator[str]:
    yield from site(Sleeper, None)


def text(page: Any, selector: str) -> str:
    value: str = page.locator(selector).first.text_content()
    return " ".join(value.split())


def snapshot(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("""() => {
        const stacks = [...document.querySelectorAll('.stack')];
        return {
            bar: document.getElementById('bar').textContent,
            state: document.body.dataset.state,
            plays: document.getElementById('stacks').dataset.plays,
            entries: document.querySelectorAll('#account .entry').length,
            hot: stacks.findIndex(s => s.classList.contains('hot')),
            last: stacks.findIndex(s => s.classList.contains('last')),
            up: stacks.map(s => Number(s.dataset.up)),
            callable: !document.getElementById('call').disabled,
        };
    }""")
    return result


def play_to_the_end(page: Any, *, play: Any, call: Any, slap: Any,
                    max_moves: int = 200) -> list[str]:
    """Plays the person's seat to the end: slaps every open slap, calls only a stack whose
    face-up cards alone are over 21 (a sure call), else plays on the stack with the lowest
    face-up total. Returns the bars seen on the way."""
    seen: list[str] = []
    for _ in range(max_moves):
        now = snapshot(page)
        seen.append(now["bar"])
        if now["state"] != "playing":
            return seen
        if now["hot"] >= 0:
            slap(now["hot"])
        elif now["bar"].startswith("Your turn"):
            if now["callable"] and now["up"][now["last"]] > 21:
                call()
            else:
                play(min(range(4), key=lambda i: (now["up"][i], i)))
        page.wait_for_function(
            """([bar, plays, entries]) => document.getElementById('bar').textContent !== bar
                || document.getElementById('stacks').dataset.plays !== plays
                || document.querySelectorAll('#account .entry').length !== entries""",
            arg=[now["bar"], now["plays"], now["entries"]], timeout=5000)
    raise AssertionError("the game did not end")


def entries(page: Any) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        "#account .entry", "nodes => nodes.map(n => n.textContent.replace(/\\s+/g, ' '))")
    return found[::-1]  # oldest first


def wins(page: Any) -> tuple[str, str]:
    return text(page, "#wins-count"), text(page, "#wins-where")


def open_game(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.state === 'playing'")


def test_a_whole_game_with_the_keyboard_tells_the_call_and_the_slap(
        page: Any, quick_site: str) -> None:
    deck = quick_deck()
    open_game(page, f"{quick_site}/splunk?seed={seed_for(deck, 0)}")
    assert text(page, "#bar").startswith("Your turn: choose a stack for your card")
    assert text(page, "#my-seat .count") == "24 cards"
    assert text(page, "#their-seat .name") == "Computer 1"
    assert text(page, "#their-seat .count") == "24 cards"
    assert page.locator(".stack .card-back").count() == 4  # four face-down bases
    assert entries(page) == ["Start New game: You play first."]
    assert wins(page) == ("0", "Normal, no jokers")
    assert page.is_disabled("#call")

    bars = play_to_the_end(page, play=lambda i: page.keyboard.press(str(i + 1)),
                           call=lambda: page.keyboard.press("c"),
                           slap=lambda i: page.keyboard.press(" "))
    told = entries(page)
    # the computer's K, Q, 5 on stack 4: called out, its base (the Jack of Clubs) turned over
    assert ("Call You called Computer 1 out on stack 4. The base was J♣: J♣ + K♠ + Q♠ + 5♣ = 35"
            ": over 21, a right call. Computer 1 took the 4 cards. "
            "You laid a new base on stack 4.") in told
    assert ("Slap You slapped a pair on stack 4 first. Computer 1 took the 3 cards. "
            "You laid a new base on stack 4.") in told
    assert told[-1].startswith("Win You won")
    assert any(b.startswith("A pair on stack 4: slap it!") for b in bars)
    assert any(b.startswith("Your turn: call out stack 4, or play a card") for b in bars)
    assert text(page, "#bar").startswith("You won!")
    assert text(page, "#my-seat .status") == "Winner!"
    assert wins(page) == ("1", "Normal, no jokers")
    page.reload()  # the account and the win survive a reload, and the win counts once
    page.wait_for_function("() => document.body.dataset.state === 'won'")
    assert entries(page) == told
    assert wins(page) == ("1", "Normal, no jokers")


def test_a_whole_game_with_clicks_at_another_speed(page: Any, quick_site: str) -> None:
    deck = quick_deck()
    open_game(page, f"{quick_site}/splunk?seed={seed_for(deck, 0)}")
    page.click("[data-level=hard]")
    page.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    assert page.get_attribute("[data-level=hard]", "aria-checked") == "true"
    assert wins(page) == ("0", "Hard, no jokers")
    # a slappable stack is slapped by a click on it; any other click only ever plays
    play_to_the_end(page, play=lambda i: page.click(f".stack[data-stack='{i}']"),
                    call=lambda: page.click("#call"),
                    slap=lambda i: page.click(f".stack[data-stack='{i}']"))
    told = entries(page)
    assert any(e.startswith("Call You called Computer 1 out on stack 4.") for e in told)
    assert any(e.startswith("Slap You slapped a pair on stack 4 first.") for e in told)
    assert text(page, "#bar").startswith("You won!")
    assert wins(page) == ("1", "Hard, no jokers")
    page.click("[data-level=normal]")
    page.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    assert wins(page) == ("0", "Normal, no jokers")  # each speed keeps its own count


def test_a_wrong_call_says_the_caller_takes_the_stack(page: Any, quick_site: str) -> None:
    deck = quick_deck()
    open_game(page, f"{quick_site}/splunk?seed={seed_for(deck, 0)}")
    page.keyboard.press("1")
    page.wait_for_function("() => !document.getElementById('call').disabled")
    assert text(page, "#bar").startswith("Your turn: call out stack 4, or play a card")
    page.click("#call")
    page.wait_for_function("() => document.querySelectorAll('#account .entry').length === 2")
    assert entries(page)[1] == (
        "Call You called Computer 1 out on stack 4. The base was J♣: J♣ + K♠ = 20: not over"
        " 21, a wrong call. You took the 2 cards. Computer 1 laid a new base on stack 4.")
    assert text(page, "#my-seat .count") == "25 cards"
    # the loser of the call plays next, and the settled play can no longer be called
    assert text(page, "#bar").startswith("Your turn: choose a stack for your card")
    assert page.is_disabled("#call")


def test_a_computer_slap_and_a_wrong_slap_are_told(page: Any, slapper_site: str) -> None:
    deck = slapper_deck()
    open_game(page, f"{slapper_site}/splunk?seed={seed_for(deck, 0)}")
    page.click(".stack[data-stack='0']")  # the 9 of Spades; the computer's 9 of Hearts pairs it
    page.wait_for_function("() => document.querySelectorAll('#account .entry').length === 2")
    assert entries(page)[1] == ("Slap Computer 1 slapped a pair on stack 1 first. "
                                "You took the 3 cards. Computer 1 laid a new base on stack 1.")
    assert text(page, "#my-seat .count") == "26 cards"
    page.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    page.keyboard.press("2")  # the 2 of Clubs on stack 2: nothing to slap
    page.wait_for_function("() => document.getElementById('stacks').dataset.plays === '3'")
    page.focus("#new-game")  # Space slaps even with a button focused; it never presses it
    page.keyboard.press(" ")
    page.wait_for_function("() => document.querySelectorAll('#account .entry').length === 3")
    assert entries(page)[2] == ("Wrong slap Wrong slap by you on stack 2 (no pair, sandwich or"
                                " joker). You took the 2 cards. Computer 1 laid a new base on"
                                " stack 2.")
    assert text(page, "#news").startswith("You slapped stack 2 wrongly")


def test_the_jokers_option_reaches_the_game_and_has_its_own_wins(
        page: Any, idle_site: str) -> None:
    open_game(page, idle_site + "/splunk")
    assert page.get_attribute("#jokers", "aria-checked") == "false"
    page.click("#jokers")
    page.wait_for_function(
        "() => document.getElementById('my-seat').textContent.includes('25 cards')")
    assert page.get_attribute("#jokers", "aria-checked") == "true"
    assert text(page, "#their-seat .count") == "25 cards"  # 27 each, two down as bases
    assert entries(page)[0].startswith("Start New game with jokers:")
    assert wins(page) == ("0", "Normal, with jokers")
    page.reload()  # the setting is kept, and so is the game
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    assert page.get_attribute("#jokers", "aria-checked") == "true"
    assert text(page, "#my-seat .count") == "25 cards"


def test_a_seat_token_in_the_address_takes_that_seat(browser: Any, idle_site: str) -> None:
    first = browser.new_context()
    page = first.new_page()
    open_game(page, f"{idle_site}/splunk?seed={seed_for(None, 0)}")
    token = page.evaluate("sessionStorage.getItem('parlour.splunk.token')")
    page.keyboard.press("3")
    page.wait_for_function("() => document.getElementById('stacks').dataset.plays === '1'")
    other = browser.new_context()
    friend = other.new_page()
    open_game(friend, f"{idle_site}/splunk?token={token}")
    assert friend.get_attribute("#stacks", "data-plays") == "1"  # the same game, same seat
    assert text(friend, "#my-seat .count") == "23 cards"
    # the seat is the address's: no new game, no settings, and nothing kept in the tab
    assert friend.is_hidden("#new-game") and friend.is_hidden("#jokers")
    assert friend.evaluate("sessionStorage.getItem('parlour.splunk.token')") is None
    first.close()
    other.close()


def test_a_spectator_sees_the_game_and_no_controls(browser: Any, idle_site: str) -> None:
    first = browser.new_context()
    page = first.new_page()
    open_game(page, f"{idle_site}/splunk?seed={seed_for(None, 0)}")
    table = page.get_attribute("body", "data-table")
    other = browser.new_context()
    watcher = other.new_page()
    open_game(watcher, f"{idle_site}/splunk?watch={table}")
    assert watcher.is_visible(".watching-label")
    assert text(watcher, ".watching-label") == "Watching"
    assert watcher.is_hidden("#call") and watcher.is_hidden("#slap")
    assert watcher.is_hidden("#new-game")
    assert watcher.is_disabled(".stack")
    assert text(watcher, "#my-seat .name") == "Player 1"  # not "You": they are watching
    assert text(watcher, "#their-seat .name") == "Computer 1"
    assert text(watcher, "#bar").startswith("Player 1 plays next")
    page.keyboard.press("2")
    watcher.wait_for_function("() => document.getElementById('stacks').dataset.plays === '1'")
    assert text(watcher, "#my-seat .count") == "23 cards"
    watcher.keyboard.press("1")  # a spectator's keys do nothing
    watcher.keyboard.press(" ")
    watcher.wait_for_timeout(200)
    assert watcher.get_attribute("#stacks", "data-plays") == "1"
    assert page.is_hidden(".watching-label")
    first.close()
    other.close()


def test_a_friends_seat_waits_for_the_start_then_plays(page: Any, idle_site: str) -> None:
    ws_url = idle_site.replace("http://", "ws://") + "/ws"
    with connect(ws_url) as host:
        host.send(json.dumps({"type": "create", "game": "splunk", "players": 2,
                              "level": "normal", "name": "Ann"}))
        seated = next(m for m in map(json.loads, host) if m["type"] == "seated")
        page.goto(f"{idle_site}/splunk?token={seated['token']}")
        page.wait_for_function(
            "() => document.getElementById('bar').textContent.startsWith('Waiting for the table')")
        assert page.is_disabled("#call") and page.is_disabled(".stack")
        host.send(json.dumps({"type": "begin"}))
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        assert text(page, "#bar").startswith("Your turn: choose a stack")
        assert text(page, "#their-seat .name") == "Computer 1"  # the empty seat, filled
        page.keyboard.press("4")
        page.wait_for_function("() => document.getElementById('stacks').dataset.plays === '1'")


def test_a_whole_game_with_taps_fits_a_phone(browser: Any, quick_site: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    phone = context.new_page()
    open_game(phone, f"{quick_site}/splunk?seed={seed_for(quick_deck(), 0)}")
    for selector in (".stack[data-stack='3']", "#call", "#slap", "#bar"):
        box = phone.locator(selector).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, selector
        assert box["y"] + box["height"] <= 844, f"{selector} is below the first screen"
    widths: set[int] = set()

    def tap(selector: str) -> None:
        widths.add(phone.evaluate("document.documentElement.scrollWidth"))
        phone.tap(selector)

    play_to_the_end(phone, play=lambda i: tap(f".stack[data-stack='{i}']"),
                    call=lambda: tap("#call"), slap=lambda i: tap("#slap"))
    widths.add(phone.evaluate("document.documentElement.scrollWidth"))
    assert max(widths) <= 390, "the page scrolls sideways on a phone"
    assert text(phone, "#bar").startswith("You won!")
    context.close()
