"""The Slabberjan page in a real chromium: whole games with the keyboard and with clicks, the
reveal with who pays and who is out, a matador's announcement in a bubble at the seat that
made it, the options reaching the game, a friend's seat link, and a 42-player table whose
seats neither overlap nor hide their names.

The server runs in the test process on 127.0.0.1 and a free port. Its lobby deals stacked
decks (``STACKS``, one per deal, top first) and seats the real computer players, made quick:
their thinking time and the table's pauses after reveals and announcements are cut to a
fraction, so a game at a small table with 1 chip ends in a few seconds.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import Hastened, running

from parlour.bots import ComputerPlayer, make_player
from parlour.games.slabberjan import PIECES, SPEC, Slabberjan, Swap
from parlour.live import Lobby
from parlour.web import create_app

pytestmark = pytest.mark.browser

#: Stacked deals by table size; a table size not listed here is dealt from the seed.
STACKS: dict[int, list[list[str]]] = {}


def deck(*top: str) -> list[str]:
    """A full 42-piece deal whose first pieces are ``top`` (drawn first: left of the dealer)."""
    rest = Counter(PIECES)
    rest.subtract(top)
    assert all(v >= 0 for v in rest.values()), top
    return [*top, *sorted(rest.elements(), key=PIECES.index)]


def seed_for(players: int, dealer: int) -> int:
    """A seed whose first dealer is ``dealer`` (the page passes ``?seed=`` to the game)."""
    decks = STACKS.get(players, [])
    return next(s for s in range(1000)
                if Slabberjan(players, seed=s, decks=decks).dealer == dealer)



def quick_players(game: str, level: str, seat: int, *, seed: int | None = None) -> ComputerPlayer:
    return Hastened(make_player(game, level, seat, seed=seed), 20.0)


def stacked(game: str, players: int) -> list[list[str]]:
    return STACKS.get(players, [])


def serve() -> Iterator[str]:
    """A server of the quick players and the stacked deals, its pauses cut short."""
    pacing = {"slabberjan": dataclasses.replace(
        SPEC.pacing, pause={"easy": 0.05, "normal": 0.05, "hard": 0.05})}
    lobby = Lobby(players=quick_players, pacing=pacing, decks=stacked)
    with running(create_app(lobby=lobby)) as url:
        yield url


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    yield from serve()


def text(page: Any, selector: str) -> str:
    value: str = page.locator(selector).first.text_content()
    return " ".join(value.split())


def wait_bar(page: Any, start: str) -> None:
    page.wait_for_function(
        "s => document.getElementById('bar').textContent.startsWith(s)", arg=start, timeout=8000)


def seat(index: int) -> str:
    return f'.sj-seat[data-seat="{index}"]'


def give_up_if_asked(page: Any) -> None:
    """A new setting deals anew, asking first once the game in play has begun (a computer
    moved): the question opens with the click, or never."""
    if page.is_visible("dialog.ask[open]"):
        page.click("dialog.ask button[value=yes]")


def choose_players_and_chips(page: Any, players: int, chips: int) -> None:
    page.click("#players-button")
    page.click(f"[data-players='{players}']")
    give_up_if_asked(page)
    page.click("#chips-button")
    page.click(f"[data-chips='{chips}']")
    give_up_if_asked(page)


# Two players, 1 chip, seat 0 (the person) deals first. Each deal is drawn from the left of
# the dealer, the dealer last; there is never a fool, so only the weakest piece pays.
# Round 1, seat 0 deals: seat 1 holds an inn and stands; we hold a 4 and draw a 9: we pay.
# Round 2, seat 1 deals: our 5 must swap with its 11; whatever it does (stand with our 5 or
# draw the 10 on top of the bag) it holds less than our 11 and pays.
# Round 3, seat 0 deals: seat 1's 3 must try our inn, "go by the Inn" leads back to it: no
# swap. We stand with the inn; seat 1 must pay with no chip left: it is out and we win.
TWO_PLAYER_GAME = [deck("inn", "4", "9"), deck("5", "11", "10"), deck("3", "inn")]


def play_two_player_game(page: Any, site: str, swap: Any, stand: Any, draw: Any) -> None:
    STACKS[2] = TWO_PLAYER_GAME
    page.goto(f"{site}/slabberjan?seed={seed_for(2, 0)}")
    choose_players_and_chips(page, 2, 1)
    wait_bar(page, "You are the dealer: draw from the bag or stand")
    assert text(page, "#players-button") == "2 players"
    assert text(page, "#chips-button") == "1 chip"
    assert text(page, f"{seat(1)} .sj-chips") == "● 1"
    assert page.is_enabled("#draw") and page.is_enabled("#stand") and page.is_disabled("#swap")
    assert text(page, "#my-what") == "Your piece: a 4"
    assert page.locator("#my-piece svg.matador").count() == 0
    assert page.locator(f"{seat(0)} .sj-dealer").is_visible()

    draw()
    # the reveal: we pay with the weaker piece; the next round is dealt at once, so the
    # seats show this round's pieces (ours, and the other's back), not last round's, and
    # the reveal is told in the middle of the table
    wait_bar(page, "Your turn: swap with Computer 1")
    assert page.locator(f'{seat(1)} [data-piece="inn"]').count() == 0
    assert page.locator(f'{seat(0)} [data-piece="5"]').count() == 1
    assert page.is_hidden(f"{seat(0)} .sj-mark")
    assert "Round 1: the reveal" in text(page, "#summary")
    assert "You pay (9, the weakest)" in text(page, "#summary")
    assert text(page, f"{seat(0)} .sj-chips") == "● 0"
    assert text(page, "#pot") == "1"
    assert page.locator(f"{seat(1)} .sj-dealer").is_visible()
    assert page.is_enabled("#swap") and page.is_disabled("#stand") and page.is_disabled("#draw")

    swap()
    # the computer deals and pays; what we learned in our swap was told
    wait_bar(page, "Your turn: you hold an inn, a matador: stand")
    assert "You and Computer 1 swapped: you gave a 5 and got an 11." in text(page, "#log")
    assert "Computer 1 pays" in text(page, "#summary")
    assert text(page, f"{seat(1)} .sj-chips") == "● 0"
    # round 3: seat 1's swap meets our inn, announced at our seat
    assert text(page, f"{seat(0)} .sj-bubble span") == "“go by the Inn”"
    # the view says our inn is a matador, the game's spec that it is drawn as one (S4)
    assert text(page, "#my-what") == "Your piece: an inn, a matador: you never swap it"
    assert page.locator("#my-piece svg.matador").count() == 1
    assert page.locator(f"{seat(0)} .sj-bubble svg.matador").count() == 1
    assert page.locator(f"{seat(1)} .sj-bubble").count() == 0
    assert page.is_enabled("#stand") and page.is_disabled("#swap") and page.is_disabled("#draw")

    stand()
    wait_bar(page, "You won!")
    assert "Computer 1 is out" in text(page, "#summary")
    assert "You win the game!" in text(page, "#summary")
    assert text(page, f"{seat(1)} .sj-chips") == "Out"
    assert text(page, f"{seat(0)} .sj-chips") == "● 2"  # the whole pot
    assert page.evaluate("document.body.dataset.state") == "won"


def test_a_whole_game_with_the_keyboard_draw_swap_and_stand(page: Any, site: str) -> None:
    def stand() -> None:
        # the chips menu gave the focus back to its button, where Enter presses the button:
        # Enter stands with no button in focus
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("Enter")

    play_two_player_game(page, site, lambda: page.keyboard.press("s"), stand,
                         lambda: page.keyboard.press("d"))
    assert text(page, "#wins-count") == "1" and text(page, "#wins-where") == "Normal, 2 players"
    page.reload()  # the seat token brings back the same table; the win is not counted twice
    page.wait_for_function("() => document.body.dataset.state === 'won'")
    assert text(page, "#wins-count") == "1"
    assert "Last reveal" in text(page, "#summary") and "Computer 1" in text(page, "#summary")


def test_a_whole_game_with_clicks_at_another_speed(page: Any, site: str) -> None:
    page.goto(site + "/slabberjan")
    page.click("[data-level=hard]")
    give_up_if_asked(page)
    play_two_player_game(page, site, lambda: page.click("#swap"), lambda: page.click("#stand"),
                         lambda: page.click("#draw"))
    assert text(page, "#wins-where") == "Hard, 2 players"


def test_a_cat_announces_meow_at_its_own_seat_and_the_swapper_pays(page: Any, site: str) -> None:
    # Three players, seat 2 deals: we draw first (a 5) and must try seat 1, who holds a cat.
    STACKS[3] = [deck("5", "cat", "7")]
    page.goto(f"{site}/slabberjan?seed={seed_for(3, 2)}")
    page.click("#players-button")
    page.click("[data-players='3']")
    give_up_if_asked(page)
    wait_bar(page, "Your turn: swap with Computer 1")
    page.keyboard.press("s")
    # the quick computers end the round soon after: read every bubble at the same moment
    bubbles, log = page.wait_for_function("""() => {
        const all = [...document.querySelectorAll('.sj-bubble')];
        return all.length && [all.map(b => [b.closest('.sj-seat').dataset.seat, b.textContent,
                                            b.querySelector('[data-piece]').dataset.piece]),
                              document.getElementById('log').textContent];
    }""").json_value()
    assert bubbles == [["1", "“meow”", "cat"]]
    assert "You pay a chip (the cat said “meow”)" in log and "Computer 1 holds a cat" in log


def test_options_reach_the_game_free_choice_lets_us_stand(page: Any, site: str) -> None:
    # Four players, seat 3 deals: we draw first, a 5. Without free choice we must swap.
    STACKS[4] = [deck("5", "6", "7", "8")] * 2
    page.goto(f"{site}/slabberjan?seed={seed_for(4, 3)}")
    page.click("#players-button")  # any number: the slider, then the deal button
    page.eval_on_selector("#players-range", """e => {
        e.value = '4'; e.dispatchEvent(new Event('input', {bubbles: true})); }""")
    assert text(page, "#players-ok") == "Deal with 4 players"
    page.click("#players-ok")
    give_up_if_asked(page)
    page.click("#chips-button")
    page.click("[data-chips='5']")
    give_up_if_asked(page)
    page.click("#free-choice")
    give_up_if_asked(page)
    wait_bar(page, "Your turn: swap with Computer 1, or stand")
    assert text(page, "#free-choice") == "Free choice: on"
    assert "free choice" in text(page, "#round")
    assert [text(page, f"{seat(s)} .sj-chips") for s in range(4)] == ["● 5"] * 4
    assert page.is_enabled("#swap") and page.is_enabled("#stand")
    page.keyboard.press("t")
    page.wait_for_function("() => document.getElementById('log').textContent.includes('You stand')")
    page.click("#free-choice")  # off again: a new game where our 5 must swap...
    # ...once we said so: we made a move, the game in play is given up only when we answer
    page.wait_for_selector("dialog.ask[open]")
    assert "Give up this game?" in text(page, "dialog.ask")
    assert page.evaluate("() => document.activeElement.textContent") == "Keep playing"
    page.keyboard.press("Escape")  # no: the game and its setting stay
    assert page.is_hidden("dialog.ask")
    assert text(page, "#free-choice") == "Free choice: on"
    page.click("#free-choice")
    page.click("dialog.ask button[value=yes]")
    wait_bar(page, "Your turn: swap with Computer 1")
    assert not text(page, "#bar").startswith("Your turn: swap with Computer 1, or stand")
    assert page.is_disabled("#stand")
    assert text(page, "#wins-where") == "Normal, 4 players"


def test_a_friends_seat_link_resumes_that_seat_in_another_tab(browser: Any, site: str) -> None:
    STACKS[3] = [deck("5", "cat", "7")]
    first = browser.new_context(viewport={"width": 1280, "height": 800})
    second = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        one = first.new_page()
        one.goto(f"{site}/slabberjan?seed={seed_for(3, 2)}")
        one.click("#players-button")
        one.click("[data-players='3']")
        give_up_if_asked(one)
        wait_bar(one, "Your turn: swap with Computer 1")
        token = one.evaluate("sessionStorage.getItem('parlour.slabberjan.token')")
        two = second.new_page()
        two.goto(f"{site}/slabberjan?token={token}")
        wait_bar(two, "Your turn: swap with Computer 1")
        assert text(two, "#my-what") == "Your piece: a 5"
        assert two.locator(".sj-seat").count() == 3
    finally:
        first.close()
        second.close()


def test_a_42_player_table_is_readable(page: Any, site: str, tmp_path: Any) -> None:
    page.goto(site + "/slabberjan")
    page.click("#players-button")
    page.click("[data-players='42']")
    give_up_if_asked(page)
    page.wait_for_function("() => document.querySelectorAll('.sj-seat').length === 42")
    page.wait_for_function("() => document.getElementById('round').textContent.startsWith('Round')")
    boxes = page.evaluate("""() => [...document.querySelectorAll('.sj-seat, #centre')].map(e => {
        const r = e.getBoundingClientRect();
        const name = e.querySelector('.sj-name');
        return {id: e.dataset.seat ?? 'centre', x0: r.left, y0: r.top, x1: r.right, y1: r.bottom,
                clipped: name ? name.scrollWidth > name.clientWidth : false,
                font: name ? parseFloat(getComputedStyle(name).fontSize) : 99};
    })""")
    assert len(boxes) == 43
    for i, a in enumerate(boxes):
        assert not a["clipped"], f"seat {a['id']} does not show its whole name"
        assert a["font"] >= 11, f"seat {a['id']} names in {a['font']}px"
        if a["id"] != "centre":
            assert a["x1"] - a["x0"] >= 60 and a["y1"] - a["y0"] >= 60, a
        for b in boxes[i + 1:]:
            apart = (a["x1"] <= b["x0"] or b["x1"] <= a["x0"]
                     or a["y1"] <= b["y0"] or b["y1"] <= a["y0"])
            assert apart, f"{a} overlaps {b}"
    page.screenshot(path=str(tmp_path / "slabberjan-42.png"))  # to look at when it fails
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    # our seat at the bottom middle, our left neighbour (seat 1) next clockwise, to its left
    me = next(b for b in boxes if b["id"] == "0")
    left = next(b for b in boxes if b["id"] == "1")
    assert me["y1"] >= max(b["y1"] for b in boxes) - 1
    assert left["x1"] <= me["x0"] + 1


# -- tables with friends: the page's side of the contract, against a stand-in socket ---------

FRIENDS = [{"name": "Ann", "kind": "person"}, {"name": "Bob", "kind": "person"},
           {"name": "Computer 2", "kind": "computer", "level": "normal"},
           {"name": "Cy", "kind": "person"}]


def stand_in_server(page: Any, welcome: dict[str, Any]) -> tuple[list[dict[str, Any]], list[Any]]:
    """Answers the page's first message with ``welcome``; returns what the page sent and the
    socket, to send more."""
    received: list[dict[str, Any]] = []
    sockets: list[Any] = []

    def handler(ws: Any) -> None:
        sockets.append(ws)

        def on_message(message: str | bytes) -> None:
            command = json.loads(message)
            if command.get("type") == "pong":
                return  # the page's answers to lag pings (lib/lag.js), not commands
            received.append(command)
            if len(received) == 1:
                ws.send(json.dumps(welcome))

        ws.on_message(on_message)

    page.route_web_socket("**/ws", handler)
    return received, sockets


def test_watching_waits_for_the_start_then_shows_the_public_table_with_controls_off(
        page: Any, site: str) -> None:
    game = Slabberjan(4, seed=3, options={"dealer": 3}, decks=[deck("5", "6", "7", "8")])
    received, sockets = stand_in_server(page, {
        "type": "welcome", "table": "T1", "game": "slabberjan", "seat": None, "level": "normal",
        "players": 4, "started": False, "seats": FRIENDS})
    page.goto(f"{site}/slabberjan?watch=T1")
    wait_bar(page, "Waiting for the table to start")
    assert received == [{"type": "watch", "table": "T1"}]
    assert page.is_visible("#watching") and text(page, "#watching") == "Watching"
    sockets[0].send(json.dumps({"type": "state", "events": [], "view": game.view(None)}))
    wait_bar(page, "Watching: Ann's turn")
    assert page.evaluate("document.body.dataset.state") == "watching"
    names = [text(page, f"{seat(s)} .sj-name") for s in range(4)]
    assert names == [friend["name"] for friend in FRIENDS]
    assert page.locator(".sj-seats [data-piece]").count() == 0  # no piece is public yet
    # the game's settings and moves; the hints and the sound are the spectator's own
    # (the quick reactions, which need a seat, are not shown to a spectator at all)
    buttons = page.locator(".controls button:not(#hints):not(#react-button):not([data-reaction]),"
                           " .sj-actions button")
    assert buttons.count() >= 8
    assert all(buttons.nth(i).is_disabled() for i in range(buttons.count()))
    events = game.apply(Swap(0))
    sockets[0].send(json.dumps({"type": "events", "view": game.view(None),
                                "events": [e.seen_by(None) for e in events]}))
    wait_bar(page, "Watching: Bob's turn")
    assert "Ann swapped with Bob." in text(page, "#log")
    page.keyboard.press("s")  # keys do nothing for a spectator
    page.wait_for_timeout(150)
    assert [m["type"] for m in received] == ["watch"]


def test_a_friends_seat_that_is_not_seat_0_sits_at_the_bottom_and_plays(
        page: Any, site: str) -> None:
    game = Slabberjan(4, seed=3, options={"dealer": 1}, decks=[deck("5", "6", "7", "8")])
    received, sockets = stand_in_server(page, {
        "type": "welcome", "table": "T2", "game": "slabberjan", "seat": 2, "level": "normal",
        "token": "secret-2", "players": 4, "seats": FRIENDS})
    page.goto(f"{site}/slabberjan?token=secret-2")
    page.wait_for_function("() => document.querySelectorAll('.sj-seat').length === 4")
    assert received == [{"type": "resume", "token": "secret-2"}]
    sockets[0].send(json.dumps({"type": "state", "events": [], "view": game.view(2)}))
    wait_bar(page, "Your turn: swap with Cy")  # seat 2 is left of the dealer, seat 1
    assert text(page, f"{seat(2)} .sj-name") == "You"
    # the table's settings are the host's; no wins are counted at a friends' table
    assert page.is_disabled("#new-game") and page.is_disabled("#players-button")
    assert page.is_hidden("#wins")
    assert text(page, "#my-what") == "Your piece: a 5"
    boxes = {s: page.locator(seat(s)).bounding_box() for s in range(4)}
    assert boxes[2]["y"] == max(b["y"] for b in boxes.values())  # ours at the bottom
    page.keyboard.press("s")
    page.keyboard.press("s")  # a second press before the answer sends nothing more
    for _ in range(50):
        if len(received) > 1:
            break
        page.wait_for_timeout(20)
    page.wait_for_timeout(100)
    assert received[1:] == [{"type": "action", "action": {"type": "swap"}}]
    assert page.is_disabled("#swap")
    events = game.apply(Swap(2))
    sockets[0].send(json.dumps({"type": "events", "view": game.view(2),
                                "events": [e.seen_by(2) for e in events]}))
    wait_bar(page, "Cy's turn")
    # what we learned in our swap stays below our piece
    assert text(page, "#learned") == "With Cy: you gave a 5, got a 6"
    assert text(page, "#my-what") == "Your piece: a 6"
    assert "You and Cy swapped: you gave a 5 and got a 6." in text(page, "#log")
    # Bob went away: the computer plays his seat meanwhile, and the table says so
    sockets[0].send(json.dumps({"type": "seats", "seats": [
        FRIENDS[0], {**FRIENDS[1], "away": True}, *FRIENDS[2:]]}))
    page.wait_for_function("() => document.querySelector('.sj-seat[data-seat=\"1\"] .sj-name')"
                           ".textContent === 'Bob (computer)'")
    # the table closes: nothing to come back to, and no game of our own is started
    sockets[0].send(json.dumps({"type": "error", "code": "bad_token",
                                "reason": "unknown or expired seat token"}))
    wait_bar(page, "This table has closed")
    page.wait_for_timeout(100)
    assert [m["type"] for m in received] == ["resume", "action"]
