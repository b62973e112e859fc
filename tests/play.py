"""Random legal play of any game, for the property tests: a game drawn by hypothesis,
random legal moves (checked, or on the fast path), and a snapshot of all a user can read."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from parlour.engine import Action, Game
from parlour.games import GAMES


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A seeded game of any of the three, at any size the rules allow, with any options."""
    cls = GAMES[draw(st.sampled_from(sorted(GAMES)))]
    low, high = cls.spec.players
    players = draw(st.integers(low, min(high, 12)) | st.sampled_from([low, high]))
    options: dict[str, Any] = {}
    for opt in cls.spec.options:
        if opt.kind == "bool" and draw(st.booleans()):
            options[opt.name] = True
    if cls.name == "slabberjan":
        options["chips"] = draw(st.integers(1, 3))
    return cls(players, seed=draw(st.integers(0, 2**32 - 1)), options=options)


def random_action(game: Game, rng: random.Random) -> Action | None:
    actions = [a for seat in range(game.players) for a in game.legal_actions(seat)]
    return rng.choice(actions) if actions else None


def play(game: Game, rng: random.Random, moves: int, *, fast: bool = False) -> None:
    for _ in range(moves):
        action = random_action(game, rng)
        if action is None:
            return
        if fast:
            game.push(action)
        else:
            game.apply(action)


def states(game: Game, rng: random.Random, moves: int) -> Iterator[Game]:
    """``game`` as it is, then after each of up to ``moves`` random legal moves (every
    third checked, the others on the fast path), until it is over."""
    yield game
    for k in range(moves):
        action = random_action(game, rng)
        if action is None:
            return
        if k % 3:
            game.push(action)
        else:
            game.apply(action)
        yield game


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a user can read of a game: its record, every seat's view and the
    spectator's, its events as each seat sees them, its outcome and legal actions."""
    seats: list[int | None] = [None, *range(game.players)]
    return (game.record(), [game.view(s) for s in seats],
            [[e.seen_by(s) for e in game.events] for s in seats],
            game.outcome, [game.legal_actions(s) for s in range(game.players)])
