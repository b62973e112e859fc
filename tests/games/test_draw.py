"""A game may end in a draw: an outcome with no winner (none of Parlour's three games can
draw, so a toy game shows it, tests/toy.py). Its JSON keeps the record spec's shape, and the
game behaves as any finished game."""

from __future__ import annotations

import pytest
from toy import Knock, Pebbles, PebblesTermination, Take, Truce

from parlour.engine import Outcome
from parlour.games import GAMES, replay


def drawn_game() -> Pebbles:
    game = Pebbles(2, options={"pebbles": 4})
    game.apply(Take(0, 2))
    game.apply(Knock(0, at=1))
    game.apply(Truce(1))
    return game


def test_a_draw_is_an_outcome_with_no_winner_that_says_so() -> None:
    game = drawn_game()
    assert game.outcome == Outcome(None, PebblesTermination.TRUCE)
    assert game.outcome.draw and game.winner is None
    # shared/spec/records.md: an outcome has a winner, null for a draw
    assert game.outcome.to_json() == {"winner": None, "termination": "truce", "draw": True}
    won = Pebbles(2, options={"pebbles": 2})
    won.apply(Take(0, 2))
    assert won.outcome is not None and not won.outcome.draw
    assert won.outcome.to_json() == {"winner": 0, "termination": "last_pebble"}


def test_after_a_draw_nothing_is_open_and_every_move_is_refused_as_over() -> None:
    game = drawn_game()
    assert all(game.legal_actions(seat) == [] for seat in range(2))
    assert game.view(0)["legal"] == [] and not game.offers(0, {"take", "knock"})
    for action in (Take(0, 1), Knock(1), Truce(0)):
        assert game.why_illegal(action) == "the game is over"
    assert repr(game).endswith("over>")


def test_a_drawn_game_replays_from_its_record_to_the_same_outcome(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "pebbles", Pebbles)  # type: ignore[index]
    game = drawn_game()
    again = replay(game.record())
    assert again.outcome == game.outcome and again.history == game.history
