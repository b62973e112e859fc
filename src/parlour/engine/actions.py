"""Actions: small typed values with a JSON form, one class per kind of move.

Each game declares its own action classes on top of :class:`Action`; ``type`` names the kind
in JSON, and every other field is an optional integer (``at``, ``stack``).

>>> from dataclasses import dataclass
>>> from typing import ClassVar
>>> @dataclass(frozen=True, slots=True)
... class Slap(Action):
...     type: ClassVar[str] = "slap"
...     at: int | None = None
>>> Slap(2, at=5).to_json()
{'player': 2, 'type': 'slap', 'at': 5}
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
from typing import Any, ClassVar

from parlour.engine.errors import RecordError


@dataclass(frozen=True, slots=True)
class Action:
    """An action by seat ``player``."""

    type: ClassVar[str] = "action"
    player: int

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "type": self.type}
        for f in fields(self)[1:]:
            value = getattr(self, f.name)
            if value is not None:
                out[f.name] = value
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
        raise RecordError(f"unknown action type {kind!r} (expected one of: {', '.join(kinds)})")
    cls = kinds[kind]
    if player is None:
        player = obj.get("player")
        if not _is_int(player):
            raise RecordError(f"action 'player' must be a seat number, not {player!r}")
    values: dict[str, Any] = {"player": player}
    for f in fields(cls)[1:]:
        value = obj.get(f.name)
        required = f.default is not None
        if value is None and not required:
            continue
        if not _is_int(value):
            raise RecordError(f"{kind} '{f.name}' must be an integer, not {value!r}")
        values[f.name] = value
    return cls(**values)
