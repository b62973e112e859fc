"""Splunk's view is built for speed from state the game keeps (each stack's face-up total,
:attr:`Splunk.up_totals`); here it is compared with the view recomputed plainly from the
stacks and piles, on every state random play reaches, through every path that changes a
stack (a play, a call, a right, wrong or stale slap, a win) and through clones and pickles.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.games.splunk import VARIANTS, Play, Splunk, SplunkTermination, total21

seeds = st.integers(min_value=0, max_value=2**32 - 1)
MOVES = 400  # per game, in the harness only


def plain_view(game: Splunk, seat: int | None) -> dict[str, Any]:
    """The view as its docstring describes it, every part recomputed from the piles and
    stacks (each total added up again), nothing kept."""
    last = None if game.last_player is None else {
        "stack": game.last_stack, "player": game.last_player}
    call_on = game.last_stack if game.may_call(seat) else None
    slap_on = game.last_stack if game.open_slap is not None else None
    return {
        "game": "splunk",
        "seat": seat,
        "jokers": game.options["jokers"],
        "first": game.options["first"],
        "variant": game.options["variant"],
        "target": VARIANTS[game.options["variant"]][1],
        "players": [{"cards": len(pile)} for pile in game.piles],
        "stacks": [{"cards": len(stack), "base": bool(stack), "up": list(stack[1:]),
                    "up_total": total21(stack[1:]), "call_open": i == call_on,
                    "slap": game.open_slap if i == slap_on else None}
                   for i, stack in enumerate(game.stacks)],
        "turn": game.turn,
        "plays": game.plays,
        "last_play": last,
        "call_open": game.call_open(),
        "slap_open": slap_on,
        "slap_kind": game.open_slap,
        "winner": game.winner,
        "legal": game.legal_json(seat),
    }


def containers(obj: Any) -> list[Any]:
    """Every dict and list inside ``obj``, ``obj`` included."""
    if isinstance(obj, dict):
        return [obj, *(c for value in obj.values() for c in containers(value))]
    if isinstance(obj, list):
        return [obj, *(c for value in obj for c in containers(value))]
    return []


def check_views(game: Splunk) -> None:
    for seat in (None, 0, 1):
        view, plain = game.view(seat), plain_view(game, seat)
        # repr as well: the same keys in the same order and True, not 1, for "base"
        assert view == plain and repr(view) == repr(plain)
        # a fresh view each time, nothing in it shared with another view or with the game
        again = game.view(seat)
        assert not {id(c) for c in containers(view)} & {id(c) for c in containers(again)}
        assert not {id(c) for c in containers(view)} & {id(s) for s in game.stacks}


def random_action(game: Splunk, rng: random.Random, mostly_play: bool) -> Any:
    actions = game.legal_actions(0) + game.legal_actions(1)
    if mostly_play and rng.random() < 0.85:
        actions = [a for a in actions if isinstance(a, Play)] or actions
    return rng.choice(actions)


@settings(max_examples=40, deadline=None)
@given(seeds, st.booleans(), st.booleans())
def test_the_view_is_the_plain_recomputation_on_every_state(seed: int, jokers: bool,
                                                             mostly_play: bool) -> None:
    rng = random.Random(seed)
    game = Splunk(2, seed=seed, options={"jokers": jokers})
    check_views(game)
    for move in range(MOVES):
        if game.winner is not None:
            break
        action = random_action(game, rng, mostly_play)
        if rng.random() < 0.5:
            game.apply(action)
        else:
            game.push(action)
        check_views(game)
        if move % 50 == 25:
            # a clone and a pickle go on as the game does, and leave it alone
            copy = game.clone() if rng.random() < 0.5 else pickle.loads(pickle.dumps(game))
            for _ in range(rng.randrange(1, 30)):
                if copy.winner is not None:
                    break
                copy.push(random_action(copy, rng, mostly_play))
                check_views(copy)
            check_views(game)
    # what a view reads after the game's end too (no card for a base: an empty stack)
    if game.winner is not None:
        check_views(game)


def test_random_play_reaches_every_path_that_changes_a_stack() -> None:
    # the harness above is only as good as the paths it takes: these seeds take them all
    kinds: set[str] = set()
    endings: set[str] = set()
    for seed in range(20):
        rng = random.Random(seed)
        game = Splunk(2, seed=seed, options={"jokers": seed % 2 == 0})
        for _ in range(5000):
            if game.winner is not None:
                break
            kinds.update(e.type for e in game.apply(random_action(game, rng, seed % 4 < 2)))
            check_views(game)
        if game.outcome is not None:
            endings.add(game.outcome.termination.value)
    assert {"play", "call", "slap", "wrong_slap", "slap_ignored", "base", "win"} <= kinds
    assert endings == {t.value for t in SplunkTermination}
