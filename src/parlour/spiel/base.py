"""What Slabberjan's and Splunk's OpenSpiel games share: chance nodes, returns, observers.

A state is a :class:`~parlour.spiel.table.Table` (the Parlour game, its chance given one
card at a time) and a few numbers. The chance nodes come in the order the rules need them:

1. the seat option the rules draw (Slabberjan's first ``dealer``, Splunk's ``first``
   player): one outcome per seat, equally likely;
2. every deck and every shuffle, one card a node (outcome: the card's index in the game's
   alphabet, as likely as the copies of it left), when the rules draw it.

Returns (the reward model is terminal): the winner +1, every other seat -1 / (n - 1),
the sum zero, as in :mod:`parlour.envs`. A game that reaches ``max_turns`` decisions ends
as a draw, all zero: OpenSpiel needs a bound on a game's length, and random play can go
round for a long time (the bound is set well above the lengths measured, see
``docs/research.md``).

Observations come from the seat's view only, never from the game object:

- the observation tensor is :mod:`parlour.envs.encoding`'s codec of ``game.view(seat)``,
  the same numbers as the PettingZoo environments; its string is the view itself as JSON
  (without ``legal``);
- the information state (perfect recall) is a string: every event as the seat was told
  it (``event.seen_by(seat)``), in order, with the moves the game's abstraction adds
  (Splunk's reaction order and passes). A perfect-recall *tensor* would have to hold the
  whole history, which has no small fixed size here, so none is provided: algorithms that
  need a tensor read the observation.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import orjson
import pyspiel

from parlour.engine import Action, Game
from parlour.envs.encoding import Codec
from parlour.spiel.table import Table, card_outcomes


def game_type(short_name: str, long_name: str, *, min_players: int, max_players: int,
              parameters: Mapping[str, Any]) -> Any:
    """The :class:`pyspiel.GameType` of a Parlour card game: sequential, explicit chance,
    imperfect information, zero-sum, rewarded at the end."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(parameters),
    )


def game_info(*, players: int, actions: int, cards: int, max_turns: int) -> Any:
    return pyspiel.GameInfo(
        num_distinct_actions=actions,
        max_chance_outcomes=max(cards, players),
        num_players=players,
        min_utility=-1.0 / (players - 1),
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=max_turns,
    )


class CardGameState(pyspiel.State):
    """One state of a Parlour game in OpenSpiel; a subclass says who decides and how."""

    #: the Parlour game
    rules: ClassVar[type[Game]]
    codec: ClassVar[Codec]
    #: the chance outcomes of a card node are indices into this
    alphabet: ClassVar[tuple[Any, ...]]
    #: the option whose seat is drawn by the first chance node
    seat_option: ClassVar[str]

    def __init__(self, game: Any, options: Mapping[str, Any]) -> None:
        super().__init__(game)
        self.options = dict(options)
        self.players = game.num_players()
        self.max_turns = game.max_game_length()
        self.table: Table | None = None  # until the seat option is drawn
        self.turns = 0

    # -- what a subclass supplies ---------------------------------------------------------

    @abstractmethod
    def _decider(self) -> int:
        """The seat that decides now (the game is on, no chance pending)."""

    @abstractmethod
    def _decisions(self, seat: int) -> list[int]:
        """The action codes open to ``seat`` now, sorted."""

    @abstractmethod
    def _decide(self, seat: int, code: int) -> None:
        """Carries out ``seat``'s decision ``code`` (one of :meth:`_decisions`)."""

    #: how many numbers the game's abstraction adds to the observation tensor
    extra: ClassVar[int] = 0

    def own_chance(self) -> list[tuple[int, float]] | None:
        """A chance node of the game's abstraction itself (not of the rules), or ``None``."""
        return None

    def _own_chance_outcome(self, action: int) -> None:
        raise NotImplementedError

    def extra_features(self, seat: int) -> list[float]:
        """The :attr:`extra` numbers of the observation tensor (the abstraction's state)."""
        return []

    def moves(self, seat: int) -> list[str]:
        """What the game's abstraction adds to ``seat``'s information state besides the
        events (nothing, for a game played as its rules are)."""
        return []

    # -- OpenSpiel's API --------------------------------------------------------------------

    @property
    def parlour(self) -> Game:
        """The Parlour game being played (after the first chance node)."""
        game = None if self.table is None else self.table.game
        if game is None:
            raise RuntimeError("the game has not been dealt yet")
        return game

    def current_player(self) -> int:
        table = self.table
        if table is None or table.need is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.parlour.winner is not None or self.turns >= self.max_turns:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.own_chance() is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return self._decider()

    def _legal_actions(self, player: int) -> list[int]:
        return self._decisions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.table is None:
            return [(seat, 1.0 / self.players) for seat in range(self.players)]
        if self.table.need is not None:
            return card_outcomes(self.table, self.alphabet)
        return self.own_chance() or []

    def _apply_action(self, action: int) -> None:
        if self.table is None:
            self.table = Table(self.rules, self.players,
                               {**self.options, self.seat_option: int(action)})
        elif self.table.need is not None:
            self.table.give_card(self.alphabet[action])
        elif self.own_chance() is not None:
            self._own_chance_outcome(int(action))
        else:
            self.turns += 1
            self._decide(self._decider(), int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.table is None:
                return f"{self.seat_option} {action}"
            if self.table.need is not None:
                return f"card {self.alphabet[action]}"
            return f"abstraction {action}"
        return self.codec.labels()[action]

    def is_terminal(self) -> bool:
        return bool(self.current_player() == pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        game = None if self.table is None else self.table.game
        winner = None if game is None else game.winner
        if winner is None:  # in play, or a draw at max_turns
            return [0.0] * self.players
        lose = -1.0 / (self.players - 1)
        return [1.0 if s == winner else lose for s in range(self.players)]

    def __str__(self) -> str:
        if self.table is None:
            return f"{self.rules.name}: before the draw of {self.seat_option}"
        # the whole story, hidden cards included (for debugging and OpenSpiel's checks
        # that a copy is the same state): every order given, every event
        table = self.table
        return "\n".join([orjson.dumps({"options": table.options, "decks": table.decks,
                                         "shuffles": table.shuffles,
                                         "drawing": table.drawn,
                                         "pending": table.pending and table.pending.to_json(),
                                         }).decode(),
                          *table.told(-1), *self.moves(-1), f"turns {self.turns}"])

    # -- what a seat may know -----------------------------------------------------------------

    def action_for(self, seat: int, code: int) -> Action:
        """The Parlour action that code ``code`` names for ``seat`` now (from its view)."""
        game = self.parlour
        obj = self.codec.action_json(code, game.view(seat))
        if obj is None:
            raise ValueError(f"seat {seat} cannot take action {code} now")
        return game.parse_action(obj, player=seat)

    def view(self, seat: int) -> Mapping[str, Any] | None:
        """``seat``'s view, or ``None`` before the deal."""
        game = None if self.table is None else self.table.game
        return None if game is None else game.view(seat)


def _view_string(state: CardGameState, seat: int) -> str:
    view = state.view(seat)
    if view is None:
        return f"seat {seat}: not dealt yet"
    shown = {k: v for k, v in view.items() if k != "legal"}
    return orjson.dumps({**shown, "moves": state.moves(seat)[-1:],
                         "deciding": state.current_player()}).decode()


def _info_string(state: CardGameState, seat: int) -> str:
    game = None if state.table is None else state.table.game
    if game is None:
        return f"seat {seat}"
    assert state.table is not None
    return "\n".join([f"seat {seat}", *state.table.told(seat), *state.moves(seat)])


class Observer:
    """OpenSpiel's ``PyObserver`` for a Parlour game: the codec of the seat's view (an
    observation), or the seat's whole story as a string (an information state)."""

    def __init__(self, codec: Codec, players: int, options: Mapping[str, Any],
                 iig_obs_type: Any, params: Mapping[str, Any] | None, *,
                 extra: int = 0) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {dict(params)}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        if (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("a Parlour game observes one seat: its public and private "
                             "information (PrivateInfoType.SINGLE_PLAYER)")
        self.codec, self.players, self.options = codec, players, dict(options)
        self.extra = extra
        size = 0 if self.perfect_recall else codec.size(players) + extra
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardGameState, player: int) -> None:
        if self.perfect_recall:
            return
        view = state.view(player)
        if view is None:
            self.tensor.fill(0)
            return
        n = len(self.tensor) - self.extra
        self.tensor[:n] = self.codec.encode(view, (), player, self.players,
                                            state.parlour.options)
        if self.extra:
            self.tensor[n:] = state.extra_features(player)

    def string_from(self, state: CardGameState, player: int) -> str:
        if self.perfect_recall:
            return _info_string(state, player)
        return _view_string(state, player)
