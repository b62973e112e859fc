"""The PettingZoo and Gymnasium environments: PettingZoo's own API and seed tests, Gymnasium's
checker, the time model of the races, and no observation that leaks a hidden card."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from parlour.engine.cards import standard_deck
from parlour.envs import SlabberjanEnv, SlapjackEnv, SplunkEnv, make_single
from parlour.envs.encoding import CARD_RANKS
from parlour.envs.realtime import RealTimeEnv
from parlour.games import new_game
from parlour.games.splunk import total21

# -- PettingZoo's own tests -----------------------------------------------------------------


@pytest.mark.parametrize("make", [
    lambda: SlabberjanEnv(players=4),
    lambda: SlabberjanEnv(players=3, chips=2, free_choice=True, opponents={1: "hard"}),
    lambda: SlabberjanEnv(players=5, opponents={0: "easy", 3: "normal"}, reward="chips"),
])
def test_slabberjan_passes_pettingzoo_api_test(make: Callable[[], SlabberjanEnv]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice ("all zeros") is not an error
        api_test(make(), num_cycles=300)


@pytest.mark.parametrize("make", [
    lambda: SlapjackEnv(players=2),
    lambda: SlapjackEnv(players=4, opponents={1: "hard", 3: "easy"}, tick=0.25),
    lambda: SplunkEnv(),
    lambda: SplunkEnv(opponents={1: "normal"}, options={"jokers": True}),
])
def test_races_pass_pettingzoo_parallel_api_test(make: Callable[[], RealTimeEnv]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(make(), num_cycles=400)


def test_slabberjan_passes_pettingzoo_seed_test() -> None:
    seed_test(lambda: SlabberjanEnv(players=4, opponents={2: "hard"}), num_cycles=100)


@pytest.mark.parametrize("make", [
    lambda: SlapjackEnv(players=3, opponents={2: "normal"}),
    lambda: SplunkEnv(opponents={0: "hard"}),
])
def test_races_pass_pettingzoo_parallel_seed_test(make: Callable[[], RealTimeEnv]) -> None:
    parallel_seed_test(make, num_cycles=100)


def play_parallel(env: RealTimeEnv, seed: int, steps: int) -> list[Any]:
    """A seeded episode of random masked actions; what every step returned."""
    rng = random.Random(seed)
    obs, _ = env.reset(seed=seed)
    trace: list[Any] = []
    for _ in range(steps):
        if not env.agents:
            break
        actions = {a: rng.choice(np.flatnonzero(obs[a]["action_mask"]).tolist())
                   for a in env.agents}
        obs, rewards, terms, _truncs, _infos = env.step(actions)
        trace.append(({a: o["observation"].tolist() for a, o in obs.items()}, rewards, terms))
    return trace


def test_the_same_seed_plays_the_same_episode_and_another_seed_another() -> None:
    one = play_parallel(SplunkEnv(opponents={1: "easy"}), seed=4, steps=300)
    assert one == play_parallel(SplunkEnv(opponents={1: "easy"}), seed=4, steps=300)
    assert one != play_parallel(SplunkEnv(opponents={1: "easy"}), seed=5, steps=300)


# -- Gymnasium's checker and the single-agent wrapper -----------------------------------------

@pytest.mark.parametrize("game, players", [("slabberjan", 4), ("slapjack", 3), ("splunk", 2)])
def test_single_agent_envs_pass_gymnasium_check_env(game: str, players: int) -> None:
    env = make_single(game, players=players, opponents="easy", seat=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("game, players", [("slabberjan", 3), ("slapjack", 2), ("splunk", 2)])
def test_a_single_agent_game_against_computers_runs_to_a_win_or_a_loss(
        game: str, players: int) -> None:
    env = make_single(game, players=players, opponents="hard", seat=0, **(
        {} if game == "slabberjan" else {"max_seconds": 3000.0}))
    rng = random.Random(1)
    obs, _ = env.reset(seed=11)
    total, done, steps = 0.0, False, 0
    while not done and steps < 50_000:
        mask = env.action_masks()
        assert (mask == obs["action_mask"]).all()
        # prefer doing something over waiting, so that a race ends
        choices = np.flatnonzero(mask).tolist()
        action = rng.choice(choices[1:] or choices) if game != "slabberjan" else \
            rng.choice(choices)
        obs, reward, terminated, truncated, _ = env.step(action)
        total += reward
        done = terminated or truncated
        steps += 1
    assert done and total in (1.0, -1.0, -0.5)


def test_make_single_refuses_what_it_cannot_build() -> None:
    with pytest.raises(ValueError, match="unknown speed"):
        make_single("splunk", opponents="wizard")
    with pytest.raises(ValueError, match="unknown game"):
        make_single("chess")
    with pytest.raises(ValueError, match="no seat 3"):
        make_single("slapjack", players=2, seat=3)


# -- the time model ---------------------------------------------------------------------------

def slap_race(tick: float) -> tuple[str | None, float]:
    """Two agents on a stacked deal in which seat 0's first flip is a Jack: both slap at
    the next tick, at the same instant; who takes the pile, and when."""
    deck = ["JS", "2H"] + [c for c in standard_deck() if c not in ("JS", "2H")]
    env = SlapjackEnv(players=2, tick=tick)
    obs, _ = env.reset(seed=3, options={"decks": [deck]})
    obs, *_ = env.step({"seat_0": 1, "seat_1": 0})  # seat 0 flips the Jack
    assert obs["seat_1"]["observation"][5 * 2 + 1] == 1.0  # both see a slappable Jack
    assert env.table is not None
    events_before = len(env.table.events)
    env.step({"seat_0": 2, "seat_1": 2})
    new = [e.public() for e in env.table.events[events_before:]]
    takes = [e for e in new if e["type"] == "take"]
    ignored = [e for e in new if e["type"] == "slap_ignored"]
    assert len(takes) == 1 and len(ignored) == 1  # the later slap lost the race, unpunished
    return f"seat_{takes[0]['player']}", env.table.clock.now()


def test_simultaneous_slaps_go_to_the_seeded_tie_break_order_and_the_other_is_stale() -> None:
    winner, now = slap_race(0.1)
    env = SlapjackEnv(players=2)
    env.reset(seed=3)
    assert env.table is not None
    first = min(env.table.tie_rank, key=env.table.tie_rank.__getitem__)
    assert winner == f"seat_{first}"
    assert now == pytest.approx(0.2)  # two ticks of virtual time


def test_a_computer_slaps_within_its_reaction_time_of_the_jack() -> None:
    deck = ["2H", "JS"] + [c for c in standard_deck() if c not in ("JS", "2H")]
    env = SlapjackEnv(players=2, opponents={0: "hard"}, tick=0.05)
    obs, _ = env.reset(seed=8, options={"decks": [deck]})
    assert env.table is not None
    seen_jack = None
    for step in range(400):  # 20 virtual seconds at most
        obs, *_ = env.step({"seat_1": 1 if obs["seat_1"]["action_mask"][1] else 0})
        public = env.table.game.view(None)
        if seen_jack is None and public["top"] == "JS":
            seen_jack = step
        if any(e.type == "take" for e in env.table.events):
            break
    assert seen_jack is not None
    took = next(e for e in env.table.events if e.type == "take").data["player"]
    # the computer (seat 0) reacts in 0.18 s at the fastest, inside a few ticks, and the
    # agent here never slaps: the computer takes the pile
    assert took == 0 and step - seen_jack < 60


def test_an_action_the_mask_rules_out_is_a_wait_and_says_so() -> None:
    env = SplunkEnv()
    obs, _ = env.reset(seed=2)
    assert env.table is not None
    turn = env.table.game.view(None)["turn"]
    idle = f"seat_{1 - turn}"
    assert obs[idle]["action_mask"][1] == 0  # not its turn: no play
    plays = env.table.game.view(None)["plays"]
    _, _, _, _, infos = env.step({idle: 1})
    assert infos[idle] == {"masked": True}
    assert env.table.game.view(None)["plays"] == plays


# -- masks and legal lists ----------------------------------------------------------------------

@pytest.mark.parametrize("game, players", [("slabberjan", 5), ("slapjack", 3), ("splunk", 2)])
def test_every_view_lists_exactly_the_legal_actions(game: str, players: int) -> None:
    """``view["legal"]`` (what masks are read from) is the rules' own legal_actions, in
    the JSON a seat sends, at every step of many random games."""
    for seed in range(15):
        g = new_game(game, players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if g.outcome is not None:
                break
            for seat in range(players):
                assert g.view(seat)["legal"] == [a.for_seat() for a in g.legal_actions(seat)]
            if game == "splunk":  # the running face-up totals the observations read
                assert [st["up_total"] for st in g.view(None)["stacks"]] == \
                    [total21(st["up"]) for st in g.view(None)["stacks"]]
            everything = [a for s in range(players) for a in g.legal_actions(s)]
            g.apply(rng.choice(everything))
        assert g.view(None)["legal"] == []


# -- no leak: changing only hidden cards never changes an observation ------------------------

def swap_hidden(deck: list[str], keep: set[int], rng: random.Random) -> list[str] | None:
    """The deck with two cards swapped at positions outside ``keep``, different cards."""
    free = [i for i in range(len(deck)) if i not in keep]
    for _ in range(50):
        i, j = rng.sample(free, 2)
        if deck[i] != deck[j]:
            other = list(deck)
            other[i], other[j] = other[j], other[i]
            return other
    return None


def slabberjan_pair(seed: int, players: int, seat: int, rng: random.Random
                    ) -> tuple[SlabberjanEnv, SlabberjanEnv] | None:
    """Two games from one seed whose first deals differ only in two pieces that ``seat``
    does not draw (another seat's piece, or the bag's)."""
    probe = SlabberjanEnv(players=players)
    probe.reset(seed=seed)
    assert probe.table is not None
    deck = list(probe.table.game.chance.used_decks[0])
    dealer = probe.table.game.options["dealer"]
    position = (seat - dealer - 1) % players  # S2: drawn from the dealer's left
    changed = swap_hidden(deck, {position}, rng)
    if changed is None:
        return None
    real, other = SlabberjanEnv(players=players), SlabberjanEnv(players=players)
    real.reset(seed=seed, options={"dealer": dealer, "decks": [deck]})
    other.reset(seed=seed, options={"dealer": dealer, "decks": [changed]})
    return real, other


def test_slabberjan_observations_never_depend_on_a_hidden_piece() -> None:
    compared = differed = 0
    for seed in range(40):
        players = 3 + seed % 4
        rng = random.Random(seed)
        seat = rng.randrange(players)
        pair = slabberjan_pair(seed, players, seat, rng)
        if pair is None:
            continue
        real, other = pair
        assert real.table is not None and other.table is not None
        g1, g2 = real.table.game, other.table.game
        # the test reads the hidden state (the environments never do): it does differ
        assert (g1.hands, g1.bag_left) != (g2.hands, g2.bag_left)  # type: ignore[attr-defined]
        assert g1.hands[seat] == g2.hands[seat]  # type: ignore[attr-defined]
        seen = 0
        policy = random.Random(seed + 1000)
        for _ in range(200):
            new_real, new_other = real.table.seen(seat, seen), other.table.seen(seat, seen)
            if new_real != new_other:
                differed += 1
                break  # the seat has now been told something different: stop comparing
            seen += len(new_real)
            assert np.array_equal(real.observation_vector(seat),
                                  other.observation_vector(seat)), f"leak at seed {seed}"
            assert np.array_equal(real.observe(f"seat_{seat}")["action_mask"],
                                  other.observe(f"seat_{seat}")["action_mask"])
            compared += 1
            agent = real.agent_selection
            if real.terminations[agent] or other.agent_selection != agent:
                break
            mask_real = real.observe(agent)["action_mask"]
            mask_other = other.observe(agent)["action_mask"]
            if not np.array_equal(mask_real, mask_other):
                break  # another seat's choices differ now; the games part ways
            action = policy.choice(np.flatnonzero(mask_real).tolist())
            real.step(action)
            other.step(action)
    # the comparison is not vacuous: many observations compared, and hidden pieces
    # that did come out (at a reveal or a swap) were noticed
    assert compared > 200 and differed > 0


def race_leak_check(env_class: type[RealTimeEnv], players: int, seeds: range) -> None:
    """Two games per seed from decks that differ only in two cards nobody has seen yet;
    the same actions in both; every seat's observation compared while what that seat was
    told is the same."""
    compared = differed = 0
    for seed in seeds:
        rng = random.Random(seed)
        deck = standard_deck()
        rng.shuffle(deck)
        # keep the first cards each seat will play (they come out at once); swap two of
        # the rest, which stay hidden until played (or, in Splunk, until a base is called)
        other_deck = swap_hidden(deck, set(range(2 * players)), rng)
        assert other_deck is not None
        real = env_class(players=players, opponents={1: "hard"})
        other = env_class(players=players, opponents={1: "hard"})
        obs_r, _ = real.reset(seed=seed, options={"decks": [deck]})
        obs_o, _ = other.reset(seed=seed, options={"decks": [other_deck]})
        assert real.table is not None and other.table is not None
        policy = random.Random(seed)
        seen = dict.fromkeys(real.agents, 0)
        live = set(real.agents)
        for _ in range(3000):
            live &= set(obs_r) & set(obs_o)  # a seat knocked out is observed no more
            for agent in sorted(live):
                s = int(agent.removeprefix("seat_"))
                a, b = real.table.seen(s, seen[agent]), other.table.seen(s, seen[agent])
                if a != b:
                    differed += 1
                    live.discard(agent)
                    continue
                seen[agent] += len(a)
                assert np.array_equal(obs_r[agent]["observation"],
                                      obs_o[agent]["observation"]), f"leak, seed {seed}"
                assert np.array_equal(obs_r[agent]["action_mask"],
                                      obs_o[agent]["action_mask"])
                compared += 1
            if not live or not real.agents or not other.agents:
                break
            actions = {}
            for agent in real.agents:
                choices = np.flatnonzero(obs_r[agent]["action_mask"]).tolist()
                actions[agent] = policy.choice(choices) if policy.random() < 0.3 else 0
            obs_r, *_ = real.step(actions)
            obs_o, *_ = other.step({a: c for a, c in actions.items() if a in other.agents})
    assert compared > 50 * len(seeds) and differed > 0


@pytest.mark.parametrize("env_class, players", [(SlapjackEnv, 2), (SlapjackEnv, 4),
                                                (SplunkEnv, 2)])
def test_race_observations_never_depend_on_a_hidden_card(
        env_class: type[RealTimeEnv], players: int) -> None:
    race_leak_check(env_class, players, range(20))


def test_the_leak_check_catches_an_observation_built_from_the_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rlcard#220 mistake, planted: an observation that reads a pile from the game."""
    honest = SplunkEnv.observation_vector

    def leaky(self: SplunkEnv, seat: int, view: Any = None) -> Any:
        assert self.table is not None
        pile = self.table.game.piles[seat]  # type: ignore[attr-defined]
        out = honest(self, seat, view)
        out[0] = CARD_RANKS.index(pile[-1][0]) / 13 if pile else 0.0
        return out

    monkeypatch.setattr(SplunkEnv, "observation_vector", leaky)
    with pytest.raises(AssertionError, match="leak"):
        race_leak_check(SplunkEnv, 2, range(20))
