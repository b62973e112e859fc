"""Slapjack and Splunk as PettingZoo Parallel environments on ticks of virtual time.

Both games are races: anyone may slap at any moment, and who slaps first wins (J3, P5). The
environments make time explicit.

The time model
--------------

- Virtual time runs in ticks of ``tick`` seconds (default 0.1 s). Step ``k`` starts at
  time ``t_k = k * tick``: every live agent has just observed the table as it is at
  ``t_k``, and each either waits (action 0) or takes one action.
- An agent's action goes on the same virtual clock as the computers' moves, timed as a
  computer's is: from the moment what the agent sees last changed, plus its reaction
  (``reaction``: seconds, or a speed's reaction model or a ReactionTime, drawn once per
  change it reacts to; or the ``delay`` given with the action, as
  :class:`parlour.envs.policies.BotPolicy` gives a built-in player's), and not before
  ``t_k``. The default, ``reaction="opponents"``, is the race benchmark's: the agents
  react as the computer players at the table do (their speed's reaction times), so that
  a learner wins by what it decides, not by a reflex no person has; with no computer
  player the agents race each other, at once (0 s). The action waits on the clock until it
  lands; a new action replaces it (the same one keeps the earlier time); waiting keeps
  it unless what the agent sees changed since it chose, which supersedes it, as a
  computer's new answer does.
- Everything due at one instant, the agents' actions and the computers' moves, is made in
  the episode's seeded tie-break order of the seats (J3: the earlier slap wins; an exact
  tie goes to the seeded order, as in our simulations), so no side wins a tie for being a
  computer. Every action goes through the checked path of a live table
  (:meth:`Scheduler.act`): a slap aimed at a card covered or won meanwhile carries the old
  ``at`` and is ignored without penalty (J6, P5); one the rules refuse when it lands is
  reported in ``infos[agent]["refused"]``, one the mask ruled out is a wait, reported in
  ``infos[agent]["masked"]``.
- Then the table runs to ``t_{k+1}``: our computer players (``opponents``: seat -> speed)
  act at their own times, decided by the same :class:`~parlour.bots.scheduler.Scheduler`
  on the same :class:`~parlour.bots.scheduler.VirtualClock` as a simulation, with their
  reaction times and the game's pacing (J10); what is due exactly at ``t_{k+1}`` is made
  in the next tick, with the agents' actions of that instant.
- The turn timer: a learning seat whose turn it has been for ``turn_seconds`` is played
  for (``infos[agent]["played_for"]``), as a live table plays for a seat nobody is at, so
  that never acting loses rather than freezing the game into a truncation.
- The episode ends when the game does (every agent terminates; a Slapjack seat knocked
  out terminates then), and is truncated after ``max_seconds`` of virtual time (default:
  above every one of 1,200 simulated games, ``default_max_seconds``), worth
  ``truncated_reward``.

Observations are ``{"observation": Box(0, 1, (size,), float32), "action_mask":
Box(0, 1, (actions,), int8)}``, the layouts of :mod:`parlour.envs.encoding`; rewards are +1
to the winner and -1 / (n - 1) to every other seat (when it is knocked out, or at the end).

>>> env = SplunkEnv(opponents={1: "easy"})
>>> obs, infos = env.reset(seed=3)
>>> env.agents, obs["seat_0"]["observation"].shape, int(env.action_space("seat_0").n)
(['seat_0'], (98,), 10)
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import ParallelEnv

from parlour.bots.base import REACTION_TIMES, ReactionTime
from parlour.envs.encoding import CODECS, Codec, Obs
from parlour.envs.table import Table, agent_name, derive, learning_seats
from parlour.games import spec as game_spec

#: How long a learning seat may sit on its turn before the table plays for it (seconds of
#: virtual time): without it, never playing froze a race until the time limit, and a
#: truncation (0) beat a loss (-1), so a learner learnt to stall.
DEFAULT_TURN_SECONDS = 10.0


class RealTimeEnv(ParallelEnv):
    """A race game on ticks of virtual time; see the module docstring."""

    game_name = ""
    metadata: dict[str, Any] = {"render_modes": ["ansi"]}
    #: the moves that are a seat's turn (what the turn timer plays for it)
    turn_actions: frozenset[str] = frozenset()
    #: the default ``max_seconds``, chosen from measured game lengths (docs/research.md)
    default_max_seconds = 600.0

    def __init__(self, players: int = 2, *, opponents: Mapping[int, str] | None = None,
                 tick: float = 0.1, max_seconds: float | None = None,
                 reaction: float | str | ReactionTime = "opponents",
                 turn_seconds: float | None = DEFAULT_TURN_SECONDS,
                 truncated_reward: float = 0.0,
                 options: Mapping[str, Any] | None = None,
                 render_mode: str | None = None) -> None:
        spec = game_spec(self.game_name)
        spec.check_players(players)
        self.game_options = dict(options or {})
        spec.resolve_options(self.game_options, players=players, draw=lambda n: 0)
        if not tick > 0:
            raise ValueError(f"tick must be a positive number of seconds, not {tick!r}")
        if turn_seconds is not None and not turn_seconds > 0:
            raise ValueError(f"turn_seconds must be a positive number of seconds or None, "
                             f"not {turn_seconds!r}")
        self.codec: Codec = CODECS[self.game_name]
        self.players = players
        self.opponents = dict(opponents or {})
        self.learners = learning_seats(players, self.opponents)
        self.tick = float(tick)
        self.max_seconds = float(self.default_max_seconds if max_seconds is None
                                 else max_seconds)
        self.reaction = reaction_model(reaction, self.opponents)
        self.turn_seconds = turn_seconds
        self.truncated_reward = float(truncated_reward)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in self.learners]
        self._seat = {agent_name(s): s for s in self.learners}
        self.agents: list[str] = []
        self._obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (self.codec.size(players),),
                                                np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.codec.actions,), np.int8)})
        self._act_space = gymnasium.spaces.Discrete(self.codec.actions)
        self._seed_rng: np.random.Generator | None = None
        self.table: Table | None = None
        self._views: dict[str, Mapping[str, Any]] = {}
        #: agent -> the change of its view its observation was last encoded from (the
        #: table's count), that view, observation and mask
        self._encoded: dict[str, tuple[int, Mapping[str, Any], Obs, Any]] = {}

    # Plain methods over spaces made once: functools.cache on a method kept every env
    # (its key) alive for ever.
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._act_space

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
                           shuffles=options.get("shuffles", ()), timed=True,
                           turn_actions=self.turn_actions, turn_seconds=self.turn_seconds)
        # the reactions of each agent: their own generator, from the episode's seed, made
        # when first drawn from (a derived seed is a SHA-512; a fixed reaction draws none)
        self._episode_seed = episode_seed
        self._reactions: dict[str, random.Random] = {}
        self._decided_at: dict[str, float] = {}
        # agent -> (the change it reacts to, its reaction to it)
        self._drawn: dict[str, tuple[float, float]] = {}
        self._encoded = {}
        self.table.advance(0.0)  # what the computer players do at once is in the first look
        self.agents = list(self.possible_agents)
        self._out: set[str] = set()
        return self._observe_all(), {a: {} for a in self.agents}

    def _started(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table

    def _observe_all(self) -> dict[str, Any]:
        table = self.table
        assert table is not None
        changes, seats, encoded_by = table.changes, self._seat, self._encoded
        views: dict[str, Mapping[str, Any]] = {}
        self._views = views
        observations: dict[str, Any] = {}
        for agent in self.agents:
            seat = seats[agent]
            # Many ticks change nothing an agent sees (the table counts the changes of its
            # view): its view is made and its observation encoded once per change, and each
            # step hands out copies, so that a caller who changes an array in place changes
            # only its own
            encoded = encoded_by.get(agent)
            if encoded is None or encoded[0] != changes[seat]:
                view = table.view(seat)
                encoded = encoded_by[agent] = (
                    changes[seat], view, self.observation_vector(seat, view),
                    self.codec.shared_mask(view))
            views[agent] = encoded[1]
            observations[agent] = {"observation": encoded[2].copy(),
                                   "action_mask": encoded[3].copy()}
        return observations

    def observation_vector(self, seat: int, view: Mapping[str, Any] | None = None) -> Obs:
        """The observation of ``seat`` now: from its view only."""
        table = self._started()
        if view is None:
            view = table.view(seat)
        return self.codec.encode(view, (), seat, self.players, self.game_options)

    def step(self, actions: Mapping[str, Any], *,
             delays: Mapping[str, float] | None = None) -> tuple[
            dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        """One tick. ``actions``: agent -> action code (an agent left out waits; an agent
        that is done is ignored). ``delays``: agent -> seconds from the change it reacts to
        until its action lands, instead of a draw from the env's ``reaction`` model (what
        a built-in player's decision says: :class:`parlour.envs.policies.BotPolicy`). A bad
        action or delay raises ``ValueError`` and changes nothing."""
        table = self._started()
        agents = self.agents
        if not agents:
            raise RuntimeError("the episode is over: call reset()")
        codec, seats = self.codec, self._seat
        codes: dict[str, int] = {}
        for agent, code in actions.items():
            if agent not in seats:
                raise ValueError(f"no agent {agent!r} (the agents: {self.possible_agents})")
            if agent in agents:
                codes[agent] = codec.check(code)
        if delays:
            for agent, delay in delays.items():
                if agent not in seats:
                    raise ValueError(f"no agent {agent!r} (the agents: "
                                     f"{self.possible_agents})")
                if not (isinstance(delay, (int, float)) and math.isfinite(delay)
                        and delay >= 0):
                    raise ValueError(f"a delay is a number of seconds >= 0, not {delay!r}")
        now = table.clock.now()
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        changed_at, decided_at, views = table.changed_at, self._decided_at, self._views
        for agent in agents:
            seat = seats[agent]
            code = codes.get(agent, 0)
            changed = changed_at[seat]
            # what the agent saw changed since it last chose: this choice supersedes its
            # pending action (waiting drops it), as a computer's new answer does
            superseded = decided_at.get(agent) != changed
            decided_at[agent] = changed
            chosen = codec.legal_entry(code, views[agent])
            if chosen is None:
                if codec.templates[code] is not None:
                    infos[agent]["masked"] = True
                if superseded:
                    table.cancel(seat)
                continue
            given = delays.get(agent) if delays else None
            table.schedule(seat, chosen, changed + (self._react(agent, changed) if given is None
                                                    else float(given)))
        table.advance(now + self.tick)
        refused, played_for = table.refused, table.played_for
        for agent in agents:
            seat = seats[agent]
            if refused[seat]:
                infos[agent]["refused"] = True
                refused[seat] = 0
            if played_for[seat]:
                infos[agent]["played_for"] = played_for[seat]
                played_for[seat] = 0
        return self._settle(infos)

    def _react(self, agent: str, changed: float) -> float:
        """The agent's reaction to the change at ``changed``: drawn once per change, as a
        computer's is, so an agent that asks again on every tick lands when one draw says,
        not at the best of several."""
        model = self.reaction
        if not isinstance(model, ReactionTime):
            return model
        drawn = self._drawn.get(agent)
        if drawn is None or drawn[0] != changed:
            rng = self._reactions.get(agent)
            if rng is None:
                rng = self._reactions[agent] = random.Random(
                    derive(self._episode_seed, "reaction", agent))
            drawn = self._drawn[agent] = (changed, model.draw(rng))
        return drawn[1]

    def _settle(self, infos: dict[str, dict[str, Any]]) -> tuple[
            dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        table = self.table
        assert table is not None
        winner = table.game.winner  # None exactly while there is no outcome
        over = winner is not None
        truncated = not over and table.clock.now() >= self.max_seconds - 1e-9
        lose = -1.0 / (self.players - 1)
        rewards: dict[str, float] = {}
        terminations: dict[str, bool] = {}
        truncations: dict[str, bool] = {}
        observations = self._observe_all()
        seats, views, was_out = self._seat, self._views, self._out
        for agent in self.agents:
            seat = seats[agent]
            out = bool(views[agent]["players"][seat].get("out", False))
            if over:
                rewards[agent] = 1.0 if winner == seat else (
                    0.0 if agent in was_out else lose)
            elif out and agent not in was_out:
                rewards[agent] = lose
            elif truncated and not out:
                rewards[agent] = self.truncated_reward
            else:
                rewards[agent] = 0.0
            if out:
                was_out.add(agent)
            terminations[agent] = over or out
            truncations[agent] = truncated
        if over or truncated or was_out:
            self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.table is None:
            return None
        return f"t={self.table.clock.now():.2f}s {self.table.game.view(None)}"

    def close(self) -> None:
        if self.table is not None:
            self.table.close()


#: ``reaction`` for agents that react as the computer players at their table do (the
#: quickest of them): the race benchmark's, and the environments' default
OPPONENTS = "opponents"


def reaction_model(reaction: float | str | ReactionTime,
                   opponents: Mapping[int, str] | None = None) -> float | ReactionTime:
    """A learner's reaction time: fixed seconds, or a built-in speed's reaction model by
    name (``"normal"``: :data:`parlour.bots.base.REACTION_TIMES`), or any ReactionTime, or
    ``"opponents"``: the reaction model of the computer players' speed (``opponents``:
    seat -> speed; the quickest of them at a mixed table, so that no computer out-reacts
    the learners); with no computer player, 0 s."""
    if isinstance(reaction, ReactionTime):
        return reaction
    if reaction == OPPONENTS:
        speeds = set((opponents or {}).values())
        if not speeds:
            return 0.0
        reaction = min(speeds, key=lambda s: REACTION_TIMES[s].median
                       if s in REACTION_TIMES else math.inf)
    if isinstance(reaction, str):
        if reaction not in REACTION_TIMES:
            raise ValueError(f"unknown speed {reaction!r} (expected one of: "
                             f"{', '.join(REACTION_TIMES)}, or {OPPONENTS!r})")
        return REACTION_TIMES[reaction]
    if isinstance(reaction, bool) or not isinstance(reaction, (int, float)) or not (
            math.isfinite(reaction) and reaction >= 0):
        raise ValueError(f"reaction must be seconds >= 0, a speed, {OPPONENTS!r} or a "
                         f"ReactionTime, not {reaction!r}")
    return float(reaction)


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
    turn_actions = frozenset({"flip"})
    # 400 games each of Easy at 2, 4 and 8 players (parlour simulate): the longest 1,201 s,
    # the 99th percentile 735 to 913 s, the median 169 to 257 s
    default_max_seconds = 1800.0


class SplunkEnv(RealTimeEnv):
    """Splunk (2 players) on ticks of virtual time. Actions: ``Discrete(10)``, 0 wait, 1-4
    play on stack 0-3, 5 call, 6-9 slap stack 0-3 (aimed at the latest play the agent
    saw). Option ``jokers`` through ``options={"jokers": True}``. Observation:
    :func:`parlour.envs.encoding.encode_splunk`."""

    game_name = "splunk"
    metadata = {"name": "parlour_splunk_v0", "render_modes": ["ansi"]}
    turn_actions = frozenset({"play"})
    # 400 games each of Easy, Normal and Hard against their twin (parlour simulate): the
    # longest 3,120 s, the 99th percentile 2,004 to 2,778 s, the median 404 to 521 s; the
    # old 600 s cut about 40% of natural games
    default_max_seconds = 3600.0
