"""Slapjack computer players: legal, blind to what a seat may not see, reproducible, and
behaving like the seed page's three speeds (rulings J6, J8, J10)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import ROOT, holds_game
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.bots import LEVELS, ComputerPlayer, make_player
from parlour.bots.arena import play
from parlour.bots.slapjack import PLAYERS
from parlour.games import new_game
from parlour.games.slapjack import SPEC, Flip, Slap


def bots_for(levels: list[str], seed: int) -> list[ComputerPlayer]:
    return [make_player("slapjack", lvl, s, seed=seed * 100 + s) for s, lvl in enumerate(levels)]


def view(top: str | None, *, flips: int = 5, turn: int | None = 0, seat: int = 1,
         pile: int = 3, cards: tuple[int, ...] = (20, 20)) -> dict[str, Any]:
    return {"game": "slapjack", "seat": seat,
            "players": [{"cards": c, "out": False, "waiting": c == 0} for c in cards],
            "pile": pile if top else 0, "top": top, "top_player": 0 if top else None,
            "flips": flips, "turn": turn, "slappable": bool(top and top[0] == "J"),
            "winner": None}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), levels=st.lists(st.sampled_from(LEVELS), min_size=2,
                                                    max_size=4))
def test_every_computer_action_is_legal_and_games_end(seed: int, levels: list[str]) -> None:
    game = new_game("slapjack", players=len(levels), seed=seed)
    # play() applies every decision through the checked apply: an illegal one would raise.
    result = play(game, bots_for(levels, seed), tiebreak_seed=seed, max_actions=20_000)
    assert result.actions == len(game.history)
    if result.finished:
        assert game.outcome is not None and game.outcome.winner == result.winner
    else:
        assert result.stopped == "max_actions"


def test_a_player_holds_nothing_but_its_seat_and_its_randomness() -> None:
    game = new_game("slapjack", players=3, seed=11)
    bots = bots_for(["easy", "normal", "hard"], 11)
    play(game, bots, tiebreak_seed=11)
    for bot in bots:
        assert not holds_game(bot)
    # what a player is handed is plain JSON
    assert json.loads(json.dumps(game.view(1))) == game.view(1)


def test_the_same_seeds_give_the_same_game() -> None:
    records = []
    for _ in range(2):
        game = new_game("slapjack", players=3, seed=42)
        result = play(game, bots_for(["easy", "normal", "hard"], 42), tiebreak_seed=42)
        records.append((game.record(), result.time, result.tiebreak))
    assert records[0] == records[1]
    game = new_game("slapjack", players=3, seed=42)
    play(game, bots_for(["easy", "normal", "hard"], 43), tiebreak_seed=42)
    assert game.record()["actions"] != records[0][0]["actions"]


def test_slaps_are_aimed_with_at_ruling_j6() -> None:
    decision = PLAYERS["hard"](1, seed=0).decide(view("JD", flips=17, turn=0), [])
    assert decision is not None and decision.action == Slap(1, at=17)


@pytest.mark.parametrize("level", LEVELS)
def test_a_jack_nobody_can_cover_is_always_slapped_ruling_j8(level: str) -> None:
    for seed in range(300):
        bot = PLAYERS[level](1, seed=seed)
        decision = bot.decide(view("JH", turn=None, cards=(0, 0)), [])
        assert decision is not None and decision.action == Slap(1, at=5)


def test_easy_often_misses_a_jack_and_hard_rarely() -> None:
    def miss_rate(level: str) -> float:
        misses = sum(PLAYERS[level](1, seed=s).decide(view("JC"), []) is None
                     for s in range(2000))
        return misses / 2000

    easy, normal, hard = miss_rate("easy"), miss_rate("normal"), miss_rate("hard")
    assert easy > normal > hard
    assert easy >= 0.15 and hard <= 0.05


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_wrong_slaps_are_likelier_on_queens_and_kings(level: str) -> None:
    def wrong(card: str) -> int:
        return sum(PLAYERS[level](1, seed=s).decide(view(card), []) is not None
                   for s in range(4000))

    assert wrong("QS") + wrong("KH") > 2 * (wrong("7S") + wrong("AD"))


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_hard_slaps_every_jack_and_nothing_else(level: str) -> None:
    # Issue 19: at Hard's own reaction times, a rule that slaps every Jack and nothing else
    # beat the Hard that missed 3% of Jacks and slapped 1.5% of Queens and Kings. Only
    # Hard's speed is a person's; its decisions are the best at that speed.
    for seed in range(2000):
        decision = PLAYERS[level](1, seed=seed).decide(view("JC"), [])
        assert decision is not None and decision.action == Slap(1, at=5)
        for card in ("QS", "KH", "7D"):
            assert PLAYERS[level](1, seed=seed).decide(view(card, turn=0), []) is None


def test_scenario_hard_lets_no_jack_be_covered() -> None:
    """A whole game against a seat that flips but never slaps: Hard takes every Jack that
    comes up (the old Hard let about one in thirty be covered) and never slaps wrongly."""
    from parlour.bots.scheduler import Scheduler, VirtualClock

    jacks = taken = wrong = 0
    for seed in range(40):
        game = new_game("slapjack", players=2, seed=seed)
        clock = VirtualClock()
        kinds: list[str] = []
        bots = {0: PLAYERS["hard"](0, seed=seed),
                1: make_player("slapjack", "person:400:80:1:0", 1, seed=seed)}
        Scheduler(game, bots, clock).start()
        clock.run(lambda game=game: game.outcome is not None, max_calls=20_000)
        assert game.outcome is not None and game.outcome.winner == 0
        for e in game.events:
            public = e.public()
            if e.type == "flip" and public["card"][0] == "J":
                kinds.append("jack")
            elif e.type == "take" and public["reason"] == "jack":
                kinds.append("taken")
            elif e.type == "wrong_slap":
                kinds.append("wrong")
        jacks += kinds.count("jack")
        taken += kinds.count("taken")
        wrong += kinds.count("wrong")
    assert jacks > 100 and taken == jacks and wrong == 0


def test_speeds_react_in_order_easy_slowest() -> None:
    def median_reaction(level: str) -> float:
        delays = sorted(d.delay for s in range(801)
                        if (d := PLAYERS[level](1, seed=s).decide(view("JS"), [])) is not None)
        return delays[len(delays) // 2]

    assert median_reaction("easy") > median_reaction("normal") > median_reaction("hard")


def test_asking_again_about_the_same_card_gives_no_second_roll() -> None:
    for seed in range(200):
        bot = PLAYERS["easy"](1, seed=seed)
        first = bot.decide(view("QH"), [])
        again = bot.decide(view("QH"), [{"type": "slap_ignored", "player": 0, "at": 4}])
        assert (first is None) == (again is None)


def test_one_wrong_slap_per_card() -> None:
    for seed in range(400):
        bot = PLAYERS["easy"](1, seed=seed)
        if bot.decide(view("KH"), []) is None:
            continue
        after = bot.decide(view("KH"), [{"type": "wrong_slap", "player": 1, "card": "KH",
                                          "to": 0, "penalty": "card"}])
        assert after is None
        return
    pytest.fail("easy never slapped a King in 400 seeds")


def test_the_pause_after_a_take_depends_on_the_speed_ruling_j10() -> None:
    pauses = [SPEC.pacing.pause_for(level) for level in LEVELS]
    assert pauses == sorted(pauses, reverse=True) and len(set(pauses)) == len(LEVELS)


def test_an_out_player_does_nothing() -> None:
    v = view("JS")
    v["players"][1]["out"] = True
    assert PLAYERS["hard"](1, seed=0).decide(v, []) is None


def test_hard_beats_easy_in_a_short_arena() -> None:
    wins = 0
    for i in range(20):
        levels = ["hard", "easy"] if i % 2 == 0 else ["easy", "hard"]
        game = new_game("slapjack", players=2, seed=i)
        result = play(game, bots_for(levels, i), tiebreak_seed=i)
        wins += result.winner is not None and levels[result.winner] == "hard"
    assert wins >= 15


def test_the_published_profile_table_is_the_one_in_the_code() -> None:

    from parlour.bots import splunk
    from parlour.bots.slapjack import profile_table

    docs = (ROOT / "docs" / "bots.md").read_text("utf-8")
    assert profile_table() in docs
    assert splunk.profile_table() in docs


def deck_with(first: list[str], last: list[str]) -> list[str]:
    from parlour.engine.cards import standard_deck

    middle = [c for c in standard_deck() if c not in first + last]
    return first + middle + last


@pytest.mark.parametrize("level", LEVELS)
def test_scenario_the_last_card_is_a_jack_and_nobody_can_cover_it_ruling_j8(
        level: str) -> None:
    # The 52nd card, seat 1's last, is a Jack: after 52 flips without a slap nobody can
    # flip, and the Jack waits. Every computer player slaps it, whatever its miss rate.
    from parlour.games.slapjack import Slapjack

    game = Slapjack(2, decks=[deck_with(["2S", "3S"], ["KD", "JD"])])
    while game.view(None)["turn"] is not None:
        game.apply(Flip(game.view(None)["turn"]))
    view = game.view(0)
    assert (view["top"], view["turn"], view["flips"]) == ("JD", None, 52)
    for seed in range(100):
        for seat in (0, 1):
            bot = PLAYERS[level](seat, seed=seed)
            decision = bot.decide(game.view(seat), [e.seen_by(seat) for e in game.events])
            assert decision is not None and decision.action == Slap(seat, at=52)


@pytest.mark.parametrize("level", LEVELS)
def test_scenario_the_taker_pauses_before_flipping_onto_the_empty_pile_ruling_j10(
        level: str) -> None:
    """J10 is the game's pacing, held by the scheduler that runs every computer player (the
    same one at live tables): after the take, the taker's flip waits at least the pause."""
    from parlour.bots.scheduler import Scheduler, VirtualClock
    from parlour.games.slapjack import Slapjack

    for seed in range(20):
        game = Slapjack(2, decks=[deck_with(["JS", "2H"], [])])
        clock = VirtualClock()
        times: list[tuple[float, str]] = []
        bots = {s: PLAYERS[level](s, seed=seed * 2 + s) for s in (0, 1)}
        scheduler = Scheduler(game, bots, clock)

        def noted(action: Any, due: float, clock: VirtualClock = clock,
                  times: list[tuple[float, str]] = times,
                  scheduler: Scheduler = scheduler) -> None:
            times.extend((clock.now(), e.type) for e in scheduler.act(action))

        scheduler.referee = noted
        scheduler.start()
        clock.run(lambda times=times: sum(kind == "flip" for _, kind in times) >= 2,
                  max_calls=10)
        takes = [when for when, kind in times if kind == "take"]
        flips = [when for when, kind in times if kind == "flip"]
        if not takes:
            continue  # this seed's computer missed the Jack and it was buried
        assert flips[1] - takes[0] >= SPEC.pacing.pause_for(level) - 1e-9
