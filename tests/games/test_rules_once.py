"""Each rule stated once (issue 20): a game's checks (``_why_not_<kind>``, through
``why_illegal``), ``legal_actions`` and ``legal_json`` agree on every state random legal
play reaches, and the copies kept for speed agree with the one statement.

At every state reached, for every seat (and the spectator):

- every action in ``legal_actions`` passes the check;
- ``legal_json`` is exactly the JSON of ``legal_actions`` (as a set, without repeats), the
  view's ``legal`` is ``legal_json``, and ``offers`` says which kinds it holds;
- a sample of other actions, from the action space the environments use (each template of
  ``envs/encoding.py``, with ``at`` now, earlier, later or left out), either passes the
  check or is not in ``legal_actions``; and an action of a template the seat is offered,
  aimed at now, passes exactly when it is offered.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.engine import Action, Game
from parlour.envs.encoding import CODECS
from parlour.games.slabberjan import MATADORS, OPEN, Case, Draw, Slabberjan, Stand, Swap, refusal
from parlour.games.slapjack import Slapjack
from parlour.games.splunk import Play, PlayEvent, Splunk, slap_kind

seeds = st.integers(min_value=0, max_value=2**32 - 1)
MOVES = 400  # per game, in the harness only


def frozen(entries: list[dict[str, Any]]) -> set[tuple[tuple[str, Any], ...]]:
    return {tuple(sorted(entry.items())) for entry in entries}


def samples(game: Game, seat: int, rng: random.Random) -> Iterator[Action]:
    """Actions of ``seat`` from the environments' action space: each template with its
    ``at`` (where the kind has one) now, one earlier, one later and left out."""
    now = game.flips if isinstance(game, Slapjack) else getattr(game, "plays", 0)
    for template in CODECS[game.name].templates:
        if template is None:
            continue
        kind = game.action_kinds[template["type"]]
        if "at" not in kind._extra:
            yield game.parse_action(dict(template), player=seat)
            continue
        for at in (now, now - 1, now + 1, rng.randrange(now + 2), None):
            if at is not None and at < 0:
                continue
            yield game.parse_action({**template, "at": at}, player=seat)


def check_state(game: Game, rng: random.Random) -> None:
    assert game.legal_json(None) == []
    assert game.view(None)["legal"] == []
    for seat in range(game.players):
        legal = game.legal_actions(seat)
        for action in legal:
            assert game.why_illegal(action) is None, (action, game.why_illegal(action))
        as_json = game.legal_json(seat)
        assert len(frozen(as_json)) == len(as_json) == len(legal)
        assert frozen(as_json) == frozen([a.for_seat() for a in legal])
        assert game.view(seat)["legal"] == as_json
        # offers (asked by the envs' turn timer after every change) answers from legal_json
        kinds = {entry["type"] for entry in as_json}
        for kind in game.action_kinds:
            assert game.offers(seat, {kind}) == (kind in kinds), (seat, kind, as_json)
        assert game.offers(seat, set(game.action_kinds)) == bool(as_json)
        assert game.offers(seat, ()) is False
        offered = {(a.type, getattr(a, "stack", None)) for a in legal}
        for action in samples(game, seat, rng):
            reason = game.why_illegal(action)
            if reason is not None:
                assert action not in legal, (action, reason)
            now = getattr(action, "at", None) == (
                game.flips if isinstance(game, Slapjack) else getattr(game, "plays", None))
            if now or "at" not in type(action)._extra:
                # aimed at now (or with nothing to aim): offered exactly when it passes
                assert (reason is None) == ((action.type, getattr(action, "stack", None))
                                            in offered), (action, reason)


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


def play_and_check(game: Game, rng: random.Random) -> None:
    check_state(game, rng)
    for k in range(MOVES):
        if game.winner is not None:
            break
        actions = [a for seat in range(game.players) for a in game.legal_actions(seat)]
        action = rng.choice(actions)
        if k % 3:
            game.push(action)
        else:
            game.apply(action)
        check_state(game, rng)
        if isinstance(game, Slabberjan):
            check_slabberjan_view(game)
    check_state(game, rng)  # the end, too: nothing is legal
    if game.winner is not None:
        assert all(game.legal_actions(s) == [] for s in range(game.players))


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=st.sampled_from([2, 3, 5, 8, 42]), free=st.booleans(),
       chips=st.integers(1, 3))
def test_slabberjan_checks_legal_actions_and_json_agree(seed: int, players: int, free: bool,
                                                          chips: int) -> None:
    game = Slabberjan(players, seed=seed, options={"free_choice": free, "chips": chips})
    play_and_check(game, random.Random(seed))


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=st.integers(2, 6))
def test_slapjack_checks_legal_actions_and_json_agree(seed: int, players: int) -> None:
    play_and_check(Slapjack(players, seed=seed), random.Random(seed))


@settings(max_examples=25, deadline=None)
@given(seed=seeds, jokers=st.booleans())
def test_splunk_checks_legal_actions_and_json_agree(seed: int, jokers: bool) -> None:
    play_and_check(Splunk(2, seed=seed, options={"jokers": jokers}), random.Random(seed))


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
    # OPEN, which legal_actions and the checks read, is refusal's answers in every case
    kinds = (Swap, Draw, Stand)
    for case, open_ in OPEN.items():
        c: Case = case
        assert open_ == tuple(k for k in kinds if refusal(k, *c) is None)
        assert open_, "every turn has an action"
    assert len(OPEN) == 16
