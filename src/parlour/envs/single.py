"""One seat learns, every other seat is our computer player: a plain Gymnasium environment.

:func:`make_single` wraps the game's PettingZoo environment with a single agent; the other
seats are :func:`parlour.bots.make_player` at the chosen speed, driven by the same
scheduler and virtual clock (see :mod:`parlour.envs.table` and, for the races, the time
model of :mod:`parlour.envs.realtime`).

- Observation: the agent's ``{"observation", "action_mask"}`` dictionary, as in the
  multi-agent environments; :meth:`SingleAgentEnv.action_masks` gives the mask alone (the
  name masked learners look for).
- Reward: the agent's reward in the multi-agent environment (at the end +1 for a win, -1
  for a loss; ``reward="chips"`` for Slabberjan: chips won or lost at each step).
- Slabberjan: a step is one of the agent's turns (the computer players' turns in between
  are played inside it). Races: a step is one tick.
- An action the mask rules out changes nothing and says so (``info["masked"]``); in the
  races it is a wait.

>>> env = make_single("slabberjan", players=3, opponents="easy", seat=0)
>>> obs, info = env.reset(seed=2)
>>> sorted(obs), int(env.action_space.n)
(['action_mask', 'observation'], 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np

from parlour.bots import LEVELS
from parlour.envs.realtime import RealTimeEnv, SlapjackEnv, SplunkEnv
from parlour.envs.slabberjan import SlabberjanEnv

ENVS: Mapping[str, type[Any]] = {
    "slabberjan": SlabberjanEnv, "slapjack": SlapjackEnv, "splunk": SplunkEnv}


class SingleAgentEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One agent's side of a PettingZoo environment whose other seats are computers."""

    # render_fps: Gymnasium's checker asks every env for one (text frames, any rate)
    metadata = {"render_modes": ["ansi"], "render_fps": 10}

    def __init__(self, env: SlabberjanEnv | RealTimeEnv, agent: str) -> None:
        if env.possible_agents != [agent]:
            raise ValueError(f"need an environment whose one agent is {agent!r}, "
                             f"not {env.possible_agents}")
        self.env = env
        self.agent = agent
        actions = env.action_space(agent)
        assert isinstance(actions, gymnasium.spaces.Discrete)
        self.observation_space = env.observation_space(agent)
        self.action_space = actions
        self.render_mode = env.render_mode
        self._mask = np.ones(int(actions.n), np.int8)
        self._started = False
        self._over = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        env = self.env
        if isinstance(env, SlabberjanEnv):
            env.reset(seed=seed, options=options)
            obs = env.observe(self.agent)
            info = dict(env.infos[self.agent])
        else:
            observations, infos = env.reset(seed=seed, options=options)
            obs, info = observations[self.agent], infos[self.agent]
        self._mask = obs["action_mask"]
        self._started, self._over = True, False
        return obs, info

    def step(self, action: Any, *, delay: float | None = None
             ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """One step (see the module docstring). ``delay`` (the races only): seconds from
        the change the agent reacts to until its action lands, instead of the env's
        reaction model (:class:`~parlour.envs.realtime.RealTimeEnv`), as a built-in
        player's decision gives it."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        env = self.env
        code = env.codec.check(action)
        if isinstance(env, SlabberjanEnv):
            agent = self.agent
            if env.terminations[agent] or env.truncations[agent]:
                # The computer players ended the agent's game before its first turn (at a
                # big table): the first step, whatever it is, ends the episode.
                self._over = True
                return (env.observe(agent), float(env._cumulative_rewards[agent]),
                        bool(env.terminations[agent]), bool(env.truncations[agent]),
                        {**env.infos[agent], "no_turn": True})
            if not self._mask[code]:
                # an action the mask rules out changes nothing (the races: a wait)
                obs = env.observe(self.agent)
                return obs, 0.0, False, False, {"masked": True}
            env.step(code)
            # the only agent's turn comes round again, or the game is over for it
            obs = env.observe(self.agent)
            reward = float(env._cumulative_rewards[self.agent])
            terminated = env.terminations[self.agent]
            truncated = env.truncations[self.agent]
            info = dict(env.infos[self.agent])
        else:
            observations, rewards, terms, truncs, infos = env.step(
                {self.agent: code}, delays=None if delay is None else {self.agent: delay})
            obs, reward = observations[self.agent], float(rewards[self.agent])
            terminated, truncated = terms[self.agent], truncs[self.agent]
            info = infos[self.agent]
        self._mask = obs["action_mask"]
        self._over = bool(terminated or truncated)
        return obs, reward, bool(terminated), bool(truncated), info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The actions open to the agent now."""
        return np.asarray(self._mask, dtype=np.int8)

    def render(self) -> str | None:
        out: str | None = self.env.render()
        return out

    def close(self) -> None:
        self.env.close()


def make_single(game: str, *, players: int = 2, opponents: str = "normal", seat: int = 0,
                **kwargs: Any) -> SingleAgentEnv:
    """A Gymnasium environment in which ``seat`` learns against computer players of speed
    ``opponents`` in every other seat; ``kwargs`` go to the game's environment (``chips``,
    ``free_choice``, ``reward`` for Slabberjan; ``tick``, ``max_seconds``, ``reaction``,
    ``options`` for the races, whose learner reacts by default as ``opponents`` do: the
    race benchmark, :mod:`parlour.envs.registry`)."""
    if game not in ENVS:
        raise ValueError(f"unknown game {game!r} (expected one of: {', '.join(ENVS)})")
    if opponents not in LEVELS:
        raise ValueError(f"unknown speed {opponents!r} (expected one of: {', '.join(LEVELS)})")
    if not 0 <= seat < players:
        raise ValueError(f"no seat {seat} at a {players}-player table")
    others = {s: opponents for s in range(players) if s != seat}
    env = ENVS[game](players=players, opponents=others, **kwargs)
    return SingleAgentEnv(env, f"seat_{seat}")
