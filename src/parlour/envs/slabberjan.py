"""Slabberjan as a PettingZoo AEC environment: one agent a turn.

Agents are ``"seat_0"`` ... ``"seat_{n-1}"`` for the seats that learn; the seats named in
``opponents`` are played by our computer players (:func:`parlour.bots.make_player`) and
are not agents. Every turn of Slabberjan is one action, even a forced one (S3 to S8), so an
agent is asked at each of its turns; a turn with one legal action has a one-hot mask.

- Observation: ``{"observation": Box(0, 1, (21 + 29 n + 6,), float32), "action_mask":
  Box(0, 1, (3,), int8)}``; the layout is :func:`parlour.envs.encoding.encode_slabberjan`
  (from the seat's view only, which holds its own piece, what it learned in its own swaps
  and the public table).
- Actions: ``Discrete(3)``: 0 swap, 1 stand, 2 draw (the dealer), as masked. An action the
  mask rules out raises ``ValueError`` (the game is left unchanged).
- Rewards: ``reward="win"`` (default): at the end +1 to the winner and, to every other
  seat, -1 / (n - 1) when it is knocked out; ``reward="chips"``: each step, every agent's
  change in chips (the winner's share of the pot included); ``reward="paid"``: each
  step, minus the chips the agent paid (a payment it could not make, which put it out,
  counts as one), the measure of ``parlour simulate``'s dealer chips.
- Episode: ends when one player is left (all agents terminate; a seat knocked out
  terminates then); truncated after ``max_actions`` actions in all.
- Time: Slabberjan is turn-based, so time only matters to the computer players, who take
  their thinking time on the same virtual clock as in a simulation (see
  :mod:`parlour.envs.table`); an agent's turn comes when the game says so.

>>> env = SlabberjanEnv(players=3, opponents={2: "easy"})
>>> _ = env.reset(seed=1)
>>> env.possible_agents, int(env.action_space("seat_0").n)
(['seat_0', 'seat_1'], 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

from parlour.envs.encoding import CODECS, Obs
from parlour.envs.table import Table, agent_name, learning_seats
from parlour.games.slabberjan import SPEC, Slabberjan

CODEC = CODECS["slabberjan"]


class SlabberjanEnv(AECEnv):
    """See the module docstring."""

    metadata = {"name": "parlour_slabberjan_v0", "render_modes": ["ansi"],
                "is_parallelizable": False}
    codec = CODEC

    def __init__(self, players: int = 4, chips: int = 3, free_choice: bool = False, *,
                 opponents: Mapping[int, str] | None = None, reward: str = "win",
                 max_actions: int = 10_000, variant: str = "full",
                 render_mode: str | None = None) -> None:
        super().__init__()
        SPEC.check_players(players)
        SPEC.resolve_options({"chips": chips, "free_choice": free_choice, "variant": variant},
                             players=players, draw=lambda n: 0)
        if reward not in ("win", "chips", "paid"):
            raise ValueError(f"reward must be 'win', 'chips' or 'paid', not {reward!r}")
        self.players = players
        self.options = {"chips": chips, "free_choice": free_choice, "variant": variant}
        self.opponents = dict(opponents or {})
        self.learners = learning_seats(players, self.opponents)
        self.reward_mode = reward
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in self.learners]
        #: agent -> its seat (read at every step: parsing the name each time cost more)
        self._seat = {agent_name(s): s for s in self.learners}
        size = CODEC.size(players)
        self._obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (CODEC.actions,), np.int8)})
        self._act_space = gymnasium.spaces.Discrete(CODEC.actions)
        self._seed_rng: np.random.Generator | None = None
        self.table: Table | None = None

    # -- spaces -------------------------------------------------------------------------------

    # Plain methods over spaces made once: functools.cache on a method kept every env
    # (its key) alive for ever, 549 MiB after 2,000 closed 42-player envs.
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._act_space

    # -- the episode ------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` fixes it (and, when given again, the episodes after it);
        ``options={"decks": [...], "dealer": seat}`` stacks the deals as a record does."""
        if seed is not None or self._seed_rng is None:
            self._seed_rng = np.random.default_rng(seed)
        episode_seed = int(self._seed_rng.integers(2**62))
        options = dict(options or {})
        game_options = dict(self.options)
        if "dealer" in options:
            game_options["dealer"] = options["dealer"]
        if self.table is not None:
            self.table.close()
        self.table = Table("slabberjan", self.players, game_options, self.opponents,
                           episode_seed, decks=options.get("decks", ()))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._chips = list(self._game().chips)
        self._events_seen = len(self.table.events)
        self._selector = AgentSelector(self.agents)
        self._to_learner()
        # At a big table the computer players may knock an agent out (or end the game)
        # before its first turn: it is dead from the start, as after any step, so that
        # nobody waits on an agent with nothing to do (the hang of issue 21).
        self._settle()
        self._accumulate_rewards()
        self.agent_selection = self._selection()
        self._deads_step_first()

    def _game(self) -> Slabberjan:
        """The game itself: the env reads its chips, seats out, turn and winner directly,
        the facts of everyone's view, without making that view after every move (it
        was a tenth of a step)."""
        assert self.table is not None
        return cast(Slabberjan, self.table.game)

    def _to_learner(self) -> None:
        """Lets the computer players play until an agent is to move (or the game ends)."""
        assert self.table is not None
        table = self.table
        learners = set(self.learners)
        # the game's turn is its view's "turn": read without making everyone's view after
        # every computer move (a view a move, a tenth of a step against three Easy)
        game = cast(Slabberjan, table.game)
        table.run_until(lambda: game.turn in learners)

    def _selection(self) -> str:
        assert self.table is not None
        turn = self._game().turn
        if turn is not None and turn in self.learners:
            return agent_name(turn)
        return self.agents[0] if self.agents else ""

    def _started(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table

    def observe(self, agent: str) -> dict[str, Any]:
        self._started()
        if agent not in self.possible_agents:
            raise ValueError(f"no agent {agent!r} (the agents: {self.possible_agents})")
        assert self.table is not None
        seat = self._seat[agent]
        view = self.table.view(seat)
        return {"observation": self.observation_vector(seat, view),
                "action_mask": CODEC.mask(view) if view["turn"] == seat and not
                self.terminations.get(agent, True) else np.zeros(CODEC.actions, np.int8)}

    def observation_vector(self, seat: int, view: Mapping[str, Any] | None = None) -> Obs:
        """The observation of ``seat`` now: from its view only (see the module docstring)."""
        assert self.table is not None
        if view is None:
            view = self.table.view(seat)
        return CODEC.encode(view, (), seat, self.players, self.options)

    def step(self, action: int | None) -> None:
        self._started()
        if not self.agents:
            raise RuntimeError("the episode is over: call reset()")
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        assert self.table is not None
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for an agent that is done")
        seat = self._seat[agent]
        view = self.table.view(seat)
        chosen = CODEC.action_json(CODEC.check(action), view)
        if chosen is None or view["turn"] != seat:
            raise ValueError(f"{agent} cannot take action {action} now "
                             f"(legal: {CODEC.mask(view).tolist()})")
        self.table.act(seat, chosen)
        self._to_learner()
        self._cumulative_rewards[agent] = 0.0
        self._settle()
        self._accumulate_rewards()
        self.agent_selection = self._selection()
        self._deads_step_first()

    def _settle(self) -> None:
        """Rewards, terminations and truncations after a move."""
        game = self._game()
        chips, out, winner = game.chips, game.out, game.winner
        n = self.players
        over = winner is not None
        truncated = not over and len(game.history) >= self.max_actions
        mode = self.reward_mode
        events = self._started().events
        if mode == "paid":
            paid = [0] * n
            for event in events[self._events_seen:]:
                if event.type in ("pay", "out"):
                    paid[event.data["player"]] += 1
        self._events_seen = len(events)
        rewards, terminations, truncations = self.rewards, self.terminations, self.truncations
        seats = self._seat
        for agent in self.agents:
            seat = seats[agent]
            if mode == "paid":
                reward = -float(paid[seat])
            elif mode == "chips":
                reward = float(chips[seat] - self._chips[seat])
            elif over and winner == seat:
                reward = 1.0
            elif out[seat] and not terminations[agent]:
                reward = -1.0 / (n - 1)
            else:
                reward = 0.0
            rewards[agent] = reward
            terminations[agent] = over or out[seat]
            truncations[agent] = truncated
        self._chips = list(chips)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.table is None:
            return None
        view = self.table.game.view(None)
        seats = ", ".join(f"{s}:{p['chips']}{'x' if p['out'] else ''}"
                          for s, p in enumerate(view["players"]))
        return (f"round {view['round']} dealer {view['dealer']} turn {view['turn']} "
                f"pot {view['pot']} chips [{seats}]")

    def close(self) -> None:
        if self.table is not None:
            self.table.close()
