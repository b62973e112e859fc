"""Each rule stated once (issue 20): the copies of a rule that a game keeps for speed agree
with the one statement. Legality, for every registered game, is pinned in
``tests/games/test_legality.py``; these are the other copies: Slabberjan's view (the turn
order, the matador), Splunk's slap written out in ``_do_play`` and its play event built
without its constructor, and Slabberjan's table of open actions.
"""

from __future__ import annotations

import pickle
import random
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st
from play import states

from parlour.games.slabberjan import MATADORS, OPEN, Case, Draw, Slabberjan, Stand, Swap, refusal
from parlour.games.splunk import Play, PlayEvent, Splunk, slap_kind

seeds = st.integers(min_value=0, max_value=2**32 - 1)
MOVES = 400  # per game, in the harness only


def check_slabberjan_view(game: Slabberjan) -> None:
    """The view carries the turn order and whether the seat's piece is a matador, so that
    no page works them out: the same for every seat (public), and what the rules say."""
    public = game.view(None)
    order = public["to_play"]
    if game.turn is None:
        assert order == []
    else:
        assert order[0] == game.turn and order[-1] == game.dealer
        assert len(set(order)) == len(order)
        assert all(not game.out[s] for s in order)
        lefts = [p["left"] for p in public["players"]]
        assert all(lefts[a] == b for a, b in pairwise(order))
    assert public["matador"] is False
    for seat in range(game.players):
        view = game.view(seat)
        assert view["to_play"] == order
        assert view["matador"] == (view["piece"] is not None and view["piece"] in MATADORS)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=st.sampled_from([2, 3, 5, 8, 42]), free=st.booleans(),
       chips=st.integers(1, 3))
def test_slabberjan_view_says_the_turn_order_and_the_matador(seed: int, players: int,
                                                              free: bool, chips: int) -> None:
    game = Slabberjan(players, seed=seed, options={"free_choice": free, "chips": chips})
    for state in states(game, random.Random(seed), MOVES):
        check_slabberjan_view(state)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, jokers=st.booleans())
def test_splunk_inline_slap_kind_is_slap_kind(seed: int, jokers: bool) -> None:
    # _do_play writes slap_kind out for speed: the slap every play opens is slap_kind's
    game = Splunk(2, seed=seed, options={"jokers": jokers})
    rng = random.Random(seed)
    for k in range(MOVES):
        if game.winner is not None:
            break
        action = rng.choice(game.legal_actions(0) + game.legal_actions(1))
        if not isinstance(action, Play):
            game.push(action)
            continue
        events = game.apply(action) if k % 2 else []
        if not events:
            game.push(action)
        kind = slap_kind(game.stacks[action.stack])
        assert [e.data["kind"] for e in events if e.type == "play"] in ([], [kind])
        assert game.open_slap == (kind if game.winner is None else None)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, jokers=st.booleans())
def test_splunk_play_event_written_out_is_play_event(seed: int, jokers: bool) -> None:
    # _do_play fills a PlayEvent's slots itself for speed: what it builds is the event the
    # constructor makes, to every reader (equality, data, the JSON a seat is sent, repr,
    # a pickle's copy)
    game = Splunk(2, seed=seed, options={"jokers": jokers})
    rng = random.Random(seed)
    for _ in range(MOVES):
        if game.winner is not None:
            break
        action = rng.choice(game.legal_actions(0) + game.legal_actions(1))
        events = game.apply(action)
        if not isinstance(action, Play):
            continue
        stack = game.stacks[action.stack]
        made = PlayEvent(action.player, action.stack, stack[-1], game.plays, slap_kind(stack))
        event = events[0]
        assert event == made and event.data == made.data and repr(event) == repr(made)
        assert event.seen_by(0) == made.seen_by(None) == made.public()
        assert pickle.loads(pickle.dumps(event)) == made


def test_slabberjan_table_is_refusal() -> None:
    # OPEN, which legal_actions reads, is refusal's answers in every case
    kinds = (Swap, Draw, Stand)
    for case, open_ in OPEN.items():
        c: Case = case
        assert open_ == tuple(k for k in kinds if refusal(k, *c) is None)
        assert open_, "every turn has an action"
    assert len(OPEN) == 16
