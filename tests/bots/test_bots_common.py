"""What every computer player of every game promises: legal actions only, nothing seen but
its seat's view and events (ruling G3), and the same games from the same seeds."""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

import pytest
from conftest import holds_game
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.bots import LEVELS, ComputerPlayer, Decision, make_player
from parlour.bots.arena import play
from parlour.engine import Action, Event, Game
from parlour.games import new_game

SEATS = {"slapjack": (2, 4), "slabberjan": (2, 6), "splunk": (2, 2)}
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "slapjack": [{}],
    "slabberjan": [{}, {"chips": 1}, {"free_choice": True}],
    "splunk": [{}, {"jokers": True}],
}
CAP = 4000


def checked(game: Game) -> list[Action]:
    """Makes every apply first assert the action is among ``legal_actions``; logs them."""
    applied: list[Action] = []
    apply = game.apply

    def apply_if_listed(action: Action) -> list[Event]:
        assert action in game.legal_actions(action.player), (action, game.view(None))
        applied.append(action)
        return apply(action)

    game.apply = apply_if_listed  # type: ignore[method-assign]
    return applied


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, list[str], dict[str, Any], int]:
    name = draw(st.sampled_from(sorted(SEATS)))
    low, high = SEATS[name]
    levels = draw(st.lists(st.sampled_from(LEVELS), min_size=low, max_size=high))
    options = draw(st.sampled_from(OPTIONS[name]))
    return name, levels, options, draw(st.integers(0, 10**6))


def bots(name: str, levels: Sequence[str], seed: int) -> list[ComputerPlayer]:
    return [make_player(name, lvl, s, seed=seed * 7 + s) for s, lvl in enumerate(levels)]


@settings(max_examples=150, deadline=None)
@given(tables())
def test_computer_players_only_choose_listed_legal_actions(
        table: tuple[str, list[str], dict[str, Any], int]) -> None:
    name, levels, options, seed = table
    game = new_game(name, players=len(levels), seed=seed, options=options)
    applied = checked(game)
    # play() uses the checked apply: an action the rules refuse would raise IllegalAction
    result = play(game, bots(name, levels, seed), tiebreak_seed=seed, max_actions=CAP)
    assert applied == game.history
    assert result.finished or result.stopped == "max_actions"


class Twin(ComputerPlayer):
    """Asks two players built alike, one with the game's own objects and one with JSON
    copies, and insists they agree: a player needs nothing but plain data."""

    def __init__(self, a: ComputerPlayer, b: ComputerPlayer) -> None:
        super().__init__(a.seat)
        self.a, self.b = a, b

    def decide(self, view: dict[str, Any], events: Sequence[dict[str, Any]]) -> Decision | None:
        frozen = copy.deepcopy((view, list(events)))
        plain = json.loads(json.dumps([view, list(events)]))
        got = self.a.decide(view, events)
        assert (view, list(events)) == frozen, "a computer player changed what it was shown"
        assert got == self.b.decide(plain[0], plain[1])
        return got


@pytest.mark.parametrize("name", sorted(SEATS))
def test_a_player_needs_only_the_plain_json_its_seat_is_shown(name: str) -> None:
    levels = ["hard", "easy", "normal"][: SEATS[name][1]]
    game = new_game(name, players=len(levels), seed=5)
    twins = [Twin(a, b) for a, b in zip(bots(name, levels, 5), bots(name, levels, 5),
                                         strict=True)]
    play(game, twins, tiebreak_seed=5, max_actions=CAP)
    assert len(game.history) > 0
    for twin in twins:
        assert not holds_game(twin.a) and not holds_game(twin.b)


@pytest.mark.parametrize("name", sorted(SEATS))
def test_what_a_player_is_shown_is_exactly_its_seats_view_and_events(name: str) -> None:
    class Spy(ComputerPlayer):
        def __init__(self, inner: ComputerPlayer) -> None:
            super().__init__(inner.seat)
            self.inner = inner
            self.shown: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []

        def decide(self, view: dict[str, Any],
                   events: Sequence[dict[str, Any]]) -> Decision | None:
            self.shown.append((view, list(events)))
            return self.inner.decide(view, events)

    players = SEATS[name][0]
    game = new_game(name, players=players, seed=9)
    spies = [Spy(b) for b in bots(name, ["normal"] * players, 9)]
    play(game, spies, tiebreak_seed=9, max_actions=CAP)
    for spy in spies:
        events_shown = [e for _, events in spy.shown for e in events]
        assert events_shown == [e.seen_by(spy.seat) for e in game.events]
        assert all(view["seat"] == spy.seat for view, _ in spy.shown)


@pytest.mark.parametrize("name", sorted(SEATS))
def test_an_event_as_a_seat_is_told_it_is_its_type_its_data_then_its_seats_part(
        name: str) -> None:
    # what a computer player (and a seat's browser, in this order of keys) is given of
    # every event of a whole game, against the event's data and private parts read apart
    players = SEATS[name][0]
    game = new_game(name, players=players, seed=4)
    play(game, bots(name, ["normal"] * players, 4), tiebreak_seed=4, max_actions=CAP)
    kinds = set()
    for event in game.events:
        kinds.add(event.type)
        for seat in [None, *range(players)]:
            told = {"type": event.type, **event.data}
            if seat is not None:
                told.update(event.private.get(seat, {}))
            assert list(event.seen_by(seat).items()) == list(told.items())
    assert len(kinds) > 3


def test_a_player_that_reads_no_events_is_given_none_and_the_game_is_the_same() -> None:
    # Slabberjan's Easy and Normal decide from the view alone (``reads_events = False``):
    # the scheduler makes no events for them, and nothing else changes
    class Spy(ComputerPlayer):
        def __init__(self, inner: ComputerPlayer, reads: bool) -> None:
            super().__init__(inner.seat)
            self.inner, self.reads_events = inner, reads
            self.given: list[dict[str, Any]] = []

        def decide(self, view: dict[str, Any],
                   events: Sequence[dict[str, Any]]) -> Decision | None:
            self.given += events
            return self.inner.decide(view, events)

    records = []
    for reads in (True, False):
        game = new_game("slabberjan", players=4, seed=4)
        spies = [Spy(b, reads) for b in bots("slabberjan", ["normal", "easy"] * 2, 4)]
        play(game, spies, tiebreak_seed=4, max_actions=CAP)
        assert all(bool(spy.given) == reads for spy in spies)
        records.append(game.record())
    assert records[0] == records[1]


def test_slabberjans_hard_at_a_scheduled_table_remembers_the_deal() -> None:
    # Hard prices a choice from what it saw of the deal (its memory of the events); given
    # no events it would never have seen a deal start and would play as Normal
    from parlour.bots.slabberjan import Hard

    priced: list[object] = []

    class Counting(Hard):
        def expected_costs(self, view: Any, change: str) -> tuple[float, float] | None:
            costs = super().expected_costs(view, change)
            priced.append(costs)
            return costs

    game = new_game("slabberjan", players=3, seed=5)
    play(game, [Counting(s, seed=s) for s in range(3)], tiebreak_seed=5, max_actions=60)
    assert priced and all(costs is not None for costs in priced)


@pytest.mark.parametrize("name", sorted(SEATS))
def test_the_same_seeds_give_the_same_game(name: str) -> None:
    players = SEATS[name][1]
    levels = [LEVELS[s % 3] for s in range(players)]
    options = OPTIONS[name][-1]  # with free_choice Slabberjan has a choice at every turn

    def run(bot_seed: int) -> tuple[dict[str, Any], float]:
        game = new_game(name, players=players, seed=3, options=options)
        result = play(game, bots(name, levels, bot_seed), tiebreak_seed=3, max_actions=CAP)
        return game.record(), result.time

    first = run(1)
    assert run(1) == first
    assert run(2)[0]["actions"] != first[0]["actions"]


def test_a_game_nobody_can_move_in_is_reported_as_a_stall() -> None:
    class Idle(ComputerPlayer):
        def decide(self, view: dict[str, Any],
                   events: Sequence[dict[str, Any]]) -> Decision | None:
            return None

    result = play(new_game("slapjack", players=2, seed=1), [Idle(0), Idle(1)])
    assert not result.finished and result.stopped == "stall" and result.actions == 0


def test_the_caps_stop_a_game_as_unfinished() -> None:
    game = new_game("splunk", players=2, seed=1)
    result = play(game, bots("splunk", ["easy", "easy"], 1), max_actions=10)
    assert (result.winner, result.stopped, result.actions) == (None, "max_actions", 10)
    game = new_game("splunk", players=2, seed=1)
    result = play(game, bots("splunk", ["easy", "easy"], 1), max_time=5.0)
    assert result.stopped == "max_time" and result.time <= 5.0


def test_a_newer_decision_supersedes_the_pending_one() -> None:
    class Eager(ComputerPlayer):
        """Plans a flip far off, then, once anything happens, asks for it at once."""

        def decide(self, view: dict[str, Any],
                   events: Sequence[dict[str, Any]]) -> Decision | None:
            if view["turn"] != self.seat:
                return None
            from parlour.games.slapjack import Flip
            return Decision(Flip(self.seat), 100.0 if view["flips"] == 0 else 0.5)

    game = new_game("slapjack", players=2, seed=1)
    result = play(game, [Eager(0), Eager(1)], max_actions=3)
    # the first flip waited 100 s; the next ones, asked after it, 0.5 s each
    assert result.time == pytest.approx(101.0)
