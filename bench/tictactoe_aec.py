"""A plain-Python tic-tac-toe AEC environment: the yardstick of Slabberjan's AEC speed.

PettingZoo's own ``tictactoe_v3`` with its rendering and wrappers taken out: a list board,
the eight lines checked after each move, an ``{"observation", "action_mask"}`` observation
of numpy arrays, rewards, terminations and the agent selector of any AEC environment. It
imports no pygame (PettingZoo's classic games do), so every machine that runs the
environments can time it beside them (``bench/bench_envs.py``: issue 34's goal is
Slabberjan's 4-agent AEC at 0.35 times its steps per second, measured in the same run).

>>> env = TicTacToe()
>>> env.reset(seed=0)
>>> for square in (0, 3, 1, 4, 2):
...     env.step(square)
>>> env.rewards, all(env.terminations.values())
({'player_1': 1, 'player_2': -1}, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
         (2, 4, 6))


class TicTacToe(AECEnv):  # type: ignore[misc]
    metadata = {"name": "plain_tictactoe", "render_modes": [], "is_parallelizable": False}

    def __init__(self) -> None:
        super().__init__()
        self.possible_agents = ["player_1", "player_2"]
        self.agents = list(self.possible_agents)
        box = spaces.Dict({"observation": spaces.Box(0, 1, (3, 3, 2), np.int8),
                           "action_mask": spaces.Box(0, 1, (9,), np.int8)})
        self._obs_space, self._act_space = box, spaces.Discrete(9)
        self.board = [0] * 9
        self._selector = AgentSelector(self.agents)

    def observation_space(self, agent: str) -> Any:
        return self._obs_space

    def action_space(self, agent: str) -> Any:
        return self._act_space

    def observe(self, agent: str) -> dict[str, Any]:
        me = self.possible_agents.index(agent) + 1
        board = np.array(self.board).reshape(3, 3)
        observation = np.empty((3, 3, 2), np.int8)
        observation[:, :, 0] = board == me
        observation[:, :, 1] = board == 3 - me
        mask = np.zeros(9, np.int8)
        if agent == self.agent_selection:
            for i, mark in enumerate(self.board):
                if not mark:
                    mask[i] = 1
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.board = [0] * 9
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._selector.reinit(self.agents)
        self.agent_selection = self._selector.reset()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        me = self.agents.index(agent) + 1
        board = self.board
        board[int(action)] = me
        won = any(board[a] == board[b] == board[c] == me for a, b, c in LINES)
        if won or all(board):
            if won:
                other = self.agents[2 - me]
                self.rewards[agent] += 1
                self.rewards[other] -= 1
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        self.agent_selection = self._selector.next()
