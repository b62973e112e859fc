"""Property tests for Splunk: invariants that hold in every game random legal play reaches.

Game lengths are capped here, in the harness only; the rules themselves have no cap.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from parlour.engine import Action, Game
from parlour.games import replay
from parlour.games.splunk import VARIANTS, Play, Splunk, variant_deck

seeds = st.integers(min_value=0, max_value=2**32 - 1)
#: option ``variant``: every property holds for the small deck too
variants = st.sampled_from(sorted(VARIANTS))
CAP = 50_000  # actions; random play ends long before (under 400 on average, 5000 rarely)


def random_actions(game: Splunk, rng: random.Random, *, cap: int = CAP) -> Iterator[Action]:
    """Legal actions of either seat until the game ends or ``cap`` actions were taken.

    Half of the games pick uniformly among everything legal (many wrong and stale slaps);
    the other half mostly play, as people do, which reaches the end through long stacks.
    """
    mostly_play = rng.random() < 0.5
    for _ in range(cap):
        if game.winner is not None:
            return
        actions = game.legal_actions(0) + game.legal_actions(1)
        if mostly_play and rng.random() < 0.85:
            actions = [a for a in actions if isinstance(a, Play)] or actions
        yield rng.choice(actions)


def all_cards(game: Splunk) -> Counter[str]:
    return Counter([c for p in game.piles for c in p] + [c for s in game.stacks for c in s])


def views(game: Game) -> list[dict[str, Any]]:
    return [game.view(None), game.view(0), game.view(1)]


@settings(max_examples=60, deadline=None)
@given(seeds, st.booleans(), variants)
def test_every_card_is_always_accounted_for(seed: int, jokers: bool, variant: str) -> None:
    game = Splunk(2, seed=seed, options={"jokers": jokers, "variant": variant})
    deck = Counter(variant_deck(variant, jokers))
    assert all_cards(game) == deck
    for action in random_actions(game, random.Random(seed)):
        game.apply(action)
        assert all_cards(game) == deck
        view = game.view(None)
        assert sum(p["cards"] for p in view["players"]) + sum(
            s["cards"] for s in view["stacks"]) == len(variant_deck(variant, jokers))


@settings(max_examples=150, deadline=None)
@given(seeds, st.booleans(), variants)
def test_random_legal_play_ends_with_one_winner_who_has_no_cards(seed: int, jokers: bool,
                                                                 variant: str) -> None:
    game = Splunk(2, seed=seed, options={"jokers": jokers, "variant": variant})
    for action in random_actions(game, random.Random(seed)):
        game.push(action)
    assert game.outcome is not None, "random play did not end within the harness cap"
    winner = game.outcome.winner
    assert game.view(None)["winner"] == winner and game.view(None)["turn"] is None
    assert not game.piles[winner]
    assert game.legal_actions(0) == [] and game.legal_actions(1) == []


@settings(max_examples=60, deadline=None)
@given(seeds, st.booleans(), variants)
def test_replaying_the_record_reproduces_every_event(seed: int, jokers: bool,
                                                     variant: str) -> None:
    game = Splunk(2, seed=seed, options={"jokers": jokers, "variant": variant})
    for action in random_actions(game, random.Random(seed)):
        game.apply(action)
    record = game.record()
    again = replay(record)
    assert again.events == game.events
    assert views(again) == views(game)
    # Every chance outcome is in the record: another seed replays the same game (G2).
    assert replay({**record, "seed": seed + 1}).events == game.events


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_fast_push_path_reaches_the_same_state_as_checked_apply(seed: int) -> None:
    checked, fast = Splunk(2, seed=seed), Splunk(2, seed=seed)
    for action in random_actions(checked, random.Random(seed)):
        checked.apply(action)
        fast.push(action)
        assert views(fast) == views(checked)
    assert fast.record() == checked.record()


@settings(max_examples=60, deadline=None)
@given(seeds, st.booleans(), st.integers(min_value=1, max_value=400), variants)
def test_views_and_events_are_identical_when_only_hidden_cards_differ(
        seed: int, jokers: bool, length: int, variant: str) -> None:
    """G3: swap the cards nobody has seen (in piles and face-down bases); nothing shows it."""
    first = Splunk(2, seed=seed, options={"jokers": jokers, "variant": variant})
    scratch = Splunk(2, seed=seed, options={"jokers": jokers, "variant": variant})
    actions = []
    for action in random_actions(scratch, random.Random(seed), cap=length):
        scratch.push(action)
        actions.append(action)
    first_views = [views(first)]
    for action in actions:
        first.apply(action)
        first_views.append(views(first))
    shown = {c for e in first.events for key in ("card", "base", "cards")
             for c in _as_list(e.public().get(key))}
    deck = first.record()["decks"][0]
    hidden = [i for i, c in enumerate(deck) if c not in shown]
    assume(len(hidden) >= 2)
    cards = [deck[i] for i in hidden]
    turn = random.Random(seed).randrange(1, len(cards))
    cards = cards[turn:] + cards[:turn]  # a rotation, unlike a shuffle, always moves them
    other_deck = list(deck)
    for i, card in zip(hidden, cards, strict=True):
        other_deck[i] = card
    assert other_deck != deck

    second = Splunk(2, decks=[other_deck], options=first.options)
    second_views = [views(second)]
    for action in actions:
        second.apply(action)
        second_views.append(views(second))
    assert second_views == first_views
    for seat in (None, 0, 1):
        assert [e.seen_by(seat) for e in second.events] == [e.seen_by(seat) for e in first.events]


def _as_list(value: object) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
