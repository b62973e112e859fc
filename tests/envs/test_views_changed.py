"""A game's ``views_changed`` (from its ``no_change_events``) tells exactly what its views
show: the environments and the scheduler skip making and comparing views on that word, so a
wrong one would time a reaction from a change nobody saw, or miss one."""

from __future__ import annotations

import random

import pytest

from parlour.engine import GameError
from parlour.games import new_game


@pytest.mark.parametrize(("game", "players"), [("splunk", 2), ("slapjack", 2),
                                               ("slapjack", 4)])
def test_an_action_changes_every_view_unless_its_events_say_it_changed_nothing(
        game: str, players: int) -> None:
    seats: list[int | None] = [*range(players), None]
    unchanged = changed = 0
    for seed in range(20):
        rng = random.Random(seed)
        g = new_game(game, players=players, seed=seed)
        while g.outcome is None:
            seat = rng.randrange(players)
            legal = g.legal_json(seat)
            if not legal:
                continue
            obj = dict(rng.choice(legal))
            if "at" in obj and rng.random() < 0.3:
                obj["at"] = max(0, obj["at"] - 1)  # a slap that lost its race: ignored
            before = [g.view(s) for s in seats]
            try:
                events = g.apply_json(obj, player=seat)
            except GameError:
                continue
            after = [g.view(s) for s in seats]
            said = g.views_changed(events)
            assert said is not None
            if not said:
                unchanged += 1
                assert after == before, (seed, obj, events)
            else:
                changed += 1
                assert all(a != b for a, b in zip(after, before, strict=True)), (seed, obj)
    assert unchanged and changed  # both kinds were played


def test_a_game_whose_views_differ_by_seat_says_nothing_and_is_compared() -> None:
    # Slabberjan's seats see different things (their own piece, what they learned in a
    # swap): the events cannot say whose view changed, so the readers compare views
    game = new_game("slabberjan", players=3, seed=1)
    seat = game.turn
    assert seat is not None
    events = game.apply_json(dict(game.legal_json(seat)[0]), player=seat)
    assert game.no_change_events is None and game.views_changed(events) is None
