"""Snapshots of a game: ``Game.clone``, ``copy.deepcopy`` and ``pickle`` give an independent
game that plays on exactly as the original, after any legal play of any of the three games.

Play is random legal actions of any seat, through ``apply`` (checked, with events) or
``push`` (the fast path a simulation or a planner takes); lengths are capped in the harness.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from play import games, play, random_action, snapshot

from parlour.engine import Action, Game
from parlour.games import GAMES
from parlour.games.splunk import Splunk

Copier = Callable[[Game], Game]
COPIERS: dict[str, Copier] = {
    "clone": lambda game: game.clone(),
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda game: pickle.loads(pickle.dumps(game)),
}


def play_both(a: Game, b: Game, rng: random.Random, moves: int) -> None:
    """Feeds ``a`` and ``b`` the same actions (chosen on ``a``), checking at every step
    that both give the same events, views and legal actions."""
    for _ in range(moves):
        action = random_action(a, rng)
        if action is None:
            assert all(not b.legal_actions(s) for s in range(b.players))
            break
        assert a.legal_actions(action.player) == b.legal_actions(action.player)
        assert a.apply(action) == b.apply(action)
        assert a.view(action.player) == b.view(action.player)
        assert a.view(None) == b.view(None)
    assert snapshot(a) == snapshot(b)


@settings(max_examples=80, deadline=None)
@given(games(), st.integers(0, 300), st.booleans(), st.sampled_from(sorted(COPIERS)),
       st.integers(0, 2**32 - 1))
def test_a_copy_plays_on_exactly_as_the_original(
        game: Game, moves: int, fast: bool, how: str, seed: int) -> None:
    play(game, random.Random(seed), moves, fast=fast)
    twin = COPIERS[how](game)
    assert type(twin) is type(game) and twin is not game
    if not fast:
        assert snapshot(twin) == snapshot(game)
    else:  # pushed moves made no events; everything else must agree
        assert twin.record() == game.record() and twin.outcome == game.outcome
    # the same further actions give the same events and views; chance (Slabberjan's
    # next deal, Slapjack's shuffles of a taken pile) draws the same outcomes
    play_both(game, twin, random.Random(seed + 1), 2_000)


@settings(max_examples=60, deadline=None)
@given(games(), st.integers(0, 200), st.sampled_from(sorted(COPIERS)), st.integers(0, 2**32 - 1))
def test_playing_a_copy_leaves_the_original_as_it_was(
        game: Game, moves: int, how: str, seed: int) -> None:
    play(game, random.Random(seed), moves)
    before = snapshot(game)
    twin = COPIERS[how](game)
    play(twin, random.Random(seed + 1), 2_000)
    assert snapshot(game) == before
    # and the other way round: the original's play leaves the copy where it was copied
    twin = COPIERS[how](game)
    play(game, random.Random(seed + 2), 2_000)
    assert snapshot(twin) == before


@settings(max_examples=30, deadline=None)
@given(games(), st.integers(0, 100), st.integers(0, 2**32 - 1))
def test_copies_of_copies_are_independent(game: Game, moves: int, seed: int) -> None:
    """A planner copies a copy (a tree of futures): no two of them share a state, and
    they draw their chance in any order yet each gets what the original would."""
    play(game, random.Random(seed), moves)
    first = game.clone()
    second = first.clone()
    third = pickle.loads(pickle.dumps(second))
    futures = []
    for twin in (third, game, second, first):  # the last copy made plays first
        play(twin, random.Random(seed + 1), 2_000)
        futures.append(snapshot(twin))
    assert all(f == futures[0] for f in futures)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_unseeded_game_copies_and_its_copy_draws_fresh_chance(name: str) -> None:
    """A live table's game has no seed (its chance comes from the OS's generator): it can
    be copied and pickled all the same, and the copy keeps nothing that predicts a card."""
    cls = GAMES[name]
    game = cls(cls.spec.default_players)
    play(game, random.Random(1), 30)
    before = snapshot(game)
    for how, copier in COPIERS.items():
        twin = copier(game)
        assert snapshot(twin) == before, how
        assert twin.chance.seed is None
        play(twin, random.Random(2), 500)  # draws from the OS as the original would
        assert snapshot(game) == before, how


def test_an_unseeded_splunk_copy_plays_on_exactly() -> None:
    """Splunk draws nothing after the deal, so even an unseeded copy is exact."""
    game = Splunk(2)
    play(game, random.Random(3), 50)
    play_both(game, copy.deepcopy(game), random.Random(4), 5_000)


def test_a_copy_is_not_a_replay() -> None:
    """Cloning copies the state: no rule runs (a game whose rules would refuse its own
    history, as a planner's edited one may, still clones)."""
    game = Splunk(2, seed=5)
    play(game, random.Random(5), 40)
    calls = []

    def spy(self: Splunk, action: Action, events: object) -> None:
        calls.append(action)

    doers, rules = Splunk._doers, Splunk._rules
    Splunk._doers = dict.fromkeys(doers, spy)
    Splunk._rules = {kind: (check, spy) for kind, (check, _) in rules.items()}
    try:
        twin = game.clone()
    finally:
        Splunk._doers, Splunk._rules = doers, rules
    assert calls == [] and twin.record() == game.record()
