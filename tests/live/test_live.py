"""The live table and the lobby on virtual time, without the web:
slap races in order of arrival (J3), stale slaps (J6), the pause after a take (J10), secrecy
(G3), refused moves (G1), seat tokens with their grace period, a dropped friend's seat taken
over, and the reactions' rate limit, each timer checked just before and at its instant."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from conftest import (
    FAST_PACING,
    Inbox,
    QuickFlipper,
    SteppedClock,
    act,
    command,
    quick_decks,
    quick_players,
    refusal,
    room_of,
    seat_page,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.bots.base import ComputerPlayer, Decision
from parlour.engine import Pacing
from parlour.engine.cards import standard_deck
from parlour.games import new_game
from parlour.games.slapjack import SPEC, Flip
from parlour.live import Lobby, Refused, message_for
from parlour.live.connections import REACT_EVERY

SLAPJACK = FAST_PACING["slapjack"]


def deck_starting(*cards: str) -> list[str]:
    return list(cards) + [c for c in standard_deck() if c not in cards]


def test_a_slap_race_is_settled_in_order_of_arrival_and_the_loser_pays_nothing(
        clock: SteppedClock) -> None:
    """J3 and J6: two people slap the same Jack; the first to arrive takes the pile, the
    second slap names a card that is gone and costs nothing."""
    game = new_game("slapjack", players=2, decks=[deck_starting("JS")])
    room = room_of(game, {}, clock, pacing=SLAPJACK)
    assert act(room, 0, {"type": "flip"}) is None
    assert act(room, 1, {"type": "slap", "at": 1}) is None
    assert act(room, 0, {"type": "slap", "at": 1}) is None
    view = game.view(None)
    assert [p["cards"] for p in view["players"]] == [25, 27]
    assert [e.type for e in game.events[-2:]] == ["take", "slap_ignored"]


def test_a_refused_move_comes_back_with_its_reason_and_changes_nothing(
        clock: SteppedClock) -> None:
    """G1 through the table: out of turn, unknown kind, an `at` from the future."""
    game = new_game("slapjack", players=2, seed=4)
    room = room_of(game, {}, clock, pacing=SLAPJACK)
    before = game.view(None)
    assert "turn" in (act(room, 1, {"type": "flip"}) or "")
    assert "unknown action type" in (act(room, 0, {"type": "jump"}) or "")
    assert "flipped so far" in (act(room, 0, {"type": "slap", "at": 9}) or "")
    assert act(room, 0, "flip") is not None
    assert game.view(None) == before and game.history == []


def test_one_slap_per_card_and_seat_so_a_double_tap_costs_one_card_only(
        clock: SteppedClock) -> None:
    game = new_game("slapjack", players=2, decks=[deck_starting("5S")])
    room = room_of(game, {}, clock, pacing=SLAPJACK)
    act(room, 0, {"type": "flip"})
    assert act(room, 1, {"type": "slap", "at": 1}) is None
    assert "already" in (act(room, 1, {"type": "slap", "at": 1}) or "")
    assert "already" in (act(room, 1, {"type": "slap"}) or "")  # no `at`: the same card
    assert [p["cards"] for p in game.view(None)["players"]] == [26, 25]


def test_every_view_carries_its_version_and_a_repeat_at_the_same_version_is_stale(
        clock: SteppedClock) -> None:
    """Act once per view version: every ``state`` and ``events`` message says how many
    actions were applied; a page that sends the same action twice at one version (a double
    press) is answered ``stale`` the second time and nothing changes; another action, or
    the same one at a newer version, goes to the rules as ever; without a version nothing
    is checked this way."""
    game = new_game("slapjack", players=2, decks=[deck_starting("5S", "2H", "3D")])
    room = room_of(game, {}, clock, pacing=SLAPJACK)
    pages = {0: Inbox(), 1: Inbox(), None: Inbox()}
    seat_page(room, 0, pages[0])
    seat_page(room, 1, pages[1])
    room.watch(pages[None])
    assert [m["version"] for box in pages.values() for m in box.messages
            if m["type"] == "state"] == [0, 0, 0]
    assert refusal(room, 0, {"type": "flip"}, version=0) is None
    assert refusal(room, 0, {"type": "flip"}, version=0) == (
        "stale", "you sent that already at this view of the game")
    assert len(game.history) == 1
    assert [m["version"] for m in pages[None].messages if m["type"] == "events"] == [1]
    # another action at the same version is no repeat: the rules answer it (out of turn)
    refused = refusal(room, 0, {"type": "slap", "at": 1}, version=0)
    assert refused is None  # a wrong slap: a card under the pile (J5), one version on
    assert [p["cards"] for p in game.view(None)["players"]] == [24, 26]
    assert refusal(room, 1, {"type": "flip"}, version=2) is None
    assert refusal(room, 1, {"type": "flip"}, version=2) == (
        "stale", "you sent that already at this view of the game")
    # without a version, a repeat goes to the rules (a program, an old page)
    assert refusal(room, 0, {"type": "flip"}) is None
    assert refusal(room, 0, {"type": "flip"}) is not None
    assert all(m["version"] == len(game.history) for box in pages.values()
               for m in box.messages[-1:] if m["type"] == "events")


def test_computer_players_act_on_the_clock_and_newer_decisions_supersede_older(
        clock: SteppedClock) -> None:
    class Slow(QuickFlipper):
        flip_after = 30.0  # never reached: the person's slap below changes the game first

    game = new_game("slapjack", players=2, decks=[deck_starting("5S")])
    room = room_of(game, {1: Slow(1)}, clock, pacing=SLAPJACK)
    table = room.table
    assert table is not None
    inbox = Inbox()
    seat_page(room, 0, inbox)
    act(room, 0, {"type": "flip"})
    # the person is told first; the computer thinks on the clock's next turn
    assert any(e["type"] == "flip" for e in inbox.events()) and 1 not in table.scheduler._planned
    clock.advance(0.0)
    assert table.scheduler._planned[1][1] == 30.0
    Slow.flip_after = 0.01
    act(room, 0, {"type": "slap", "at": 1})  # a change: seat 1 is asked again, decides anew
    clock.advance(0.0)
    # flipping 0.01 s after the slap, held to the pause after the deal (0.05 s, J10)
    assert table.scheduler._planned[1][1] == SLAPJACK.pause_for("normal")
    clock.at(SLAPJACK.pause_for("normal"))
    assert inbox.events()[-1]["type"] == "flip" and inbox.events()[-1]["player"] == 1


def test_after_a_pile_is_taken_a_computer_waits_before_flipping(clock: SteppedClock) -> None:
    """J10: a computer player who would flip at once waits out the pause after a take."""

    class Grabber(QuickFlipper):
        flip_after = 0.0
        slap_after = 0.0

    pacing = Pacing(at_field="flips", after=frozenset({"take"}),
                    held=frozenset({"flip"}), pause={"normal": 0.4})
    game = new_game("slapjack", players=2, decks=[deck_starting("JS")])
    room = room_of(game, {1: Grabber(1)}, clock, pacing=pacing, level="normal")
    inbox = Inbox()
    seat_page(room, 0, inbox)
    act(room, 0, {"type": "flip"})
    clock.advance(0.0)
    assert [e["type"] for e in inbox.events()] == ["flip", "take"]  # the computer's, at once
    clock.at(0.399)  # a moment before the pause is out: the computer's flip is still held
    assert game.view(None)["flips"] == 1
    clock.at(0.4)
    assert inbox.events()[-1]["type"] == "flip" and inbox.events()[-1]["player"] == 1


def test_the_easier_the_speed_the_longer_the_pause_after_a_take() -> None:
    pause = SPEC.pacing.pause_for
    assert 0 < pause("hard") < pause("normal") < pause("easy")


def test_a_faulty_or_cheating_computer_player_never_stops_the_table(
        clock: SteppedClock) -> None:
    class Broken(ComputerPlayer):
        def decide(self, view: dict[str, Any], events: Sequence[dict[str, Any]]) -> Decision:
            raise RuntimeError("bug")

    class Cheat(ComputerPlayer):
        def decide(self, view: dict[str, Any], events: Sequence[dict[str, Any]]) -> Decision:
            return Decision(Flip(0), 0.0)  # tries to act for the person's seat

    game = new_game("slapjack", players=3, seed=2)
    room = room_of(game, {1: Broken(1), 2: Cheat(2)}, clock, pacing=SLAPJACK)
    clock.advance(1.0)
    assert game.history == []
    assert act(room, 0, {"type": "flip"}) is None
    assert "computer" in (act(room, 1, {"type": "flip"}) or "")


def test_every_message_holds_only_what_its_seat_may_see(clock: SteppedClock) -> None:
    """G3 at the boundary, on a game with private facts: in Slabberjan each seat sees only
    its own piece, and message_for tells each watcher exactly that."""
    game = new_game("slabberjan", players=3, seed=1)
    pieces = {s: game.events[0].private[s]["piece"] for s in range(3)}
    room = room_of(game, {}, clock)
    inboxes = {seat: Inbox() for seat in (0, 1, None)}
    seat_page(room, 0, inboxes[0])
    seat_page(room, 1, inboxes[1])
    room.watch(inboxes[None])
    state = {seat: next(m for m in inbox.messages if m["type"] == "state")
             for seat, inbox in inboxes.items()}
    assert state[0]["view"]["piece"] == pieces[0]
    assert state[1]["view"]["piece"] == pieces[1]
    assert state[None]["view"]["piece"] is None
    deal = message_for(game, 0, game.events[:1])["events"][0]
    assert deal["piece"] == pieces[0]
    assert message_for(game, None, game.events[:1])["events"][0].get("piece") is None


def test_a_table_reports_how_late_each_computer_move_ran(clock: SteppedClock) -> None:
    """One figure per computer move: how long after it fell due it ran (on a virtual clock
    nothing keeps it waiting, so it ran on time)."""
    lags: list[float] = []
    game = new_game("slapjack", players=2, seed=3)
    room_of(game, {0: QuickFlipper(0), 1: QuickFlipper(1)}, clock, pacing=SLAPJACK,
            on_lag=lags.append)
    clock.advance(1.0)
    assert len(lags) == len(game.history) >= 5 and set(lags) == {0.0}


def test_a_closed_room_stops_its_computer_players(clock: SteppedClock) -> None:
    game = new_game("slapjack", players=2, seed=3)
    room = room_of(game, {0: QuickFlipper(0), 1: QuickFlipper(1)}, clock, pacing=SLAPJACK)
    clock.advance(0.1)
    room.close(left=False)
    moves = len(game.history)
    assert moves >= 2
    clock.advance(10.0)
    assert len(game.history) == moves
    assert refusal(room, 0, {"type": "slap"}) == (
        "no_table", "start or resume a started table before acting")


async def test_a_start_the_page_does_not_offer_is_refused_before_the_lobby_sees_it() -> None:
    for message, word in [({"game": "whist"}, "unknown game"),
                          ({"game": "splunk", "players": 3}, "2 to 2 players"),
                          ({"game": "slapjack", "players": 5}, "2 to 4 players"),
                          ({"game": "slapjack", "players": 1}, "2 to 4 players"),
                          ({"game": "slapjack", "level": "godlike"}, "speed"),
                          ({"game": "slapjack", "seed": "x"}, "seed"),
                          ({"game": "slabberjan", "options": {"chips": 0}}, "chips")]:
        with pytest.raises(Refused, match=word):
            command(type="start", **message)


def test_a_person_who_drops_comes_back_to_the_same_game_even_after_it_was_put_away(
        clock: SteppedClock) -> None:
    lobby = Lobby(clock=clock, grace=0.25, players=quick_players, pacing=FAST_PACING,
                  decks=quick_decks)
    seating = lobby.open(command(type="start", game="slapjack", seed=1))
    first = Inbox()
    lobby.attach(seating.token, first)
    assert act(seating.room, 0, {"type": "flip"}) is None
    clock.at(0.5)  # the computer flips back
    seating.room.detach(seating, first)
    clock.at(0.7)
    second = Inbox()
    assert lobby.attach(seating.token, second).room is seating.room  # still in memory
    assert second.messages[0]["type"] == "state"
    flips = second.messages[0]["view"]["flips"]
    assert flips == 2
    clock.at(1.0)
    seating.room.detach(seating, second)
    clock.at(1.249)
    assert len(lobby) == 1  # a moment before the grace period is over
    clock.at(1.25)
    # nobody there for the grace period: out of memory, its table stopped, in the store
    assert len(lobby) == 0
    assert seating.room.table is not None and seating.room.table.closed
    third = Inbox()
    back = lobby.attach(seating.token, third)
    assert back.room is not seating.room and back.seat == 0 and len(lobby) == 1
    assert third.messages[0]["view"]["flips"] == flips
    assert back.room.game.history == seating.room.game.history
    lobby.leave(seating.token)  # said they are done: the token stops working
    assert lobby.find(seating.token) is None
    with pytest.raises(Refused, match="token"):
        lobby.attach(seating.token, Inbox())


def test_a_dropped_friend_is_played_by_a_computer_after_takeover_and_the_room_put_away_after_grace(
        clock: SteppedClock) -> None:
    """At a started table with friends, a person whose page dropped keeps their seat for
    ``takeover`` seconds, not a moment less; a table nobody is at holds its computers' moves
    and is put away after ``grace`` seconds, not a moment less."""
    lobby = Lobby(clock=clock, grace=30.0, takeover=3.0, players=quick_players,
                  pacing=FAST_PACING, decks=quick_decks)
    ann = lobby.create(command(type="create", game="slapjack", players=3, name="Ann"))
    room = ann.room
    bob = room.sit("Bob")
    rooms, pages = {0: Inbox(), 1: Inbox()}, {0: Inbox(), 1: Inbox()}
    for seating in (ann, bob):
        lobby.attach(seating.token, rooms[seating.seat], play=False)
    table = room.begin(ann)
    assert sorted(table.computers) == [2]
    for seating in (ann, bob):  # from the waiting room to the game page
        lobby.attach(seating.token, pages[seating.seat])
        room.detach(seating, rooms[seating.seat])
    clock.at(10.0)
    assert len(room.game.history) == 0  # Ann's turn: nobody plays it for her
    room.detach(ann, pages[0])
    clock.at(12.999)
    assert 0 not in table.computers and len(room.game.history) == 0
    clock.at(13.0)
    assert 0 in table.computers  # taken over, exactly `takeover` seconds after the drop
    assert pages[1].messages[-1]["type"] == "seats"
    assert pages[1].messages[-1]["seats"][0]["away"]
    clock.at(20.0)
    played = len(room.game.history)
    assert played >= 1  # the computer flipped for Ann, and it is Bob's turn
    room.detach(bob, pages[1])
    clock.at(49.999)
    assert len(lobby) == 1 and not room.closed
    assert 1 in table.computers  # Bob's seat too, after his `takeover` seconds ...
    assert len(room.game.history) == played  # ... but nobody is looking: nothing moves
    clock.at(50.0)
    assert len(lobby) == 0 and room.closed and table.closed  # `grace` after the last drop
    kept = lobby.store.table(room.id)
    assert kept is not None and kept.phase == "playing" and len(kept.actions) == played


def test_a_seat_reacts_once_every_react_every_seconds(clock: SteppedClock) -> None:
    lobby = Lobby(clock=clock, players=quick_players, pacing=FAST_PACING)
    ann = lobby.create(command(type="create", game="slapjack", players=2, name="Ann"))
    room = ann.room
    bob = room.sit("Bob")
    room.begin(ann)
    spy = Inbox()
    lobby.watch(room.id, spy)
    clock.at(5.0)
    room.react(ann, "nice")
    clock.at(5.0 + REACT_EVERY - 0.001)
    with pytest.raises(Refused) as refused:
        room.react(ann, "oops")
    assert refused.value.code == "slow_down"
    room.react(bob, "thanks")  # one limit per seat
    clock.at(5.0 + REACT_EVERY)
    room.react(ann, "oops")
    said = [(m["seat"], m["reaction"]) for m in spy.messages if m["type"] == "reaction"]
    assert said == [(0, "nice"), (1, "thanks"), (0, "oops")]
    lobby.close()


async def test_the_lobby_seats_the_person_first_and_names_every_seat() -> None:
    lobby = Lobby(players=quick_players, pacing=FAST_PACING)
    seating = lobby.open(command(type="start", game="slapjack", players=4, level="hard"))
    described = seating.welcome()
    assert described["seat"] == 0 and described["players"] == 4
    assert [s["kind"] for s in described["seats"]] == ["person"] + ["computer"] * 3
    assert seating.room.table is not None and set(seating.room.table.computers) == {1, 2, 3}
    lobby.close()
    assert len(lobby) == 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=6)
    | st.sampled_from(["flip", "slap", "at", "type", "player"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["type", "at", "player", "x"]), inner, max_size=3),
    max_leaves=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves=st.lists(st.tuples(st.integers(0, 2), json_values,
                                st.none() | st.integers(0, 3)), max_size=12),
       seed=st.integers(0, 1000))
def test_whatever_people_send_a_move_is_applied_whole_or_not_at_all(
        moves: list[tuple[int, object, int | None]], seed: int) -> None:
    """G1 at the table: for any JSON a person sends (at any view version, or none), either
    the move is applied or the reason comes back and the game is exactly as it was."""
    game = new_game("slapjack", players=3, seed=seed)
    room = room_of(game, {}, SteppedClock(), pacing=SLAPJACK)
    for seat, obj, version in moves:
        before = (game.view(None), len(game.history), len(game.events))
        refused = refusal(room, seat, obj, version)
        if refused is None:
            assert len(game.history) == before[1] + 1
        else:
            code, reason = refused
            assert code in ("refused", "stale") and isinstance(reason, str) and reason
            assert (game.view(None), len(game.history), len(game.events)) == before


def test_a_waiting_room_brought_back_for_a_visitor_is_put_away_again(
        clock: SteppedClock) -> None:
    """A friends' table nobody is at is put away after a reload's time (``takeover``); a
    visitor's ``join`` brings it back, and it leaves memory again that time after (not for
    ever)."""
    lobby = Lobby(clock=clock, grace=30.0, takeover=3.0, players=quick_players,
                  pacing=FAST_PACING)
    seating = lobby.create(command(type="create", game="slapjack", players=3, name="Ann"))
    host = Inbox()
    lobby.attach(seating.token, host, play=False)
    seating.room.detach(seating, host)
    clock.at(2.999)
    assert len(lobby) == 1  # a reload's time, not the grace period
    clock.at(3.0)
    assert len(lobby) == 0
    visitor = Inbox()
    room = lobby.follow(seating.room.id, visitor)
    assert len(lobby) == 1 and visitor.messages[-1]["type"] == "lobby"
    clock.at(4.0)
    room.unfollow(visitor)
    clock.at(5.999)
    assert len(lobby) == 1  # a reload's time from when it was brought back ...
    clock.at(6.0)
    assert len(lobby) == 0
    assert lobby.find(seating.token) is not None  # and the host's token still works
    lobby.close()
