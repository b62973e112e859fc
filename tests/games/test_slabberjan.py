"""Scenario tests for Slabberjan, one or more per ruling (S1 to S12, G1 to G3).

Every scenario deals from a stacked deck: ``stacked`` lays the pieces out so that each seat
draws the piece given for it and the bag starts with ``bag``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from parlour.engine import Event, IllegalAction, RecordError
from parlour.games import replay
from parlour.games.slabberjan import (
    MATADORS,
    PIECES,
    Draw,
    Slabberjan,
    Stand,
    Swap,
)


def stacked(hands: Sequence[str | None], dealer: int, bag: Sequence[str] = ()) -> list[str]:
    """A deck that deals ``hands[seat]`` to every seat still in (``None``: out), then ``bag``."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    top = [piece for s in order if (piece := hands[s]) is not None] + list(bag)
    rest = list(PIECES)
    for piece in top:
        rest.remove(piece)
    # Matadors go to the bottom, so an unplanned draw from the bag is an ordinary piece.
    rest.sort(key=lambda piece: piece in MATADORS)
    return top + rest


def new_game(hands: Sequence[str], dealer: int = 0, bag: Sequence[str] = (),
             later: Sequence[list[str]] = (), **options: Any) -> Slabberjan:
    return Slabberjan(len(hands), seed=0, options={"dealer": dealer, **options},
                      decks=[stacked(hands, dealer, bag), *later])


def act(game: Slabberjan, *kinds: str) -> list[Event]:
    """Applies, checked, each named action for whoever's turn it is; returns the events."""
    cls = {"swap": Swap, "stand": Stand, "draw": Draw}
    events: list[Event] = []
    for kind in kinds:
        assert game.turn is not None
        events += game.apply(cls[kind](game.turn))
    return events


def of_type(events: Sequence[Event], kind: str) -> list[dict[str, Any]]:
    return [e.public() for e in events if e.type == kind]


def payers(events: Sequence[Event]) -> list[int]:
    return sorted(e["player"] for e in of_type(events, "pay"))


def accounted(game: Slabberjan) -> Counter[str]:
    return Counter([p for p in game.hands if p is not None] + game.bag_left + game.set_aside)


# -- S1: chips, the first dealer, the deal passing on ------------------------------------------


def test_s1_every_player_starts_with_the_same_chips_default_three() -> None:
    assert Slabberjan(5, seed=1).view(None)["players"] == [
        {"chips": 3, "out": False, "shown": None, "left": (s + 1) % 5} for s in range(5)]
    assert {p["chips"] for p in Slabberjan(4, seed=1, options={"chips": 7})
            .view(None)["players"]} == {7}


def test_s1_the_first_dealer_comes_from_the_seed_and_is_written_into_the_record() -> None:
    dealers = {Slabberjan(6, seed=s).dealer for s in range(40)}
    assert len(dealers) > 1  # it really is drawn
    game = Slabberjan(6, seed=3)
    record = game.record()
    assert record["options"]["dealer"] == game.dealer
    assert Slabberjan(6, seed=3).dealer == game.dealer


def test_s1_the_deal_passes_left_after_a_round() -> None:
    game = new_game(["5", "2", "9"], dealer=2, free_choice=True)
    act(game, "stand", "stand", "stand")
    assert game.view(None)["dealer"] == 0 and game.view(None)["round"] == 2


@pytest.mark.parametrize("players", [1, 43, "3"])
def test_s1_two_to_forty_two_players(players: Any) -> None:
    with pytest.raises(RecordError, match="2 to 42 players"):
        Slabberjan(players)


@pytest.mark.parametrize(("options", "words"), [
    ({"chips": 0}, "'chips' must be an integer from 1"),
    ({"chips": "3"}, "'chips' must be an integer"),
    ({"chips": True}, "'chips' must be an integer"),
    ({"dealer": 4}, "'dealer' must be a seat from 0 to 3"),
    ({"dealer": -1}, "'dealer' must be a seat"),
    ({"free_choice": "yes"}, "'free_choice' must be true or false"),
    ({"jokers": True}, "no option 'jokers'"),
])
def test_bad_option_values_are_refused_with_a_clear_message(
        options: dict[str, Any], words: str) -> None:
    with pytest.raises(RecordError, match=words):
        Slabberjan(4, seed=0, options=options)


# -- S2, S3: the deal and the order of turns ---------------------------------------------------


def test_s2_pieces_come_off_the_top_from_left_of_the_dealer_the_dealer_last() -> None:
    deck = stacked(["12", "1", "2", "3"], dealer=1)
    game = Slabberjan(4, seed=0, options={"dealer": 1}, decks=[deck])
    assert [game.view(s)["piece"] for s in range(4)] == ["12", "1", "2", "3"]
    assert deck[:4] == ["2", "3", "12", "1"]  # seats 2, 3, 0, then the dealer 1
    assert game.bag_left == deck[4:]
    assert game.view(None)["bag"] == 38


def test_s2_a_seat_sees_only_its_own_piece() -> None:
    game = new_game(["12", "1", "2", "3"])
    assert game.view(None)["piece"] is None and game.view(None)["legal"] == []
    deal = game.events[0]
    assert deal.type == "deal" and "piece" not in deal.seen_by(None)
    assert [deal.seen_by(s)["piece"] for s in range(4)] == ["12", "1", "2", "3"]


def test_s3_turns_start_left_of_the_dealer_and_the_dealer_acts_last() -> None:
    game = new_game(["5", "6", "7", "8"], dealer=2, free_choice=True)
    seen = []
    while game.view(None)["round"] == 1:
        seen.append((game.turn, game.view(None)["phase"]))
        act(game, "stand")
    assert seen == [(3, "turns"), (0, "turns"), (1, "turns"), (2, "dealer")]


# -- S4: who must swap, who stands -------------------------------------------------------------


def test_s4_a_piece_below_the_inn_must_swap() -> None:
    game = new_game(["5", "6", "7", "8"])
    assert game.legal_actions(1) == [Swap(1)]
    with pytest.raises(IllegalAction, match="must try to swap"):
        game.apply(Stand(1))


def test_s4_a_matador_holder_stands_and_cannot_swap() -> None:
    game = new_game(["5", "inn", "7", "8"])
    assert game.legal_actions(1) == [Stand(1)]
    with pytest.raises(IllegalAction, match="holding a matador stands"):
        game.apply(Swap(1))


def test_s4_free_choice_lets_any_non_dealer_stand() -> None:
    game = new_game(["5", "6", "7", "8"], free_choice=True)
    assert game.legal_actions(1) == [Swap(1), Stand(1)]
    act(game, "stand")
    assert game.hands == ["5", "6", "7", "8"] and game.turn == 2


def test_s4_the_dealer_draws_or_stands_and_a_matador_dealer_only_stands() -> None:
    game = new_game(["5", "6", "7", "8"], free_choice=True)
    act(game, "stand", "stand", "stand")
    assert game.legal_actions(0) == [Draw(0), Stand(0)]
    with pytest.raises(IllegalAction, match="dealer does not swap"):
        game.apply(Swap(0))
    matador = new_game(["knight", "6", "7", "8"], free_choice=True)
    act(matador, "stand", "stand", "stand")
    assert matador.legal_actions(0) == [Stand(0)]
    with pytest.raises(IllegalAction, match="matador stands"):
        matador.apply(Draw(0))


def test_s4_s6_a_swap_exchanges_with_the_left_neighbour() -> None:
    game = new_game(["5", "3", "9", "8"])
    act(game, "swap")
    assert game.hands == ["5", "9", "3", "8"] and game.turn == 2


# -- S5: the matadors refuse -------------------------------------------------------------------


def test_s5_inn_sends_the_swap_on_to_the_next_player() -> None:
    game = new_game(["5", "3", "inn", "7"])
    events = act(game, "swap")
    assert of_type(events, "announce") == [{
        "type": "announce", "player": 1, "holder": 2, "bag": False, "piece": "inn",
        "words": "go by the Inn"}]
    assert game.hands == ["5", "7", "inn", "3"]
    assert game.view(None)["players"][2]["shown"] == "inn"
    assert game.turn == 2 and game.legal_actions(2) == [Stand(2)]


def test_s5_inn_whose_next_player_holds_a_cat() -> None:
    game = new_game(["5", "3", "inn", "cat"])
    events = act(game, "swap")
    assert [e["words"] for e in of_type(events, "announce")] == ["go by the Inn", "meow"]
    assert payers(events) == [1] and game.chips[1] == 2 and game.pot == 1
    assert game.hands == ["5", "3", "inn", "cat"] and game.turn == 2


def test_s5_inn_whose_next_player_holds_a_knight_ends_the_round() -> None:
    game = new_game(["5", "3", "inn", "knight"])
    events = act(game, "swap")
    assert [e["words"] for e in of_type(events, "announce")] == ["go by the Inn", "cut short"]
    assert of_type(events, "reveal")[0]["pieces"] == ["5", "3", "inn", "knight"]
    # cut short, then the lowest piece at the reveal: seat 1 pays twice
    assert payers(events) == [1, 1] and game.chips[1] == 1
    assert game.view(None)["round"] == 2


def test_s5_an_inn_chain_that_comes_back_to_the_swapper_makes_no_swap() -> None:
    game = new_game(["inn", "4", "inn"])
    events = act(game, "swap")
    assert [e["holder"] for e in of_type(events, "announce")] == [2, 0]
    assert of_type(events, "no_swap")[0]["player"] == 1
    assert game.hands == ["inn", "4", "inn"] and game.turn == 2
    assert game.chips == [3, 3, 3]


def test_s5_a_cat_after_several_swaps_gives_everyone_their_dealt_piece_back() -> None:
    dealt = ["6", "2", "9", "4", "cat"]
    game = new_game(dealt)
    act(game, "swap", "swap")
    assert game.hands == ["6", "9", "4", "2", "cat"]
    events = act(game, "swap")
    assert of_type(events, "announce")[0]["words"] == "meow"
    assert game.hands == dealt
    assert [e.seen_by(s).get("piece") for e in events if e.type == "undo"
            for s in range(5)] == dealt
    assert payers(events) == [3] and game.pot == 1
    assert game.turn == 4 and game.legal_actions(4) == [Stand(4)]
    act(game, "stand")
    assert game.turn == 0 and game.view(None)["phase"] == "dealer"


def test_s5_s8_a_bird_ends_the_swaps_and_then_the_dealer_may_use_the_bag() -> None:
    game = new_game(["8", "3", "bird", "5"], bag=["10"])
    events = act(game, "swap")
    assert of_type(events, "announce")[0]["words"] == "stand still in front of the bird"
    assert game.turn == 0 and game.view(None)["phase"] == "dealer" and game.view(None)["bird"]
    with pytest.raises(IllegalAction, match="seat 0's turn"):
        game.apply(Swap(3))
    events = act(game, "draw")
    assert of_type(events, "reveal")[0]["pieces"] == ["10", "3", "bird", "5"]
    assert payers(events) == [1]  # the lowest piece; nobody pays for the bird


def test_s5_a_knight_makes_the_swapper_pay_and_ends_the_round_at_once() -> None:
    game = new_game(["8", "3", "knight", "5"])
    events = act(game, "swap")
    assert of_type(events, "announce")[0]["words"] == "cut short"
    assert [e["reason"] for e in of_type(events, "pay")] == ["cut short", "lowest"]
    assert not of_type(events, "draw") and not of_type(events, "stand")  # no dealer turn
    assert game.view(None)["round"] == 2 and game.dealer == 1


# -- S6, G3: what a swap tells whom ------------------------------------------------------------


def test_s6_g3_only_the_two_swappers_learn_the_pieces() -> None:
    game = new_game(["5", "3", "9", "8"])
    [swap] = act(game, "swap")
    assert swap.seen_by(None) == {"type": "swap", "player": 1, "target": 2}
    assert swap.seen_by(3) == swap.seen_by(None) == swap.seen_by(0)
    assert swap.seen_by(1)["got"] == "9" and swap.seen_by(2)["got"] == "3"
    assert game.view(1)["learned"] == [{"with": 2, "gave": "3", "got": "9"}]
    assert game.view(2)["learned"] == [{"with": 1, "gave": "9", "got": "3"}]
    assert game.view(3)["learned"] == [] and game.view(3)["piece"] == "8"
    assert game.view(None)["learned"] == []


# -- S7: fool over fool ------------------------------------------------------------------------


def test_s7_fool_over_fool_redeals_with_the_same_dealer_and_keeps_the_pot() -> None:
    redeal = stacked(["7", "12", "4", "9", "0"], dealer=0)
    game = new_game(["6", "4", "cat", "fool", "fool"], later=[redeal])
    act(game, "swap", "stand")  # meow: seat 1 pays
    events = act(game, "swap")
    assert of_type(events, "announce") == [{
        "type": "announce", "player": 3, "holder": 4, "bag": False, "piece": "fool",
        "words": "fool over fool", "players": [3, 4]}]
    view = game.view(None)
    assert (view["dealer"], view["round"], view["deal"], view["pot"]) == (0, 1, 2, 1)
    assert game.chips == [3, 2, 3, 3, 3]
    assert game.hands == ["7", "12", "4", "9", "0"]  # the next deck
    assert game.turn == 1 and view["players"][2]["shown"] is None
    assert game.record()["decks"][1] == redeal


def test_s7_s8_a_dealer_holding_a_fool_simply_takes_a_drawn_fool() -> None:
    game = new_game(["fool", "5", "7"], bag=["fool"], free_choice=True)
    events = act(game, "stand", "stand", "draw")
    assert of_type(events, "reveal")[0]["pieces"] == ["fool", "5", "7"]
    assert game.view(None)["round"] == 2 and game.deals == 2  # a new round, not a redeal


# -- S8: the dealer and the bag ----------------------------------------------------------------


@pytest.fixture
def after_swaps(request: pytest.FixtureRequest) -> Slabberjan:
    """Three players, dealt "5", "2", "9"; after two swaps the dealer holds "2"."""
    bag: list[str] = request.param
    game = new_game(["5", "2", "9"], bag=bag)
    act(game, "swap", "swap")
    assert game.hands == ["2", "9", "5"] and game.turn == 0
    return game


@pytest.mark.parametrize("after_swaps", [["7"]], indirect=True)
def test_s8_a_drawn_piece_is_taken_and_the_old_one_set_aside(after_swaps: Slabberjan) -> None:
    game = after_swaps
    [draw] = [e for e in act(game, "draw") if e.type == "draw"]
    assert draw.seen_by(None) == {"type": "draw", "player": 0}
    assert draw.seen_by(0)["got"] == "7" and "got" not in draw.seen_by(1)
    assert game.reveal["pieces"] == ["7", "9", "5"]


@pytest.mark.parametrize("after_swaps", [["inn", "7"]], indirect=True)
def test_s8_a_drawn_inn_is_set_aside_and_the_next_piece_drawn(after_swaps: Slabberjan) -> None:
    events = act(after_swaps, "draw")
    assert of_type(events, "announce")[0] == {
        "type": "announce", "player": 0, "holder": None, "bag": True, "piece": "inn",
        "words": "go by the Inn"}
    assert after_swaps.reveal["pieces"] == ["7", "9", "5"] and payers(events) == [2]


@pytest.mark.parametrize("after_swaps", [["knight"]], indirect=True)
def test_s8_a_drawn_knight_costs_the_dealer_a_chip(after_swaps: Slabberjan) -> None:
    events = act(after_swaps, "draw")
    assert of_type(events, "announce")[0]["words"] == "cut short"
    assert after_swaps.reveal["pieces"] == ["2", "9", "5"]  # the dealer kept their piece
    assert [(e["player"], e["reason"]) for e in of_type(events, "pay")] == [
        (0, "cut short"), (0, "lowest")]


@pytest.mark.parametrize("after_swaps", [["bird"]], indirect=True)
def test_s8_a_drawn_bird_leaves_the_dealer_their_piece(after_swaps: Slabberjan) -> None:
    events = act(after_swaps, "draw")
    assert of_type(events, "announce")[0]["words"] == "stand still in front of the bird"
    assert after_swaps.reveal["pieces"] == ["2", "9", "5"] and payers(events) == [0]


@pytest.mark.parametrize("after_swaps", [["cat"]], indirect=True)
def test_s8_a_drawn_cat_costs_a_chip_and_undoes_every_swap(after_swaps: Slabberjan) -> None:
    events = act(after_swaps, "draw")
    assert of_type(events, "announce")[0]["words"] == "meow"
    assert after_swaps.reveal["pieces"] == ["5", "2", "9"]
    assert [(e["player"], e["reason"]) for e in of_type(events, "pay")] == [
        (0, "meow"), (1, "lowest")]


@pytest.mark.parametrize("after_swaps", [["inn", "inn", "3"]], indirect=True)
def test_s8_two_drawn_inns_then_a_piece(after_swaps: Slabberjan) -> None:
    events = act(after_swaps, "draw")
    assert [e["piece"] for e in of_type(events, "announce")] == ["inn", "inn"]
    assert after_swaps.reveal["pieces"] == ["3", "9", "5"] and payers(events) == [0]


def test_s8_inns_can_use_up_the_bag_and_the_dealer_keeps_their_piece() -> None:
    hands = list(PIECES)
    hands.remove("inn")
    hands.remove("inn")
    hands.remove("5")
    hands = ["5", *hands]  # 40 players; the bag is the two inns
    game = new_game(hands, bag=["inn", "inn"], free_choice=True)
    act(game, *["stand"] * 39)
    assert game.bag_left == ["inn", "inn"]
    events = act(game, "draw")
    assert len(of_type(events, "announce")) == 2
    assert of_type(events, "keep") == [{"type": "keep", "player": 0,
                                        "reason": "the bag is empty"}]
    assert of_type(events, "reveal")[0]["pieces"][0] == "5"


def test_s8_a_42_player_table_has_an_empty_bag_and_the_dealer_only_stands() -> None:
    hands = sorted(PIECES, key=lambda p: p in MATADORS)  # the dealer, seat 0, holds a "12"
    game = new_game(hands, free_choice=True)
    assert game.view(None)["bag"] == 0 and game.bag_left == []
    act(game, *["stand"] * 41)
    assert game.turn == 0 and game.legal_actions(0) == [Stand(0)]
    with pytest.raises(IllegalAction, match="the bag is empty"):
        game.apply(Draw(0))
    events = act(game, "stand")
    assert game.reveal is not None
    # two fools, then the two lowest other pieces: both scary faces
    assert [game.reveal["pieces"][s] for s in payers(events)] == [
        "scary face", "scary face", "fool", "fool"]


# -- S9, S10: the reveal and the payments ------------------------------------------------------


@pytest.mark.parametrize(("hands", "expected"), [
    (["5", "chamber pot", "chamber pot", "9"], [1, 2]),          # no fool: the tie both pay
    (["fool", "3", "0", "0"], [0, 2, 3]),                        # one fool: fool + lowest (tied)
    (["5", "fool", "fool", "scary face", "0", "1"], [1, 2, 3, 4]),  # two fools + two lowest
    (["5", "fool", "fool", "scary face", "0", "0"], [1, 2, 3, 4, 5]),  # tie at the cut-off
    (["fool", "fool", "12"], [0, 1, 2]),                         # fewer players: all pay
    (["fool", "12"], [0, 1]),
])
def test_s9_s10_who_pays_at_the_reveal(hands: list[str], expected: list[int]) -> None:
    game = new_game(hands, free_choice=True)
    events = act(game, *["stand"] * len(hands))
    assert of_type(events, "reveal")[0]["pieces"] == hands
    assert payers(events) == expected
    assert game.pot == len(expected)
    reasons = {e["player"]: e["reason"] for e in of_type(events, "pay")}
    assert all((reasons[s] == "fool") == (hands[s] == "fool") for s in expected)
    # the view says who paid at this reveal and why, so that no page re-derives S10
    reveal = game.view(None)["reveal"]
    assert reveal is not None and reveal["pieces"] == hands
    assert [s for s, why in enumerate(reveal["pays"]) if why] == expected
    assert all(reveal["pays"][s] == reasons[s] for s in expected)


# -- S11: elimination --------------------------------------------------------------------------


def test_s11_a_player_who_cannot_pay_is_out_and_the_deal_skips_them() -> None:
    game = new_game(["5", "2", "cat"], chips=1)
    events = act(game, "swap")  # meow: seat 1 pays its only chip
    assert game.chips[1] == 0 and not game.out[1]
    events = act(game, "stand", "stand")
    assert of_type(events, "out") == [{"type": "out", "player": 1}]
    view = game.view(None)
    assert view["players"][1] == {"chips": 0, "out": True, "shown": None, "left": None}
    assert view["players"][0]["left"] == 2 and view["players"][2]["left"] == 0  # S3: skips 1
    assert game.hands[1] is None and view["dealer"] == 2 and game.turn == 0
    assert game.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="out of the game"):
        game.apply(Swap(1))


def test_s11_a_cats_undo_comes_before_the_payment_that_eliminates() -> None:
    round2 = stacked(["cat", "10", "7", "4"], dealer=1)
    game = new_game(["5", "9", "8", "2"], chips=1, free_choice=True, later=[round2])
    act(game, "stand", "stand", "stand", "stand")  # seat 3 pays its only chip
    assert game.chips[3] == 0 and game.dealer == 1 and game.turn == 2
    act(game, "swap")
    assert game.hands == ["cat", "10", "4", "7"]
    events = act(game, "swap")  # seat 3 tries the cat with no chip left
    assert of_type(events, "out") == [{"type": "out", "player": 3}]
    assert game.hands == ["cat", "10", "7", None]
    assert game.set_aside == ["4"]  # its dealt piece, after the undo
    assert accounted(game) == Counter(PIECES)
    assert game.turn == 0


def test_s11_when_everyone_left_would_be_out_at_once_nobody_is() -> None:
    round2 = stacked(["6", "6"], dealer=1)
    game = new_game(["5", "5"], chips=1, free_choice=True, later=[round2])
    act(game, "stand", "stand")
    assert game.chips == [0, 0] and game.pot == 2
    events = act(game, "stand", "stand")
    assert of_type(events, "spared") == [{"type": "spared", "players": [0, 1],
                                          "reason": "lowest"}]
    assert not of_type(events, "out") and game.out == [False, False]
    assert game.winner is None and game.view(None)["round"] == 3


# -- S12: the winner ---------------------------------------------------------------------------


def test_s12_the_last_player_in_wins_and_takes_the_pot() -> None:
    round2 = stacked(["3", "8"], dealer=1)
    game = new_game(["5", "9"], chips=1, free_choice=True, later=[round2])
    act(game, "stand", "stand")
    assert game.chips == [0, 1] and game.pot == 1
    events = act(game, "stand", "stand")
    assert of_type(events, "win") == [{"type": "win", "player": 1, "pot": 1}]
    assert game.chips == [0, 2] and game.pot == 0
    view = game.view(None)
    assert (view["winner"], view["turn"], view["phase"]) == (1, None, "over")
    assert game.outcome is not None and game.outcome.to_json() == {
        "winner": 1, "termination": "last_player_standing"}
    assert game.legal_actions(1) == [] and game.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="the game is over"):
        game.apply(Stand(1))


# -- G1: refused actions change nothing --------------------------------------------------------


def snapshot(game: Slabberjan) -> str:
    views = [game.view(s) for s in [None, *range(game.players)]]
    return json.dumps([views, game.record(), [e.seen_by(0) for e in game.events],
                       game.bag_left, game.set_aside])


@pytest.mark.parametrize(("action", "reason"), [
    (Swap(2), "it is seat 1's turn"),
    (Stand(1), "must try to swap"),
    (Draw(1), "only the dealer draws"),
    (Swap(0), "it is seat 1's turn"),
    (Swap(7), "there is no seat 7"),
])
def test_g1_illegal_actions_are_refused_with_a_reason_and_nothing_changes(
        action: Swap | Stand | Draw, reason: str) -> None:
    game = new_game(["5", "3", "inn", "7"])
    before = snapshot(game)
    with pytest.raises(IllegalAction, match=reason):
        game.apply(action)
    assert snapshot(game) == before


def test_g1_refusals_mid_round_leave_the_state_alone() -> None:
    game = new_game(["5", "3", "inn", "7"])
    act(game, "swap")
    before = snapshot(game)
    for action, reason in [(Swap(2), "holding a matador stands"), (Draw(0), "seat 2's turn")]:
        with pytest.raises(IllegalAction, match=reason):
            game.apply(action)
    with pytest.raises(RecordError, match="unknown action type 'slap'"):
        game.apply_json({"player": 2, "type": "slap"})
    assert snapshot(game) == before


# -- G2: the record ----------------------------------------------------------------------------


def test_g2_a_recorded_game_with_stacked_decks_replays_event_for_event() -> None:
    game = new_game(["6", "2", "9", "4", "cat"])
    act(game, "swap", "swap", "swap", "stand", "draw")
    again = replay(json.loads(json.dumps(game.record())))
    assert again.events == game.events
    assert again.view(None) == game.view(None)


def test_g2_a_bad_action_in_a_record_is_named_by_its_index() -> None:
    record = new_game(["5", "3", "inn", "7"]).record()
    record["actions"] = [{"player": 1, "type": "swap"}, {"player": 2, "type": "swap"}]
    with pytest.raises(RecordError, match="action 1: seat 2 cannot swap"):
        replay(record)
