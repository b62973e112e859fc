"""One statement of legality per game, pinned for every registered game (issue 30).

A game states which actions are open (``legal_actions``); the base class derives the check
of ``apply`` (``why_illegal``), ``legal_json`` and ``offers`` from it, and a game that writes
one of them out by hand for speed marks it ``@fast_path`` (``Game.fast_paths``). One
property test, over every game in :data:`parlour.games.GAMES`, plays random games and at
every state compares each piece, fast or derived, with the statement:

- the statement: each open action once, every action of a seat its own, a stamped kind
  stamped from 0 on; nothing open once the game is over, something open before;
- the check: an action is legal exactly when it is one of the open actions, or the same
  with its stamp left out or earlier (``Action.admitted_by``: Slapjack's J6, Splunk's P5),
  for candidates drawn from the game's own action kinds (seats, stamps and other fields
  in and out of range); ``apply`` refuses the others and changes nothing; each declared
  fast check answers as the statement does;
- ``legal_json`` is the open actions as a seat sends them (and the view's ``legal``);
  ``offers`` says which kinds they hold; nothing for a spectator.

A fourth game is pinned the day it is registered; a toy game registered for one test shows
that a fast path that disagrees with the statement fails the property.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import chain, combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from play import states
from toy import FastPebbles, Knock, Pebbles, Take

from parlour.engine import Action, Game, IllegalAction, fast_path
from parlour.games import GAMES

MOVES = 300  # per game
SAMPLES = 24  # random candidate actions per state, beside the open ones and their variants


def candidates(game: Game, rng: random.Random) -> Iterator[Action]:
    """Actions to check at this state, from the game's own action kinds: every open action
    with its stamp left out, one less and one more; and a random sample of each kind's
    actions by any seat (and the seats beyond the table), with each field near the values
    open now (or near 0), its stamp anywhere from -1 to past the open one."""
    offered = [a for seat in range(game.players) for a in game.legal_actions(seat)]
    for action in offered:
        yield action
        stamp = action._stamp
        if stamp is not None:
            at = getattr(action, stamp)
            for other in (None, at - 1, at + 1):
                yield type(action)(**{**_fields(action), stamp: other})
    seats = [-1, *range(game.players), game.players]
    pools: list[tuple[type[Action], list[list[Any]]]] = []
    for cls in game.action_kinds.values():
        seen = [a for a in offered if type(a) is cls]
        pool = [seats]
        for name, optional in zip(cls._extra, cls._optional, strict=True):
            near = {v for a in seen for v in (getattr(a, name) - 1, getattr(a, name) + 1)}
            values: list[Any] = sorted({-1, 0, 1, 2, *near, *(getattr(a, name) for a in seen)})
            if optional:
                values.append(None)
            pool.append(values)
        pools.append((cls, pool))
    for _ in range(SAMPLES):
        cls, pool = rng.choice(pools)
        values = [rng.choice(choices) for choices in pool]
        yield cls(*values)


def _fields(action: Action) -> dict[str, Any]:
    return {name: getattr(action, name) for name in ("player", *action._extra)}


def kinds_subsets(game: Game) -> Iterator[tuple[str, ...]]:
    kinds = list(game.action_kinds)
    return chain.from_iterable(combinations(kinds, n) for n in range(len(kinds) + 1))


def check_state(game: Game, rng: random.Random) -> None:
    """Every piece of legality at this state agrees with ``legal_actions``."""
    cls = type(game)
    over = game.outcome is not None
    assert Game.legal_json(game, None) == game.legal_json(None) == []
    assert game.view(None)["legal"] == []
    anything = False
    for seat in range(game.players):
        legal = game.legal_actions(seat)
        anything = anything or bool(legal)
        assert not (over and legal), f"the game is over but seat {seat} is offered {legal}"
        assert len(set(legal)) == len(legal), f"an action offered twice: {legal}"
        for action in legal:
            assert action.player == seat and type(action) in cls._doers, action
            if action._stamp is not None:
                stamp = getattr(action, action._stamp)
                assert isinstance(stamp, int) and stamp >= 0, f"{action} is offered unstamped"
        derived = Game.legal_json(game, seat)
        assert derived == [a.for_seat() for a in legal]
        assert game.legal_json(seat) == derived, (
            f"{cls.__name__}.legal_json (a fast path) gives {game.legal_json(seat)} for seat "
            f"{seat}, but legal_actions offers {derived}")
        assert game.view(seat)["legal"] == derived
        for kinds in kinds_subsets(game):
            assert Game.offers(game, seat, kinds) == any(a.type in kinds for a in legal)
            assert game.offers(seat, kinds) == Game.offers(game, seat, kinds), (
                f"{cls.__name__}.offers (a fast path) says {game.offers(seat, kinds)} for "
                f"seat {seat} and {kinds}, but legal_actions offers {derived}")
    assert over or anything, "the game goes on but no seat is offered anything"
    history = len(game.history)
    for action in candidates(game, rng):
        seat = action.player
        open_ = 0 <= seat < game.players and any(
            action.admitted_by(offered) for offered in game.legal_actions(seat))
        fast = f"_why_not_{action.type}"
        if fast in cls.fast_paths and 0 <= seat < game.players:  # the check apply calls
            said = getattr(game, fast)(action)
            assert (said is None) == open_, (
                f"{cls.__name__}.{fast} (a fast path) says {said!r} of {action}, but "
                f"legal_actions {'offers' if open_ else 'does not offer'} it")
        reason = game.why_illegal(action)
        assert (reason is None) == open_, (action, reason)
        if reason is not None:
            assert reason, action
            with pytest.raises(IllegalAction):
                game.apply(action)
            assert len(game.history) == history
        else:
            assert game.late(action) is None, f"{action} is legal, so not late"


@st.composite
def setups(draw: st.DrawFn, cls: type[Game]) -> tuple[int, dict[str, Any], int]:
    """Players, options and a seed for a game of ``cls``, from its spec: every option that
    is not drawn by chance, at small values (short games)."""
    low, high = cls.spec.players
    players = draw(st.sampled_from(sorted({low, min(low + 1, high), min(high, 5), high})))
    options: dict[str, Any] = {}
    for option in cls.spec.options:
        if option.chance:
            continue
        if option.kind == "bool":
            options[option.name] = draw(st.booleans())
        elif option.kind == "int":
            lo = option.low if option.low is not None else 0
            hi = option.high if option.high is not None else lo + 3
            options[option.name] = draw(st.integers(lo, min(hi, lo + 3)))
    return players, options, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def check_game(name: str, data: st.DataObject) -> None:
    """The property, for the game registered as ``name``."""
    cls = GAMES[name]
    players, options, seed = data.draw(setups(cls))
    rng = random.Random(seed)
    for game in states(cls(players, seed=seed, options=options), rng, MOVES):
        check_state(game, rng)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_legality_piece_agrees_with_the_statement(name: str) -> None:
    check_game(name)


# -- the property catches a fast path that disagrees ------------------------------------------


class TakeOutOfTurn(FastPebbles):
    """Its fast check forgets whose turn it is."""

    @fast_path
    def _why_not_take(self, action: Take) -> str | None:
        return None if 1 <= action.count <= min(3, self.left) else "too many"


class KnockFromTheFuture(FastPebbles):
    """Its fast check lets a knock's stamp run past the takes made (J6 refuses it)."""

    @fast_path
    def _why_not_knock(self, action: Knock) -> str | None:
        return "the game is over" if self.ending is not None else None


class ForgetsTheTruce(FastPebbles):
    """Its fast ``legal_json`` leaves out the truce."""

    @fast_path
    def legal_json(self, seat: int | None) -> list[dict[str, Any]]:
        return [entry for entry in super().legal_json(seat) if entry["type"] != "truce"]


class OffersTakesToAll(FastPebbles):
    """Its fast ``offers`` says every seat may take."""

    @fast_path
    def offers(self, seat: int, kinds: Any) -> bool:
        return self.ending is None and ("take" in kinds or super().offers(seat, kinds))


@pytest.mark.parametrize(("game", "wrong"), [
    (TakeOutOfTurn, "_why_not_take"), (KnockFromTheFuture, "_why_not_knock"),
    (ForgetsTheTruce, "legal_json"), (OffersTakesToAll, "offers")])
def test_a_registered_game_whose_fast_path_disagrees_fails_the_property(
        monkeypatch: pytest.MonkeyPatch, game: type[Game], wrong: str) -> None:
    monkeypatch.setitem(GAMES, "pebbles", game)  # type: ignore[index]
    with pytest.raises(AssertionError, match=f"{game.__name__}.{wrong} \\(a fast path\\)"):
        check_game("pebbles")


@pytest.mark.parametrize("game", [Pebbles, FastPebbles])
def test_a_registered_game_whose_pieces_agree_passes_the_property(
        monkeypatch: pytest.MonkeyPatch, game: type[Game]) -> None:
    monkeypatch.setitem(GAMES, "pebbles", game)  # type: ignore[index]
    check_game("pebbles")


def test_a_derived_piece_replaced_without_the_mark_is_refused() -> None:
    with pytest.raises(TypeError, match="mark it @fast_path"):
        class Unmarked(Pebbles):
            def offers(self, seat: int, kinds: Any) -> bool:
                return True
    assert FastPebbles.fast_paths == {"_why_not_take", "_why_not_knock", "legal_json",
                                      "offers"}
    assert Pebbles.fast_paths == frozenset()  # its _why_not_take only words a refusal


def test_a_reason_only_explains_a_refusal() -> None:
    # Pebbles' _why_not_take is not a fast path: it words a refusal, and never decides
    game = Pebbles(2, options={"pebbles": 2})
    assert game.why_illegal(Take(1, 1)) == "it is seat 0's turn"
    assert game.why_illegal(Take(0, 3)) == "take 1 to 2 pebbles"
    assert game.why_illegal(Take(0, 2)) is None
    # a kind with no words gets the base class's
    assert game.why_illegal(Knock(0, at=1)) == "it is not one of the actions open to you now"
    assert game.why_illegal(Knock(0, at=0)) is None and game.why_illegal(Knock(0)) is None
    game.apply(Take(0, 2))
    assert game.outcome is not None
    assert game.why_illegal(Knock(1)) == "the game is over"
