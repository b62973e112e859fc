"""The Slapjack page in a real chromium (ruling J10): whole games with the keyboard, with
clicks and with taps on a phone-sized screen, the bar's texts, "Next Jack or out", wins kept
per speed and player count across reloads, wrong slaps and computer slaps shown.

The server runs in the test process on 127.0.0.1 and a free port, with stacked decks that end
soon (``conftest.quick_deck``) and stand-in computer players that flip quickly and never slap,
so a person who slaps every Jack wins in about fifty flips.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import FAST_PACING, QuickFlipper, quick_decks, quick_players, running

from parlour.games import new_game
from parlour.live import Lobby
from parlour.web import create_app

pytestmark = pytest.mark.browser


def serve() -> Iterator[str]:
    """A server of quick stand-in players and stacked decks that end soon."""
    lobby = Lobby(players=quick_players, pacing=FAST_PACING, decks=quick_decks)
    with running(create_app(lobby=lobby)) as url:
        yield url


@pytest.fixture(scope="module")
def quick_site() -> Iterator[str]:
    yield from serve()


class Watcher(QuickFlipper):
    """Never flips in a test's time, but slaps a Jack a moment after it shows."""

    flip_after = 60.0
    slap_after = 0.3


@pytest.fixture(scope="module")
def slow_site() -> Iterator[str]:
    def watchers(game: str, level: str, seat: int, *, seed: int | None = None) -> Watcher:
        return Watcher(seat, seed=seed)

    with running(create_app(lobby=Lobby(players=watchers, pacing=FAST_PACING))) as url:
        yield url


def text(page: Any, selector: str) -> str:
    value: str = page.locator(selector).first.text_content()
    return " ".join(value.split())


def snapshot(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("""() => ({
        bar: document.getElementById('bar').textContent,
        state: document.body.dataset.state,
        flips: document.getElementById('pile').dataset.flips,
        statuses: [...document.querySelectorAll('.opponents .seat .status')]
            .map(e => e.textContent),
    })""")
    return result


def play(page: Any, flip: Any, slap: Any, max_moves: int = 400) -> set[str]:
    """Plays seat 0 to the end: flips on its turn, slaps every Jack. Returns every bar text
    and seat label seen on the way."""
    seen: set[str] = set()
    for _ in range(max_moves):
        now = snapshot(page)
        seen.add(now["bar"])
        seen.update(now["statuses"])
        if now["state"] != "playing":
            return seen
        if now["bar"].startswith("Jack! Slap it!"):
            slap()
        elif now["bar"].startswith("Your turn: flip a card"):
            flip()
        page.wait_for_function(
            """([bar, flips]) => document.getElementById('bar').textContent !== bar
                || document.getElementById('pile').dataset.flips !== flips""",
            arg=[now["bar"], now["flips"]], timeout=5000)
    raise AssertionError("the game did not end")


def wins(page: Any) -> tuple[str, str]:
    return text(page, "#wins-count"), text(page, "#wins-where")


def test_a_whole_game_with_the_keyboard_raises_the_wins_and_they_survive_a_reload(
        page: Any, quick_site: str) -> None:
    page.goto(quick_site + "/slapjack")
    page.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    assert text(page, "#players-button") == "2 players"
    assert text(page, "#pile .pile-empty") == "Empty pile"
    assert text(page, ".opponents .seat .count") == "26 cards"
    assert page.get_attribute("[data-level=normal]", "aria-checked") == "true"
    assert wins(page) == ("0", "Normal, 2 players")
    seen = play(page, lambda: page.keyboard.press("f"), lambda: page.keyboard.press(" "))
    assert "Next Jack or out" in seen  # the computer's last card was a Jack: its last chance
    assert any(bar.startswith("Jack! Slap it!") for bar in seen)
    assert text(page, "#bar").startswith("You won!")
    assert text(page, ".opponents .seat .status") == "Out"
    assert wins(page) == ("1", "Normal, 2 players")
    page.reload()
    page.wait_for_function("() => document.body.dataset.state === 'won'")
    assert wins(page) == ("1", "Normal, 2 players")  # kept, and the same win not counted twice
    page.click("#new-game")
    page.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    assert wins(page) == ("1", "Normal, 2 players")


def test_a_whole_game_with_clicks_at_another_speed_and_player_count(
        page: Any, quick_site: str) -> None:
    page.goto(quick_site + "/slapjack")
    page.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    assert page.is_hidden("#players-menu")
    page.click("#players-button")
    assert page.is_visible("#players-menu")
    page.click("[data-players='3']")
    assert page.is_hidden("#players-menu")
    page.click("[data-level=easy]")
    page.wait_for_function("() => document.querySelectorAll('.opponents .seat').length === 2")
    page.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    assert text(page, "#players-button") == "3 players"
    assert page.get_attribute("[data-level=easy]", "aria-checked") == "true"
    assert wins(page) == ("0", "Easy, 3 players")
    seen = play(page, lambda: page.click("#my-deck"), lambda: page.click("#pile"))
    assert "Next Jack or out" in seen, seen
    assert text(page, "#bar").startswith("You won!"), (text(page, "#bar"), text(page, "#news"))
    assert wins(page) == ("1", "Easy, 3 players")
    # each speed and player count keeps its own count
    page.click("#players-button")
    page.click("[data-players='2']")
    assert wins(page) == ("0", "Easy, 2 players")
    page.click("[data-level=normal]")
    page.reload()
    page.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    assert wins(page) == ("0", "Normal, 2 players")
    page.click("[data-level=easy]")
    page.click("#players-button")
    page.click("[data-players='3']")
    assert wins(page) == ("1", "Easy, 3 players")


def test_a_whole_game_with_taps_on_a_phone_sized_screen(phone: Any, quick_site: str) -> None:
    phone.goto(quick_site + "/slapjack")
    phone.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the page scrolls sideways on a phone"
    for selector in ("#pile", "#my-deck", "#slap", "#flip", "#bar"):
        box = phone.locator(selector).bounding_box()
        assert box["y"] + box["height"] <= 844, f"{selector} is below the first screen"
    phone.click("#players-button")
    phone.click("[data-players='4']")
    phone.wait_for_function("() => document.querySelectorAll('.opponents .seat').length === 3")
    phone.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    seen = play(phone, lambda: phone.tap("#flip"), lambda: phone.tap("#slap"))
    assert "Next Jack or out" in seen
    assert wins(phone) == ("1", "Normal, 4 players")


def seed_where(first_cards_jacks: tuple[bool, ...]) -> int:
    """A seed whose deal starts with Jacks exactly where asked (deck[0] is seat 0's top)."""
    def deal(seed: int) -> list[str]:
        deck: list[str] = new_game("slapjack", players=2, seed=seed).chance.used_decks[0]
        return deck

    return next(s for s in range(10_000) if tuple(
        c[0] == "J" for c in deal(s)[:len(first_cards_jacks)]) == first_cards_jacks)


def test_a_wrong_slap_is_shown_with_who_slapped_and_costs_one_card(
        page: Any, slow_site: str) -> None:
    page.goto(f"{slow_site}/slapjack?seed={seed_where((False,))}")
    page.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    page.keyboard.press("f")
    page.wait_for_function("() => document.getElementById('pile').dataset.flips === '1'")
    assert text(page, "#bar").startswith("Computer 1 flips next")
    page.focus("#new-game")  # Space slaps even with a button focused; it never presses it
    page.keyboard.press(" ")
    page.wait_for_selector("#pile-badge:not([hidden])")
    assert text(page, "#pile-badge") == "Wrong slap: You"
    assert "not a Jack, a card goes under the pile" in text(page, "#news")
    page.keyboard.press(" ")  # a second slap on the same card costs nothing more
    page.wait_for_timeout(200)
    assert text(page, "#my-seat .count") == "24 cards"
    assert page.get_attribute("#pile", "data-flips") == "1"  # still the same game


def test_a_jack_slapped_by_the_computer_is_shown_with_who_slapped(
        page: Any, slow_site: str) -> None:
    page.goto(f"{slow_site}/slapjack?seed={seed_where((True,))}")
    page.wait_for_function(
        "() => document.getElementById('bar').textContent.startsWith('Your turn')")
    page.click("#flip")
    page.wait_for_function("() => document.getElementById('pile').classList.contains('jack')")
    assert text(page, "#bar").startswith("Jack! Slap it!")
    page.wait_for_selector("#pile-badge:not([hidden])")
    assert text(page, "#pile-badge") == "Computer 1 slapped the Jack!"
    assert text(page, ".opponents .seat .count") == "27 cards"
    assert text(page, "#bar").startswith("Computer 1 flips next")


def test_the_real_computer_players_play_through_the_page(page: Any) -> None:
    with running(create_app()) as url:
        page.goto(f"{url}/slapjack?seed={seed_where((False, False))}")
        page.wait_for_function(
            "() => document.getElementById('bar').textContent.startsWith('Your turn')")
        page.click("[data-level=hard]")
        page.wait_for_function(
            "() => document.getElementById('bar').textContent.startsWith('Your turn')")
        page.keyboard.press("f")
        # the computer answers with a flip of its own within seconds
        page.wait_for_function("() => Number(document.getElementById('pile').dataset.flips) >= 2",
                               timeout=10000)
        assert text(page, "#wins-where") == "Hard, 2 players"
