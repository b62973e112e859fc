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

__all__ = ["LEVELS", "PLAYERS", "RACE_GAMES", "AnyPlayer", "ComputerPlayer", "Decision",
           "make_person", "make_player"]

_MODULES = (slabberjan, slapjack, splunk)
#: game name -> speed -> the class of its computer players at that speed
PLAYERS: Mapping[str, Mapping[str, PlayerMaker]] = {
    module.SPEC.name: module.PLAYERS for module in _MODULES}
#: game name -> its modelled person's class, for the games with slap races
PERSONS: Mapping[str, type[ComputerPlayer[Any]]] = {
    module.SPEC.name: module.PERSON for module in _MODULES if hasattr(module, "PERSON")}
#: The games with slap races, where a modelled person can sit.
RACE_GAMES: tuple[str, ...] = tuple(PERSONS)


def make_person(game: str, who: person.Person | str, seat: int, *,
                seed: int | None = None) -> AnyPlayer:
    """A modelled person at ``seat`` of ``game`` (``who``: a :class:`~parlour.bots.person.
    Person` or its ``person:...`` name); ``ValueError`` for a bad name or a game without
    races.

    >>> make_person("slapjack", "person:300", 1, seed=2)
    SlapjackPerson(seat=1, person='person:300')
    """
    if isinstance(who, str):
        who = person.parse_person(who)
    cls = PERSONS.get(game)
    if cls is None:
        raise ValueError(f"a modelled person plays only the games with slap races "
                         f"({', '.join(RACE_GAMES)}), not {game}")
    return cls(seat, person=who, seed=seed)  # type: ignore[call-arg]


def make_player(game: str | GameSpec, level: str, seat: int, *,
                seed: int | None = None) -> ComputerPlayer[Any]:
    """A computer player of speed ``level`` for ``seat`` of ``game``; ``seed=None`` draws
    its randomness from the operating system (a live table). ``level`` may also be a
    modelled person, ``person:MEAN...`` (:mod:`parlour.bots.person`; simulations only)."""
    name = game.name if isinstance(game, GameSpec) else game_spec(game).name
    if person.is_person(level):
        try:
            return make_person(name, level, seat, seed=seed)
        except ValueError as exc:
            raise RecordError(str(exc)) from None
    by_level = PLAYERS.get(name, {})
    if level not in by_level:
        known = ", ".join(by_level or LEVELS)
        shown = repr(level) if isinstance(level, str) and len(level) <= 24 else "that"
        raise RecordError(f"unknown level {shown} (expected one of: {known})")
    return by_level[level](seat, seed=seed)
