"""Slapjack scenarios from stacked decks: one or more per ruling J1 to J9 and G1 to G3."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import pytest

from parlour import IllegalAction, RecordError, replay
from parlour.engine.cards import standard_deck
from parlour.games.slapjack import Flip, Slap, Slapjack, SlapjackTermination, is_jack


def stacked(players: int, tops: Mapping[int, Sequence[str]]) -> list[str]:
    """A full deck that deals ``tops[seat]`` as the top cards of each seat's stack.

    Every other position is filled with the remaining cards, non-Jacks first, so that the
    Jacks a scenario did not ask for sit at the bottom of the stacks, out of the way.
    """
    deck: list[str | None] = [None] * 52
    for seat, cards in tops.items():
        for k, card in enumerate(cards):
            deck[k * players + seat] = card
    used = {c for c in deck if c}
    rest = sorted((c for c in standard_deck() if c not in used), key=is_jack)
    fill = iter(rest)
    return [c if c else next(fill) for c in deck]


#: seventeen cards without a Jack: a whole stack at a three-player table, ending in 8C
NO_JACKS_17 = [f"{r}D" for r in "23456789TQKA"] + ["2C", "3C", "6C", "7C", "8C"]


def game(players: int, tops: Mapping[int, Sequence[str]], **kw: object) -> Slapjack:
    return Slapjack(players, decks=[stacked(players, tops)], **kw)  # type: ignore[arg-type]


def cards(g: Slapjack) -> list[int]:
    return [p["cards"] for p in g.view(None)["players"]]


def snapshot(g: Slapjack) -> str:
    return json.dumps([g.view(None), g.record(), [list(s) for s in g.stacks], g.pile])


def drain_by_wrong_slaps(g: Slapjack, slapper: int, leave: int = 0) -> None:
    """``slapper`` slaps the (non-Jack) top card until only ``leave`` cards are left."""
    while len(g.stacks[slapper]) > leave:
        g.apply(Slap(slapper, at=g.flips))


# -- J1 ---------------------------------------------------------------------------------------


def test_j1_dealt_one_at_a_time_from_seat_0_with_extra_cards_to_the_first_seats() -> None:
    g = game(3, {0: ["2H", "3H"], 1: ["4H"], 2: ["5H"]})
    assert cards(g) == [18, 17, 17]
    assert g.view(None)["turn"] == 0
    flipped = [g.apply(Flip(seat))[0].public()["card"] for seat in (0, 1, 2, 0)]
    assert flipped == ["2H", "4H", "5H", "3H"]
    # what a replay reveals at the end: each seat's cards as dealt, however the game went
    hands = g.hands_dealt()
    assert [len(h) for h in hands] == [18, 17, 17]
    assert [h[:2] for h in hands] == [["2H", "3H"], ["4H", hands[1][1]], ["5H", hands[2][1]]]


def test_j1_nobody_sees_any_stack_not_even_their_own() -> None:
    g = game(2, {0: ["2H"], 1: ["3H"]})
    for seat in (None, 0, 1):
        text = json.dumps(g.view(seat))
        assert not any(f'"{c}"' in text for c in standard_deck())


# -- J2 ---------------------------------------------------------------------------------------


def test_j2_players_flip_in_turn_and_out_of_turn_is_refused() -> None:
    g = game(3, {0: ["2H"], 1: ["3H"], 2: ["4H"]})
    with pytest.raises(IllegalAction, match="seat 0's turn"):
        g.apply(Flip(1))
    g.apply(Flip(0))
    assert g.view(None)["turn"] == 1


def test_j2_a_player_with_no_cards_is_skipped() -> None:
    g = game(3, {0: ["2H"], 1: ["3H"], 2: ["4H"]})
    g.apply(Flip(0))  # seat 1 to flip
    drain_by_wrong_slaps(g, 1)  # seat 1 hands all 17 cards to seat 0
    assert cards(g) == [34, 0, 17]
    assert g.view(None)["turn"] == 2
    g.apply(Flip(2))
    assert g.view(None)["turn"] == 0
    g.apply(Flip(0))
    assert g.view(None)["turn"] == 2


# -- J3 ---------------------------------------------------------------------------------------


def test_j3_the_player_who_just_flipped_may_slap_their_own_jack() -> None:
    g = game(2, {0: ["JS"], 1: ["2H"]})
    g.apply(Flip(0))
    events = g.apply(Slap(0, at=1))
    assert [e.type for e in events] == ["take"]
    assert cards(g) == [26, 26]
    assert g.view(None)["turn"] == 0


def test_j3_the_earlier_slap_wins_and_the_later_one_costs_nothing() -> None:
    g = game(3, {0: ["JS"], 1: ["2H"], 2: ["3H"]})
    g.apply(Flip(0))
    g.apply(Slap(2, at=1))
    before = cards(g)
    events = g.apply(Slap(1, at=1))
    assert [e.type for e in events] == ["slap_ignored"]
    assert cards(g) == before == [17, 17, 18]


# -- J4 ---------------------------------------------------------------------------------------


def test_j4_a_jack_takes_the_whole_pile_buried_jacks_and_penalty_cards_too() -> None:
    g = game(3, {0: ["JS", "9C"], 1: ["5H", "8C"], 2: ["JH"]})
    g.apply(Flip(0))  # JS
    g.apply(Flip(1))  # 5H buries JS
    g.apply(Slap(1, at=2))  # seat 1 slaps its own 5H: its 8C goes face down under the pile
    assert g.pile[0] == "8C"
    g.apply(Flip(2))  # JH
    events = g.apply(Slap(0, at=3))
    assert events[0].public() == {"type": "take", "player": 0, "cards": 4, "reason": "jack"}
    assert sorted(list(g.stacks[0])[-4:]) == sorted(["JS", "5H", "8C", "JH"])


def test_j4_a_stacked_shuffle_that_does_not_match_the_pile_is_a_bad_record() -> None:
    g = game(2, {0: ["JS"], 1: ["2H"]}, shuffles=[["JH"]])
    g.apply(Flip(0))
    with pytest.raises(RecordError, match="shuffle 0 must hold exactly"):
        g.apply(Slap(1, at=1))


def test_j4_pile_goes_shuffled_under_the_winners_stack_and_the_winner_flips_next() -> None:
    g = game(3, {0: ["JS", "9C"], 1: ["5H", "8C"], 2: ["JH"]},
             shuffles=[["JH", "8C", "5H", "JS"]])
    g.apply(Flip(0))
    g.apply(Flip(1))
    g.apply(Slap(1, at=2))
    g.apply(Flip(2))
    g.apply(Slap(0, at=3))
    assert list(g.stacks[0])[-4:] == ["JH", "8C", "5H", "JS"]
    assert g.pile == [] and g.view(None)["turn"] == 0
    assert cards(g) == [18 - 1 + 4, 17 - 2, 17 - 1]


def test_j4_a_covered_jack_can_no_longer_be_slapped() -> None:
    g = game(2, {0: ["JS"], 1: ["5H"]})
    g.apply(Flip(0))
    g.apply(Flip(1))
    events = g.apply(Slap(0, at=2))
    assert [e.type for e in events] == ["wrong_slap"]
    assert cards(g) == [24, 26]


# -- J5 ---------------------------------------------------------------------------------------


def test_j5_slapping_an_empty_pile_does_nothing() -> None:
    g = game(2, {0: ["2H"], 1: ["3H"]})
    before = snapshot(g)
    events = g.apply(Slap(1))
    assert [e.public()["reason"] for e in events] == ["empty"]
    assert json.loads(snapshot(g))[2:] == json.loads(before)[2:]


def test_j5_wrong_slap_gives_your_top_card_to_the_player_who_played_the_card() -> None:
    g = game(2, {0: ["2H"], 1: ["QS", "4D"]})
    g.apply(Flip(0))
    events = g.apply(Slap(1, at=1))
    assert events[0].public()["to"] == 0
    assert g.stacks[0][-1] == "QS"  # under their stack
    assert g.stacks[1][0] == "4D"
    assert cards(g) == [26, 25]


def test_j5_wrong_slap_on_your_own_card_goes_face_down_under_the_pile() -> None:
    g = game(2, {0: ["KH", "7D"], 1: ["3H"]})
    g.apply(Flip(0))
    g.apply(Slap(0, at=1))
    assert g.pile == ["7D", "KH"]
    assert g.view(None)["top"] == "KH" and g.view(None)["pile"] == 2
    assert cards(g) == [24, 26]


def test_j5_wrong_slap_with_no_cards_puts_you_out() -> None:
    g = game(3, {0: ["2H"], 1: ["3H"], 2: ["4H"]})
    g.apply(Flip(0))
    drain_by_wrong_slaps(g, 1)
    events = g.apply(Slap(1, at=1))
    assert [e.type for e in events] == ["wrong_slap", "out"]
    assert g.view(None)["players"][1]["out"]
    with pytest.raises(IllegalAction, match="out of the game"):
        g.apply(Slap(1))


def test_j5_wrong_slap_on_the_card_of_a_player_who_is_out_goes_under_the_pile() -> None:
    g = game(3, {0: ["2H"], 1: NO_JACKS_17, 2: ["4H"]})
    g.apply(Flip(0))
    drain_by_wrong_slaps(g, 1, leave=1)
    g.apply(Flip(1))  # seat 1's last card, not a Jack
    g.apply(Slap(1, at=2))  # no cards and a wrong slap: seat 1 is out
    assert g.view(None)["players"][1]["out"] and g.top_player == 1
    before = cards(g)
    g.apply(Slap(2, at=2))
    assert cards(g) == [before[0], 0, before[2] - 1]
    assert g.view(None)["pile"] == 3


# -- J6 ---------------------------------------------------------------------------------------


def test_j6_a_slap_aimed_at_a_card_no_longer_on_top_is_ignored() -> None:
    g = game(2, {0: ["JS"], 1: ["2H"]})
    g.apply(Flip(0))
    g.apply(Flip(1))  # the Jack is covered before seat 0's slap arrives
    events = g.apply(Slap(0, at=1))
    assert [e.public() for e in events] == [
        {"type": "slap_ignored", "player": 0, "at": 1, "reason": "stale"}]
    assert cards(g) == [25, 25]


def test_j6_a_slap_without_at_is_aimed_at_the_top_card() -> None:
    g = game(2, {0: ["2S"], 1: ["JD"]})
    g.apply(Flip(0))
    g.apply(Flip(1))
    assert [e.type for e in g.apply(Slap(0))] == ["take"]


def test_j6_an_at_beyond_the_flips_made_is_refused() -> None:
    g = game(2, {0: ["2S"], 1: ["JD"]})
    g.apply(Flip(0))
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="'at' is 2 but 1 cards"):
        g.apply(Slap(1, at=2))
    with pytest.raises(IllegalAction):
        g.apply(Slap(1, at=-1))
    assert snapshot(g) == before


# -- J7 ---------------------------------------------------------------------------------------


def two_players_with_seat_1_waiting(next_cards: Sequence[str]) -> Slapjack:
    """Seat 0 flips 2H, seat 1 hands all its cards over and waits; seat 0 flips on alone."""
    g = game(2, {0: ["2H", *next_cards]})
    g.apply(Flip(0))
    drain_by_wrong_slaps(g, 1)
    assert g.view(None)["players"][1] == {"cards": 0, "out": False, "waiting": True}
    assert g.view(None)["turn"] == 0
    return g


def test_j7_a_waiting_player_who_slaps_the_next_jack_first_is_back_in() -> None:
    g = two_players_with_seat_1_waiting(["5C", "JC"])
    g.apply(Flip(0))
    g.apply(Flip(0))
    g.apply(Slap(1, at=3))
    assert cards(g) == [49, 3] and g.outcome is None
    assert g.view(None)["turn"] == 1


def test_j7_a_waiting_player_is_out_when_another_player_takes_the_jack() -> None:
    g = two_players_with_seat_1_waiting(["JC"])
    g.apply(Flip(0))
    events = g.apply(Slap(0, at=2))
    assert [e.type for e in events] == ["take", "out", "win"]
    assert g.outcome is not None and g.outcome.winner == 0


def test_j7_a_waiting_player_is_out_when_the_jack_gets_covered() -> None:
    g = two_players_with_seat_1_waiting(["JC", "4C"])
    g.apply(Flip(0))
    events = g.apply(Flip(0))
    assert [e.type for e in events] == ["out", "flip", "win"]
    assert g.outcome is not None
    assert g.outcome.termination is SlapjackTermination.LAST_PLAYER_STANDING


def test_j7_a_player_who_receives_a_penalty_card_is_no_longer_waiting() -> None:
    g = game(3, {0: ["2H", "JC", "4C"], 1: NO_JACKS_17, 2: ["5H"]})
    g.apply(Flip(0))
    drain_by_wrong_slaps(g, 1, leave=1)
    g.apply(Flip(1))  # seat 1 flips its last card, 8C, and is waiting
    assert g.view(None)["players"][1]["waiting"]
    g.apply(Slap(2, at=2))  # seat 2 slaps seat 1's 3H: its top card goes to seat 1
    assert g.view(None)["players"][1] == {"cards": 1, "out": False, "waiting": False}
    g.apply(Flip(2))
    g.apply(Flip(0))  # JC
    g.apply(Flip(1))  # seat 1 covers the Jack with its card: it was not waiting, stays in
    assert not g.view(None)["players"][1]["out"]


def test_j7_a_waiting_players_own_last_flip_being_a_jack_is_their_last_chance() -> None:
    g = game(3, {0: ["2H"], 1: ["3H"], 2: ["5H"]})
    g.apply(Flip(0))
    drain_by_wrong_slaps(g, 1, leave=1)
    assert is_jack(g.stacks[1][0])  # the filler puts the Jacks at the bottom of the stacks
    g.apply(Flip(1))
    g.apply(Slap(1, at=2))
    assert cards(g)[1] == 2 and not g.view(None)["players"][1]["out"]


# -- J8 ---------------------------------------------------------------------------------------


def test_j8_nobody_can_flip_and_no_jack_on_top_the_last_flipper_takes_the_pile() -> None:
    g = two_players_with_seat_1_waiting([])
    for _ in range(51):  # seat 0 slaps its own 2H until its stack is empty
        g.apply(Slap(0, at=1))
    # Nobody holds a card and 2H is on top: seat 0, who flipped it, took the pile.
    assert cards(g) == [52, 0]
    assert g.view(None)["turn"] == 0 and g.pile == []
    assert g.view(None)["players"][1]["waiting"]  # seat 1 keeps waiting
    assert g.events[-1].public() == {"type": "take", "player": 0, "cards": 52,
                                     "reason": "no_cards"}


def test_j8_nobody_can_flip_and_a_jack_on_top_waits_for_the_first_slap() -> None:
    g = game(2, {0: ["2H"]})
    g.apply(Flip(0))
    drain_by_wrong_slaps(g, 1)
    # Seat 0's stack now ends with seat 1's cards; its bottom card is seat 1's bottom Jack.
    assert is_jack(g.stacks[0][-1])
    drain_by_wrong_slaps(g, 0, leave=1)
    g.apply(Flip(0))  # seat 0 turns its last card, a Jack: nobody has a card
    assert g.view(None)["turn"] is None
    with pytest.raises(IllegalAction, match="waits to be slapped"):
        g.apply(Flip(0))
    events = g.apply(Slap(1, at=g.flips))
    assert [e.type for e in events] == ["take", "out", "win"]
    assert g.outcome is not None and g.outcome.winner == 1


# -- J9 ---------------------------------------------------------------------------------------


def test_j9_the_last_player_in_wins_and_the_game_refuses_further_actions() -> None:
    g = two_players_with_seat_1_waiting(["JC"])
    g.apply(Flip(0))
    g.apply(Slap(0, at=2))
    assert g.outcome is not None and g.outcome.winner == 0
    assert g.view(None)["winner"] == 0 and g.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="game is over"):
        g.apply(Flip(0))


def test_j9_with_three_players_the_game_goes_on_until_one_is_left() -> None:
    g = game(3, {0: ["2H", "JC"], 1: ["3H"], 2: ["4H", "5C"]})
    g.apply(Flip(0))
    drain_by_wrong_slaps(g, 1)
    g.apply(Flip(2))
    g.apply(Flip(0))  # JC
    g.apply(Slap(2, at=3))
    assert g.view(None)["players"][1]["out"] and g.outcome is None


# -- G1 G2 G3 -----------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [
    Flip(0), Slap(1, at=5), Slap(7), Flip(-1)])
def test_g1_an_illegal_action_is_refused_with_a_reason_and_changes_nothing(bad: Flip) -> None:
    g = game(2, {0: ["JS"], 1: ["2H"]})
    g.apply(Flip(0))
    before, events = snapshot(g), list(g.events)
    with pytest.raises(IllegalAction) as err:
        g.apply(bad)
    assert str(err.value).startswith(f"seat {bad.player} cannot {bad.type}: ")
    assert snapshot(g) == before and g.events == events


def test_g1_a_malformed_action_object_is_refused_and_changes_nothing() -> None:
    g = game(2, {0: ["JS"], 1: ["2H"]})
    before = snapshot(g)
    for obj in ({"type": "dance", "player": 0}, {"type": "slap", "player": "0"},
                {"type": "slap", "player": 0, "at": "1"}, ["flip"], {"player": 0}):
        with pytest.raises(RecordError):
            g.apply_json(obj)
    assert snapshot(g) == before


def test_g2_a_record_replays_event_for_event_even_without_the_seed() -> None:
    g = Slapjack(3, seed=11)
    for _ in range(40):
        seat = g.view(None)["turn"]
        g.apply(Flip(seat))
        if g.view(None)["slappable"]:
            g.apply(Slap((seat + 1) % 3, at=g.flips))
    record = g.record()
    assert record["decks"] and record["shuffles"]
    again = replay(json.loads(json.dumps({**record, "seed": None})))
    assert again.events == g.events
    assert again.view(None) == g.view(None) and again.stacks == g.stacks


def test_g3_a_public_view_holds_no_card_but_the_top_one() -> None:
    g = game(2, {0: ["JS", "4S"], 1: ["2H"]})
    g.apply(Flip(0))
    g.apply(Flip(1))
    text = json.dumps(g.view(1))
    assert [c for c in standard_deck() if f'"{c}"' in text] == ["2H"]
