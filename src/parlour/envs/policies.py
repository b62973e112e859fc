"""Our built-in computer players as policies of the single-agent environments.

A policy is what an evaluation runs in the agent's seat: given the environment and its
latest observation, an action code, or ``(code, delay)`` in the races, ``delay`` being the
seconds from the change it reacts to until the action lands (``None``: the environment's
own reaction model). A trained model is a policy in one line::

    policy = lambda env, obs: int(model.predict(obs, action_masks=env.action_masks())[0])

:class:`BotPolicy` seats one of our computer players there: it reads the seat's view and
events, as the player does at a table (never the observation vector, which drops what the
player reads), and answers with its decision and its reaction time, held back by the
game's pacing (J10) as the scheduler holds a computer's move. So a built-in player in the
agent's seat plays as it does in ``parlour simulate`` (a test checks the win rates agree).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parlour.bots import make_player
from parlour.bots.base import AnyPlayer
from parlour.envs.realtime import RealTimeEnv
from parlour.envs.single import SingleAgentEnv
from parlour.envs.table import Table, derive, seat_of

#: an action code, or (code, delay in seconds or None) in the races
Choice = int | tuple[int, float | None]
Policy = Callable[[SingleAgentEnv, dict[str, Any]], Choice]


class BotPolicy:
    """Our computer player of speed ``level`` in the agent's seat; each episode's player is
    seeded from ``seed`` and the episode's number, so an evaluation is reproducible."""

    def __init__(self, level: str, *, seed: int = 0) -> None:
        self.level = level
        self.seed = seed
        self.episodes = 0
        self._table: Table | None = None
        self._player: AnyPlayer | None = None

    def _start(self, env: SingleAgentEnv, table: Table) -> AnyPlayer:
        """A new episode: a fresh player, nothing seen yet."""
        self._table = table
        seat = seat_of(env.agent)
        self._player = make_player(table.game.name, self.level, seat,
                                   seed=derive(self.seed, "policy", self.episodes))
        self.episodes += 1
        self._told = 0
        self._decided_on: float | None = None
        self._hold_until = 0.0
        return self._player

    def __call__(self, env: SingleAgentEnv, obs: dict[str, Any]) -> Choice:
        inner = env.env
        table = inner.table
        if table is None:
            raise RuntimeError("call reset() before asking a policy")
        player = self._player if table is self._table else self._start(env, table)
        assert player is not None
        seat = seat_of(env.agent)
        game = table.game
        events = table.events[self._told:]
        self._told = len(table.events)
        view = game.view(seat)
        codec = inner.codec
        if not isinstance(inner, RealTimeEnv):  # turn-based: it is the seat's turn
            decision = player.decide(view, [e.seen_by(seat) for e in events])
            code = None if decision is None else codec.code(decision.action.for_seat())
            if code is None:  # no decision on its own turn would be a bug of the player
                raise RuntimeError(f"{player!r} made no move on its turn")
            return code
        changed = table.changed_at[seat]
        pacing = game.spec.pacing
        if pacing.after and any(e.type in pacing.after for e in events):
            self._hold_until = changed + pacing.pause_for(player.level)
        if changed == self._decided_on:
            return 0, None  # nothing it sees has changed: its pending move stands
        self._decided_on = changed
        decision = player.decide(view, [e.seen_by(seat) for e in events])
        if decision is None:
            return 0, None  # waiting drops its pending move, as a computer's None does
        action = decision.action
        code = codec.code(action.for_seat())
        if code is None:
            return 0, None
        delay = max(0.0, decision.delay)
        if action.type in pacing.held:
            delay = max(delay, self._hold_until - changed)
        return code, delay

    def __repr__(self) -> str:
        return f"BotPolicy({self.level!r}, seed={self.seed})"
