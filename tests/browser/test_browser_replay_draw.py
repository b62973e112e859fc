"""The replay page of a finished game says who won, or that it was a draw (an outcome whose
winner is null, shared/spec/records.md): as the server writes it and once the page's script
has drawn it. None of the three games can draw, so the stored outcome of a finished game is
one a game that can draw would keep."""

from __future__ import annotations

from typing import Any

import httpx
from conftest import running

from parlour.games.slapjack import Flip, Slap, Slapjack
from parlour.live import Lobby
from parlour.store import StoredSeat, StoredTable
from parlour.web import create_app


def finished(lobby: Lobby, table: str, outcome: dict[str, object]) -> None:
    """A finished Slapjack game in the lobby's store, kept with ``outcome``."""
    game = Slapjack(2, seed=5)
    while game.outcome is None:
        view = game.view(None)
        if view["slappable"]:
            game.apply(Slap(view["flips"] % 2, at=view["flips"]))
        else:
            game.apply(Flip(view["turn"]))
    record = game.record()
    lobby.store.new_table(StoredTable(
        table, "slapjack", 2, record["options"], "normal", friends=True, seed=None,
        decks=record["decks"], shuffles=record["shuffles"],
        seats=[StoredSeat("Ann", "person"), StoredSeat("Bob", "person")]))
    actions = record["actions"]
    for n, action in enumerate(actions):
        lobby.store.add_action(table, n, action, t=n * 0.5,
                               outcome=outcome if n == len(actions) - 1 else None)


def test_the_replay_page_says_who_won_or_that_it_was_a_draw() -> None:
    lobby = Lobby()
    finished(lobby, "won", {"winner": 1, "termination": "last_player_standing"})
    finished(lobby, "drawn", {"winner": None, "termination": "truce", "draw": True})
    with running(create_app(lobby=lobby)) as url, httpx.Client(base_url=url) as http:
        won = http.get("/games/won")
        assert won.status_code == 200 and "Won by <strong><bdi>Bob</bdi></strong>." in won.text
        drawn = http.get("/games/drawn")
        assert drawn.status_code == 200
        assert "A draw." in drawn.text and "Won by" not in drawn.text
        assert http.get("/games/drawn.json").json()["outcome"]["draw"] is True


def test_the_replay_page_drawn_by_its_script_says_it_was_a_draw(page: Any) -> None:
    lobby = Lobby()
    finished(lobby, "drawn", {"winner": None, "termination": "truce", "draw": True})
    finished(lobby, "won", {"winner": 1, "termination": "last_player_standing"})
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    with running(create_app(lobby=lobby)) as url:
        for table, said in (("drawn", "A draw."), ("won", "Won by Bob.")):
            page.goto(f"{url}/games/{table}")
            page.wait_for_selector("#replay-controls:not([hidden])")  # the script ran
            who = page.text_content("#replay-who")
            assert who is not None and said in who, who
            assert ("Won by" in who) == (table == "won")
    assert problems == []
