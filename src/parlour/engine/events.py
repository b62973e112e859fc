"""Events: what an action made happen, as a front end shows it one by one.

Most of an event is public. Some facts belong to a few seats only (the pieces two Slabberjan
players show each other in a swap), so an event keeps them apart in ``private``.
:meth:`Event.seen_by` is the one place that decides what a seat is told; the live table
calls it at the transport boundary for every event it sends.

>>> e = Event("swap", {"player": 0, "target": 1}, {0: {"got": "fool"}, 1: {"got": "7"}})
>>> e.seen_by(None)
{'type': 'swap', 'player': 0, 'target': 1}
>>> e.seen_by(1)
{'type': 'swap', 'player': 0, 'target': 1, 'got': '7'}
>>> e
Event('swap', {'player': 0, 'target': 1}, {0: {'got': 'fool'}, 1: {'got': '7'}})

An event is a value: nothing in Parlour changes one once it is built, so one event object may
stand for every time the same thing happens (Splunk shares its new-base and wrong-slap
events between games). A reader gets copies of the dicts (``data``, ``seen_by``), but the
lists inside them (a call's cards) are the event's own: read them, never change them.

A game's most frequent events can be :class:`PublicEvent` subclasses, whose data are their
own attributes: one small object where a plain event is two, itself and its data dict.

>>> class Flip(PublicEvent):
...     '''``flip``: ``player`` turned ``card`` over.'''
...     type = "flip"
...     __slots__ = fields = ("player", "card")
...     def __init__(self, player: int, card: str) -> None:
...         self.player, self.card = player, card
>>> Flip(1, "JS")
Event('flip', {'player': 1, 'card': 'JS'})
>>> Flip(1, "JS") == Event("flip", {"player": 1, "card": "JS"}), Flip(1, "JS").seen_by(0)
(True, {'type': 'flip', 'player': 1, 'card': 'JS'})

One with a private part too is a :class:`PrivateEvent`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

#: The private part of an event that has none: one shared, read-only empty mapping, so that
#: the many public events (every play, every slap) cost one object less each.
NO_PRIVATE: Mapping[int, Mapping[str, Any]] = MappingProxyType({})


def _public_of(fields: tuple[str, ...]) -> Callable[[PublicEvent], dict[str, Any]]:
    """A function that makes the public dict of an event with these fields in one dict
    display, made once per class as dataclasses makes ``__init__``: the computer players
    are given every event as their seat sees it, and a loop of getattr took twice as long.

    >>> _public_of(("player", "card"))  # doctest: +ELLIPSIS
    <function _public at ...>
    """
    for name in fields:
        if not name.isidentifier():
            raise ValueError(f"an event's field must be a name, not {name!r}")
    items = "".join(f", {name!r}: event.{name}" for name in fields)
    namespace: dict[str, Any] = {}
    exec(f"def _public(event):\n    return {{'type': event.type{items}}}\n", namespace)
    made: Callable[[PublicEvent], dict[str, Any]] = namespace["_public"]
    return made


class Event:
    """One thing that happened; ``data`` is public, ``private[seat]`` only for that seat."""

    __slots__ = ("_data", "_private", "type")

    def __init__(
        self,
        type: str,
        data: Mapping[str, Any] | None = None,
        private: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> None:
        self.type = type
        self._data = data if data is not None else {}
        self._private = private if private is not None else NO_PRIVATE

    @property
    def data(self) -> Mapping[str, Any]:
        """What everyone is told (beside ``type``)."""
        return self._data

    @property
    def private(self) -> Mapping[int, Mapping[str, Any]]:
        """Seat -> what only that seat is told besides ``data``."""
        return self._private

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: a spectator), as a JSON object."""
        out: dict[str, Any] = {"type": self.type, **self._data}
        if seat is not None and seat in self._private:
            out.update(self._private[seat])
        return out

    def public(self) -> dict[str, Any]:
        return self.seen_by(None)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Event) and self.type == other.type
                and dict(self.data) == dict(other.data)
                and {k: dict(v) for k, v in self.private.items()}
                == {k: dict(v) for k, v in other.private.items()})

    __hash__ = None  # type: ignore[assignment]

    # An event is a value: a copy of a game (Game.clone, copy.deepcopy) shares its events
    # rather than copying them, and a pickle rebuilds one through its constructor (the
    # shared empty NO_PRIVATE, a read-only mapping proxy, cannot be pickled itself).
    def __copy__(self) -> Event:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Event:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        private = None if self._private is NO_PRIVATE else self._private
        return (Event, (self.type, self._data, private))

    def __repr__(self) -> str:
        if self.private:
            return f"Event({self.type!r}, {dict(self.data)!r}, {dict(self.private)!r})"
        return f"Event({self.type!r}, {dict(self.data)!r})"


class PublicEvent(Event):
    """An event with no private part whose data are its own attributes; a subclass sets
    ``type`` and names its fields, in order, with ``__slots__ = fields = (...)``.

    Why: a checked move builds its events and the game keeps them. A plain :class:`Event`
    and its data dict are up to three allocations (the event, the dict, the dict's keys),
    made, kept as long as the game and freed with it: for the events of nearly every move
    (Splunk's ``play``) that was most of the time of a checked move. This is one
    allocation. ``data`` is built when read, a new dict each time (the values in it are the
    event's own); the three slots inherited from :class:`Event` stay empty.
    """

    __slots__ = ()
    #: the names of the data's fields, in order (the subclass's slots)
    fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # setattr: mypy refuses a method assigned to, and this one is made for the class
        setattr(cls, "_public", _public_of(cls.fields))  # noqa: B010

    def _public(self) -> dict[str, Any]:
        """The event as everyone sees it: ``type``, then the fields. Every subclass replaces
        this with its own, made for its fields (:func:`_public_of`), which gives the same
        dict faster; this plain one stands for the class itself, which has none."""
        return {"type": self.type, **self.data}

    @property
    def data(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.fields}

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        return self._public()  # every seat sees the same

    @property
    def private(self) -> Mapping[int, Mapping[str, Any]]:
        return NO_PRIVATE

    def __reduce__(self) -> tuple[Any, ...]:
        # the slots, not the constructor's arguments (a subclass may fix one, as Splunk's
        # slap_ignored does its reason); ``type`` is the class's, not a slot's
        cls = type(self)
        return (_rebuild_public, (cls, tuple(getattr(self, f) for f in _slots(cls))))


class PrivateEvent(PublicEvent):
    """A :class:`PublicEvent` with a private part too: the subclass keeps what it needs for
    that part in slots beyond its ``fields`` (``__slots__ = (*fields, ...)``) and makes the
    part when ``private`` is read.

    Why: a Slabberjan swap as a plain :class:`Event` is five containers (the event, its
    data, the private mapping and a dict for each of the two seats), all kept as long as
    the game, and the cyclic garbage collector walks the kept ones again and again; this
    is one object, and a seat's part is made only when someone reads it.

    >>> class Peek(PrivateEvent):
    ...     '''``peek``: ``player`` looked at a card; only they see which.'''
    ...     type = "peek"
    ...     fields = ("player",)
    ...     __slots__ = ("player", "card")
    ...     def __init__(self, player: int, card: str) -> None:
    ...         self.player, self.card = player, card
    ...     @property
    ...     def private(self) -> Mapping[int, Mapping[str, Any]]:
    ...         return {self.player: {"card": self.card}}
    >>> Peek(0, "7H").seen_by(0), Peek(0, "7H").seen_by(1)
    ({'type': 'peek', 'player': 0, 'card': '7H'}, {'type': 'peek', 'player': 0})
    >>> Peek(0, "7H") == Event("peek", {"player": 0}, {0: {"card": "7H"}})
    True
    """

    __slots__ = ()

    @property
    def private(self) -> Mapping[int, Mapping[str, Any]]:
        raise NotImplementedError

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        out = self._public()
        if seat is not None:
            mine = self.private.get(seat)
            if mine is not None:
                out.update(mine)
        return out


def _slots(cls: type[PublicEvent]) -> tuple[str, ...]:
    """The slots a :class:`PublicEvent` subclass declares: its whole state."""
    slots: tuple[str, ...] = cls.__dict__["__slots__"]
    return slots


def _rebuild_public(cls: type[PublicEvent], values: tuple[Any, ...]) -> PublicEvent:
    """A pickled :class:`PublicEvent` back from its class and its slots' values."""
    event = object.__new__(cls)
    for name, value in zip(_slots(cls), values, strict=True):
        object.__setattr__(event, name, value)
    return event
