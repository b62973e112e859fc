"""Slapjack and Splunk as PettingZoo Parallel environments on ticks of virtual time.

Both games are races: anyone may slap at any moment, and who slaps first wins (J3, P5). The
environments make time explicit.

The time model
--------------

- Virtual time runs in ticks of ``tick`` seconds (default 0.1 s). Step ``k`` starts at
  time ``t_k = k * tick``: every live agent has just observed the table as it is at
  ``t_k``, and each either waits (action 0) or takes one action.
- The agents' actions all happen at the instant ``t_k``. Actions at the same instant are
  applied one after another in the episode's seeded tie-break order of the seats (J3: the
  earlier slap wins; an exact tie is broken by a seeded order, as in our simulations).
  Every action goes through the checked path of a live table (:meth:`Scheduler.act`), so
  a slap aimed at a card that another action has just covered or won carries the old
  ``at`` and is ignored without penalty (J6, P5) exactly as at a live table; an action the
  rules refuse by then (a flip that is no longer yours) is dropped and reported in
  ``infos[agent]["refused"]``. An action the mask ruled out at ``t_k`` is treated as
  waiting and reported in ``infos[agent]["masked"]``.
- Then the table runs to ``t_{k+1}``: our computer players (``opponents``: seat -> speed)
  act at their own times inside the tick, decided by the same
  :class:`~parlour.bots.scheduler.Scheduler` on the same
  :class:`~parlour.bots.scheduler.VirtualClock` as a simulation, with their reaction
  times and the game's pacing (J10). Their actions at an instant tie with each other by
  the same seeded order; an agent's action at ``t_k`` comes after every computer action
  due at or before ``t_k`` (those were in the observation).
- So an agent reacts to anything within one tick: it sees the table every ``tick``
  seconds and its action lands at once. Our Hard players react in 0.18 s at the fastest
  (0.40 s median): with the default tick an agent can be quicker than Hard, as a fast
  person can; a larger ``tick`` makes it slower.
- The episode ends when the game does (every agent terminates; a Slapjack seat knocked
  out terminates then), and is truncated after ``max_seconds`` of virtual time.

Observations are ``{"observation": Box(0, 1, (size,), float32), "action_mask":
Box(0, 1, (actions,), int8)}``, the layouts of :mod:`parlour.envs.encoding`; rewards are +1
to the winner and -1 / (n - 1) to every other seat (when it is knocked out, or at the end).

>>> env = SplunkEnv(opponents={1: "easy"})
>>> obs, infos = env.reset(seed=3)
>>> env.agents, obs["seat_0"]["observation"].shape, int(env.action_space("seat_0").n)
(['seat_0'], (98,), 10)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import ParallelEnv

from parlour.envs.encoding import CODECS, Codec, Obs
from parlour.envs.table import Table, agent_name, learning_seats, seat_of
from parlour.games import spec as game_spec


class RealTimeEnv(ParallelEnv):
    """A race game on ticks of virtual time; see the module docstring."""

    game_name = ""
    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(self, players: int = 2, *, opponents: Mapping[int, str] | None = None,
                 tick: float = 0.1, max_seconds: float = 600.0,
                 options: Mapping[str, Any] | None = None,
                 render_mode: str | None = None) -> None:
        spec = game_spec(self.game_name)
        spec.check_players(players)
        self.game_options = dict(options or {})
        spec.resolve_options(self.game_options, players=players, draw=lambda n: 0)
        if not tick > 0:
            raise ValueError(f"tick must be a positive number of seconds, not {tick!r}")
        self.codec: Codec = CODECS[self.game_name]
        self.players = players
        self.opponents = dict(opponents or {})
        self.learners = learning_seats(players, self.opponents)
        self.tick = float(tick)
        self.max_seconds = float(max_seconds)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in self.learners]
        self.agents: list[str] = []
        self._obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (self.codec.size(players),),
                                                np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.codec.actions,), np.int8)})
        self._seed_rng: np.random.Generator | None = None
        self.table: Table | None = None
        self._views: dict[str, Mapping[str, Any]] = {}

    @functools.cache  # noqa: B019 (one env, a few agents)
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._obs_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return gymnasium.spaces.Discrete(self.codec.actions)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """A new game at time 0. ``seed`` fixes it (and the episodes after it);
        ``options={"decks": [...], "shuffles": [...]}`` stacks the chance outcomes as a
        record does."""
        if seed is not None or self._seed_rng is None:
            self._seed_rng = np.random.default_rng(seed)
        episode_seed = int(self._seed_rng.integers(2**62))
        options = dict(options or {})
        if self.table is not None:
            self.table.close()
        self.table = Table(self.game_name, self.players, self.game_options, self.opponents,
                           episode_seed, decks=options.get("decks", ()),
                           shuffles=options.get("shuffles", ()))
        self.table.advance(0.0)  # what the computer players do at once is in the first look
        self.agents = list(self.possible_agents)
        self._out: set[str] = set()
        return self._observe_all(), {a: {} for a in self.agents}

    def _observe_all(self) -> dict[str, Any]:
        assert self.table is not None
        self._views = {a: self.table.view(seat_of(a)) for a in self.agents}
        return {a: self._observation(a) for a in self.agents}

    def _observation(self, agent: str) -> dict[str, Any]:
        view = self._views[agent]
        return {"observation": self.observation_vector(seat_of(agent), view),
                "action_mask": self.codec.mask(view)}

    def observation_vector(self, seat: int, view: Mapping[str, Any] | None = None) -> Obs:
        """The observation of ``seat`` now: from its view only."""
        assert self.table is not None
        if view is None:
            view = self.table.view(seat)
        return self.codec.encode(view, (), seat, self.players, self.game_options)

    def step(self, actions: Mapping[str, Any]) -> tuple[
            dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        table = self.table
        assert table is not None
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        ranked = sorted((a for a in actions if a in self.agents),
                        key=lambda a: table.tie_rank[seat_of(a)])
        for agent in ranked:
            if table.over:
                break
            code = int(actions[agent])
            view = self._views[agent]
            chosen = self.codec.action_json(code, view)
            if chosen is None:
                if self.codec.templates[code] is not None:
                    infos[agent]["masked"] = True
                continue
            if not table.act(seat_of(agent), chosen):
                infos[agent]["refused"] = True
        if not table.over:
            table.advance(table.clock.now() + self.tick)
        return self._settle(infos)

    def _settle(self, infos: dict[str, dict[str, Any]]) -> tuple[
            dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        table = self.table
        assert table is not None
        public = table.game.view(None)
        winner = public["winner"]
        over = winner is not None
        truncated = not over and table.clock.now() >= self.max_seconds
        lose = -1.0 / (self.players - 1)
        rewards: dict[str, float] = {}
        terminations: dict[str, bool] = {}
        truncations: dict[str, bool] = {}
        for agent in self.agents:
            seat = seat_of(agent)
            out = bool(public["players"][seat].get("out", False))
            if over:
                rewards[agent] = 1.0 if winner == seat else (
                    0.0 if agent in self._out else lose)
            elif out and agent not in self._out:
                rewards[agent] = lose
            else:
                rewards[agent] = 0.0
            if out:
                self._out.add(agent)
            terminations[agent] = over or out
            truncations[agent] = truncated
        observations = self._observe_all()
        self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.table is None:
            return None
        return f"t={self.table.clock.now():.2f}s {self.table.game.view(None)}"

    def close(self) -> None:
        if self.table is not None:
            self.table.close()


class SlapjackEnv(RealTimeEnv):
    """Slapjack (2 to 8 players) on ticks of virtual time. Actions: ``Discrete(3)``, 0 wait,
    1 flip, 2 slap (aimed at the top card the agent saw: ``at`` from its view).
    Observation: :func:`parlour.envs.encoding.encode_slapjack`.

    >>> env = SlapjackEnv(players=3, opponents={1: "hard", 2: "easy"}, tick=0.2)
    >>> _ = env.reset(seed=0)
    >>> env.agents
    ['seat_0']
    """

    game_name = "slapjack"
    metadata = {"name": "parlour_slapjack_v0", "render_modes": ["ansi"]}


class SplunkEnv(RealTimeEnv):
    """Splunk (2 players) on ticks of virtual time. Actions: ``Discrete(10)``, 0 wait, 1-4
    play on stack 0-3, 5 call, 6-9 slap stack 0-3 (aimed at the latest play the agent
    saw). Option ``jokers`` through ``options={"jokers": True}``. Observation:
    :func:`parlour.envs.encoding.encode_splunk`."""

    game_name = "splunk"
    metadata = {"name": "parlour_splunk_v0", "render_modes": ["ansi"]}
