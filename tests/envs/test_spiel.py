"""Slabberjan and Splunk as OpenSpiel games (parlour.spiel): OpenSpiel's own checks, the
chance nodes (only what someone sees), what a seat observes and knows, resampling, the
reaction rounds, and our players as bots."""

from __future__ import annotations

import json
import random
import warnings
from collections import Counter

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402

from parlour.engine.cards import JOKER_DECK, STANDARD_DECK  # noqa: E402
from parlour.games.slabberjan import KINDS, MATADORS, PIECES  # noqa: E402
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


def deal(game, pieces, dealer: int = 0):
    """A Slabberjan state just after a deal of ``pieces`` (in the order the seats draw)."""
    state = game.new_initial_state()
    state.apply_action(dealer)
    for piece in pieces:
        state.apply_action(KINDS.index(piece))
    assert not state.is_chance_node()
    return state


def show(state, rank: str) -> None:
    """At a Splunk reveal, draws a card of ``rank``."""
    outcomes = [a for a, _ in state.chance_outcomes() if JOKER_DECK[a][0] == rank]
    state.apply_action(outcomes[0])


def sampler(seed: int):
    rng = random.Random(seed)
    return rng.random


# -- OpenSpiel's own random-simulation test (clone, serialize, observations, returns) --------

@pytest.mark.parametrize("params", [
    {"players": 2}, {"players": 4}, {"players": 5, "free_choice": True, "chips": 1},
    {"players": 3, "information": "history"}, {"players": 42, "chips": 1},
    {"players": 2, "variant": "small"}, {"players": 5, "variant": "medium", "free_choice": True},
    {"players": 12, "variant": "small", "chips": 1},
    {"players": 2, "variant": "small", "max_turns": 2, "cut": "lead"},
])
def test_slabberjan_passes_openspiels_random_simulation_test(params):
    game = pyspiel.load_game("parlour_slabberjan", params)
    pyspiel.random_sim_test(game, num_sims=2 if params["players"] < 42 else 1,
                            serialize=True, verbose=False)


@pytest.mark.parametrize("params", [{"jokers": False}, {"jokers": True, "max_turns": 500},
                                    {"information": "history", "max_turns": 400},
                                    {"variant": "small"},
                                    {"variant": "small", "jokers": True, "cut": "lead",
                                     "max_turns": 30}])
def test_splunk_passes_openspiels_random_simulation_test(params):
    # random play slaps wrongly a lot, so random games run long (a median of about 600
    # decisions): one to its end, others cut short as a draw
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
    with pytest.raises(Exception, match="information must be one of compact, history"):
        pyspiel.load_game("parlour_splunk", {"information": "everything"})


# -- explicit chance: only what someone sees ------------------------------------------------

def test_a_slabberjan_deal_is_one_chance_node_per_seat_with_the_right_odds():
    game = pyspiel.load_game("parlour_slabberjan", {"players": 3})
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(2)  # seat 2 deals first: seat 0 draws the first piece
    state.apply_action(KINDS.index("fool"))
    odds = dict(state.chance_outcomes())
    assert odds[KINDS.index("fool")] == pytest.approx(1 / 41)  # one fool left of 41
    assert odds[KINDS.index("knight")] == pytest.approx(2 / 41)
    state.apply_action(KINDS.index("fool"))
    assert KINDS.index("fool") not in dict(state.chance_outcomes())
    state.apply_action(KINDS.index("7"))
    # three nodes, not 42: the bag is nobody's, so nothing of it is drawn yet
    assert not state.is_chance_node()
    assert state.parlour.hands == ["fool", "fool", "7"]
    assert Counter(state.parlour.bag_left) == Counter(PIECES) - Counter(["fool", "fool", "7"])


def test_a_dealers_draw_is_a_chance_node_over_the_bag_and_again_after_an_inn():
    game = pyspiel.load_game("parlour_slabberjan", {"players": 2, "chips": 2})
    # seat 1 draws first (dealer 0): it holds a 5, the dealer a 3
    state = deal(game, ["5", "3"])
    state.apply_action(0)  # seat 1 swaps: the dealer now holds the 5, seat 1 the 3
    assert state.legal_actions() == [1, 2] and state.current_player() == 0
    state.apply_action(2)  # the dealer draws
    assert state.is_chance_node()
    odds = dict(state.chance_outcomes())  # the 40 pieces of the bag
    assert sum(odds.values()) == pytest.approx(1)
    assert odds[KINDS.index("5")] == pytest.approx(1 / 40)
    assert odds[KINDS.index("inn")] == pytest.approx(2 / 40)
    state.apply_action(KINDS.index("inn"))  # an inn is set aside: the next piece is drawn
    assert state.is_chance_node()
    assert dict(state.chance_outcomes())[KINDS.index("inn")] == pytest.approx(1 / 39)
    state.apply_action(KINDS.index("12"))
    # the round is over and the next deal is drawn, seat by seat
    assert state.is_chance_node() and len(state.chance_outcomes()) == len(KINDS)
    state.apply_action(KINDS.index("1"))
    state.apply_action(KINDS.index("2"))
    assert state.parlour.reveal["pieces"] == ["12", "3"]  # the 3 paid
    assert state.parlour.chips == [2, 1] and state.parlour.hands == ["1", "2"]  # seat 1 deals now
    assert state.parlour.dealer == 1
    # and the record replays to the same game
    from parlour.games.slabberjan import Slabberjan

    record = state.table.record()
    replay = Slabberjan(2, options=record["options"], decks=record["decks"])
    for action in state.table.actions:
        replay.apply(action)
    assert replay.view(None) == state.parlour.view(None)


def test_splunk_draws_nothing_at_the_deal_and_a_card_when_it_is_turned_over():
    game = pyspiel.load_game("parlour_splunk", {"jokers": True})
    state = game.new_initial_state()
    state.apply_action(1)  # seat 1 plays first
    assert not state.is_chance_node() and state.current_player() == 1
    state.apply_action(3)  # a play on stack 2: its card is drawn now, by rank
    odds = state.chance_outcomes()
    assert len(odds) == 14  # 13 ranks and the jokers
    assert sorted(p for _, p in odds) == pytest.approx(sorted([4 / 54] * 13 + [2 / 54]))
    show(state, "X")
    assert state.parlour.stacks[2][-1][0] == "X"  # a joker, face up
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(0)
    state.apply_action(PASS)
    state.apply_action(PASS)
    state.apply_action(1)  # seat 0 plays: 53 cards left unseen, one joker among them
    assert dict((JOKER_DECK[a][0], p) for a, p in state.chance_outcomes())["X"] == \
        pytest.approx(1 / 53)


def test_a_splunk_card_seen_before_is_no_chance_node_when_it_comes_up_again():
    """Seat 1 calls seat 0's play and loses: the stack (base included, now seen) goes under
    its pile; when those cards come up again they are known, not drawn."""
    game = pyspiel.load_game("parlour_splunk")
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)  # seat 0 plays on stack 0
    show(state, "2")
    state.apply_action(1)  # seat 1 reacts first
    state.apply_action(CALL)  # a call turns the base over: drawn now
    assert state.is_chance_node() and len(state.chance_outcomes()) == 13
    show(state, "3")  # 3 + 2 = 5: not over 21, the caller takes the stack
    assert state.parlour.view(None)["players"][1]["cards"] == 24 + 2
    pile = state.parlour.piles[1]
    assert [c[0] for c in list(pile)[-2:]] == ["3", "2"]
    info = state.information_state_string(0)
    # every card but those two is unseen: 46 in the piles, the 4 bases (the new one too)
    assert info.count('"?"') == 50 and '"3' in info
    # play seat 1's pile down to those two cards (seat 0 slaps wrongly whenever it may,
    # which takes it stacks and makes seat 1 lay bases): they come up with no chance node
    rng = random.Random(0)
    while len(state.parlour.piles[1]) > 2:
        assert not state.is_terminal()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.current_player() == 0 and state.legal_actions()[0] == PASS:
            state.apply_action(SLAPS[rng.randrange(4)])
        elif state.legal_actions()[0] == PASS:
            state.apply_action(PASS)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert [c[0] for c in state.parlour.piles[1]] == ["3", "2"]
    while state.is_chance_node() or state.current_player() != 1 or \
            state.legal_actions()[0] == PASS:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node()
                           else PASS if state.legal_actions()[0] == PASS
                           else state.legal_actions()[0])
    state.apply_action(2)  # seat 1 plays its known 3 on stack 1: nothing to draw
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert state.parlour.stacks[1][-1][0] == "3"


@pytest.mark.slow
def test_outcome_sampling_mccfr_runs_10000_iterations_of_full_slabberjan_without_a_warning():
    """A deal is a node per seat (not 42), so a game's chance reach stays far inside a
    float: the average-strategy updates divide by it."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = pyspiel.load_game("parlour_slabberjan", {"players": 2, "chips": 1})
    np.random.seed(7)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    # every warning an error, numpy's overflow and underflow too
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(10_000):
            solver.iteration()
    policy = solver.average_policy()
    state = play_out(game.new_initial_state(), random.Random(3),
                     until=lambda s: not s.is_chance_node() and len(s.legal_actions()) > 1)
    probs = policy.action_probabilities(state)
    assert sum(probs.values()) == pytest.approx(1) and all(np.isfinite(list(probs.values())))


# -- the small variant, solved exactly ---------------------------------------------------------

def test_one_round_of_small_slabberjan_solves_exactly_and_measures_our_players():
    """The whole tree, walked once through the rules into EFG, solved by OpenSpiel's C++
    CFRSolver; Normal keeps the fool at two seats (a fool makes both pay), which took its
    exploitability from 0.19 (worse than uniform random, 0.10) to Hard's."""
    from open_spiel.python import policy as policies
    from open_spiel.python.algorithms import exploitability

    from parlour.spiel.bots import bot_policy
    from parlour.spiel.efg import export

    game = pyspiel.load_game("parlour_slabberjan", {
        "players": 2, "chips": 1, "variant": "small", "free_choice": True, "max_turns": 2,
        "cut": "lead"})
    tree = export(game)
    efg = pyspiel.load_efg_game(tree.text)
    assert 10_000 < tree.nodes < 20_000
    solver = pyspiel.CFRSolver(efg)
    for _ in range(100):
        solver.evaluate_and_update_policy()
    assert pyspiel.nash_conv(efg, solver.average_policy()) < 0.005
    uniform = exploitability.nash_conv(efg, policies.UniformRandomPolicy(efg))
    normal = exploitability.nash_conv(efg, bot_policy(efg, tree, "normal", samples=2))
    assert normal < uniform / 4
    # a cut game is scored by chips: the seat that paid alone lost
    state = play_out(game.new_initial_state(), random.Random(2))
    chips = state.parlour.chips
    assert state.returns() == ([0.0, 0.0] if chips[0] == chips[1] else
                               [1.0, -1.0] if chips[0] > chips[1] else [-1.0, 1.0])


# -- what a seat observes and knows ------------------------------------------------------------

def test_a_seat_observes_only_what_its_view_shows():
    """Two Slabberjan deals that differ only in pieces seat 0 does not hold look the same
    to seat 0 (tensor and strings), and different to the seat that holds them."""
    game = pyspiel.load_game("parlour_slabberjan", {"players": 4})
    base = ["5", "7", "cat", "fool"]  # seats 1, 2, 3, 0 draw (dealer 0)
    a, b = deal(game, base), deal(game, ["5", "9", "cat", "fool"])
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


def test_history_information_remembers_what_the_view_forgets():
    """Perfect recall: after a swap, the swapper's information state keeps the piece it
    was given even once the next deal has replaced its view."""
    game = pyspiel.load_game("parlour_slabberjan", {"players": 3, "information": "history"})
    state = play_out(game.new_initial_state(), random.Random(11),
                     until=lambda s: s.table is not None and len(s.table.decks) == 2
                     and s.table.need is None)
    first_deal = state.information_state_string(0).split("\n")
    later = play_out(state.clone(), random.Random(1),
                     until=lambda s: len(s.table.decks) == 3 and s.table.need is None)
    assert later.information_state_string(0).split("\n")[:len(first_deal)] == first_deal


def test_compact_slabberjan_information_is_the_deal_so_far_and_the_chips():
    game = pyspiel.load_game("parlour_slabberjan", {"players": 3})
    rng = random.Random(4)
    for g in range(5):
        state = play_out(game.new_initial_state(), rng,
                         until=lambda s, g=g: s.table is not None and len(s.table.decks) > 2 + g
                         and not s.is_chance_node())
        for seat in range(3):
            compact = state.information_state_string(seat).split("\n")
            told = state.history_information(seat).split("\n")
            # the events since the latest deal, as the seat was told them, are the end of
            # its whole story; before them, only the public chips, seats out, pot and turns
            deal_at = max(i for i, line in enumerate(told) if '"type":"deal"' in line)
            assert compact[2:] == told[deal_at:]
            assert json.loads(compact[1]) == {
                "chips": state.parlour.chips, "out": state.parlour.out,
                "pot": state.parlour.pot, "turns": state.turns}


def test_compact_splunk_information_is_bounded_and_tells_what_history_tells():
    """In a long game the whole history runs to tens of kilobytes; the compact string stays
    near one. It names exactly the cards seen so far, where they lie now, and no other."""
    compact = pyspiel.load_game("parlour_splunk", {"max_turns": 1500})
    rng = random.Random(9)
    state = compact.new_initial_state()
    longest = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        seat = state.current_player()
        info = state.information_state_string(seat)
        longest = max(longest, len(info))
        if state.turns % 97 == 0:
            told = state.history_information(seat)
            seen = set()
            for line in told.split("\n"):
                if '"type":"play"' in line or '"type":"call"' in line:
                    seen.update(c for c in JOKER_DECK if f'"{c}"' in line)
            shown = {c for c in JOKER_DECK if f'"{c}"' in info}
            assert shown == seen  # every card seen, and only those
            game = state.parlour
            hidden = sum(c not in seen for pile in game.piles for c in pile) + sum(
                1 for s in game.stacks if s and s[0] not in seen)
            assert info.count('"?"') == hidden
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.turns > 800
    assert longest < 2_000
    assert len(state.history_information(0)) > 20_000


def test_splunk_information_is_the_same_whatever_the_unseen_cards_are():
    """Two games that differ only in cards nobody has seen (a stand-in swapped with
    another) tell both seats the same, in every observation and information state."""
    game = pyspiel.load_game("parlour_splunk")
    state = play_out(game.new_initial_state(), random.Random(2),
                     until=lambda s: not s.is_chance_node() and s.turns > 60)
    unseen = [c for c in state.table.decks[0] if c not in state.seen]
    assert len(unseen) > 10
    deck = list(state.table.decks[0])
    i, j = deck.index(unseen[0]), deck.index(unseen[-1])
    deck[i], deck[j] = deck[j], deck[i]
    other = state.clone()
    other.table = state.table.rebuilt([deck])
    assert [list(p) for p in other.parlour.piles] != [list(p) for p in state.parlour.piles] \
        or other.parlour.stacks != state.parlour.stacks
    for seat in (0, 1):
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_tensor(seat) == state.observation_tensor(seat)
        assert other.legal_actions(seat) == state.legal_actions(seat)


# -- resampling (IS-MCTS) --------------------------------------------------------------------

@pytest.mark.parametrize("params", [{"players": 4}, {"players": 5, "free_choice": True}])
def test_slabberjan_resamples_agree_with_what_the_seat_knows(params):
    game = pyspiel.load_game("parlour_slabberjan", params)
    rng = random.Random(6)
    moved = checked = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            for seat in range(game.num_players()):
                sample = state.resample_from_infostate(seat, sampler(checked))
                checked += 1
                assert sample.information_state_string(seat) == \
                    state.information_state_string(seat)
                assert sample.history_information(seat) == state.history_information(seat)
                assert sample.observation_tensor(seat) == state.observation_tensor(seat)
                assert sample.current_player() == state.current_player()
                if seat == state.current_player():  # another seat's depend on its piece
                    assert sample.legal_actions() == state.legal_actions()
                moved += sample.parlour.hands != state.parlour.hands
                assert sample.parlour.hands[seat] == state.parlour.hands[seat]
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 100 and moved > checked // 2
    # and a resampled world plays on by the rules to an end
    sample = play_out(game.new_initial_state(), random.Random(1),
                      until=lambda s: not s.is_chance_node() and s.turns > 3)
    play_out(sample.resample_from_infostate(0, sampler(1)), random.Random(2))


def test_slabberjan_resamples_deal_the_hidden_pieces_by_their_chances():
    """At the start of a deal seat 0 knows its own piece only: every other seat's piece is
    drawn from the other 41 as the deal draws it (a fool 1 time in 41, a 7 twice)."""
    game = pyspiel.load_game("parlour_slabberjan", {"players": 4})
    state = deal(game, ["5", "7", "9", "fool"])  # dealer 0: seat 0 holds the fool
    counts: Counter[str] = Counter()
    n = 4000
    for k in range(n):
        counts[state.resample_from_infostate(0, sampler(k)).parlour.hands[2]] += 1
    assert counts["fool"] / n == pytest.approx(1 / 41, abs=0.012)
    assert counts["7"] / n == pytest.approx(2 / 41, abs=0.015)
    assert counts["knight"] / n == pytest.approx(2 / 41, abs=0.015)


def test_a_forced_stand_tells_every_seat_its_holder_has_a_matador():
    game = pyspiel.load_game("parlour_slabberjan", {"players": 4})
    state = deal(game, ["cat", "7", "9", "fool"])  # seat 1 holds the cat: it must stand
    state.apply_action(1)
    assert state.parlour.history[-1].type == "stand"
    pieces = {state.resample_from_infostate(3, sampler(k)).parlour.hands[1] for k in range(60)}
    assert pieces and pieces <= MATADORS and len(pieces) > 1


def test_splunk_resamples_are_the_state_itself():
    """Every card drawn so far has been seen by both seats; the rest are drawn when they are
    turned over: a state hides nothing to resample."""
    game = pyspiel.load_game("parlour_splunk")
    state = play_out(game.new_initial_state(), random.Random(3),
                     until=lambda s: not s.is_chance_node() and s.turns > 30)
    sample = state.resample_from_infostate(0, sampler(1))
    assert str(sample) == str(state)
    play_out(sample, random.Random(5))
    assert sample.is_terminal() and not state.is_terminal()


def test_information_set_mcts_plays_a_whole_game_of_slabberjan():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("parlour_slabberjan", {"players": 3, "chips": 1,
                                                    "free_choice": True})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1,
                                            random_state=np.random.RandomState(0))
    searcher = ismcts.ISMCTSBot(game, evaluator, uct_c=1.5, max_simulations=30,
                                max_world_samples=4, random_state=np.random.RandomState(1),
                                use_observation_string=False,
                                allow_inconsistent_action_sets=False)
    bots = [searcher, ParlourBot(game, 1, "hard", seed=1), ParlourBot(game, 2, "easy", seed=2)]
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        seat = state.current_player()
        searched += seat == 0 and len(state.legal_actions()) > 1
        state.apply_action(int(bots[seat].step(state)))
    assert searched > 0 and sorted(state.returns()) == [-0.5, -0.5, 1.0]


# -- the reaction rounds --------------------------------------------------------------------

def test_a_play_opens_a_reaction_round_with_a_fair_race():
    game = pyspiel.load_game("parlour_splunk")
    state = game.new_initial_state()
    state.apply_action(0)
    assert state.legal_actions() == [1, 2, 3, 4]  # seat 0's turn: a play only
    state.apply_action(2)  # on stack 1
    show(state, "5")
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
        state = game.new_initial_state()
        state.apply_action(0)
        state.apply_action(2)  # seat 0: a 5 on stack 1
        show(state, "5")
        state.apply_action(0)  # race
        state.apply_action(PASS)
        state.apply_action(PASS)
        state.apply_action(2)  # seat 1: another 5 on stack 1, a pair
        show(state, "5")
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


def test_a_whole_game_replays_from_the_tables_record():
    """Cards drawn as they are seen are written into the record where they lie: the
    record replays to the same game, event for event."""
    from parlour.games import GAMES

    for name in ("parlour_splunk", "parlour_slabberjan"):
        state = play_out(pyspiel.load_game(name).new_initial_state(), random.Random(4))
        record = state.table.record()
        cls = GAMES[record["game"]]
        replay = cls(record["players"], options=record["options"], decks=record["decks"],
                     shuffles=record["shuffles"])
        for action in state.table.actions:
            replay.apply(action)
        assert replay.events == state.parlour.events
        assert state.parlour.record()["decks"] == record["decks"]
        assert sorted(record["decks"][0]) == sorted(
            STANDARD_DECK if name == "parlour_splunk" else PIECES)


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
