"""Slabberjan computer players: the dealer's draw-or-stand and free_choice's swap-or-stand,
on stacked deals (rulings S4, S5, S6, S8, S10)."""

from __future__ import annotations

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


def test_hard_dealer_stands_when_a_draw_cannot_help_ruling_s8() -> None:
    # An 11 against a known 12: only the last 12 would save it, and a knight costs two.
    game = two_player_dealer("11", "12")
    assert ask(PLAYERS["hard"](1, seed=0), game) == Stand(1)


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
    assert hard.known == {2: "2"}  # type: ignore[attr-defined]


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

