"""Chance as explicit nodes: what a game drew, when and from what set, and a planner that
chooses every chance outcome itself (as OpenSpiel's games let CFR enumerate them)."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from play import games, play, random_action, snapshot

from parlour.engine import Action, ChanceOutcome, ChanceRequest, Game, IllegalAction
from parlour.games import GAMES, replay
from parlour.games.slabberjan import Slabberjan
from parlour.games.splunk import Play, Splunk


def chance_options(cls: type[Game], players: int, rng: random.Random) -> dict[str, Any]:
    """Every chance option given (the first dealer or player), as a planner gives them."""
    return {opt.name: rng.randrange(players) for opt in cls.spec.options if opt.chance}


def choose(request: ChanceRequest, rng: random.Random) -> list[Any]:
    """One outcome of a chance node, drawn card by card from ``next_card``'s odds."""
    order: list[Any] = []
    while True:
        odds = request.next_card(order)
        if not odds:
            return order
        assert math.isclose(sum(p for _, p in odds), 1.0)
        cards, weights = zip(*odds, strict=True)
        order.append(rng.choices(cards, weights)[0])


@settings(max_examples=60, deadline=None)
@given(games(), st.integers(0, 400), st.integers(0, 2**32 - 1))
def test_a_game_is_exactly_its_history_of_chance_and_actions(
        game: Game, moves: int, seed: int) -> None:
    play(game, random.Random(seed), moves)
    trajectory = game.trajectory()
    actions = [step for step in trajectory if isinstance(step, Action)]
    drawn = [step for step in trajectory if isinstance(step, ChanceOutcome)]
    assert actions == game.history
    record = game.record()
    assert [d.outcome for d in drawn if d.kind == "deck"] == record["decks"]
    assert [d.outcome for d in drawn if d.kind == "shuffle"] == record["shuffles"]
    last: int | None = None  # the index of the latest action so far
    for step in trajectory:
        if isinstance(step, Action):
            last = 0 if last is None else last + 1
        else:  # a draw comes right after the action it was drawn in (the setup's first)
            assert step.at == last
    for d in drawn:
        if d.kind != "choice":
            assert sorted(d.outcome) == list(d.request.cards)
        else:
            assert 0 <= d.outcome < d.n
    # the record of those outcomes replays the same game, chance and all
    again = replay(record)
    assert [(d.kind, d.at, d.outcome) for d in again.chance.drawn if d.kind != "choice"] == [
        (d.kind, d.at, d.outcome) for d in drawn if d.kind != "choice"]
    assert snapshot(again) == snapshot(game)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(2, 8), st.integers(0, 2**32 - 1))
def test_a_planner_that_chooses_every_chance_outcome_plays_a_whole_game(
        name: str, players: int, seed: int) -> None:
    """Every deal and shuffle is a chance node the planner resolves card by card; the
    game it builds draws nothing itself, and its trajectory holds exactly those choices."""
    cls = GAMES[name]
    players = max(cls.spec.players[0], min(players, cls.spec.players[1]))
    rng = random.Random(seed)
    options = chance_options(cls, players, rng)
    chosen: list[list[Any]] = []
    while (request := cls.setup_chance(players, options=options, chosen=chosen)) is not None:
        assert request.kind == "deck" and request.at is None
        chosen.append(choose(request, rng))
    game = cls(players, options=options, decks=chosen)
    choices = [*chosen]
    for _ in range(600):
        action = random_action(game, rng)
        if action is None:
            break
        before = (len(game.history), len(game.chance.drawn), game.view(None), game.view(0))
        outcomes: list[list[Any]] = []
        kinds = []
        while (request := game.chance_for(action, outcomes)) is not None:
            assert request.at == len(game.history)
            kinds.append(request.kind)
            outcomes.append(choose(request, rng))
        # asking changed nothing
        assert (len(game.history), len(game.chance.drawn), game.view(None),
                game.view(0)) == before
        for kind, order in zip(kinds, outcomes, strict=True):
            game.chance.stack(kind, order)
        drawn = len(game.chance.drawn)
        game.apply(action)
        assert [d.outcome for d in game.chance.drawn[drawn:]] == outcomes
        choices += outcomes
    assert [d.outcome for d in game.chance.drawn if d.kind != "choice"] == choices


def test_chance_for_says_which_actions_draw() -> None:
    """In Slabberjan the dealer's last move ends the round and deals again: that action is
    a chance node (42 pieces, two of each kind), the others are not."""
    game = Slabberjan(3, seed=4, options={"dealer": 0})
    rng = random.Random(4)
    seen_deal = False
    for _ in range(60):
        action = random_action(game, rng)
        if action is None:
            break
        request = game.chance_for(action)
        probe = game.clone()
        drawn = len(probe.chance.drawn)
        probe.apply(action)
        assert (request is not None) == (len(probe.chance.drawn) > drawn)
        if request is not None:
            seen_deal = True
            assert request.kind == "deck" and len(request.cards) == 42
            assert request.size == math.factorial(42) // 2**21
            assert request.probability == 1 / request.size
        game.apply(action)
    assert seen_deal


def test_a_chance_option_not_given_is_a_choice_node() -> None:
    assert Splunk.setup_chance(2) == ChanceRequest("choice", None, n=2)
    request = Splunk.setup_chance(2, options={"first": 1})
    assert request is not None and request.kind == "deck" and len(request.cards) == 52
    jokers = Splunk.setup_chance(2, options={"first": 1, "jokers": True})
    assert jokers is not None and jokers.size == math.factorial(54)  # the jokers differ


def test_bad_chance_input_is_refused_and_changes_nothing() -> None:
    game = Splunk(2, seed=3)
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="turn"):
        game.chance_for(Play(1 - game.options["first"], stack=0))
    with pytest.raises(ValueError, match="outcomes were chosen"):
        game.chance_for(Play(game.options["first"], stack=0), [["AS"]])
    with pytest.raises(ValueError, match="not a beginning"):
        ChanceRequest("deck", None, ("AS", "KD")).next_card(["AS", "AS"])
    assert snapshot(game) == before


def test_a_reseeded_copy_deals_its_own_future() -> None:
    """A planner's copy that must not know the original's next deal draws from a new
    generator; the original's future is unchanged."""
    game = Slabberjan(3, seed=8, options={"dealer": 0})
    same, other = game.clone(), game.clone()
    other.chance.reseed(99)
    for twin in (game, same, other):
        play(twin, random.Random(1), 200)
    assert game.record() == same.record()
    assert other.record()["decks"][0] == game.record()["decks"][0]
    assert other.record()["decks"][1:] != game.record()["decks"][1:]
