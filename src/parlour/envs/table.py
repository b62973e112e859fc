"""One game with some seats learning and the others our computer players, on virtual time.

This is the shared core of every environment. The computer players are driven exactly as
in a simulation or at a live table: :class:`~parlour.bots.scheduler.Scheduler` on a
:class:`~parlour.bots.scheduler.VirtualClock` (their reaction and thinking times, and the
game's pacing, such as J10's pause after a pile is taken). A learning seat's action goes
through the checked :meth:`~parlour.engine.Game.apply`, as a person's click at a live table
does, and then to the scheduler, so the computer players react to it as they would to a
person.

A learning seat's action may also be put on the clock (:meth:`Table.schedule`): it lands
at its time, in the same seeded tie-break order as the computers' at that instant, so a
learner and a computer that react at the same moment are settled as two computers would
be. For that the table keeps, per learning seat, the moment its view last changed (what a
reaction is timed from, as the scheduler times a computer's) and, in the races, a turn
timer: a learning seat whose turn it has been for ``turn_seconds`` is played for.

Seeds: one integer makes a whole episode: the game's own seed (the deal and every shuffle),
every computer player's seed, and the tie-break order of the seats (who goes first when
two actions fall on the same instant: ruling J3's "the earlier slap wins", with a seeded
order for exact ties, as :func:`parlour.bots.arena.play` does).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from parlour.bots import RACE_GAMES, make_player
from parlour.bots.base import AnyPlayer
from parlour.bots.scheduler import Scheduler, Timer, VirtualClock
from parlour.engine import Action, Event, Game, GameError
from parlour.engine.seeds import derived_seed
from parlour.games import GAME_NAMES, game_class

#: The games that are no race (Slabberjan): their computer players answer only on their own
#: turn and remember nothing but the events they are told, so the scheduler asks only a
#: seat with a legal action or a pending move (:class:`~parlour.bots.scheduler.Scheduler`'s
#: ``turn_based``), which at a 4-player table against Easy was most of a step.
#: ``tests/envs/test_envs_speed.py`` plays these games both ways and finds the same episodes.
TURN_BASED: frozenset[str] = frozenset(GAME_NAMES) - frozenset(RACE_GAMES)


def agent_name(seat: int) -> str:
    """The PettingZoo agent of ``seat``."""
    return f"seat_{seat}"


def seat_of(agent: str) -> int:
    return int(agent.removeprefix("seat_"))


def learning_seats(players: int, opponents: Mapping[int, Any]) -> list[int]:
    """The seats that learn: every seat ``opponents`` (our computer players) leaves."""
    for seat in opponents:
        if not 0 <= seat < players:
            raise ValueError(f"no seat {seat} at a {players}-player table")
    learners = [s for s in range(players) if s not in opponents]
    if not learners:
        raise ValueError("every seat is a computer player: no agent would learn")
    return learners


#: game class -> (seat, an action's JSON items) -> the action it parses to (``Table.act``)
_PARSED: dict[type[Game], dict[tuple[Any, ...], Action]] = {}
#: how many a game's parsed actions may grow to before they are forgotten (a long episode
#: aims slaps at thousands of plays)
_PARSED_MAX = 20_000


def derive(seed: int, *parts: object) -> int:
    """A seed for one part of an episode, stable across runs and platforms."""
    return derived_seed("parlour-env", seed, *parts)


class Table:
    """A game in play: learning seats, computer seats, the clock, and what each seat saw."""

    def __init__(self, game: str, players: int, options: Mapping[str, Any],
                 opponents: Mapping[int, str], seed: int, *,
                 decks: Sequence[Sequence[str]] = (),
                 shuffles: Sequence[Sequence[str]] = (),
                 timed: bool = False,
                 turn_actions: frozenset[str] = frozenset(),
                 turn_seconds: float | None = None) -> None:
        cls = game_class(game)
        self.game: Game = cls(players, seed=derive(seed, "game"), options=dict(options),
                              decks=decks, shuffles=shuffles)
        self.players = players
        self.clock = VirtualClock()
        order = list(range(players))
        random.Random(derive(seed, "ties")).shuffle(order)
        #: seat -> its rank when actions fall on the same instant (lower goes first)
        self.tie_rank = {seat: i for i, seat in enumerate(order)}
        self.bots: dict[int, AnyPlayer] = {
            seat: make_player(game, level, seat, seed=derive(seed, "seat", seat))
            for seat, level in opponents.items()}
        #: every event so far, in order (a seat's share is ``seen(seat)``)
        self.events: list[Event] = list(self.game.events)
        #: ``timed`` (the races): the learners' views are followed, for their reactions
        self.timed = timed
        self.learners = [s for s in range(players) if s not in self.bots] if timed else []
        #: learning seat -> when its view last changed (0 for the deal)
        self.changed_at: dict[int, float] = dict.fromkeys(self.learners, 0.0)
        #: learning seat -> how many times its view has changed (a reader that keeps what it
        #: made of a view knows from this whether it is still the seat's view)
        self.changes: dict[int, int] = dict.fromkeys(self.learners, 0)
        # What an action changed: the game says it from the events (``views_changed``), so
        # a view is made only when someone reads it; else each learner's view is made
        # after every action and compared with the one before (kept here for that)
        self._views = ({s: self.game.view(s) for s in self.learners}
                       if self.game.no_change_events is None else {})
        #: learning seat -> its action on the clock: (the action's JSON, when, its timer)
        self.pending: dict[int, tuple[dict[str, Any], float, Timer]] = {}
        #: learning seat -> how many of its actions the rules refused when they landed, and
        #: how many times the turn timer played for it (read and reset by the env)
        self.refused: dict[int, int] = dict.fromkeys(self.learners, 0)
        self.played_for: dict[int, int] = dict.fromkeys(self.learners, 0)
        self.turn_actions = turn_actions
        self.turn_seconds = turn_seconds
        #: learning seat -> whether its view now offers it a turn move (the turn timer runs)
        self._mine = {s: self.game.offers(s, turn_actions) for s in self.learners}
        self._turn_timers: dict[int, Timer] = {}
        # the generator of the moves played for a seat, made when first needed: a derived
        # seed is a SHA-512, and most episodes play for nobody
        self._seed = seed
        self._auto: random.Random | None = None
        #: (seat, the action's JSON items) -> the action it parses to (every table of the
        #: game's shares one: see ``act``)
        self._parsed = _PARSED.setdefault(type(self.game), {})
        # seat (None: everyone's) -> its view of the game as it is now; emptied whenever an
        # action lands, so each view is made at most once between two actions however many
        # readers ask (the env's turn checks, rewards, observation and mask)
        self._cached: dict[int | None, Mapping[str, Any]] = {}
        self.scheduler = Scheduler(self.game, self.bots, self.clock, order=self.tie_rank,
                                   turn_based=game in TURN_BASED,
                                   referee=self._apply)
        self.scheduler.start()
        self._time_turns()

    def _apply(self, action: Action, due: float = 0.0) -> None:
        """Every action's path here, a learner's or a computer's (the scheduler's referee):
        applied, checked (:class:`GameError`: refused, nothing changed), noted, and then
        the computer players are asked about it."""
        events = self.game.apply(action)
        self._notify(action, events)
        self.scheduler.changed(action, events)

    def _notify(self, action: Action, events: Sequence[Event]) -> None:
        self.events.extend(events)
        changed = self.game.views_changed(events)
        if changed is False:
            return  # nobody's view changed: the views made stand, and so does every timer
        self._cached.clear()
        if not self.timed:
            return
        now = self.clock.now()
        game = self.game
        if changed:
            # every seat's view changed: each is made when read, once (``view``)
            changed_at, changes = self.changed_at, self.changes
            for seat in self.learners:
                changed_at[seat] = now
                changes[seat] += 1
            if self.turn_seconds is not None:
                mine = self._mine
                turn_actions = self.turn_actions
                for seat in self.learners:
                    mine[seat] = game.offers(seat, turn_actions)
                self._time_turns()
            return
        views, cached = self._views, self._cached
        for seat in self.learners:
            # the view made here is the one every reader gets until the next action
            view = cached[seat] = game.view(seat)
            if view != views[seat]:
                views[seat] = view
                self.changed_at[seat] = now
                self.changes[seat] += 1
                self._mine[seat] = game.offers(seat, self.turn_actions)
        self._time_turns()

    # -- a learner's actions on the clock ---------------------------------------------------------

    def schedule(self, seat: int, obj: dict[str, Any], due: float) -> None:
        """``seat``'s action ``obj`` lands at ``due`` (not before now), checked then, in the
        seats' tie-break order; it replaces the seat's pending action, except that the same
        action keeps the earlier time (as a computer's repeated answer does)."""
        due = max(due, self.clock.now())
        old = self.pending.pop(seat, None)
        if old is not None:
            if old[0] == obj and old[1] <= due:
                self.pending[seat] = old
                return
            old[2].cancel()
        timer = self.clock.call_at(due, functools.partial(self._land, seat), self.tie_rank[seat])
        self.pending[seat] = (obj, due, timer)

    def cancel(self, seat: int) -> None:
        """Drops ``seat``'s pending action, if any."""
        old = self.pending.pop(seat, None)
        if old is not None:
            old[2].cancel()

    def _land(self, seat: int) -> None:
        obj, _, _ = self.pending.pop(seat)
        if self.game.winner is None and not self.act(seat, obj):  # not over
            self.refused[seat] += 1

    def _time_turns(self) -> None:
        """The turn timer (races): a learning seat whose turn it is gets ``turn_seconds``
        from the moment its turn came, then the table plays for it, as a live table's seat
        with nobody at it is played for (the move is a seeded pick among its turn moves)."""
        if self.turn_seconds is None or self.game.winner is not None:  # not over
            return
        mine, timers = self._mine, self._turn_timers
        for seat in self.learners:
            timer = timers.get(seat)
            if mine[seat]:
                if timer is None:
                    timers[seat] = self.clock.call_at(
                        self.clock.now() + self.turn_seconds,
                        functools.partial(self._play_for, seat), self.tie_rank[seat])
            elif timer is not None:
                timer.cancel()
                del timers[seat]

    def _play_for(self, seat: int) -> None:
        del self._turn_timers[seat]
        if self.over:
            return
        moves = [e for e in self.view(seat)["legal"] if e["type"] in self.turn_actions]
        if moves:
            self.played_for[seat] += 1
            self.cancel(seat)
            if self._auto is None:
                self._auto = random.Random(derive(self._seed, "played for"))
            self.act(seat, dict(self._auto.choice(moves)))

    @property
    def over(self) -> bool:
        # ``winner`` is None exactly while there is no outcome, and costs no Outcome to read
        return self.game.winner is not None

    def view(self, seat: int | None) -> Mapping[str, Any]:
        """``seat``'s view now (``None``: everyone's), made once between two actions: it is
        shared by every reader, so it is read, never changed."""
        view = self._cached.get(seat)
        if view is None:
            view = self._cached[seat] = self.game.view(seat)
        return view

    def seen(self, seat: int, since: int = 0) -> list[dict[str, Any]]:
        """The events from index ``since`` on, as ``seat`` was told them."""
        return [e.seen_by(seat) for e in self.events[since:]]

    def act(self, seat: int, obj: Mapping[str, Any]) -> bool:
        """``seat`` takes the action ``obj`` (JSON without ``player``), checked; ``False`` if
        the rules refuse it now (nothing changes then)."""
        # An action is a value: the same JSON from the same seat parses to an equal action
        # in every game of its kind, so each is parsed once for all the episodes (a slap's
        # ``at`` is the play it aims at, so its forms repeat while the top card stays, and
        # again in every episode that gets that far). The values' types are in the key:
        # ``True == 1`` and ``1.0 == 1`` as dict keys, and the rules refuse the first two
        key = (seat, *obj.items(), *map(type, obj.values()))
        parsed = self._parsed
        try:
            action = parsed.get(key)
        except TypeError:  # a value that is no JSON scalar: the rules say what is wrong
            action, key = None, ()
        try:
            if action is None:
                action = self.game.parse_action(obj, player=seat)
                if key:
                    if len(parsed) >= _PARSED_MAX:
                        parsed.clear()
                    parsed[key] = action
            self._apply(action)
        except GameError:
            return False
        return True

    def run_until(self, done: Callable[[], bool], max_calls: int = 100_000) -> str | None:
        """Lets the computer players act, earliest first, until ``done()``."""
        return self.clock.run(lambda: self.over or done(), max_calls=max_calls)

    def advance(self, until: float) -> None:
        """Virtual time moves on to ``until``; every move due before then is made (in time
        order, ties by seat rank), and the clock then reads exactly ``until``."""
        # Every move due before ``until`` is made, and nothing later (VirtualClock.run's own
        # ``max_time`` would drop the first callback due after it). The moves due at
        # ``until`` itself are made in the next tick, in the seats' order together with the
        # learners' actions of that instant: no side wins a tie for being a computer.
        game = self.game
        self.clock.run_before(until, lambda: game.winner is not None)  # over

    def close(self) -> None:
        self.scheduler.close()
        for seat in list(self.pending):
            self.cancel(seat)
        for timer in self._turn_timers.values():
            timer.cancel()
        self._turn_timers.clear()
