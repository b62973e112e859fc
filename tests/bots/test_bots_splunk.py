"""Splunk computer players: calls (P4), stack choice (P3), slaps (P5) and the last play
(P6), on stacked deals."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from parlour.bots import LEVELS, ComputerPlayer
from parlour.bots.splunk import PLAYERS, chance_over, unseen_values
from parlour.engine.cards import standard_deck
from parlour.games.splunk import Call, Play, Slap, Splunk, value21


def stacked(first: list[str], second: list[str], *, first_player: int = 0) -> Splunk:
    """A game whose piles start with ``first`` (seat 0) and ``second`` (seat 1), top first;
    each pile's first two cards become its bases (P2)."""
    rest = [c for c in standard_deck() if c not in first + second]
    a = first + rest[: 26 - len(first)]
    b = second + rest[26 - len(first):]
    assert len(a) == len(b) == 26
    deck = [card for pair in zip(a, b, strict=True) for card in pair]
    return Splunk(2, decks=[deck], options={"first": first_player})


def ask(bot: ComputerPlayer, game: Splunk, view: dict[str, Any] | None = None) -> Any:
    events = [e.seen_by(bot.seat) for e in game.events]
    decision = bot.decide(view or game.view(bot.seat), events)
    return None if decision is None else decision.action


def unseen_over(game: Splunk, stack: int) -> float:
    """The chance a stack is over 21, over every card not face up: the test's own count."""
    view = game.view(None)
    visible = [c for s in view["stacks"] for c in s["up"]]
    unseen = [c for c in standard_deck() if c not in visible]
    up = view["stacks"][stack]["up_total"]
    return sum(up + value21(c) > 21 for c in unseen) / len(unseen)


def king_five_on_stack_0(tens_elsewhere: bool) -> Splunk:
    """Seat 1 has just made stack 0 read K 5 (15 face up); seat 0 is to call or play."""
    if tens_elsewhere:
        # seven 10-point cards face up on stacks 1 to 3 first: fewer tens can be a base
        a = ["2C", "3C", "TS", "QS", "TD", "KS", "4C"]
        b = ["2D", "3D", "JS", "KH", "JD", "5D", "4D"]
        plays = [1, 1, 2, 2, 3, 3, 0, 0]
    else:
        a, b, plays = ["2C", "3C", "KS"], ["2D", "3D", "5D"], [0, 0]
    game = stacked(a, b)
    for i, stack in enumerate(plays):
        game.apply(Play(i % 2, stack))
    assert game.view(0)["stacks"][0]["up"][-2:] == ["KS", "5D"] and game.view(0)["call_open"]
    return game


def test_hard_calls_when_the_unseen_cards_make_over_21_likelier_ruling_p4() -> None:
    game = king_five_on_stack_0(tens_elsewhere=False)
    assert unseen_over(game, 0) > 0.5
    assert ask(PLAYERS["hard"](0, seed=0), game) == Call(0)
    assert ask(PLAYERS["normal"](0, seed=0), game) == Call(0)
    # Easy's crude threshold wants 16 face up
    assert ask(PLAYERS["easy"](0, seed=0), game) != Call(0)


def test_hard_counts_the_tens_it_has_seen_ruling_p4() -> None:
    game = king_five_on_stack_0(tens_elsewhere=True)
    assert unseen_over(game, 0) < 0.5  # seven tens face up: the base is likely lower
    assert ask(PLAYERS["hard"](0, seed=0), game) != Call(0)
    # Normal adds an average base whatever it has seen, so it still calls
    assert ask(PLAYERS["normal"](0, seed=0), game) == Call(0)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_opponents_last_play_is_always_challenged_ruling_p6(level: str) -> None:
    game = stacked(["2C", "3C", "4C"], ["2D", "3D", "5D"])
    game.apply(Play(0, 0))
    game.apply(Play(1, 0))
    view = copy.deepcopy(game.view(0))
    view["players"][1]["cards"] = 0  # as if that 5 were seat 1's last card
    assert view["stacks"][0]["up_total"] == 9
    assert ask(PLAYERS[level](0, seed=0), game, view) == Call(0)
    # with cards left, nine face up is no call for anyone
    assert isinstance(ask(PLAYERS[level](0, seed=0), game), Play)


def high_and_middle_stacks() -> Splunk:
    """Stack 0 shows K Q (20), stack 1 shows 9 A (10), stacks 2 and 3 only their bases;
    seat 0 is to play, with nothing worth calling."""
    game = stacked(["2C", "3C", "KS", "9S"], ["2D", "3D", "QH", "AH"])
    for stack in (0, 0, 1, 1):
        game.apply(Play(len(game.history) % 2, stack))
    assert [s["up_total"] for s in game.view(0)["stacks"]] == [20, 10, 0, 0]
    return game


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_plays_go_where_a_call_is_least_likely_to_hurt_ruling_p3(level: str) -> None:
    game = high_and_middle_stacks()
    choice = ask(PLAYERS[level](0, seed=0), game)
    assert isinstance(choice, Play) and choice.stack in (2, 3)


def test_easy_plays_on_a_random_stack_under_its_crude_threshold() -> None:
    game = high_and_middle_stacks()
    stacks = {ask(PLAYERS["easy"](0, seed=s), game).stack for s in range(60)}
    assert stacks == {1, 2, 3}


def pair_on_stack_1() -> Splunk:
    game = stacked(["2C", "3C", "7S"], ["2D", "3D", "7H"])
    game.apply(Play(0, 1))
    game.apply(Play(1, 1))
    assert game.view(0)["slap_open"] == 1
    return game


@pytest.mark.parametrize("seat", [0, 1])
def test_a_pair_is_slapped_with_at_ruling_p5(seat: int) -> None:
    game = pair_on_stack_1()
    for level in LEVELS:
        slaps = [ask(PLAYERS[level](seat, seed=s), game) for s in range(50)]
        assert Slap(seat, 1, at=2) in slaps
        assert all(a == Slap(seat, 1, at=2) or not isinstance(a, Slap) for a in slaps)


def test_easy_misses_slaps_more_often_than_hard_and_is_slower() -> None:
    game = pair_on_stack_1()

    def misses_and_median(level: str) -> tuple[int, float]:
        delays = []
        for s in range(600):
            bot = PLAYERS[level](1, seed=s)
            d = bot.decide(game.view(1), [e.seen_by(1) for e in game.events])
            if d is not None and isinstance(d.action, Slap):
                delays.append(d.delay)
        delays.sort()
        return 600 - len(delays), delays[len(delays) // 2]

    easy, hard = misses_and_median("easy"), misses_and_median("hard")
    assert easy[0] > hard[0] and easy[1] > hard[1]


def test_wrong_slaps_are_rare_and_rarest_for_hard() -> None:
    game = stacked(["2C", "3C", "7S"], ["2D", "3D", "9H"])
    game.apply(Play(0, 1))
    game.apply(Play(1, 1))  # 7 then 9: nothing to slap

    def wrong(level: str) -> int:
        return sum(isinstance(ask(PLAYERS[level](0, seed=s), game), Slap) for s in range(1000))

    assert wrong("hard") < wrong("easy") < 100


def test_a_slap_is_not_repeated_after_it_was_carried_out() -> None:
    game = stacked(["2C", "3C", "7S"], ["2D", "3D", "9H"])
    game.apply(Play(0, 1))
    game.apply(Play(1, 1))
    for seed in range(2000):
        bot = PLAYERS["easy"](0, seed=seed)
        action = ask(bot, game)
        if isinstance(action, Slap):
            events = game.apply(action)  # a wrong slap: seat 0 takes the stack
            again = bot.decide(game.view(0), [e.seen_by(0) for e in events])
            assert again is None or not isinstance(again.action, Slap)
            return
    pytest.fail("easy never slapped by mistake in 2000 seeds")


@settings(max_examples=200, deadline=None)
@given(up=st.integers(0, 30),
       counts=st.dictionaries(st.integers(0, 10), st.integers(0, 6), min_size=1))
def test_hards_chance_over_21_counts_every_pair_of_unseen_cards(
        up: int, counts: dict[int, int]) -> None:
    values = Counter(counts)
    cards = list(values.elements())
    n = len(cards)
    assume(n >= 2)
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
    brute = sum(up + cards[i] + cards[j] > 21 for i, j in pairs) / len(pairs)
    assert chance_over(up, values, two=True) == pytest.approx(brute)
    single = sum(up + v > 21 for v in cards) / n
    assert chance_over(up, values) == pytest.approx(single)


@pytest.mark.parametrize("jokers", [False, True])
def test_the_memory_knows_exactly_where_every_card_it_has_seen_is(jokers: bool) -> None:
    """Memory, fed only public events, against the game's hidden state after every action:
    every card it claims to know is there, what it does not know is exactly the cards it
    counts as unseen, and its chance that a stack is over 21 is chance_over's of those."""
    from parlour.bots.arena import play
    from parlour.bots.splunk import CardMemory as Memory
    from parlour.engine import Action, Event, Game
    from parlour.games import new_game

    known = 0
    for seed in range(6):
        game = new_game("splunk", players=2, seed=seed, options={"jokers": jokers})
        memory = Memory()
        memory.see([e.public() for e in game.events])

        def check(now: float, action: Action, events: Sequence[Event], g: Game,
                  memory: Memory = memory) -> None:
            nonlocal known
            memory.see([e.public() for e in events])
            assert isinstance(g, Splunk)
            hidden: Counter[int] = Counter()
            for mine, real in [*zip(memory.piles, g.piles, strict=True),
                               *zip(memory.stacks, g.stacks, strict=True)]:
                assert len(mine) == len(real)
                for m, r in zip(mine, real, strict=True):
                    if m is None:
                        hidden[value21(r)] += 1
                    else:
                        assert m == r
                        known += 1
            assert +memory.unseen == hidden
            for s, stack in enumerate(g.stacks):
                if stack:
                    exact = memory.chance_over(s)
                    base = memory.stacks[s][0]
                    if base is not None:
                        assert exact == float(sum(map(value21, stack)) > 21)
                    # the counts it keeps card by card give chance_over's very float
                    up = memory.up_total[s]
                    if base is None:
                        assert exact == chance_over(up, memory.unseen)
                        assert memory.chance_over(s, blind=True) == chance_over(
                            up, memory.unseen, two=True)
                    else:
                        assert memory.chance_over(s, blind=True) == chance_over(
                            up + value21(base), memory.unseen)

        bots = [PLAYERS["hard"](0, seed=seed), PLAYERS["normal"](1, seed=seed + 100)]
        play(game, bots, tiebreak_seed=seed, observer=check)
    assert known > 0


def test_hard_calls_what_it_has_seen_a_sure_win_and_passes_a_sure_loss_ruling_p4() -> None:
    """In seeded games, at every play Hard could call out whose face-down base it has seen
    (a card shown before, in a play or a call, whose every move since is public): Hard
    calls exactly when the stack is over 21, including where the cards face up say
    otherwise."""
    from parlour.bots.arena import play
    from parlour.engine import Action, Event, Game
    from parlour.games import new_game

    judged = against_face_up = 0
    for seed in range(8):
        game = new_game("splunk", players=2, seed=seed)
        # Hard players that only watch, one per seat, fed every event as their seat sees it
        watchers = [PLAYERS["hard"](s, seed=seed) for s in range(2)]
        shown: set[str] = set()
        for w in watchers:
            w.decide(game.view(w.seat), [e.seen_by(w.seat) for e in game.events])

        def check(now: float, action: Action, events: Sequence[Event], g: Game,
                  watchers: list[Any] = watchers, shown: set[str] = shown) -> None:
            nonlocal judged, against_face_up
            assert isinstance(g, Splunk)
            seen = [e.public() for e in events]
            decisions = [w.decide(g.view(w.seat), seen) for w in watchers]
            last = g.view(None)["last_play"]
            if seen[0]["type"] == "play" and g.winner is None and last is not None:
                stack = g.stacks[last["stack"]]
                caller = 1 - last["player"]
                view = g.view(caller)
                if stack[0] in shown and view["slap_open"] is None and g.piles[last["player"]]:
                    over = sum(map(value21, stack)) > 21
                    decision = decisions[caller]
                    assert decision is not None
                    if isinstance(decision.action, Slap):
                        return  # a rare slap by mistake comes first (Hard's wrong_slap)
                    assert (decision.action == Call(caller)) == over
                    judged += 1
                    face_up = chance_over(view["stacks"][last["stack"]]["up_total"],
                                          unseen_values(view))
                    against_face_up += (face_up > 0.5) != over
            for e in seen:
                if e["type"] == "play":
                    shown.add(e["card"])
                elif e["type"] == "call":
                    shown.update(e["cards"])

        bots = [PLAYERS["normal"](s, seed=seed + 50) for s in range(2)]
        play(game, bots, tiebreak_seed=seed, observer=check)
    assert judged > 50 and against_face_up > 5


def test_hard_decides_alike_whatever_the_cards_nobody_has_seen() -> None:
    """Two deals that differ only in cards not yet shown give the same public events, and
    Hard then makes the same decision (action and delay) from its seat."""
    from parlour.bots.arena import play
    from parlour.games import new_game

    compared = 0
    for seed in range(6):
        game = new_game("splunk", players=2, seed=seed)
        play(game, [PLAYERS["normal"](s, seed=seed) for s in range(2)], tiebreak_seed=seed,
             max_actions=30)
        record = game.record()
        deck = record["decks"][0]
        shown = {e.public().get("card") for e in game.events} | {
            c for e in game.events if e.type == "call" for c in e.public()["cards"]}
        hidden = [i for i, c in enumerate(deck) if c not in shown]
        assert len(hidden) >= 2
        twin_deck = list(deck)
        i, j = hidden[0], hidden[-1]
        twin_deck[i], twin_deck[j] = twin_deck[j], twin_deck[i]
        twin = Splunk(2, decks=[twin_deck], options=record["options"])
        for step, action in enumerate(game.history):
            twin.apply(action)
            if step % 3:
                continue
            replayed = Splunk(2, decks=[deck], options=record["options"])
            for earlier in game.history[: step + 1]:
                replayed.apply(earlier)
            for seat in (0, 1):
                a = [e.seen_by(seat) for e in replayed.events]
                b = [e.seen_by(seat) for e in twin.events]
                assert a == b
                one = PLAYERS["hard"](seat, seed=step).decide(replayed.view(seat), a)
                other = PLAYERS["hard"](seat, seed=step).decide(twin.view(seat), b)
                assert one == other
                compared += 1
    assert compared > 50
