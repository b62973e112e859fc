"""What a game is, as data: the one definition every layer reads.

Each game module under :mod:`parlour.games` opens with a :class:`GameSpec` (think of
OpenSpiel's game-type block): its name, title and one-line blurb, how many play, its
options with their types, defaults and limits, its actions, what its view holds, and the
few facts a live table needs about its pace. The registry, the computer players, the live
tables, the statistics and the pages (through ``GET /api/games``) all read it; none of them
keeps a copy.

>>> spec = GameSpec(name="coin", title="Coin", blurb="Call it.", players=(2, 2), seats=(2, 2),
...     options=(Option("rounds", "int", "Rounds", default=3, low=1, high=9),))
>>> spec.resolve_options({"rounds": 5}, players=2, draw=lambda n: 0)
{'rounds': 5}
>>> spec.resolve_options({"rounds": 0}, players=2, draw=lambda n: 0)
Traceback (most recent call last):
...
parlour.engine.errors.RecordError: coin option 'rounds' must be an integer from 1 to 9, not 0
>>> spec.to_json()["options"][0]["default"]
3
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal, Protocol, TypeAlias

from parlour.engine.actions import Action
from parlour.engine.errors import RecordError
from parlour.engine.events import Event

#: The computer players' speeds, slowest first: the same names in every game (the seed's:
#: "slowly and often misses", "a fair match for a beginner", "quick and rarely wrong"), and
#: Expert, ours, beyond the rules pages, for the quickest people.
LEVELS: tuple[str, ...] = ("easy", "normal", "hard", "expert")
#: What a page calls each speed.
LEVEL_TITLES: Mapping[str, str] = {"easy": "Easy", "normal": "Normal", "hard": "Hard",
                                   "expert": "Expert"}
#: The speeds that the seed's rules pages do not name: pages mark them as Parlour's own.
BEYOND_RULES: frozenset[str] = frozenset({"expert"})
#: One line a page may show about each speed, for a game that says nothing of its own
#: (:attr:`GameSpec.level_about`). Each of Parlour's games says what its speeds mean in
#: that game, measured (docs/bots.md): these words hold for any game.
LEVEL_ABOUT: Mapping[str, str] = {
    "easy": "The gentlest computer players.",
    "normal": "Computer players that play a sound, simple game.",
    "hard": "The strongest computer players on the rules page.",
    "expert": "Beyond the rules page: Hard's play at its quickest.",
}

OptionValue: TypeAlias = bool | int | str


def is_int(value: object) -> bool:
    """An integer that is not a bool (JSON's ``true`` is not a seat number)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Option:
    """One option of a game.

    ``kind`` is ``bool``, ``int`` (from ``low`` to ``high``), ``seat`` (0 to players - 1)
    or ``choice`` (one of the names in ``choices``). A ``chance`` option (the first dealer,
    the first player) is drawn from the game's :class:`~parlour.engine.chance.Chance` when
    it is not given, and always drawn, so that one seed deals the same cards whether or not
    it is given; pages do not offer it. An option that is not ``live`` (a game's smaller
    variants, for research) is left out of what the pages read (:meth:`GameSpec.to_json`):
    records, replays, simulations and the environments take it, a live table plays its
    default.
    """

    name: str
    kind: Literal["bool", "int", "seat", "choice"]
    label: str
    default: OptionValue | None = None
    low: int | None = None
    high: int | None = None
    chance: bool = False
    help: str = ""
    choices: tuple[str, ...] = ()
    live: bool = True

    def resolve(self, game: str, value: object, players: int,
                draw: Callable[[int], int], always_draw: bool = True) -> OptionValue:
        """The checked value of this option (``value`` is ``None`` when not given).

        A chance option is drawn even when given unless ``always_draw`` is false (a game
        with no seed, whose generator keeps no order that a skipped draw could shift)."""
        if self.chance and (always_draw or value is None):
            drawn = draw(players)
            if value is None:
                value = drawn
        elif value is None:
            value = self.default
        kind = self.kind
        if kind == "bool":
            if value is True or value is False:
                return value
            raise RecordError(f"{self._where(game)} must be true or false, not {value!r}")
        if kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
            raise RecordError(f"{self._where(game)} must be one of "
                              f"{', '.join(map(repr, self.choices))}, not {value!r}")
        low, high = (0, players - 1) if kind == "seat" else (self.low, self.high)
        if isinstance(value, int) and value is not True and value is not False and (
                low is None or value >= low) and (high is None or value <= high):
            return value
        what = "a seat" if kind == "seat" else "an integer"
        raise RecordError(f"{self._where(game)} must be {what} from {low} to {high}, "
                          f"not {value!r}")

    def _where(self, game: str) -> str:
        return f"{game} option '{self.name}'"

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Pacing:
    """What a live table (and a simulation under the same clock) needs about a game's pace.

    After an event of a type in ``after``, a computer player holds back actions of the types
    in ``held`` until ``pause[level]`` seconds have passed, so that a person can see what
    happened before it is covered (ruling J10 for Slapjack). ``at_field`` names the view
    key that an action's ``at`` counts (Slapjack's ``flips``, Splunk's ``plays``).
    """

    at_field: str | None = None
    after: frozenset[str] = frozenset()
    held: frozenset[str] = frozenset()
    pause: Mapping[str, float] = field(default_factory=dict)
    why: str = ""

    def pause_for(self, level: str | None) -> float:
        return 0.0 if level is None else self.pause.get(level, 0.0)

    def to_json(self) -> dict[str, Any]:
        return {"at_field": self.at_field, "after": sorted(self.after),
                "held": sorted(self.held), "pause": dict(self.pause), "why": self.why}


class Metric(Protocol):
    """A statistic of one game beyond wins and lengths, read from its public events: one
    number per seat for each thing it measures (``parlour simulate`` sums them)."""

    def see(self, events: Sequence[Event]) -> None: ...

    def result(self) -> dict[str, list[float]]: ...


def _type_name(annotation: object) -> str:
    """``int | None`` for an annotation, whether a string, a forward reference or a type."""
    if isinstance(annotation, str):
        return annotation
    return str(getattr(annotation, "__forward_arg__", getattr(annotation, "__name__",
                                                              annotation)))


@dataclass(frozen=True)
class GameSpec:
    """One game, as every layer sees it; see the module docstring."""

    name: str
    title: str
    blurb: str
    players: tuple[int, int]
    """Fewest and most players the rules allow."""
    seats: tuple[int, int]
    """Fewest and most players a live table offers (a person and computer players)."""
    default_players: int = 2
    options: tuple[Option, ...] = ()
    actions: Mapping[str, type[Action]] = field(default_factory=dict)
    view: type | None = None
    """The TypedDict of a seat's view."""
    pacing: Pacing = field(default_factory=Pacing)
    metrics: Callable[[int], Metric] | None = None
    """Makes the game's own statistics for a simulation, given the number of players."""
    ratios: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Ratios of those statistics a simulation reports: name -> (numerator, denominator)."""
    level_about: Mapping[str, str] = field(default_factory=lambda: LEVEL_ABOUT)
    """What each speed of computer player means in this game, in a player's words: the
    line a page shows beside the speed (every speed of :data:`LEVELS`)."""

    def __post_init__(self) -> None:
        missing = [level for level in LEVELS if not self.level_about.get(level)]
        if missing:
            raise ValueError(f"{self.name}: no words for the speeds {', '.join(missing)}")

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        raise KeyError(name)

    def resolve_options(self, given: Mapping[str, object], *, players: int,
                        draw: Callable[[int], int],
                        always_draw: bool = True) -> dict[str, OptionValue]:
        """Checks ``given`` and fills in every default, drawing chance options with ``draw``
        (``draw(n)``: an index in ``range(n)``; see :meth:`Option.resolve` for
        ``always_draw``); :class:`RecordError` names a problem."""
        known = self._option_names
        if not known.issuperset(given):
            unknown = sorted(set(given) - known)
            expected = ", ".join(sorted(known)) if known else "none"
            raise RecordError(f"{self.name} has no option {', '.join(map(repr, unknown))} "
                              f"(its options: {expected})")
        name = self.name
        get = given.get
        # a loop, not a comprehension: every new game (a replay, a rollout) comes here, and
        # a comprehension is one more function call
        resolved: dict[str, OptionValue] = {}
        for opt in self.options:
            resolved[opt.name] = opt.resolve(name, get(opt.name), players, draw, always_draw)
        return resolved

    @property
    def _option_names(self) -> frozenset[str]:
        names: frozenset[str] | None = self.__dict__.get("_names")
        if names is None:  # a frozen dataclass: cache by hand, once
            names = frozenset(opt.name for opt in self.options)
            object.__setattr__(self, "_names", names)
        return names

    def check_players(self, players: object, *, live: bool = False) -> int:
        """``players`` if the rules (``live``: a live table) allow that many, else
        :class:`RecordError` saying how many may play."""
        low, high = self.seats if live else self.players
        if not is_int(players) or not low <= players <= high:  # type: ignore[operator]
            where = " here" if live else ""
            raise RecordError(f"{self.title} is played{where} by {low} to {high} players, "
                              f"not {players!r}")
        assert isinstance(players, int)
        return players

    def to_json(self) -> dict[str, Any]:
        """The spec as ``GET /api/games`` serves it to the pages."""
        hints = getattr(self.view, "__annotations__", {})
        return {
            "name": self.name, "title": self.title, "blurb": self.blurb,
            "players": list(self.players), "seats": list(self.seats),
            "default_players": self.default_players,
            "options": [opt.to_json() for opt in self.options if opt.live],
            "actions": {kind: {"fields": [f.name for f in fields(cls)[1:]],
                               "doc": (cls.__doc__ or "").strip()}
                        for kind, cls in self.actions.items()},
            "view": {key: _type_name(hint) for key, hint in hints.items()},
            "pacing": self.pacing.to_json(),
            "levels": [{"name": level, "title": LEVEL_TITLES[level],
                        "about": self.level_about[level],
                        "beyond_rules": level in BEYOND_RULES} for level in LEVELS],
        }
