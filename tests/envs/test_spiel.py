"""Slabberjan and Splunk as OpenSpiel games (parlour.spiel): OpenSpiel's own checks, the
chance nodes, what a seat observes, the reaction rounds, and our players as bots."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402

from parlour.engine.cards import JOKER_DECK, STANDARD_DECK  # noqa: E402
from parlour.games.slabberjan import KINDS, PIECES  # noqa: E402
from parlour.spiel import ParlourBot  # noqa: E402
from parlour.spiel.splunk import CALL, PASS, SLAPS  # noqa: E402


def play_out(state, rng: random.Random, until=lambda s: False):
    """Random legal moves (chance by its probabilities) until the end or ``until``."""
    while not state.is_terminal() and not until(state):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def deal(game, order, seat: int = 0):
    """A state just after the deal of ``order`` (card names), ``seat`` drawn first."""
    state = game.new_initial_state()
    state.apply_action(seat)
    alphabet = type(state).alphabet
    for card in order:
        state.apply_action(list(alphabet).index(card))
    return state


# -- OpenSpiel's own random-simulation test (clone, serialize, observations, returns) --------

@pytest.mark.parametrize("params", [
    {"players": 2}, {"players": 4}, {"players": 5, "free_choice": True, "chips": 1},
    {"players": 42, "chips": 1},
])
def test_slabberjan_passes_openspiels_random_simulation_test(params):
    game = pyspiel.load_game("parlour_slabberjan", params)
    pyspiel.random_sim_test(game, num_sims=2 if params["players"] < 42 else 1,
                            serialize=True, verbose=False)


@pytest.mark.parametrize("params", [{"jokers": False}, {"jokers": True, "max_turns": 500}])
def test_splunk_passes_openspiels_random_simulation_test(params):
    # random play slaps wrongly a lot, so random games run long (a median of about 600
    # decisions): one to its end, one cut short as a draw
    game = pyspiel.load_game("parlour_splunk", params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_game_types_say_what_the_games_are():
    for name, players in (("parlour_slabberjan", (2, 42)), ("parlour_splunk", (2, 2))):
        kind = pyspiel.load_game(name).get_type()
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
        assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert (kind.min_num_players, kind.max_num_players) == players


def test_bad_parameters_are_refused_with_the_rules_reason():
    with pytest.raises(Exception, match="2 to 42 players"):
        pyspiel.load_game("parlour_slabberjan", {"players": 43})
    with pytest.raises(Exception, match="chips"):
        pyspiel.load_game("parlour_slabberjan", {"chips": 0})


# -- explicit chance ------------------------------------------------------------------------

def test_slabberjan_deals_piece_by_piece_with_the_right_odds():
    game = pyspiel.load_game("parlour_slabberjan", {"players": 3})
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(2)  # seat 2 deals first: seat 0 gets the first piece
    state.apply_action(KINDS.index("fool"))
    odds = dict(state.chance_outcomes())
    assert odds[KINDS.index("fool")] == pytest.approx(1 / 41)  # one fool left of 41
    assert odds[KINDS.index("knight")] == pytest.approx(2 / 41)
    order = ["fool"] + [p for p in PIECES if p != "fool"] + ["fool"]
    for piece in order[1:]:
        assert state.is_chance_node()
        state.apply_action(KINDS.index(piece))
    assert not state.is_chance_node()
    game_state = state.parlour
    assert game_state.dealer == 2 and game_state.hands[:3] == ["fool", "knight", "knight"]
    assert game_state.bag_left == order[3:]  # the rest of the deal is the bag, in order


def test_each_new_deal_is_a_run_of_chance_nodes_where_the_rules_deal():
    game = pyspiel.load_game("parlour_slabberjan", {"players": 3})
    state = play_out(game.new_initial_state(), random.Random(5),
                     until=lambda s: s.table is not None and len(s.table.decks) == 1
                     and s.table.need is not None)
    # the action that ended the round is waiting for the next deal; the game is as
    # before it, and nothing is dealt from the rules' own generator
    assert state.is_chance_node() and len(state.chance_outcomes()) == len(KINDS)
    assert state.table.pending is not None and state.table.game.deals == 1
    rounds = state.table.game.round
    for _ in range(len(PIECES)):
        state.apply_action(state.chance_outcomes()[0][0])  # the highest piece left each time
    assert state.table.pending is None and state.table.game.deals == 2
    assert state.table.game.round == rounds + 1
    assert state.table.decks[1] == sorted(PIECES, key=KINDS.index)


def test_splunk_deals_the_cards_drawn_one_at_a_time():
    game = pyspiel.load_game("parlour_splunk", {"jokers": True})
    state = game.new_initial_state()
    state.apply_action(1)  # seat 1 plays first
    assert len(state.chance_outcomes()) == 54
    order = list(reversed(JOKER_DECK))
    for i, card in enumerate(order):
        assert dict(state.chance_outcomes()) == pytest.approx(
            {JOKER_DECK.index(c): 1 / (54 - i) for c in order[i:]})
        state.apply_action(JOKER_DECK.index(card))
    assert state.current_player() == 1
    assert state.parlour.stacks == [["X2"], ["KC"], ["X1"], ["QC"]]  # P2's four bases


# -- what a seat observes --------------------------------------------------------------------

def test_a_seat_observes_only_what_its_view_shows():
    """Two Slabberjan deals that differ only in pieces seat 0 does not hold look the same
    to seat 0 (tensor and strings), and different to the seat that holds them."""
    game = pyspiel.load_game("parlour_slabberjan", {"players": 4})
    base = list(PIECES)
    other = list(base)
    other[1], other[5] = other[5], other[1]  # seat 2's piece and a piece in the bag
    a, b = deal(game, base), deal(game, other)
    assert a.parlour.hands != b.parlour.hands
    for seat, same in ((0, True), (1, True), (3, True), (2, False)):
        assert (a.observation_tensor(seat) == b.observation_tensor(seat)) is same
        assert (a.observation_string(seat) == b.observation_string(seat)) is same
        assert (a.information_state_string(seat)
                == b.information_state_string(seat)) is same


def test_the_observation_tensor_is_the_environments_codec_of_the_view():
    from parlour.envs.encoding import CODECS

    game = pyspiel.load_game("parlour_slabberjan", {"players": 4})
    state = play_out(game.new_initial_state(), random.Random(2),
                     until=lambda s: not s.is_chance_node() and s.table.actions)
    seat = state.current_player()
    view = state.parlour.view(seat)
    expected = CODECS["slabberjan"].encode(view, (), seat, 4, state.parlour.options)
    assert np.array_equal(np.array(state.observation_tensor(seat), np.float32), expected)
    mask = CODECS["slabberjan"].mask(view)
    assert state.legal_actions() == [i for i in range(3) if mask[i]]


def test_information_state_remembers_what_the_view_forgets():
    """Perfect recall: after a swap, the swapper's information state keeps the piece it
    was given even once the next deal has replaced its view."""
    game = pyspiel.load_game("parlour_slabberjan", {"players": 3})
    state = play_out(game.new_initial_state(), random.Random(11),
                     until=lambda s: s.table is not None and len(s.table.decks) == 2
                     and s.table.need is None)
    first_deal = state.information_state_string(0).split("\n")
    later = play_out(state.clone(), random.Random(1),
                     until=lambda s: len(s.table.decks) == 3 and s.table.need is None)
    assert later.information_state_string(0).split("\n")[:len(first_deal)] == first_deal


def test_splunk_resampling_keeps_everything_seen_and_moves_the_unseen():
    game = pyspiel.load_game("parlour_splunk")
    state = play_out(game.new_initial_state(), random.Random(3),
                     until=lambda s: not s.is_chance_node() and len(s.table.actions) > 30)
    rng = random.Random(4)
    samples = [state.resample(rng) for _ in range(5)]
    for sample in samples:
        for seat in (0, 1):
            assert sample.information_state_string(seat) == state.information_state_string(seat)
            assert sample.observation_tensor(seat) == state.observation_tensor(seat)
        assert sample.legal_actions() == state.legal_actions()
    assert any(list(s.parlour.piles[0]) != list(state.parlour.piles[0]) for s in samples)
    # and a resampled state plays on by the rules to an end
    play_out(samples[0], random.Random(5))
    assert samples[0].is_terminal()


# -- the reaction rounds --------------------------------------------------------------------

def pair_deal():
    """Seat 0 plays 5H on stack 1, seat 1 answers with 5D: a pair (as splunk.py's doctest)."""
    deck = ["AS", "2S", "3S", "4S", "5H", "5D"]
    return deck + [c for c in STANDARD_DECK if c not in deck]


def test_a_play_opens_a_reaction_round_with_a_fair_race():
    game = pyspiel.load_game("parlour_splunk")
    state = deal(game, pair_deal(), seat=0)
    assert state.legal_actions() == [1, 2, 3, 4]  # seat 0's turn: a play only
    state.apply_action(2)  # 5H on stack 1
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(1)  # seat 1 is quicker
    assert state.current_player() == 1
    assert state.legal_actions() == [PASS, CALL, *SLAPS]
    state.apply_action(PASS)
    assert state.current_player() == 0 and state.legal_actions() == [PASS, *SLAPS]
    state.apply_action(PASS)  # the play stands: seat 1's turn
    assert state.current_player() == 1 and state.legal_actions() == [1, 2, 3, 4]


def test_the_quicker_seat_wins_the_slap():
    game = pyspiel.load_game("parlour_splunk")
    for quicker in (0, 1):
        state = deal(game, pair_deal(), seat=0)
        state.apply_action(2)
        state.apply_action(0)  # race
        state.apply_action(PASS)
        state.apply_action(PASS)
        state.apply_action(2)  # seat 1: 5D on stack 1, a pair
        state.apply_action(quicker)
        assert state.current_player() == quicker
        state.apply_action(SLAPS[1])
        # P5: the slapper gives the stack away (3 cards) and lays a new base; the other
        # seat plays next (each had 23 cards left)
        assert state.parlour.view(None)["players"][quicker]["cards"] == 22
        assert state.parlour.view(None)["players"][1 - quicker]["cards"] == 26
        assert state.current_player() == 1 - quicker
        assert state.legal_actions() == [1, 2, 3, 4]


def test_a_game_that_reaches_max_turns_is_a_draw():
    game = pyspiel.load_game("parlour_splunk", {"max_turns": 40})
    state = play_out(game.new_initial_state(), random.Random(1))
    assert state.is_terminal() and state.parlour.winner is None
    assert state.returns() == [0.0, 0.0]


def test_the_winner_gets_one_and_the_others_share_minus_one():
    game = pyspiel.load_game("parlour_slabberjan", {"players": 4, "chips": 1})
    state = play_out(game.new_initial_state(), random.Random(8))
    winner = state.parlour.winner
    assert winner is not None
    assert state.returns() == [1.0 if s == winner else -1 / 3 for s in range(4)]


# -- our players as OpenSpiel bots ----------------------------------------------------------

@pytest.mark.parametrize("name", ["parlour_slabberjan", "parlour_splunk"])
def test_our_players_play_whole_games_as_bots(name):
    game = pyspiel.load_game(name)
    seats = game.num_players()
    wins = Counter()
    for g in range(4):
        bots = [ParlourBot(game, s, "hard" if s == 0 else "easy", seed=10 * g + s)
                for s in range(seats)]
        returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(g))
        wins[int(np.argmax(returns))] += 1
    assert sum(wins.values()) == 4
