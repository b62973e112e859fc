"""Computer players for every game and speed, seeing only what a seat may see.

Each module ``parlour.bots.<game>`` names the game it plays (``SPEC``, the game's own spec)
and its players by speed (``PLAYERS``); the registry below is built from those modules.

>>> make_player("splunk", "hard", 1, seed=3)
Hard(seat=1, level='hard')

A level may also name a modelled person (:mod:`parlour.bots.person`), for simulations:

>>> make_player("slapjack", "person:400", 0, seed=3)
SlapjackPerson(seat=0, person='person:400')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.bots import person, slabberjan, slapjack, splunk
from parlour.bots.base import LEVELS, AnyPlayer, ComputerPlayer, Decision, PlayerMaker
from parlour.engine import GameSpec, RecordError
from parlour.games import spec as game_spec

__all__ = ["LEVELS", "PLAYERS", "AnyPlayer", "ComputerPlayer", "Decision", "make_player"]

#: game name -> speed -> the class of its computer players at that speed
PLAYERS: Mapping[str, Mapping[str, PlayerMaker]] = {
    module.SPEC.name: module.PLAYERS for module in (slabberjan, slapjack, splunk)}


def make_player(game: str | GameSpec, level: str, seat: int, *,
                seed: int | None = None) -> ComputerPlayer[Any]:
    """A computer player of speed ``level`` for ``seat`` of ``game``; ``seed=None`` draws
    its randomness from the operating system (a live table). ``level`` may also be a
    modelled person, ``person:MEAN...`` (:mod:`parlour.bots.person`; simulations only)."""
    name = game.name if isinstance(game, GameSpec) else game_spec(game).name
    if person.is_person(level):
        try:
            return person.make_person(name, level, seat, seed=seed)
        except ValueError as exc:
            raise RecordError(str(exc)) from None
    by_level = PLAYERS.get(name, {})
    if level not in by_level:
        known = ", ".join(by_level or LEVELS)
        shown = repr(level) if isinstance(level, str) and len(level) <= 24 else "that"
        raise RecordError(f"unknown level {shown} (expected one of: {known})")
    return by_level[level](seat, seed=seed)
