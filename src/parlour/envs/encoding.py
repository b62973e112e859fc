"""What an agent sees and does, as numbers: one :class:`Codec` per game.

An observation is made from two things only: the seat's own ``view`` (``game.view(seat)``,
which the engine already limits to what that seat may see, ruling G3) and the events that
seat was told (``event.seen_by(seat)``). A codec never receives the game object, so it
cannot read a hidden card even by mistake (the rlcard#220 leak: an observation built from
the game's state rather than the player's).

Every observation is a vector of ``float32`` in ``[0, 1]``, with the seats *rotated* so
that index 0 is always the observing seat, index 1 the seat to its left, and so on; the
exact layout of each game is in its codec's docstring and in ``docs/research.md``.

Actions are small integers. Each codec has a fixed list of action *templates* (JSON
objects without ``player``, as the view's ``legal`` lists them); code ``i`` means "the legal
action that matches template ``i``", so the mask is read straight from ``view["legal"]``
and a decoded action is always one the view offered (with its ``at`` filled in from the
view, as a person's click would be). Real-time games have code 0, *wait*.

>>> codec = CODECS["slapjack"]
>>> view = {"legal": [{"type": "flip"}, {"type": "slap", "at": 3}]}
>>> codec.mask(view).tolist(), codec.action_json(2, view)
([1, 1, 1], {'type': 'slap', 'at': 3})
>>> codec.action_json(0, view) is None
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.games.slabberjan import KINDS, MATADORS
from parlour.games.slabberjan import RANK as PIECE_RANK

Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
#: (view, events the seat was told, seat, players, options) -> the observation vector
Encoder = Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]], int, int,
                    Mapping[str, Any]], Obs]

CARD_RANKS = "A23456789TJQK"
SLAP_KINDS = ("pair", "sandwich", "joker")
MATADOR_ORDER = ("knight", "bird", "cat", "inn")


@dataclass(frozen=True)
class Codec:
    """How one game's observations and actions are numbered."""

    game: str
    templates: tuple[Mapping[str, Any] | None, ...]
    """Action ``i`` is the legal action matching ``templates[i]``; ``None`` is *wait*.
    A template names a ``type`` and, for the actions on a stack, its ``stack``."""
    size: Callable[[int], int]
    """The observation's length for a number of players."""
    encode: Encoder

    def __post_init__(self) -> None:
        # The mask is on every step's path: a legal entry finds its code with one lookup
        # of (type, stack) instead of matching every template against every entry.
        index: dict[tuple[Any, Any], int] = {}
        for code, template in enumerate(self.templates):
            if template is not None:
                if not set(template) <= {"type", "stack"}:
                    raise ValueError(f"a template names a type and a stack, not {template}")
                index[(template["type"], template.get("stack"))] = code
        wait = np.array([t is None for t in self.templates], dtype=np.int8)
        keys = tuple(None if t is None else (t["type"], t.get("stack")) for t in self.templates)
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_keys", keys)
        object.__setattr__(self, "_wait", wait)
        object.__setattr__(self, "_count", len(self.templates))
        # (type, stack) of each legal entry -> the mask they make: a game offers a handful
        # of different sets of actions, and a mask made entry by entry was a twentieth of
        # a Splunk step
        object.__setattr__(self, "_masks", {})

    @property
    def actions(self) -> int:
        return len(self.templates)

    def check(self, code: object) -> int:
        """``code`` as an action number, or :class:`ValueError` saying what is wrong (a
        negative number is not counted from the end)."""
        # the common case, checked first (the count read once, not through the property)
        if type(code) is int and 0 <= code < self._count:  # type: ignore[attr-defined]
            return code
        if isinstance(code, (bool, np.bool_)) or not isinstance(code, (int, np.integer)):
            raise ValueError(f"an action is an integer from 0 to {self.actions - 1}, "
                             f"not {code!r}")
        if not 0 <= code < self.actions:
            raise ValueError(f"no action {int(code)}: the actions are 0 to {self.actions - 1}")
        return int(code)

    def mask(self, view: Mapping[str, Any]) -> Mask:
        """1 for every action open to the seat now (``view["legal"]``); wait is always open."""
        return self.shared_mask(view).copy()

    def shared_mask(self, view: Mapping[str, Any]) -> Mask:
        """:meth:`mask`, one array shared by every view that offers the same actions: read
        it, or copy it before changing it."""
        masks: dict[tuple[Any, ...], Mask] = self._masks  # type: ignore[attr-defined]
        # type, stack, type, stack, ...: one flat tuple is half the cost of one of pairs
        flat: list[Any] = []
        for entry in view["legal"]:
            flat.append(entry["type"])
            flat.append(entry.get("stack"))
        key = tuple(flat)
        mask = masks.get(key)
        if mask is None:
            if len(masks) >= 1024:  # a game that offers ever new sets: the cache stays small
                masks.clear()
            index: dict[tuple[Any, Any], int] = self._index  # type: ignore[attr-defined]
            mask = self._wait.copy()  # type: ignore[attr-defined]
            for i in range(0, len(key), 2):
                code = index.get((key[i], key[i + 1]))
                if code is not None:
                    mask[code] = 1
            mask.flags.writeable = False  # shared: a change would reach every later reader
            masks[key] = mask
        return mask

    def code(self, entry: Mapping[str, Any]) -> int | None:
        """The action code of one legal action (JSON, as ``view["legal"]`` lists it), or
        ``None`` if no code names it."""
        index: dict[tuple[Any, Any], int] = self._index  # type: ignore[attr-defined]
        return index.get((entry["type"], entry.get("stack")))

    def action_json(self, code: int, view: Mapping[str, Any]) -> dict[str, Any] | None:
        """The legal action (JSON, no ``player``) that ``code`` names, ``None`` to wait or
        when the view offers no such action now; :class:`ValueError` for a code that names
        no action (see :meth:`check`)."""
        return self.legal_entry(self.check(code), view)

    def legal_entry(self, code: int, view: Mapping[str, Any]) -> dict[str, Any] | None:
        """:meth:`action_json` of a code already checked (an environment's step checks
        every code before it changes anything)."""
        key = self._keys[code]  # type: ignore[attr-defined]
        if key is None:
            return None
        kind, stack = key
        for entry in view["legal"]:
            if entry["type"] == kind and entry.get("stack") == stack:
                return dict(entry)
        return None

    def labels(self) -> list[str]:
        """A readable name per action code (for docs and debugging)."""
        return ["wait" if t is None else " ".join(f"{v}" if k == "type" else f"{k}={v}"
                                                  for k, v in t.items())
                for t in self.templates]


@functools.cache
def _rotated(seat: int, players: int) -> tuple[int, ...]:
    """Seats in the order the observation lists them: the observer first, then leftwards."""
    return tuple((seat + i) % players for i in range(players))


# Each encoder writes only what is not zero into a zeroed array, with its indices looked up
# in these tables: an observation is made on every step, and a write or a ``str.index`` per
# number was a sixth of a step.
CARD_INDEX = {rank: i for i, rank in enumerate(CARD_RANKS)}


# -- Slapjack ---------------------------------------------------------------------------------

def slapjack_size(players: int) -> int:
    return 5 * players + 16


def encode_slapjack(view: Mapping[str, Any], seen: Sequence[Mapping[str, Any]], seat: int,
                    players: int, options: Mapping[str, Any]) -> Obs:
    """Slapjack, ``5 * players + 16`` numbers.

    - per seat, rotated (the observer first): cards / 52, out, waiting (no cards, J7), has
      the turn, flipped the top card;
    - the pile's size / 52, whether the top card is a Jack (slappable), the top card's
      rank one-hot (13: A 2 ... K), and 1 if the pile is empty.

    Suits are left out: no rule reads them.
    """
    out = np.zeros(slapjack_size(players), dtype=np.float32)
    rows = view["players"]
    turn, top_player = view["turn"], view["top_player"]
    base = 0
    # ``x / 52 if x < 52 else 1.0`` is ``min(x / 52, 1.0)`` for a count, without a call
    for s in _rotated(seat, players):
        p = rows[s]
        cards = p["cards"]
        if cards:
            out[base] = cards / 52 if cards < 52 else 1.0
        if p["out"]:
            out[base + 1] = p["out"]
        if p["waiting"]:
            out[base + 2] = p["waiting"]
        if turn == s:
            out[base + 3] = 1.0
        if top_player == s:
            out[base + 4] = 1.0
        base += 5
    pile = view["pile"]
    if pile:
        out[base] = pile / 52 if pile < 52 else 1.0
    if view["slappable"]:
        out[base + 1] = view["slappable"]
    top = view["top"]
    if top is None:
        out[base + 15] = 1.0
    else:
        out[base + 2 + CARD_INDEX[top[0]]] = 1.0
    return out


# -- Splunk -----------------------------------------------------------------------------------

SPLUNK_STACK = 23
#: the top face-up card's rank -> its place in a stack's one-hot (the joker last)
SPLUNK_RANK_INDEX = {**CARD_INDEX, "X": 13}
SLAP_INDEX = {kind: i for i, kind in enumerate(SLAP_KINDS)}


def splunk_size(players: int) -> int:
    return 6 + 4 * SPLUNK_STACK


SPLUNK_SIZE = splunk_size(2)


def encode_splunk(view: Mapping[str, Any], seen: Sequence[Mapping[str, Any]], seat: int,
                  players: int, options: Mapping[str, Any]) -> Obs:
    """Splunk, 98 numbers.

    - the observer's pile / 27, the opponent's pile / 27;
    - the observer has the turn, the opponent has it;
    - a call is open on the latest play (``call_open``), a slap is open (``slap_open``);
    - per stack (4 x 23): its cards / 54, its face-up cards / 27, its face-up total / 100,
      the top face-up card's rank one-hot (14: A 2 ... K, joker), 1 if nothing is face up,
      what a slap on it would win on one-hot (pair, sandwich, joker), whether the observer
      may call it out now, whether it took the latest play, whether that play was the
      observer's.

    Nobody sees a pile or a base (P1), so there is nothing private to encode.
    """
    obs = np.zeros(SPLUNK_SIZE, dtype=np.float32)
    # every number is written through the array's memoryview (the same float32 rounding):
    # an item write costs half what a numpy one does, and these writes were half the
    # encoding. Typed Any: typeshed gives a memoryview's items as int, a float32 one's are
    # floats.
    out: Any = obs.data
    rows = view["players"]
    other = 1 - seat
    # ``x / n if x < n else 1.0`` is ``min(x / n, 1.0)`` for the counts here, without a call
    cards = rows[seat]["cards"]
    if cards:
        out[0] = cards / 27 if cards < 27 else 1.0
    cards = rows[other]["cards"]
    if cards:
        out[1] = cards / 27 if cards < 27 else 1.0
    turn = view["turn"]
    if turn == seat:
        out[2] = 1.0
    elif turn == other:
        out[3] = 1.0
    if view["call_open"]:
        out[4] = 1.0
    if view["slap_open"] is not None:
        out[5] = 1.0
    rank_index, slap_index = SPLUNK_RANK_INDEX, SLAP_INDEX
    base = 6
    for stack in view["stacks"]:
        up = stack["up"]
        cards = stack["cards"]
        if cards:
            out[base] = cards / 54 if cards < 54 else 1.0
        if up:
            shown = len(up)
            out[base + 1] = shown / 27 if shown < 27 else 1.0
            out[base + 3 + rank_index[up[-1][0]]] = 1.0
        else:
            out[base + 17] = 1.0
        total = stack["up_total"]
        if total:
            out[base + 2] = total / 100 if total < 100 else 1.0
        slap = stack["slap"]
        if slap is not None:
            out[base + 18 + slap_index[slap]] = 1.0
        if stack["call_open"]:
            out[base + 21] = 1.0
        base += SPLUNK_STACK
    last = view["last_play"]
    # whether a stack took the latest play at all sits in the slap/call bits and last_play;
    # the one stack with the observer's is set here, not tested for in the loop
    if last is not None and last["player"] == seat:
        out[6 + SPLUNK_STACK * last["stack"] + 22] = 1.0
    return obs


# -- Slabberjan -------------------------------------------------------------------------------

SLABBERJAN_SEAT = 29
KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
MATADOR_INDEX = {kind: i for i, kind in enumerate(MATADOR_ORDER)}


def slabberjan_size(players: int) -> int:
    return 21 + SLABBERJAN_SEAT * players + 6


def encode_slabberjan(view: Mapping[str, Any], seen: Sequence[Mapping[str, Any]], seat: int,
                      players: int, options: Mapping[str, Any]) -> Obs:
    """Slabberjan, ``21 + 29 * players + 6`` numbers.

    - the observer's own piece one-hot (21 kinds, knight first, fool last);
    - per seat, rotated (the observer first, then its left neighbour, ...): chips /
      (starting chips x players), out, is the dealer, has the turn, the matador it
      announced this deal one-hot (knight, bird, cat, inn), and the piece the observer
      knows it holds one-hot (21 kinds; from the observer's own swaps and draws this deal,
      ``view["learned"]``: a partner holds what the observer gave it);
    - the pot / (starting chips x players), pieces in the bag / 42, pieces set aside / 42,
      the bird has spoken, option ``free_choice``, the dealer's phase.
    """
    out = np.zeros(slabberjan_size(players), dtype=np.float32)
    piece = view["piece"]
    if piece is not None:
        out[KIND_INDEX[piece]] = 1.0
    known: dict[int, str] = {}
    for fact in view["learned"]:
        if isinstance(fact["with"], int):
            known[fact["with"]] = fact["gave"]
    known.pop(seat, None)  # what the observer holds is its own piece, above
    scale = max(1, options.get("chips", 3) * players)
    rows = view["players"]
    dealer, turn = view["dealer"], view["turn"]
    base = 21
    for s in _rotated(seat, players):
        p = rows[s]
        if p["chips"]:
            out[base] = min(p["chips"] / scale, 1.0)
        if p["out"]:
            out[base + 1] = p["out"]
        if dealer == s:
            out[base + 2] = 1.0
        if turn == s:
            out[base + 3] = 1.0
        shown = p["shown"]
        if shown is not None:
            out[base + 4 + MATADOR_INDEX[shown]] = 1.0
        held = known.get(s)
        if held is not None:
            out[base + 8 + KIND_INDEX[held]] = 1.0
        base += SLABBERJAN_SEAT
    if view["pot"]:
        out[base] = min(view["pot"] / scale, 1.0)
    if view["bag"]:
        out[base + 1] = view["bag"] / 42
    if view["set_aside"]:
        out[base + 2] = view["set_aside"] / 42
    if view["bird"]:
        out[base + 3] = 1.0
    if view["free_choice"]:
        out[base + 4] = 1.0
    if view["phase"] == "dealer":
        out[base + 5] = 1.0
    return out


CODECS: Mapping[str, Codec] = {
    "slapjack": Codec("slapjack", (None, {"type": "flip"}, {"type": "slap"}),
                      slapjack_size, encode_slapjack),
    "splunk": Codec("splunk", (None, *({"type": "play", "stack": i} for i in range(4)),
                               {"type": "call"},
                               *({"type": "slap", "stack": i} for i in range(4))),
                    splunk_size, encode_splunk),
    "slabberjan": Codec("slabberjan", ({"type": "swap"}, {"type": "stand"}, {"type": "draw"}),
                        slabberjan_size, encode_slabberjan),
}

__all__ = ["CODECS", "MATADORS", "PIECE_RANK", "Codec", "Mask", "Obs"]
