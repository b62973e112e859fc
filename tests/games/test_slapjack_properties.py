"""Slapjack invariants under random legal play (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour import replay
from parlour.engine import Action
from parlour.engine.cards import standard_deck
from parlour.games.slapjack import Flip, Slap, Slapjack

#: a cap for the harness only: the rules themselves have no move limit
MAX_ACTIONS = 20_000

seeds = st.integers(min_value=0, max_value=2**32 - 1)
tables = st.integers(min_value=2, max_value=6)


def random_actions(game: Slapjack, rng: random.Random) -> Iterator[Action]:
    """Random legal play with every kind of slap: on Jacks, wrong, late and bare."""
    while game.outcome is None:
        view = game.view(None)
        seats = [s for s, p in enumerate(view["players"]) if not p["out"]]
        roll = rng.random()
        if (view["slappable"] and roll < 0.6) or roll < 0.08:
            at: int | None = rng.choice([view["flips"], view["flips"], None,
                                         max(0, view["flips"] - 1)])
            yield Slap(rng.choice(seats), at=at)
        elif view["turn"] is not None:
            yield Flip(view["turn"])


def play(game: Slapjack, seed: int, *, checked: bool = True) -> Slapjack:
    for n, action in enumerate(random_actions(game, random.Random(seed))):
        assert n < MAX_ACTIONS, "game did not end"
        if checked:
            game.apply(action)
        else:
            game.push(action)
    return game


@settings(max_examples=60, deadline=None)
@given(seeds, tables, seeds)
def test_all_52_cards_are_always_accounted_for(seed: int, players: int, policy: int) -> None:
    game = Slapjack(players, seed=seed)
    full = Counter(standard_deck())
    for n, action in enumerate(random_actions(game, random.Random(policy))):
        assert n < MAX_ACTIONS
        game.apply(action)
        held = Counter(game.pile)
        for stack, out in zip(game.stacks, game.out, strict=True):
            held.update(stack)
            assert not (out and stack), "a player who is out holds no cards"
        assert held == full


@settings(max_examples=60, deadline=None)
@given(seeds, tables, seeds)
def test_random_legal_play_ends_with_exactly_one_winner(seed: int, players: int,
                                                        policy: int) -> None:
    game = play(Slapjack(players, seed=seed), policy)
    assert game.outcome is not None
    still_in = [s for s in range(players) if not game.out[s]]
    assert still_in == [game.outcome.winner]
    assert game.view(None)["winner"] == game.outcome.winner


@settings(max_examples=40, deadline=None)
@given(seeds, tables, seeds)
def test_replaying_the_record_reproduces_every_event(seed: int, players: int,
                                                     policy: int) -> None:
    game = play(Slapjack(players, seed=seed), policy)
    again = replay(game.record())
    assert again.events == game.events
    assert again.view(None) == game.view(None)


@settings(max_examples=40, deadline=None)
@given(seeds, tables, seeds)
def test_the_fast_path_plays_the_same_game_as_the_checked_one(seed: int, players: int,
                                                             policy: int) -> None:
    checked = play(Slapjack(players, seed=seed), policy)
    fast = play(Slapjack(players, seed=seed), policy, checked=False)
    assert fast.view(None) == checked.view(None)
    assert fast.record() == checked.record()


@settings(max_examples=60, deadline=None)
@given(seeds, tables, seeds, st.integers(min_value=0, max_value=300), st.randoms())
def test_a_view_is_identical_when_only_hidden_cards_differ(
        seed: int, players: int, policy: int, length: int, pick: random.Random) -> None:
    game = Slapjack(players, seed=seed)
    actions = random_actions(game, random.Random(policy))
    for _, action in zip(range(length), actions, strict=False):
        game.apply(action)
    seen = {e.data["card"] for e in game.events if e.type == "flip"}
    hidden = [c for c in standard_deck() if c not in seen]
    if len(hidden) < 2:
        return
    x, y = pick.sample(hidden, 2)
    swap = {x: y, y: x}
    record = game.record()
    twin = {**record, "decks": [[swap.get(c, c) for c in d] for d in record["decks"]],
            "shuffles": [[swap.get(c, c) for c in s] for s in record["shuffles"]]}
    other = replay(twin)
    assert (other.stacks, other.pile) != (game.stacks, game.pile)  # the twin really differs
    assert [e.public() for e in other.events] == [e.public() for e in game.events]
    for seat in [None, *range(players)]:
        assert other.view(seat) == game.view(seat)
