"""Actions: small typed values with a JSON form, one class per kind of move.

A game declares each of its actions in two lines: the class, named by its JSON ``type``,
and a docstring; any field beyond ``player`` is an integer (``at``, ``stack``), optional
when it has a default. Every action class is a frozen dataclass with slots.

An action sent in a race may carry a *stamp* (``stamp="at"``): how far the game had gone
when it was sent, so that one that lost the race is told from one that is wrong. The game
offers it stamped now; the same action sent earlier (a smaller stamp) or unstamped ("at
whatever is on top") is the same offer (:meth:`Action.admitted_by`), and the rules decide
what an old stamp does (Slapjack's J6: nothing).

>>> class Slap(Action, kind="slap", stamp="at"):
...     '''Slap the pile.'''
...     at: int | None = None
>>> Slap(2, at=5).to_json()
{'player': 2, 'type': 'slap', 'at': 5}
>>> Slap(2, at=3).admitted_by(Slap(2, at=5)), Slap(2, at=6).admitted_by(Slap(2, at=5))
(True, False)
>>> Slap(2, at=5)
Slap(player=2, at=5)
>>> parse_action({"player": 1, "type": "slap"}, {"slap": Slap})
Slap(player=1, at=None)
>>> parse_action({"player": 1, "type": "jump"}, {"slap": Slap})
Traceback (most recent call last):
...
parlour.engine.errors.RecordError: unknown action type 'jump' (expected one of: slap)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, dataclass_transform

from parlour.engine.errors import RecordError


@dataclass_transform(frozen_default=True)
class _ActionClass(type):
    """Makes every action class a frozen dataclass with slots, its ``type`` its ``kind``."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                kind: str | None = None, stamp: str | None = None) -> type:
        cls = super().__new__(mcs, name, bases, namespace)
        if "__slots__" in namespace:  # the slotted copy that dataclass() makes of the class
            return cls
        if kind is not None:
            cls.type = kind  # type: ignore[attr-defined]
        made: type = dataclass(frozen=True, slots=True)(cls)  # type: ignore[arg-type]
        names = tuple(f.name for f in fields(made)[1:])
        optional = tuple(f.default is None for f in fields(made)[1:])
        made._extra, made._optional = names, optional  # type: ignore[attr-defined]
        if stamp is not None:
            if stamp not in names or not optional[names.index(stamp)]:
                raise TypeError(f"{name}'s stamp {stamp!r} must be one of its fields, "
                                "with the default None")
            made._stamp = stamp  # type: ignore[attr-defined]
            made._unstamped = tuple(n for n in names if n != stamp)  # type: ignore[attr-defined]
        return made


class Action(metaclass=_ActionClass):
    """An action by seat ``player``."""

    type: ClassVar[str] = "action"
    #: the names of the fields after ``player``, found once per class, and which of them
    #: may be left out (their default is ``None``)
    _extra: ClassVar[tuple[str, ...]] = ()
    _optional: ClassVar[tuple[bool, ...]] = ()
    #: the field that stamps when the action was sent (``at``), if the kind has one, and
    #: the fields beside it
    _stamp: ClassVar[str | None] = None
    _unstamped: ClassVar[tuple[str, ...]] = ()
    player: int

    def admitted_by(self, offered: Action) -> bool:
        """Whether this action is the action ``offered``: equal to it, or, for a stamped
        kind, equal on every other field with a stamp that is ``None`` (now) or from 0 up
        to the offered one's (sent before the game went on)."""
        stamp = self._stamp
        if stamp is None:
            return self == offered
        if type(offered) is not type(self) or offered.player != self.player:
            return False
        for name in self._unstamped:
            if getattr(self, name) != getattr(offered, name):
                return False
        mine, limit = getattr(self, stamp), getattr(offered, stamp)
        return mine is None or (limit is not None and 0 <= mine <= limit)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "type": self.type}
        for name in self._extra:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    def for_seat(self) -> dict[str, Any]:
        """The JSON form without ``player``: what a seat sends for it over the socket."""
        out: dict[str, Any] = {"type": self.type}
        for name in self._extra:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_action(
    obj: object, kinds: Mapping[str, type[Action]], *, player: int | None = None
) -> Action:
    """Builds an action from its JSON form; raises :class:`RecordError` saying what is wrong.

    ``player``, when given, is the seat the action comes from (a live connection), and the
    object need not name it. Keys the action does not use are ignored, as the record spec
    lets other implementations add keys.
    """
    if not isinstance(obj, Mapping):
        raise RecordError(f"an action must be a JSON object, not {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in kinds:
        # a long or odd string is not echoed back: say what it is, not what it says
        shown = repr(kind) if isinstance(kind, str) and len(kind) <= 24 else "that"
        raise RecordError(f"unknown action type {shown} (expected one of: {', '.join(kinds)})")
    cls = kinds[kind]
    if player is None:
        player = obj.get("player")
        if not _is_int(player):
            raise RecordError(f"action 'player' must be a seat number, not {player!r}")
    values: dict[str, Any] = {"player": player}
    for name, optional in zip(cls._extra, cls._optional, strict=True):
        value = obj.get(name)
        if value is None and optional:
            continue
        if not _is_int(value):
            raise RecordError(f"{kind} '{name}' must be an integer, not {value!r}")
        values[name] = value
    return cls(**values)
