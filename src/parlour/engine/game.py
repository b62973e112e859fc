"""The shape every game shares: checked and unchecked moves, views, outcome, record.

A game is exactly its history: the number of players, the options, the chance outcomes
(:class:`~parlour.engine.chance.Chance`) and the actions. A subclass names its
:class:`~parlour.engine.spec.GameSpec` (``spec``: players, options, actions, view) and
supplies the rules in small pieces:

- ``_setup(events)``: deal and everything before the first action;
- ``legal_actions(seat)``: every action open to ``seat`` now, empty once the game is over.
  This is the game's one statement of legality: the check of :meth:`Game.apply`
  (:meth:`Game.why_illegal`), :meth:`Game.legal_json` (every view's ``legal``) and
  :meth:`Game.offers` are derived from it. An action of a stamped kind (``stamp="at"``,
  :mod:`~parlour.engine.actions`) is offered stamped now, and the same action stamped
  earlier or not at all is admitted too;
- for each action kind ``K`` of the spec, ``_do_K(action, events)``: carry it out,
  appending public events when ``events`` is a list (``None`` on the fast path: nothing is
  built that nobody reads); and, optionally, ``_why_not_K(action)``: why such an action is
  refused, in words, which only explains a refusal that the statement made;
- ``winner``: the winning seat once the game is over, ``None`` before (and after a draw);
  ``outcome`` is ``None`` exactly while the game goes on;
- ``view(seat)``: what the seat may see, with ``legal``, and every fact it needs to act,
  so that no reader re-derives a rule.

Where a derived piece is too slow for a hot path, a game writes it out by hand and marks
it :func:`fast_path`: ``legal_json``, ``offers``, or a ``_why_not_K`` that then decides
legality itself (``None``: legal). :attr:`Game.fast_paths` names them, and
``tests/games/test_legality.py`` pins each one, in every registered game, to what the base
class derives from ``legal_actions``. A derived piece replaced without the mark is refused
when the class is made.

The base class finds each kind's methods once per game class and dispatches on the
action's class with one dictionary lookup, so the checked path costs the rules' own checks
and events and little else.

:meth:`Game.apply` is the checked path for untrusted input: a refused action raises
:class:`~parlour.engine.errors.IllegalAction` before anything changes, so the state is
exactly as it was (ruling G1). :meth:`Game.push` is the fast path for simulations and bots
that already know the action is legal: no checks and no events, like python-chess's ``push``
beside ``push_san``.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Self, TypeVar

from parlour.engine.actions import Action, parse_action
from parlour.engine.chance import Chance, ChanceNeeded, ChanceOutcome, ChanceRequest
from parlour.engine.errors import IllegalAction
from parlour.engine.events import Event
from parlour.engine.outcome import Outcome
from parlour.engine.spec import GameSpec

#: a kind's check, a plain function of (game, action): ``None`` if the action is legal now,
#: else why not; and its ``_do_<kind>``
Check = Callable[[Any, Any], str | None]
Do = Callable[[Any, Any, list[Event] | None], None]
F = TypeVar("F", bound=Callable[..., Any])
#: the attributes every game has that :meth:`Game.clone` copies itself
_ENGINE_STATE = frozenset({"players", "seed", "chance", "options", "history", "events"})


def fast_path(method: F) -> F:
    """Marks a method as a hand-written fast path of a piece the base class derives from
    ``legal_actions`` (``legal_json``, ``offers``, a kind's check ``_why_not_<kind>``):
    written out for speed, to the same answers. :attr:`Game.fast_paths` lists the marked
    methods of a game, and the generic property test compares each with the derived
    piece at every state of random games."""
    method._fast_path = True  # type: ignore[attr-defined]
    return method


def _is_fast(method: object) -> bool:
    return getattr(method, "_fast_path", False) is True


def _derived_check(game: Game, action: Action) -> str | None:
    """A kind's check derived from the statement: ``None`` if ``action`` is one of the
    actions ``legal_actions`` offers its seat now (:meth:`Action.admitted_by`)."""
    offered = game.legal_actions(action.player)
    if action._stamp is None:
        if action in offered:
            return None
    else:
        for one in offered:
            if action.admitted_by(one):
                return None
    return "not offered"  # why_illegal finds the words


class Game(ABC):
    """Base class of every Parlour game."""

    spec: ClassVar[GameSpec]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    action_kinds: ClassVar[Mapping[str, type[Action]]]
    #: the names of the game's :func:`fast_path` methods: each is pinned to the derived one
    fast_paths: ClassVar[frozenset[str]] = frozenset()
    #: action class -> the game's ``_do_<kind>`` (a plain function): what ``push`` calls
    _doers: ClassVar[dict[type[Action], Do]] = {}
    #: action class -> (its check, ``_do_<kind>``): one lookup for ``apply``. The check is
    #: the kind's fast ``_why_not_<kind>``, or the one derived from ``legal_actions``
    _rules: ClassVar[dict[type[Action], tuple[Check, Do]]] = {}
    #: action class -> its ``_why_not_<kind>``, where the game words its refusals
    _reasons: ClassVar[dict[type[Action], Check]] = {}

    #: the winning seat once the game is over; ``None`` while it goes on, and after a draw
    winner: int | None = None
    #: A game in which every seat sees the same and every action shows in it, but one that
    #: changed nothing (a slap that lost its race, ignored), names the events that say so:
    #: an action changed every seat's view unless all its events are of these, and then
    #: nobody's. So a reader of views (an environment timing a reaction from the moment a
    #: seat's view changed, the scheduler) knows it from the events, without making and
    #: comparing every view after every action. ``None``: it depends on the seat (compare).
    no_change_events: ClassVar[frozenset[str] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        spec = getattr(cls, "spec", None)
        if spec is None:
            return
        # read on every apply: plain attributes, dicts of classes
        cls.name = spec.name
        cls.min_players, cls.max_players = spec.players
        cls.action_kinds = spec.actions
        cls._doers = {a: getattr(cls, f"_do_{k}") for k, a in spec.actions.items()}
        cls._reasons = {a: getattr(cls, f"_why_not_{k}") for k, a in spec.actions.items()
                        if hasattr(cls, f"_why_not_{k}")}
        fast = {f"_why_not_{k}" for k, a in spec.actions.items()
                if _is_fast(cls._reasons.get(a))}
        for name in ("legal_json", "offers"):
            if getattr(cls, name) is not getattr(Game, name):
                if not _is_fast(getattr(cls, name)):
                    raise TypeError(
                        f"{cls.__name__}.{name} replaces the one Game derives from "
                        "legal_actions: mark it @fast_path, so that the generic test "
                        "pins it to the derived one")
                fast.add(name)
        cls.fast_paths = frozenset(fast)
        cls._rules = {a: (cls._reasons[a] if f"_why_not_{k}" in fast else _derived_check,
                          cls._doers[a]) for k, a in spec.actions.items()}

    def __init__(
        self,
        players: int,
        *,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        decks: Iterable[Sequence[Any]] = (),
        shuffles: Iterable[Sequence[Any]] = (),
        chance: Chance | None = None,
    ) -> None:
        self.players = self.spec.check_players(players)
        self.seed = seed
        # a caller's own Chance (an explicit one: see setup_chance) or the game's
        self.chance = Chance(seed, decks, shuffles) if chance is None else chance
        # a seeded game always draws its chance options, so that one seed deals the same
        # cards whether or not they are given; an unseeded one need not draw a given one
        self.options: dict[str, Any] = self.spec.resolve_options(
            options or {}, players=players, draw=self.chance.choice,
            always_draw=seed is not None)
        self.history: list[Action] = []
        #: every event of the setup and of each checked :meth:`apply`, in order
        self.events: list[Event] = []
        self._setup(self.events)
        self.chance.clock = self.history  # a draw from now on is during an action

    # -- what a game supplies ------------------------------------------------------------

    @abstractmethod
    def _setup(self, events: list[Event]) -> None: ...

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, each once, a stamped kind stamped now
        (empty once the game is over): the game's one statement of legality."""

    @abstractmethod
    def view(self, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see, as a JSON object (the game's TypedDict); ``None`` is the
        public, spectator's view."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on."""

    # -- the shared machinery --------------------------------------------------------------

    def why_illegal(self, action: Action) -> str | None:
        """``None`` if ``action`` may be applied now, else the reason it may not."""
        rules = self._rules.get(type(action))
        if rules is None:
            return f"{type(action).__name__} is not a {self.name} action"
        if not 0 <= action.player < self.players:
            return f"there is no seat {action.player} at a {self.players}-player table"
        if rules[0](self, action) is None:
            return None
        # refused: now the words, which need not be quick (the check has decided)
        if self.outcome is not None:
            return "the game is over"
        explain = self._reasons.get(type(action))
        reason = explain(self, action) if explain is not None else None
        return reason if reason is not None else "it is not one of the actions open to you now"

    def hands_dealt(self) -> list[list[Any]] | None:
        """Each seat's cards as the game dealt them at its start, first dealt first, for a
        finished game's replay to reveal; ``None`` where there is no one deal to show (a
        game dealt again every round)."""
        return None

    def views_changed(self, events: Sequence[Event]) -> bool | None:
        """What one action's ``events`` did to the seats' views, as far as the game can say
        from them (``no_change_events``): ``True``, every seat's view changed; ``False``,
        nobody's; ``None``, it cannot say (compare the views). The one statement the
        environments' tables and the scheduler read."""
        no_change = self.no_change_events
        if no_change is None:
            return None
        # a loop, not any() over a generator (a frame a call): this runs after every action
        for event in events:  # noqa: SIM110
            if event.type not in no_change:
                return True
        return False

    def legal_json(self, seat: int | None) -> list[dict[str, Any]]:
        """The actions open to ``seat`` now, as a seat sends them (no ``player``); none for a
        spectator. Every view carries this as ``legal``."""
        if seat is None:
            return []
        return [a.for_seat() for a in self.legal_actions(seat)]

    def offers(self, seat: int, kinds: Collection[str]) -> bool:
        """Whether ``seat`` is offered an action of one of ``kinds`` (its ``type``) now: for a
        question asked after every change (an env's turn timer: is a turn move open to the
        seat?), which a game may answer with a fast path, without building the list."""
        # a loop, not any() over a generator (a frame a call)
        for action in self.legal_actions(seat):  # noqa: SIM110
            if action.type in kinds:
                return True
        return False

    def late(self, action: Action) -> str | None:
        """Why ``action``, which the rules refuse now, was merely too late (it lost a race to
        another seat's move that settled what it aimed at), or ``None`` if it is simply not
        allowed. A live table tells the person "too late" rather than "refused" (P5: the
        loser of a race is stale, not wrong)."""
        return None

    def is_legal(self, action: Action) -> bool:
        return self.why_illegal(action) is None

    def apply(self, action: Action) -> list[Event]:
        """Applies ``action`` after checking it and returns the events it caused.

        Raises :class:`IllegalAction` with the reason, leaving the game untouched.
        """
        # a subscript, not .get: no method call on the path every checked move takes
        try:
            check, do = self._rules[type(action)]
        except KeyError:
            check = None
        # the common case in one test; a refusal asks why_illegal for its reason (the checks
        # change nothing, so asking twice gives the same answer)
        if (check is None or not 0 <= action.player < self.players
                or check(self, action) is not None):
            raise IllegalAction(
                f"seat {action.player} cannot {action.type}: {self.why_illegal(action)}")
        events: list[Event] = []
        do(self, action, events)
        self.history.append(action)
        self.events += events
        return events

    def apply_json(self, obj: object, *, player: int | None = None) -> list[Event]:
        """Parses an action from its JSON form and applies it, checked (untrusted input)."""
        return self.apply(self.parse_action(obj, player=player))

    def push(self, action: Action) -> None:
        """Applies an action known to be legal, unchecked and without events (simulations)."""
        self._doers[type(action)](self, action, None)
        self.history.append(action)

    def parse_action(self, obj: object, *, player: int | None = None) -> Action:
        return parse_action(obj, self.action_kinds, player=player)

    # -- copies ----------------------------------------------------------------------------

    def clone(self) -> Self:
        """An independent copy of the game as it stands: fed the same actions, it gives the
        same events, views, outcome and record as this game would, and playing either one
        leaves the other as it was. A copy, not a replay: it costs about as much as the
        state (the history and events are copied as lists: actions and events are values,
        shared between the two).

        Chance goes on as it would have: a seeded game's clone draws the same next deck,
        an unseeded one's draws fresh from the operating system (:meth:`Chance.clone`).
        ``copy.copy``, ``copy.deepcopy`` and ``pickle`` give the same independent game."""
        new = object.__new__(type(self))
        state = self.__dict__.copy()
        state["history"] = self.history.copy()
        state["events"] = self.events.copy()
        state["options"] = self.options.copy()
        state["chance"] = chance = self.chance.clone()
        if chance.clock is not None:
            chance.clock = state["history"]
        new.__dict__ = state
        self._copy_state(state)
        return new

    def _copy_state(self, state: dict[str, Any]) -> None:
        """Gives the clone whose attributes are ``state`` (a copy of this game's
        ``__dict__``, the engine's own already copied) its own copy of every container the
        rules change in place. This default deep-copies every attribute the engine does not
        own, which is right for any game; a game overrides it with the few copies it needs,
        which is what makes a clone cheap."""
        memo: dict[int, Any] = {}
        for name, value in state.items():
            if name not in _ENGINE_STATE:
                state[name] = copy.deepcopy(value, memo)

    def __copy__(self) -> Self:
        # a "shallow" copy that shared its piles with the original would be two games
        # changing one state: a copy of a game is always a clone
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        new = self.clone()
        memo[id(self)] = new
        return new

    # -- chance nodes ------------------------------------------------------------------------

    def trajectory(self) -> list[Action | ChanceOutcome]:
        """The game as its history: every chance outcome and action in the order they
        happened (the setup's draws first; a draw made while applying an action comes
        right after it), as in OpenSpiel, where a state is exactly its history."""
        out: list[Action | ChanceOutcome] = []
        drawn = self.chance.drawn
        i = 0
        while i < len(drawn) and drawn[i].at is None:
            out.append(drawn[i])
            i += 1
        for k, action in enumerate(self.history):
            out.append(action)
            while i < len(drawn) and drawn[i].at == k:
                out.append(drawn[i])
                i += 1
        return out

    def chance_for(self, action: Action,
                   chosen: Sequence[Sequence[Any]] = ()) -> ChanceRequest | None:
        """The chance node that applying ``action`` now reaches once the outcomes
        ``chosen`` (in order) have been drawn, or ``None`` if those are all it needs.

        It applies the action to a clone whose chance is explicit, so this game is left as
        it was. A planner that picks (or enumerates) chance outcomes itself asks until
        ``None``, stacks what it chose with :meth:`Chance.stack` and applies the action;
        an illegal action raises :class:`IllegalAction`."""
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalAction(f"seat {action.player} cannot {action.type}: {reason}")
        stacked: list[tuple[str, Sequence[Any]]] = []
        while True:
            probe = self.clone()  # a probe stopped at a chance node is half-changed
            chance = probe.chance
            chance.explicit = True
            chance.unstack()
            for kind, order in stacked:
                chance.stack(kind, order)  # type: ignore[arg-type]
            try:
                probe.push(action)
            except ChanceNeeded as need:
                if len(stacked) == len(chosen):
                    return need.request
                stacked.append((need.request.kind, chosen[len(stacked)]))
                continue
            if len(stacked) < len(chosen):
                raise ValueError(f"{len(chosen)} outcomes were chosen but {type(action).__name__}"
                                 f" draws {len(stacked)} now")
            return None

    @classmethod
    def setup_chance(cls, players: int, *, options: Mapping[str, Any] | None = None,
                     chosen: Sequence[Sequence[Any]] = ()) -> ChanceRequest | None:
        """The chance node a new game (no seed) reaches in its setup once the decks
        ``chosen`` have been dealt, or ``None``: then ``cls(players, options=options,
        decks=chosen)`` is the game those outcomes make. Give every chance option (the
        first dealer, the first player) in ``options``, or it is asked for as a
        ``choice``."""
        chance = Chance(decks=chosen, explicit=True)
        try:
            cls(players, options=options, chance=chance)
        except ChanceNeeded as need:
            return need.request
        return None

    def record(self) -> dict[str, Any]:
        """The game record (``shared/spec/records.md``) with every chance outcome explicit."""
        return {
            "game": self.name,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            **self.chance.outcomes(),
            "actions": [a.to_json() for a in self.history],
        }

    def __repr__(self) -> str:
        state = "over" if self.outcome is not None else "in play"
        return (f"<{type(self).__name__} players={self.players} seed={self.seed!r} "
                f"actions={len(self.history)} {state}>")
