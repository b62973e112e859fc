"""Slap races settled by reaction time (issue 18, ruling J3), on the live table with a
virtual clock: the earlier reaction wins, however late its slap arrives, within the cap; a
computer is credited at its own decision time; a client that fakes a long delay gains at
most the cap; with no delay nothing changes. Over a real socket through a delaying proxy:
``test_lag_proxy.py``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from conftest import act, room_of, seat_page
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.bots.base import ComputerPlayer, Decision
from parlour.bots.scheduler import VirtualClock
from parlour.engine import Action, Game
from parlour.engine.cards import standard_deck
from parlour.games import new_game
from parlour.games.slapjack import Slap
from parlour.live import Room, Table
from parlour.live.lag import CAP_ONE_WAY, HUMAN_FLOOR, QUOTA_WINDOW, SeatLag


def deck_starting(*cards: str) -> list[str]:
    return list(cards) + [c for c in standard_deck() if c not in cards]


class Moves(list[tuple[float, Action, list[dict[str, Any]]]]):
    """Every move as a spectator is told of it: when, the action, its events."""

    def __init__(self, clock: VirtualClock, game: Game) -> None:
        super().__init__()
        self.clock, self.game = clock, game

    def __call__(self, message: dict[str, Any]) -> None:
        if message["type"] == "events":  # told as the action is applied: the latest
            self.append((self.clock.now(), self.game.history[-1], message["events"]))

    def takes(self) -> list[int]:
        return [a.player for _, a, events in self if any(e["type"] == "take" for e in events)]


def started(room: Room) -> Table:
    assert room.table is not None
    return room.table


def room_of_game(game_name: str = "slapjack", players: int = 2,
             computers: dict[int, Any] | None = None, deck: list[str] | None = None,
             **options: Any) -> tuple[Room, VirtualClock, Moves, list[dict[str, Any]]]:
    """A started room on a virtual clock: ``computers`` at their seats, a page at every
    other (what they are told, each with ``"to"``: its seat), and a spectator (``moves``)."""
    clock = VirtualClock()
    game = new_game(game_name, players=players,
                    decks=[deck or deck_starting("JS")], options=options)
    room = room_of(game, computers or {}, clock)
    moves = Moves(clock, game)
    room.watch(moves)
    told: list[dict[str, Any]] = []
    for seat in range(players):
        if seat not in (computers or {}):
            seat_page(room, seat, lambda m, seat=seat: told.append({"to": seat, **m}))
    return room, clock, moves, told


def measured(room: Room, seat: int, round_trip: float, n: int = 16) -> None:
    for _ in range(n):
        room.sample_lag(seat, round_trip)


def at(clock: VirtualClock, when: float, room: Room, seat: int, action: dict[str, Any],
       answers: list[str | None] | None = None) -> None:
    def send() -> None:
        answer = act(room, seat, action)
        if answers is not None:
            answers.append(answer)

    clock.call_at(when, send)


def test_a_slap_pressed_earlier_but_arriving_later_wins() -> None:
    """Seat 0 is 100 ms away each way and reacts in 300 ms: its slap arrives at 0.5 s.
    Seat 1 sits by the server and reacts in 350 ms: its slap arrives first, at 0.35 s."""
    room, clock, moves, _ = room_of_game()
    measured(room, 0, 0.200)
    measured(room, 1, 0.002)
    act(room, 0, {"type": "flip"})  # the Jack, at t = 0
    at(clock, 0.352, room, 1, {"type": "slap", "at": 1})
    at(clock, 0.500, room, 0, {"type": "slap", "at": 1})
    clock.run(lambda: False, max_time=2.0)
    assert moves.takes() == [0]
    # the race waited for seat 0 no longer than its compensation and spread
    held = started(room).held
    assert held and held[0] == pytest.approx(0.5 - 0.352)


def test_without_lag_a_race_is_settled_at_once_in_order_of_arrival() -> None:
    room, clock, moves, _ = room_of_game()
    act(room, 0, {"type": "flip"})
    at(clock, 0.40, room, 1, {"type": "slap", "at": 1})
    at(clock, 0.41, room, 0, {"type": "slap", "at": 1})
    clock.run(lambda: len(moves) >= 3, max_time=2.0)
    assert moves.takes() == [1] and moves[1][0] == pytest.approx(0.40)  # not held at all
    assert [e["type"] for e in moves[2][2]] == ["slap_ignored"]  # the loser's: free (J6)
    assert not started(room).held


def test_measured_the_same_the_earlier_reaction_wins_whoever_is_nearer() -> None:
    for near_first in (True, False):
        room, clock, moves, _ = room_of_game()
        measured(room, 0, 0.240)  # 120 ms each way
        measured(room, 1, 0.020)  # 10 ms each way
        act(room, 0, {"type": "flip"})
        far, near = 0.120 + 0.300 + 0.120, 0.010 + 0.310 + 0.010  # far reacted 10 ms sooner
        if not near_first:
            far, near = 0.120 + 0.310 + 0.120, 0.010 + 0.300 + 0.010
        at(clock, far, room, 0, {"type": "slap", "at": 1})
        at(clock, near, room, 1, {"type": "slap", "at": 1})
        clock.run(lambda: False, max_time=2.0)
        assert moves.takes() == ([0] if near_first else [1])


class Slapper(ComputerPlayer[Any]):
    """Slaps every Jack ``after`` seconds after it lands, nothing else."""

    game, level = "slapjack", "normal"
    after = 0.37

    def decide(self, view: Any, events: Sequence[dict[str, Any]]) -> Decision | None:
        if view["slappable"]:
            return Decision(Slap(self.seat, at=view["flips"]), self.after)
        return None


def test_a_computer_is_credited_at_its_own_decision_time_from_the_cards_play() -> None:
    """The computer decides at 0.37 s; a person 100 ms away each way who reacts in 300 ms
    (arriving at 0.5 s) was quicker, and wins; one who reacts in 400 ms was not."""
    for reaction, winner in ((0.300, 0), (0.400, 1)):
        room, clock, moves, _ = room_of_game(computers={1: Slapper(1)})
        measured(room, 0, 0.200)
        act(room, 0, {"type": "flip"})
        at(clock, 0.2 + reaction, room, 0, {"type": "slap", "at": 1})
        clock.run(lambda: False, max_time=2.0)
        assert moves.takes() == [winner], reaction


def test_a_client_that_delays_its_pongs_gains_at_most_the_cap() -> None:
    """It answers pings a second late (it looks 500 ms away) but is by the server, and
    slaps 600 ms after the card; a fair person by the server reacting in 200 ms still
    beats it, since the compensation stops at the cap (350 ms in all: credited at 250 ms,
    where the second it claims would have made it 100 ms, the human floor)."""
    room, clock, moves, _ = room_of_game()
    measured(room, 0, 1.000)
    measured(room, 1, 0.002)
    act(room, 0, {"type": "flip"})
    at(clock, 0.200, room, 1, {"type": "slap", "at": 1})
    at(clock, 0.600, room, 0, {"type": "slap", "at": 1})
    clock.run(lambda: False, max_time=2.0)
    assert started(room).lags[0].compensation() == pytest.approx(2 * CAP_ONE_WAY)
    assert moves.takes() == [1]


def test_no_slap_is_credited_sooner_than_a_person_can_react() -> None:
    """A client that looks 150 ms away and slaps 50 ms after the card was sent (a bot that
    knows when to slap) is credited at the human floor, not 250 ms before the card."""
    room, clock, moves, _ = room_of_game(computers={1: Slapper(1)})
    Slapper.after = HUMAN_FLOOR + 0.01
    try:
        measured(room, 0, 0.300)
        act(room, 0, {"type": "flip"})
        at(clock, 0.150, room, 0, {"type": "slap", "at": 1})  # credited at 0.1 s at best
        clock.run(lambda: False, max_time=2.0)
        assert moves.takes() == [0]
        # and its quick slap is its own evidence: its round trip was at most 50 ms
        assert started(room).lags[0].compensation() == pytest.approx(0.150 - HUMAN_FLOOR)
    finally:
        Slapper.after = 0.37


def test_stale_slaps_are_still_free_and_one_slap_per_card_and_seat_still_holds() -> None:
    room, clock, moves, _told = room_of_game(deck=deck_starting("5S", "2H", "4D", "JS"))
    measured(room, 0, 0.200)
    measured(room, 1, 0.020)
    act(room, 0, {"type": "flip"})  # 5S
    answers: list[str | None] = []
    at(clock, 0.30, room, 1, {"type": "slap", "at": 1}, answers)  # wrong: a card
    at(clock, 0.31, room, 1, {"type": "slap", "at": 1}, answers)  # again: refused
    clock.run(lambda: False, max_time=1.0)
    assert answers == [None, "you already did that at this card"]
    assert [p["cards"] for p in room.game.view(None)["players"]] == [26, 25]
    act(room, 1, {"type": "flip"})  # the Jack, at t = 1
    at(clock, 1.2, room, 0, {"type": "slap", "at": 1}, answers)  # stale: free
    at(clock, 1.3, room, 1, {"type": "slap", "at": 2}, answers)
    clock.run(lambda: False, max_time=3.0)
    assert moves.takes() == [1]
    assert [p["cards"] for p in room.game.view(None)["players"]] == [26, 26]


def test_a_call_that_races_a_slap_is_settled_by_reaction_too() -> None:
    """Splunk (P5): a pair is played. The near seat slaps it, arriving at 0.352 s; the far
    seat (200 ms each way) calls, arriving later, at 0.5 s, but credited at 0.3 s: the call
    was the quicker reaction, so it is the call that settles the play, and the slap that
    arrived first is too late (stale, no penalty). Without the far seat's delay, the slap
    would have won."""
    from parlour.games.splunk import Splunk

    deck = ["2C", "4C", "3C", "5C", "9S", "9H"]
    deck += [c for c in standard_deck() if c not in deck]

    def race(far: float) -> tuple[list[int], list[int], list[str | None]]:
        clock = VirtualClock()
        game = Splunk(2, decks=[deck], options={"first": 0})
        room = room_of(game, {}, clock)
        moves = Moves(clock, game)
        room.watch(moves)
        for seat in (0, 1):
            seat_page(room, seat, lambda m: None)
        measured(room, 0, far)
        measured(room, 1, 0.002)
        assert act(room, 0, {"type": "play", "stack": 3}) is None
        assert act(room, 1, {"type": "play", "stack": 3}) is None  # a pair on stack 3
        assert game.view(None)["slap_kind"] == "pair"
        answers: list[str | None] = []
        at(clock, 0.352, room, 1, {"type": "slap", "stack": 3, "at": 2}, answers)
        at(clock, 0.500, room, 0, {"type": "call"}, answers)  # seat 1 may not call its own
        clock.run(lambda: False, max_time=2.0)
        slaps = [a.player for _, a, ev in moves if any(e["type"] == "slap" for e in ev)]
        calls = [a.player for _, a, ev in moves if a.type == "call"]
        return slaps, calls, answers

    slaps, calls, answers = race(far=0.200)
    assert calls == [0] and slaps == [] and answers == [None, None]
    slaps, calls, _ = race(far=0.0)
    assert slaps == [1]  # nobody far away: in order of arrival, the slap


def test_the_page_is_told_each_seats_connection_and_when_it_is_past_the_cap() -> None:
    room, _clock, _moves, told = room_of_game()
    measured(room, 0, 0.090)
    measured(room, 1, 0.400)
    shown = [m for m in told if m["type"] == "connection"]
    assert shown and {m["to"] for m in shown} == {0, 1}  # every seat sees every seat
    assert shown[-1]["seats"] == [{"seat": 0, "ms": 45, "fair": True},
                                  {"seat": 1, "ms": 200, "fair": False}]
    assert len(shown) <= 8  # told when it changes, not on every ping


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.0, 5.0), min_size=1, max_size=40),
       st.lists(st.floats(0.0, 5.0), max_size=10))
def test_compensation_never_passes_the_cap_nor_the_seats_own_evidence(
        pongs: list[float], responses: list[float]) -> None:
    lag = SeatLag()
    for rtt in pongs:
        lag.sample(rtt)
    for after in responses:
        lag.responded(after)
    comp = lag.compensation()
    assert 0.0 <= comp <= 2 * CAP_ONE_WAY
    assert comp <= lag.round_trip
    if responses:
        assert comp <= max(0.0, min(responses[-QUOTA_WINDOW:]) - HUMAN_FLOOR)  # recent ones


def test_a_modelled_person_has_a_network_delay_and_without_compensation_it_costs_races() -> None:
    from parlour.bots import make_person, make_player
    from parlour.bots.arena import play
    from parlour.bots.person import parse_person

    assert parse_person("person:500@50").lag == pytest.approx(0.05)
    assert parse_person("person:500@50ms").name == "person:500@50"
    for bad in ("person:500@far", "person:500@-5", "person:500@99999"):
        with pytest.raises(ValueError, match="person"):
            parse_person(bad)

    def share(person: str) -> float:
        won = 0
        for g in range(30):
            game = new_game("slapjack", players=2, seed=g)
            players = [make_player("slapjack", "normal", 0, seed=g),
                       make_person("slapjack", person, 1, seed=g)]
            won += play(game, players, tiebreak_seed=g).winner == 1
        return won / 30

    # the plain scheduler settles by arrival: 100 ms each way costs the person its games
    assert share("person:500@100") < share("person:500") - 0.2


def test_a_seats_delay_survives_a_reconnect_and_a_new_network_replaces_it() -> None:
    room, *_ = room_of_game()
    measured(room, 0, 0.240)
    # the page reloads: a new watcher of the seat is told its connection at once, and the
    # first race after it is compensated as before
    again: list[dict[str, Any]] = []
    seat_page(room, 0, again.append)
    assert again[-1] == {"type": "connection", "seats": [{"seat": 0, "ms": 120, "fair": True}]}
    assert started(room).lags[0].compensation() == pytest.approx(0.240)
    # a phone that moves to a faster network: the estimate follows within a few pings
    for _ in range(6):
        room.sample_lag(0, 0.040)
    assert started(room).lags[0].round_trip == pytest.approx(0.040)
