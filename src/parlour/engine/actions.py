"""Actions: small typed values with a JSON form, one class per kind of move.

A game declares each of its actions in two lines: the class, named by its JSON ``type``,
and a docstring; any field beyond ``player`` is an integer (``at``, ``stack``), optional
when it has a default. Every action class is a frozen dataclass with slots.

>>> class Slap(Action, kind="slap"):
...     '''Slap the pile.'''
...     at: int | None = None
>>> Slap(2, at=5).to_json()
{'player': 2, 'type': 'slap', 'at': 5}
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
                kind: str | None = None) -> type:
        cls = super().__new__(mcs, name, bases, namespace)
        if "__slots__" in namespace:  # the slotted copy that dataclass() makes of the class
            return cls
        if kind is not None:
            cls.type = kind  # type: ignore[attr-defined]
        made: type = dataclass(frozen=True, slots=True)(cls)  # type: ignore[arg-type]
        extra = fields(made)[1:]
        made._extra = tuple(f.name for f in extra)  # type: ignore[attr-defined]
        made._optional = tuple(f.default is None for f in extra)  # type: ignore[attr-defined]
        return made


class Action(metaclass=_ActionClass):
    """An action by seat ``player``."""

    type: ClassVar[str] = "action"
    #: the names of the fields after ``player``, found once per class, and which of them
    #: may be left out (their default is ``None``)
    _extra: ClassVar[tuple[str, ...]] = ()
    _optional: ClassVar[tuple[bool, ...]] = ()
    player: int

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
