"""Property tests for Slabberjan: invariants that hold in every game, whatever the deal.

Games are random legal play from seeded generators; lengths are capped here only, in the
harness.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.engine import Action
from parlour.games import replay
from parlour.games.slabberjan import (
    FOOL,
    MATADORS,
    PIECES,
    VARIANT_PIECES,
    Slabberjan,
    pay_line,
    payers,
    pays,
)

MAX_ACTIONS = 50_000  # far beyond any game seen; only a harness guard

def variant_tables(variant: str, players: st.SearchStrategy[int]
                   ) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({
        "variant": st.just(variant),
        "players": players,
        "chips": st.integers(1, 3),
        "free_choice": st.booleans(),
        "seed": st.integers(0, 2**32),
        "play": st.integers(0, 2**32),
    })


# every variant (option ``variant``), at every size it allows (the small one has 12 pieces)
tables = st.one_of(
    variant_tables("full", st.one_of(st.integers(2, 8), st.sampled_from([17, 41, 42]))),
    variant_tables("medium", st.integers(2, 18)),
    variant_tables("small", st.integers(2, 12)),
)


def start(table: dict[str, Any]) -> Slabberjan:
    return Slabberjan(table["players"], seed=table["seed"],
                      options={"chips": table["chips"], "free_choice": table["free_choice"],
                               "variant": table["variant"]})


def random_move(game: Slabberjan, rng: random.Random) -> Action:
    assert game.turn is not None
    return rng.choice(game.legal_actions(game.turn))


def accounted(game: Slabberjan) -> Counter[str]:
    """Every piece is in a hand, in the bag, or set aside."""
    return Counter([p for p in game.hands if p is not None] + game.bag_left + game.set_aside)


@settings(max_examples=200, deadline=None)
@given(tables)
def test_pieces_and_chips_are_conserved_and_one_winner_takes_everything(
        table: dict[str, Any]) -> None:
    game = start(table)
    rng = random.Random(table["play"])
    total = table["players"] * table["chips"]
    everything = Counter(VARIANT_PIECES[table["variant"]])
    for _ in range(MAX_ACTIONS):
        if game.winner is not None:
            break
        game.apply(random_move(game, rng))
        assert accounted(game) == everything
        assert sum(game.chips) + game.pot == total
        assert all(c >= 0 for c in game.chips)
    assert game.winner is not None
    assert game.chips[game.winner] == total and game.pot == 0
    assert game.out.count(False) == 1 and not game.out[game.winner]
    assert game.outcome is not None and game.outcome.winner == game.winner


@settings(max_examples=100, deadline=None)
@given(tables, st.integers(0, 400))
def test_g2_replaying_the_record_reproduces_every_event(
        table: dict[str, Any], length: int) -> None:
    game = start(table)
    rng = random.Random(table["play"])
    while game.winner is None and len(game.history) < length:
        game.apply(random_move(game, rng))
    record = json.loads(json.dumps(game.record()))
    again = replay(record)
    assert again.events == game.events
    assert [again.view(s) for s in [None, *range(game.players)]] == [
        game.view(s) for s in [None, *range(game.players)]]


@settings(max_examples=100, deadline=None)
@given(tables, st.integers(0, 400))
def test_the_fast_push_path_reaches_the_same_state_as_apply(
        table: dict[str, Any], length: int) -> None:
    checked, fast = start(table), start(table)
    rng = random.Random(table["play"])
    while checked.winner is None and len(checked.history) < length:
        action = random_move(checked, rng)
        checked.apply(action)
        fast.push(action)
    assert fast.record() == checked.record()
    assert [fast.view(s) for s in [None, *range(fast.players)]] == [
        checked.view(s) for s in [None, *range(checked.players)]]


def first_deal_prefix(game: Slabberjan, rng: random.Random) -> list[Action]:
    """Random legal actions up to, not including, the one that ends the first deal."""
    prefix: list[Action] = []
    while True:
        action = random_move(game, rng)
        game.apply(action)
        if game.deals != 1 or game.round != 1 or game.winner is not None:
            return prefix
        prefix.append(action)


def what_seat_saw(game: Slabberjan, seat: int | None) -> set[str]:
    """Every piece named in what ``seat`` was told privately."""
    if seat is None:
        return set()
    return {value for event in game.events for value in event.private.get(seat, {}).values()
            if isinstance(value, str)}


def trace(game: Slabberjan, seat: int | None, actions: list[Action]) -> list[Any]:
    """What ``seat`` is shown along ``actions``: its view after each, and its events."""
    out: list[Any] = [game.view(seat), [e.seen_by(seat) for e in game.events]]
    for action in actions:
        assert game.is_legal(action)
        out.append([e.seen_by(seat) for e in game.apply(action)])
        out.append(game.view(seat))
    return out


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(VARIANT_PIECES)), st.integers(2, 12), st.booleans(),
       st.integers(0, 2**32), st.data())
def test_g3_a_view_does_not_change_when_only_pieces_hidden_from_it_differ(
        variant: str, players: int, free_choice: bool, play: int, data: st.DataObject,
) -> None:
    options = {"dealer": 0, "free_choice": free_choice, "variant": variant}
    deck = data.draw(st.permutations(VARIANT_PIECES[variant]), label="deck")

    def fresh(order: list[str]) -> Slabberjan:
        return Slabberjan(players, seed=1, options=options, decks=[order])

    prefix = first_deal_prefix(fresh(deck), random.Random(play))
    seat = data.draw(st.sampled_from([None, *range(players)]), label="seat")
    seen_game = fresh(deck)
    for action in prefix:
        seen_game.apply(action)
    seen = what_seat_saw(seen_game, seat)
    # Shuffle, among themselves, the pieces this seat never saw: other seats' pieces and the
    # bag. Matadors and fools stay put: they are announced in public when they act.
    hidden = [i for i, p in enumerate(deck)
              if p not in seen and p not in MATADORS and p != FOOL]
    moved = data.draw(st.permutations(hidden), label="moved")
    other = list(deck)
    for i, j in zip(hidden, moved, strict=True):
        other[i] = deck[j]
    assert trace(fresh(other), seat, prefix) == trace(fresh(deck), seat, prefix)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=2, max_size=42))
def test_s10_seen_from_any_seat_agrees_with_the_payers_of_the_whole_table(
        pieces: list[str]) -> None:
    """The payers of a round (what the engine charges) are exactly the seats whose piece is
    under the pay line of the others (what a computer player reasons with): one rule."""

    hands = dict(enumerate(pieces))
    due = payers(hands)
    for seat, piece in hands.items():
        others = [p for s, p in hands.items() if s != seat]
        assert (seat in due) == pays(piece, pay_line(others))
