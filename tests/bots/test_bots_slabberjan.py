"""Slabberjan computer players: the dealer's draw-or-stand and free_choice's swap-or-stand,
on stacked deals (rulings S4, S5, S6, S8, S10)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from parlour.bots import ComputerPlayer, make_player
from parlour.bots.slabberjan import PLAYERS
from parlour.games.slabberjan import PIECES, DealerChips, Draw, Slabberjan, Stand, Swap, payers


def deck(*first: str) -> list[str]:
    rest = list(PIECES)
    for piece in first:
        rest.remove(piece)
    return list(first) + rest


def ask(bot: ComputerPlayer, game: Slabberjan) -> Any:
    """What ``bot`` does now, having been shown every event its seat has seen."""
    events = [e.seen_by(bot.seat) for e in game.events]
    decision = bot.decide(game.view(bot.seat), events)
    return None if decision is None else decision.action


def two_player_dealer(mine: str, theirs: str, options: dict[str, Any] | None = None,
                      ) -> Slabberjan:
    """Seat 1 deals; seat 0 draws ``mine``... then must swap it to the dealer (S4), so the
    dealer holds ``mine`` and knows seat 0 holds ``theirs`` (S6)."""
    game = Slabberjan(2, decks=[deck(mine, theirs)], options={"dealer": 1, **(options or {})})
    game.apply(Swap(0))
    assert game.view(1)["piece"] == mine
    return game


def test_hard_dealer_stands_when_it_knows_the_other_piece_is_lower_ruling_s6() -> None:
    # The dealer gave away a 3 and got a 5: seat 0 now holds the 3, so a 5 cannot pay.
    game = two_player_dealer("5", "3")
    assert ask(PLAYERS["hard"](1, seed=0), game) == Stand(1)
    # Normal only looks at its own piece: a 5 is below its threshold, so it draws.
    assert ask(PLAYERS["normal"](1, seed=0), game) == Draw(1)


def test_hard_dealer_draws_when_it_knows_its_piece_is_the_lowest_ruling_s8() -> None:
    # The dealer holds a 7 but knows seat 0 holds a 10: standing pays for sure, while a
    # draw wins with an 11 or a 12 and costs more only on a knight.
    game = two_player_dealer("7", "10")
    assert ask(PLAYERS["hard"](1, seed=0), game) == Draw(1)
    assert ask(PLAYERS["normal"](1, seed=0), game) == Stand(1)


def test_easy_dealer_is_close_to_a_coin_toss() -> None:
    draws = 0
    for seed in range(400):
        game = two_player_dealer("11", "12")
        draws += ask(PLAYERS["easy"](1, seed=seed), game) == Draw(1)
    assert 150 <= draws <= 250


def test_hard_dealer_draws_for_the_cat_that_gives_the_low_piece_back_ruling_s8() -> None:
    # The dealer was dealt the 12 and swapped it for seat 0's 11: standing pays for sure.
    # Only the last 12 saves a drawn plain piece, but a drawn cat undoes the swap (S5, S8):
    # the dealer pays the fine, gets its 12 back and seat 0 pays for the 11. Played out
    # with the rules, a draw costs the dealer about 36/38 of a chip more than seat 0,
    # standing a whole one: Hard draws, where pricing the draw as "my chips only" stands.
    game = two_player_dealer("11", "12")
    draws = sum(ask(PLAYERS["hard"](1, seed=seed), game) == Draw(1) for seed in range(20))
    assert draws >= 15
    assert ask(PLAYERS["normal"](1, seed=0), game) == Stand(1)  # an 11 is no piece to change


def test_a_dealer_holding_a_matador_stands_ruling_s8() -> None:
    # the dealer draws the inn: seat 0's swap is refused and comes back round (S5)
    game = Slabberjan(2, decks=[deck("3", "inn")], options={"dealer": 1})
    game.apply(Swap(0))
    assert game.view(1)["legal"] == [{"type": "stand"}]
    for level in PLAYERS:
        assert ask(PLAYERS[level](1, seed=0), game) == Stand(1)


def test_forced_turns_take_the_one_legal_action_ruling_s4() -> None:
    game = Slabberjan(3, decks=[deck("fool", "cat", "7")], options={"dealer": 2})
    for level in PLAYERS:
        assert ask(PLAYERS[level](0, seed=0), game) == Swap(0)  # below the inn: must swap
    game.apply(Swap(0))  # meow: seat 0 pays, seat 1 holds the cat
    for level in PLAYERS:
        assert ask(PLAYERS[level](1, seed=0), game) == Stand(1)  # a matador stands


def test_nobody_acts_out_of_turn() -> None:
    game = Slabberjan(3, seed=4, options={"dealer": 0})
    for level in PLAYERS:
        for seat in (0, 2):
            assert ask(PLAYERS[level](seat, seed=0), game) is None


@pytest.mark.parametrize("low", ["fool", "scary face", "white bread"])
def test_hard_swaps_a_low_piece_and_keeps_a_high_one_with_free_choice(low: str) -> None:
    game = Slabberjan(4, decks=[deck(low, "12", "5", "8")],
                      options={"dealer": 3, "free_choice": True})
    assert ask(PLAYERS["hard"](0, seed=1), game) == Swap(0)
    game = Slabberjan(4, decks=[deck("12", low, "5", "8")],
                      options={"dealer": 3, "free_choice": True})
    assert ask(PLAYERS["hard"](0, seed=1), game) == Stand(0)


def test_hard_keeps_track_of_a_piece_it_gave_away_through_later_swaps() -> None:
    # 4 players, dealer 3. Seat 0 gives its 2 to seat 1; seat 1 must pass it on to seat 2.
    game = Slabberjan(4, decks=[deck("2", "12", "10", "9")],
                      options={"dealer": 3, "free_choice": True})
    hard = PLAYERS["hard"](0, seed=0)
    ask(hard, game)
    game.apply(Swap(0))
    game.apply(Swap(1))
    ask(hard, game)
    memory = hard.memory  # type: ignore[attr-defined]
    # it knows seat 1's dealt piece (the 12 it got), and that seat 2 now holds its own 2
    assert memory.dealt == {0: "2", 1: "12"}
    assert memory.came_from[2] == 0 and memory.came_from[0] == 1


def test_what_hard_remembers_of_a_deal_is_true_and_its_samples_reach_the_table_it_sees(
        ) -> None:
    """After every move of whole seeded games, each Hard's memory of the deal against the
    hidden truth, and at each of its real choices, sampled deals replayed with the rules
    reach exactly the table it sees, each with the pieces it knows where it knows them."""
    from parlour.bots.arena import play
    from parlour.engine import Action, Event, Game
    from parlour.games.slabberjan import MATADORS

    checked = sampled = 0
    for seed, (players, free) in enumerate([(3, False), (4, True), (6, False), (6, True)]):
        game = Slabberjan(players, seed=seed, options={"free_choice": free})
        bots = [PLAYERS["hard"](s, seed=seed * 10 + s) for s in range(players)]
        # watchers: Hard players fed by the observer only, one per seat
        watchers = [PLAYERS["hard"](s, seed=seed) for s in range(players)]

        def check(now: float, action: Action, events: Sequence[Event], g: Game,
                  watchers: list[Any] = watchers, free: bool = free) -> None:
            nonlocal checked, sampled
            assert isinstance(g, Slabberjan)
            if g.winner is not None:
                return
            for bot in watchers:
                bot.observe([e.seen_by(bot.seat) for e in events])
                memory = bot.memory
                if g.out[bot.seat] or not memory.started:
                    continue
                for s, piece in memory.dealt.items():
                    assert g.dealt[s] == piece
                assert all(g.dealt[s] not in MATADORS for s in memory.plain)
                for s, hand in enumerate(g.hands):
                    if hand is not None:
                        assert hand == g.dealt[memory.came_from.get(s, s)]
                checked += 1
                view = g.view(bot.seat)
                if g.turn == bot.seat and len(view["legal"]) > 1:
                    seats = [s for s, p in enumerate(view["players"])
                             if not p["out"] or s in memory.out]
                    index = {s: i for i, s in enumerate(seats)}
                    start = Slabberjan(len(seats), decks=[PIECES], options={
                        "chips": 1, "dealer": index[view["dealer"]], "free_choice": free})
                    start.chips = [view["players"][s]["chips"] + memory.paid[s] for s in seats]
                    for _ in range(5):
                        got = bot._deal_like_this(start, seats, index, view)
                        if got is None:
                            continue
                        twin, weight = got
                        assert 0 < weight <= 1
                        assert twin.turn == index[bot.seat]
                        assert twin.hands[twin.turn] == view["piece"]
                        for s, piece in memory.dealt.items():
                            assert twin.dealt[index[s]] == piece
                        sampled += 1

        for bot in watchers:
            bot.observe([e.seen_by(bot.seat) for e in game.events])
        play(game, bots, tiebreak_seed=seed, observer=check, max_actions=400)
    assert checked > 100 and sampled > 20


def test_hard_decides_alike_whatever_the_pieces_it_cannot_have_seen() -> None:
    """Two deals that differ only in pieces a seat has not seen (the bag, and the pieces of
    two players who have not moved yet) show that seat the same events, and Hard there
    makes the same choice with the same thinking time."""
    from parlour.games.slabberjan import MATADORS

    compared = 0
    for seed in range(40):
        order = list(PIECES)
        random.Random(seed).shuffle(order)
        players = 5
        dealer = 4
        # the deal runs from seat 0 to the dealer: order[s] is seat s's piece, then the bag
        twin = list(order)
        twin[players:] = twin[players:][::-1]  # the bag, the other way up
        # seats 2 and 3 have not moved when seat 1 decides: give them each other's pieces
        # (plain ones, so that seat 1's swap meets no matador in either deal)
        if twin[2] in MATADORS or twin[3] in MATADORS:
            continue
        twin[2], twin[3] = twin[3], twin[2]
        choices = []
        for cards in (order, twin):
            game = Slabberjan(players, decks=[cards],
                              options={"dealer": dealer, "free_choice": True})
            if game.turn != 0 or len(game.legal_actions(0)) < 2:
                break
            game.apply(game.legal_actions(0)[0])  # seat 0 swaps with seat 1
            if (game.round, game.deals, game.turn) != (1, 1, 1) or len(
                    game.legal_actions(1)) < 2:
                break  # seat 1 holds a matador, or the round ended
            bot = PLAYERS["hard"](1, seed=seed)
            seen = [e.seen_by(1) for e in game.events]
            decision = bot.decide(game.view(1), seen)
            choices.append((seen, game.view(1), decision))
        if len(choices) == 2:
            (seen_a, view_a, a), (seen_b, view_b, b) = choices
            assert (seen_a, view_a) == (seen_b, view_b)
            assert a == b
            compared += 1
    assert compared >= 10


def test_the_payers_are_ruling_s10s() -> None:
    assert set(payers({0: "3", 1: "3", 2: "9"})) == {0, 1}
    assert payers({0: "fool", 1: "0", 2: "knight"}) == {0: "fool", 1: "lowest"}
    assert set(payers({0: "fool", 1: "fool", 2: "1", 3: "2", 4: "2", 5: "12"})) == {0, 1, 2, 3, 4}


def test_hard_dealers_owe_fewer_chips_than_easy_ones() -> None:
    from parlour.bots.arena import play
    from parlour.games import new_game

    owed = {"hard": 0.0, "easy": 0.0}
    rounds = {"hard": 0.0, "easy": 0.0}
    for i in range(150):
        levels = ["hard", "easy"] if i % 2 else ["easy", "hard"]
        game = new_game("slabberjan", players=2, seed=i)
        metric = DealerChips(2)
        metric.see(game.events)
        bots = [make_player("slabberjan", lvl, s, seed=i * 2 + s) for s, lvl in enumerate(levels)]
        play(game, bots, tiebreak_seed=i,
             observer=lambda now, a, events, g, metric=metric: metric.see(events))
        for s, lvl in enumerate(levels):
            owed[lvl] += metric.chips[s]
            rounds[lvl] += metric.rounds[s]
    assert owed["hard"] / rounds["hard"] < owed["easy"] / rounds["easy"]

