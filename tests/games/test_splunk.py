"""Scenario tests for Splunk, one or more per ruling (P1 to P6, G1), from stacked decks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from parlour.engine import Event, IllegalAction, RecordError
from parlour.engine.cards import standard_deck
from parlour.games import new_game
from parlour.games.splunk import Call, Play, Slap, Splunk

Cards = Mapping[int, str] | Sequence[str | None]


def deal(seat0: Cards = (), seat1: Cards = (), *, jokers: bool = False) -> list[str]:
    """A stacked deck that gives each seat the pile described, top card first.

    A pile is a list (None: any card) or a {position: card} mapping; positions 0 and 1 are
    that seat's two bases (P2). Every other position gets a card nobody named.
    """
    size = 27 if jokers else 26
    wanted = [dict(enumerate(s)) if not isinstance(s, Mapping) else dict(s)
              for s in (seat0, seat1)]
    named = {c for w in wanted for c in w.values() if c is not None}
    rest = iter(c for c in standard_deck(jokers=jokers) if c not in named)
    piles = [[w.get(i) or next(rest) for i in range(size)] for w in wanted]
    return [c for pair in zip(*piles, strict=True) for c in pair]


def start(seat0: Cards = (), seat1: Cards = (), *, jokers: bool = False,
          first: int = 0) -> Splunk:
    return Splunk(2, decks=[deal(seat0, seat1, jokers=jokers)],
                  options={"jokers": jokers, "first": first})


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def only(events: list[Event], kind: str) -> dict[str, Any]:
    found = [e.public() for e in events if e.type == kind]
    assert len(found) == 1, types(events)
    return found[0]


def counts(game: Splunk) -> list[int]:
    return [p["cards"] for p in game.view(None)["players"]]


def snapshot(game: Splunk) -> tuple[Any, ...]:
    return (game.view(None), game.view(0), game.record(), len(game.events),
            [list(p) for p in game.piles], [list(s) for s in game.stacks])


# -- P1, P2: deal, bases, first player ---------------------------------------------------------


def test_p1_deal_26_each_one_at_a_time_from_seat_0() -> None:
    game = start(["AS", "2S", "3S"], ["AH", "2H", "3H"])
    assert counts(game) == [24, 24]  # 26 each, two of them already down as bases
    # Dealt alternately from seat 0, first card dealt is the top: seat 0's third card is 3S.
    assert only(game.apply(Play(0, 0)), "play")["card"] == "3S"
    assert only(game.apply(Play(1, 0)), "play")["card"] == "3H"
    assert [hand[:3] for hand in game.hands_dealt()] == [["AS", "2S", "3S"], ["AH", "2H", "3H"]]


def test_p1_jokers_option_deals_27_each() -> None:
    game = Splunk(2, seed=3, options={"jokers": True})
    assert counts(game) == [25, 25]
    assert len(game.record()["decks"][0]) == 54


@pytest.mark.parametrize("options", [
    {"jokers": "yes"}, {"jokers": 1}, {"first": 2}, {"first": -1}, {"first": True},
    {"first": "0"}, {"colour": "red"},
])
def test_p1_bad_options_raise_record_error(options: dict[str, Any]) -> None:
    with pytest.raises(RecordError):
        Splunk(2, seed=1, options=options)


@pytest.mark.parametrize("players", [1, 3])
def test_p1_splunk_is_for_two_players(players: int) -> None:
    with pytest.raises(RecordError):
        new_game("splunk", players=players, seed=1)


def test_p2_bases_face_down_seat_0_on_0_and_1_seat_1_on_2_and_3() -> None:
    game = start(["KS", "QS"], ["JH", "TH"])
    view = game.view(None)
    assert [s["cards"] for s in view["stacks"]] == [1, 1, 1, 1]
    assert [s["up"] for s in view["stacks"]] == [[], [], [], []]
    bases = [e.public() for e in game.events if e.type == "base"]
    assert [(b["player"], b["stack"]) for b in bases] == [(0, 0), (0, 1), (1, 2), (1, 3)]
    # The bases are the seats' top two cards: a call on stack 2 turns over JH.
    game.apply(Play(0, 2))
    assert only(game.apply(Call(1)), "call")["base"] == "JH"


@pytest.mark.parametrize("first", [0, 1])
def test_p2_option_first_gives_the_first_player(first: int) -> None:
    game = start(first=first)
    assert game.view(None)["turn"] == first
    assert [a.type for a in game.legal_actions(first)][:4] == ["play"] * 4
    assert only(game.events, "first")["player"] == first


def test_p2_first_player_drawn_from_the_seed_and_written_into_the_record() -> None:
    firsts = set()
    for seed in range(30):
        game = Splunk(2, seed=seed)
        first = game.record()["options"]["first"]
        assert game.view(None)["turn"] == first
        firsts.add(first)
    assert firsts == {0, 1}


def test_p2_the_seed_deals_the_same_deck_whether_or_not_first_is_given() -> None:
    drawn = Splunk(2, seed=11)
    given = Splunk(2, seed=11, options={"first": 1 - drawn.options["first"]})
    assert drawn.record()["decks"] == given.record()["decks"]


# -- P3: blind plays ---------------------------------------------------------------------------


def test_p3_play_goes_face_up_on_the_chosen_stack_and_players_alternate() -> None:
    game = start(["AS", "2S", "9D"], ["AH", "2H", "8C"])
    game.apply(Play(0, 3))
    game.apply(Play(1, 3))
    view = game.view(None)
    assert view["stacks"][3] == {"cards": 3, "base": True, "up": ["9D", "8C"], "up_total": 17,
                                 "call_open": True, "slap": None}
    # the call is open to seat 0 (the opponent of the play) and only on that stack
    assert [st["call_open"] for st in game.view(0)["stacks"]] == [False, False, False, True]
    assert not any(st["call_open"] for st in game.view(1)["stacks"])
    assert view["turn"] == 0 and view["plays"] == 2
    assert view["last_play"] == {"stack": 3, "player": 1}


def test_p3_the_legal_plays_are_the_four_stacks_for_the_player_to_move_only() -> None:
    game = start()
    assert [a for a in game.legal_actions(0) if a.type == "play"] == [Play(0, s) for s in range(4)]
    assert [a for a in game.legal_actions(1) if a.type == "play"] == []


# -- P4: calling out ---------------------------------------------------------------------------


def test_p4_call_that_succeeds_accused_takes_caller_lays_base_accused_plays_next() -> None:
    # Stack 0: base KS, then seat 0 plays QH and later 5H: 25, over 21.
    game = start(["KS", None, "QH", "5H"], ["AD", "2D", "3C", "9C"])
    game.apply(Play(0, 0))
    game.apply(Play(1, 2))
    game.apply(Play(0, 0))
    events = game.apply(Call(1))
    call = only(events, "call")
    assert call == {"type": "call", "player": 1, "accused": 0, "stack": 0, "base": "KS",
                    "cards": ["KS", "QH", "5H"], "total": 25, "over": True, "taker": 0}
    # Taken cards go under the accused's pile in stack order, base first.
    assert list(game.piles[0])[-3:] == ["KS", "QH", "5H"]
    # The caller (seat 1) lays its top card, 9C, face down as the new base of stack 0.
    assert only(events, "base") == {"type": "base", "player": 1, "stack": 0, "reason": "call"}
    assert game.stacks[0] == ["9C"]
    view = game.view(None)
    assert view["stacks"][0] == {"cards": 1, "base": True, "up": [], "up_total": 0,
                                 "call_open": False, "slap": None}
    assert counts(game) == [24 - 2 + 3, 24 - 1 - 1]
    # The loser (seat 0, who just played) plays next.
    assert view["turn"] == 0
    assert not view["call_open"]


def test_p4_call_that_fails_caller_takes_accused_lays_base_caller_plays_next() -> None:
    game = start(["2S", None, "3S", "8D"], ["AD", "2D"])
    game.apply(Play(0, 0))
    events = game.apply(Call(1))
    call = only(events, "call")
    assert (call["base"], call["total"], call["over"], call["taker"]) == ("2S", 5, False, 1)
    assert list(game.piles[1])[-2:] == ["2S", "3S"]
    assert only(events, "base")["player"] == 0 and game.stacks[0] == ["8D"]
    assert counts(game) == [24 - 2, 24 + 2]
    assert game.view(None)["turn"] == 1
    with pytest.raises(IllegalAction, match="seat 1's turn"):
        game.apply(Play(0, 1))


def test_p4_total_of_exactly_21_is_not_over() -> None:
    game = start(["AS", None, "KH"], ["TD", None, "QC"])
    game.apply(Play(0, 0))
    game.apply(Play(1, 0))
    call = only(game.apply(Call(0)), "call")
    assert (call["total"], call["over"], call["taker"]) == (21, False, 0)


@pytest.mark.parametrize(("base", "total", "over"), [("X1", 21, False), ("2H", 23, True)])
def test_p4_totals_with_a_joker_base_count_it_as_zero(base: str, total: int, over: bool) -> None:
    game = start([base, None, "KS", "AS"], ["AD", "2D", "QS"], jokers=True)
    game.apply(Play(0, 0))
    game.apply(Play(1, 0))
    game.apply(Play(0, 0))
    call = only(game.apply(Call(1)), "call")
    assert (call["base"], call["total"], call["over"]) == (base, total, over)
    assert call["taker"] == (0 if over else 1)


def test_p4_a_face_up_joker_counts_zero_and_may_be_called_instead_of_slapped() -> None:
    game = start(["KS", None, "QS"], ["AD", "2D", "X2"], jokers=True)
    game.apply(Play(0, 0))
    game.apply(Play(1, 0))
    assert game.view(None)["slap_open"] == 0
    call = only(game.apply(Call(0)), "call")
    assert (call["total"], call["over"], call["taker"]) == (20, False, 0)
    assert game.view(None)["slap_open"] is None


def test_p4_call_only_on_the_opponents_latest_play() -> None:
    game = start()
    with pytest.raises(IllegalAction, match="no call is open: nobody has played"):
        game.apply(Call(1))
    game.apply(Play(0, 0))
    with pytest.raises(IllegalAction, match="your own play"):
        game.apply(Call(0))
    game.apply(Play(1, 1))
    # Seat 1 played: its chance to call seat 0's play on stack 0 has gone.
    with pytest.raises(IllegalAction, match="your own play"):
        game.apply(Call(1))
    assert game.view(None)["call_open"]
    assert only(game.apply(Call(0)), "call")["stack"] == 1


# -- P5: slaps ---------------------------------------------------------------------------------


def test_p5_pair_slap_slapper_gives_stack_lays_base_other_plays_next() -> None:
    game = start(["AS", "KD", "7H", "4S"], ["AH", "2H", "7C"])
    game.apply(Play(0, 1))
    play = only(game.apply(Play(1, 1)), "play")
    assert play["kind"] == "pair"
    assert game.view(None)["slap_open"] == 1
    # which stacks a slap would win on, for every seat: only the pair's
    assert [st["slap"] for st in game.view(0)["stacks"]] == [None, "pair", None, None]
    events = game.apply(Slap(0, 1, at=2))
    assert types(events) == ["slap", "base"]
    assert only(events, "slap") == {"type": "slap", "player": 0, "stack": 1, "kind": "pair",
                                    "taker": 1, "cards": 3}
    assert list(game.piles[1])[-3:] == ["KD", "7H", "7C"]
    assert game.stacks[1] == ["4S"] and only(events, "base")["player"] == 0
    view = game.view(None)
    assert view["turn"] == 1 and view["slap_open"] is None and not view["call_open"]
    assert counts(game) == [24 - 2, 24 - 1 + 3]


def test_p5_the_player_who_made_the_pair_may_slap_it_too() -> None:
    game = start(["AS", "KD", "7H"], ["AH", "2H", "7C", "3C"])
    game.apply(Play(0, 1))
    game.apply(Play(1, 1))
    events = game.apply(Slap(1, 1))
    assert only(events, "slap")["taker"] == 0
    assert game.stacks[1] == ["3C"]
    assert game.view(None)["turn"] == 0


def test_p5_sandwich_slap() -> None:
    game = start(["AS", "KD", "7H", "7D"], ["AH", "2H", "2C", "5C"])
    game.apply(Play(0, 1))
    game.apply(Play(1, 1))
    play = only(game.apply(Play(0, 1)), "play")
    assert play["kind"] == "sandwich"
    events = game.apply(Slap(1, 1, at=3))
    assert only(events, "slap")["kind"] == "sandwich"
    assert list(game.piles[0])[-4:] == ["KD", "7H", "2C", "7D"]
    assert game.stacks[1] == ["5C"]
    assert game.view(None)["turn"] == 0


def test_p5_no_sandwich_when_the_first_card_of_it_is_the_face_down_base() -> None:
    # Stack 1 reads 7S (face down), 2C, 7H: only two face-up cards, so no sandwich.
    game = start(["AS", "7S", "2C", "5D"], ["AH", "2H", "7H"])
    game.apply(Play(0, 1))
    assert only(game.apply(Play(1, 1)), "play")["kind"] is None
    assert game.view(None)["slap_open"] is None
    events = game.apply(Slap(0, 1, at=2))
    wrong = only(events, "wrong_slap")
    assert (wrong["player"], wrong["taker"]) == (0, 0)
    assert wrong["reason"] == "no pair, sandwich or joker"
    # The slapper takes the stack, the other player lays the new base, the slapper plays next.
    assert list(game.piles[0])[-3:] == ["7S", "2C", "7H"]
    assert only(events, "base")["player"] == 1
    assert game.view(None)["turn"] == 0


def test_p5_no_pair_with_the_face_down_base() -> None:
    game = start(["AS", "7S", "7H"], ["AH", "2H"])
    assert only(game.apply(Play(0, 1)), "play")["kind"] is None
    assert types(game.apply(Slap(1, 1))) == ["wrong_slap", "base"]


def test_p5_joker_on_a_bare_base_may_be_slapped() -> None:
    game = start(["AS", "KD", "X1"], ["AH", "2H", "3H", "4H"], jokers=True)
    play = only(game.apply(Play(0, 2)), "play")
    assert play["kind"] == "joker" and game.view(None)["slap_open"] == 2
    events = game.apply(Slap(1, 2, at=1))
    assert only(events, "slap") == {"type": "slap", "player": 1, "stack": 2, "kind": "joker",
                                    "taker": 0, "cards": 2}
    assert list(game.piles[0])[-2:] == ["AH", "X1"]
    assert game.stacks[2] == ["3H"]
    assert game.view(None)["turn"] == 0


def test_p5_wrong_slap_on_a_stack_that_was_not_played_last() -> None:
    game = start(["AS", "KD", "7H", "6D"], ["AH", "2H", "7C", "5C"])
    game.apply(Play(0, 1))
    game.apply(Play(1, 1))  # a pair on stack 1
    events = game.apply(Slap(1, 2, at=2))
    wrong = only(events, "wrong_slap")
    assert (wrong["stack"], wrong["taker"], wrong["reason"]) == (2, 1, "not the latest play")
    assert list(game.piles[1])[-1] == "AH" and game.stacks[2] == ["6D"]
    assert game.view(None)["turn"] == 1
    # The pair on stack 1 is still open to a slap.
    assert game.view(None)["slap_open"] == 1
    assert only(game.apply(Slap(0, 1, at=2)), "slap")["taker"] == 1


def test_p5_stale_slap_after_the_race_was_won_is_ignored_without_penalty() -> None:
    game = start(["AS", "KD", "7H", "4S"], ["AH", "2H", "7C"])
    game.apply(Play(0, 1))
    game.apply(Play(1, 1))
    game.apply(Slap(0, 1, at=2))
    before = snapshot(game)
    events = game.apply(Slap(1, 1, at=2))
    assert [e.public() for e in events] == [
        {"type": "slap_ignored", "player": 1, "stack": 1, "at": 2, "reason": "stale"}]
    after = snapshot(game)
    assert after[0] == before[0] and after[4:] == before[4:]


def test_p5_slap_aimed_at_an_earlier_play_is_ignored() -> None:
    game = start(["AS", "KD", "7H", "4S"], ["AH", "2H", "7C", "3C"])
    game.apply(Play(0, 1))
    game.apply(Play(1, 1))
    game.apply(Play(0, 0))  # covers nothing, but the pair's play is no longer the latest
    view = game.view(None)
    assert only(game.apply(Slap(1, 1, at=2)), "slap_ignored")["reason"] == "stale"
    assert game.view(None) == view


def test_p5_call_first_makes_the_slap_stale_and_slap_first_makes_the_call_refused() -> None:
    game = start(["AS", "KD", "7H", "4S"], ["AH", "2H", "7C"])
    game.apply(Play(0, 1))
    game.apply(Play(1, 1))
    game.apply(Call(0))
    assert types(game.apply(Slap(1, 1, at=2))) == ["slap_ignored"]

    game = start(["AS", "KD", "7H", "4S"], ["AH", "2H", "7C"])
    game.apply(Play(0, 1))
    game.apply(Play(1, 1))
    game.apply(Slap(1, 1, at=2))
    with pytest.raises(IllegalAction, match="already settled"):
        game.apply(Call(0))
    # that call lost a race: too late, not wrong; a call of one's own play is simply wrong
    assert (game.late(Call(0)) or "").startswith("too late")
    game.apply(Play(0, 0))  # the slapper gave the stack away; the other plays
    assert game.late(Call(1)) is None  # open: not late
    assert game.late(Call(0)) is None  # one's own play: wrong, not late


# -- P6: the end -------------------------------------------------------------------------------


def endgame(stack3: list[str], *, last: bool = True) -> Splunk:
    """Seat 0 is down to its last card, which goes onto stack 3; seat 1 holds 4 cards.

    Stack 3 ends up as ``stack3``: seat 1's base, then plays by seats 1, 0, 1 and 0 (the last
    card). With ``last=False`` seat 0 still holds that last card and it is its turn.
    """
    seat0 = {0: "AS", 2: "2S", 24: stack3[2], 25: stack3[4]}
    seat1 = {1: stack3[0], 22: stack3[1], 23: stack3[3]}
    game = start(seat0, seat1)
    game.apply(Play(0, 0))
    game.apply(Call(1))  # AS + 2S = 3: seat 1 takes two cards and plays next
    for i in range(20):
        game.apply(Play(1, i % 3))
        game.apply(Play(0, i % 3))
    game.apply(Play(1, 3))
    game.apply(Play(0, 3))
    game.apply(Play(1, 3))
    assert counts(game) == [1, 4]
    if last:
        game.apply(Play(0, 3))
        assert counts(game) == [0, 4] and game.winner is None
    assert game.view(None)["stacks"][3]["up"] == stack3[1:5 if last else 4]
    return game


def test_p6_last_card_answered_by_a_plain_play_wins() -> None:
    game = endgame(["2C", "3C", "4C", "5C", "6C"])
    events = game.apply(Play(1, 0))
    assert types(events) == ["play", "win"]
    assert only(events, "win") == {"type": "win", "player": 0, "reason": "last_play_stood"}
    assert game.outcome is not None and game.outcome.winner == 0
    view = game.view(None)
    assert view["winner"] == 0 and view["turn"] is None
    assert game.legal_actions(0) == [] and game.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply(Play(0, 0))


def test_p6_last_card_answered_by_a_failing_call_wins() -> None:
    game = endgame(["AC", "2C", "3C", "4C", "5C"])
    events = game.apply(Call(1))
    assert only(events, "call")["taker"] == 1
    assert only(events, "win") == {"type": "win", "player": 0, "reason": "no_card_for_base"}
    assert counts(game) == [0, 9]
    assert game.view(None)["stacks"][3] == {"cards": 0, "base": False, "up": [], "up_total": 0,
                                            "call_open": False, "slap": None}


def test_p6_last_card_answered_by_a_good_call_the_game_goes_on() -> None:
    game = endgame(["KC", "QC", "JC", "TC", "9C"])
    events = game.apply(Call(1))
    assert only(events, "call")["taker"] == 0
    assert types(events) == ["call", "base"]
    assert game.winner is None
    assert list(game.piles[0]) == ["KC", "QC", "JC", "TC", "9C"]
    assert counts(game) == [5, 3] and game.view(None)["turn"] == 0


def test_p6_last_card_answered_by_the_opponents_slap_the_game_goes_on() -> None:
    game = endgame(["2C", "3C", "4C", "7C", "7H"])
    events = game.apply(Slap(1, 3))
    assert types(events) == ["slap", "base"]
    assert game.winner is None and counts(game) == [5, 3]
    assert game.view(None)["turn"] == 0


def test_p6_slapping_your_own_last_card_first_wins_no_card_for_the_base() -> None:
    game = endgame(["2C", "3C", "4C", "7C", "7H"])
    events = game.apply(Slap(0, 3))
    assert only(events, "slap")["taker"] == 1
    assert only(events, "win") == {"type": "win", "player": 0, "reason": "no_card_for_base"}


def test_p6_opponent_slaps_wrong_after_the_last_card_who_must_lay_a_base_with_none_wins() -> None:
    game = endgame(["2C", "3C", "4C", "5C", "6C"])
    events = game.apply(Slap(1, 0))
    assert types(events) == ["wrong_slap", "win"]
    assert only(events, "win")["player"] == 0


def test_p6_laying_your_last_card_as_a_new_base_wins() -> None:
    # Seat 1's play makes a pair on stack 3; seat 0, holding one card, slaps first.
    game = endgame(["2C", "3C", "7H", "7C", "5C"], last=False)
    events = game.apply(Slap(0, 3))
    assert types(events) == ["slap", "base", "win"]
    assert only(events, "win") == {"type": "win", "player": 0, "reason": "last_card_as_base"}
    assert counts(game) == [0, 4 + 4]


# -- G1: illegal actions are refused and change nothing ----------------------------------------


@pytest.mark.parametrize(("action", "reason"), [
    (Play(1, 0), "seat 0's turn"),
    (Call(1), "no call is open"),
    (Play(0, 4), "no stack 4"),
    (Play(0, -1), "no stack -1"),
    (Slap(1, 7), "no stack 7"),
    (Slap(1, 0, at=3), "'at' is 3 but 2 cards have been played"),
    (Slap(0, 0, at=-1), "'at' is -1"),
    (Play(2, 0), "no seat 2"),
])
def test_g1_illegal_actions_refused_with_a_reason_state_unchanged(action: Any, reason: str) -> None:
    game = start(["AS", "KD", "7H", "4S"], ["AH", "2H", "7C"])
    game.apply(Play(0, 1))
    game.apply(Play(1, 2))
    game.apply(Call(0))
    before = snapshot(game)
    with pytest.raises(IllegalAction, match=reason):
        game.apply(action)
    assert snapshot(game) == before


@pytest.mark.parametrize(("obj", "reason"), [
    ({"player": 0, "type": "play"}, "play 'stack' must be an integer"),
    ({"player": 0, "type": "slap", "stack": "1"}, "slap 'stack' must be an integer"),
    ({"player": 0, "type": "flip"}, "unknown action type 'flip'"),
])
def test_g1_malformed_action_json_is_refused(obj: dict[str, Any], reason: str) -> None:
    game = start()
    before = snapshot(game)
    with pytest.raises(RecordError, match=reason):
        game.apply_json(obj)
    assert snapshot(game) == before


def test_actions_round_trip_through_json() -> None:
    game = start()
    for action in [Play(0, 2), Call(1), Slap(1, 3, at=1), Slap(0, 0)]:
        assert game.parse_action(action.to_json()) == action
    assert Slap(1, 3, at=1).to_json() == {"player": 1, "type": "slap", "stack": 3, "at": 1}
