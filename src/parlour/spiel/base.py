"""What Slabberjan's and Splunk's OpenSpiel games share: chance nodes, returns, observers.

A state is a :class:`~parlour.spiel.table.Table` (the Parlour game, its chance given as it
is seen) and a few numbers. The chance nodes come in the order the rules need them:

1. the seat option the rules draw (Slabberjan's first ``dealer``, Splunk's ``first``
   player): one outcome per seat, equally likely;
2. of every deck and every shuffle, the cards someone sees at once (a Slabberjan deal:
   each seat's piece), one card a node (outcome: the card's index in the game's alphabet,
   as likely as the copies of it left);
3. every other card when someone first sees it (a *reveal*: the piece a Slabberjan dealer
   draws from the bag, a card a Splunk player turns over), a node over the cards nobody
   has seen yet, each as likely as its copies. The decision that shows it is made once it
   is drawn.

Returns (the reward model is terminal): the winner +1, every other seat -1 / (n - 1),
the sum zero, as in :mod:`parlour.envs`. A game that reaches ``max_turns`` decisions ends
as a draw, all zero: OpenSpiel needs a bound on a game's length, and random play can go
round for a long time (the bound is set well above the lengths measured, see
``docs/research.md``). With ``cut="lead"`` a game cut there is scored as won by the seat
ahead (Slabberjan: the most chips; Splunk: the fewest cards), a draw if several are: a
short horizon that still rewards playing well (the exact solves of docs/research.md play
one round of Slabberjan so).

Observations come from the seat's view only, never from the game object:

- the observation tensor is :mod:`parlour.envs.encoding`'s codec of ``game.view(seat)``,
  the same numbers as the PettingZoo environments; its string is the view itself as JSON
  (without ``legal``);
- the information state is a string, by default *compact* (``information="compact"``):
  what the seat knows now that bears on the rest of the game, bounded in size whatever
  the length of the game (each game's module says what); ``information="history"`` gives
  perfect recall instead: every event as the seat was told it
  (``event.seen_by(seat)``), in order, with the moves the game's abstraction adds. A
  perfect-recall *tensor* would have to hold the whole history, which has no small fixed
  size here, so none is provided: algorithms that need a tensor read the observation.
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
from parlour.spiel.table import Table, card_outcomes, no_face

#: the information-state strings a game offers (its ``information`` parameter)
INFORMATION = ("compact", "history")
#: how a game cut at ``max_turns`` is scored (its ``cut`` parameter)
CUTS = ("draw", "lead")
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


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


def information_kind(params: Mapping[str, Any]) -> str:
    kind = str(params["information"])
    if kind not in INFORMATION:
        raise ValueError(f"information must be one of {', '.join(INFORMATION)}, not {kind!r}")
    return kind


def cut_kind(params: Mapping[str, Any]) -> str:
    kind = str(params["cut"])
    if kind not in CUTS:
        raise ValueError(f"cut must be one of {', '.join(CUTS)}, not {kind!r}")
    return kind


class CardGameState(pyspiel.State):
    """One state of a Parlour game in OpenSpiel; a subclass says who decides and how."""

    #: the Parlour game
    rules: ClassVar[type[Game]]
    codec: ClassVar[Codec]
    #: the chance outcomes of a card node are indices into this
    alphabet: ClassVar[tuple[Any, ...]]
    #: the option whose seat is drawn by the first chance node
    seat_option: ClassVar[str]

    def __init__(self, game: Any, options: Mapping[str, Any], information: str,
                 cut: str = "draw") -> None:
        super().__init__(game)
        self.options = dict(options)
        self.information = information
        self.cut = cut
        self.players = game.num_players()
        self.max_turns = game.max_game_length()
        self.table: Table | None = None  # until the seat option is drawn
        self.turns = 0
        #: a decision (seat, code) that shows a card nobody has seen: made once it is drawn
        self.revealing: tuple[int, int] | None = None

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

    def standing(self, seat: int) -> float:
        """How far ahead ``seat`` is (more is better), for a game cut with ``cut="lead"``."""
        return 0.0

    @abstractmethod
    def compact_information(self, seat: int) -> str:
        """What ``seat`` knows now that bears on the rest of the game (a bounded string)."""

    @abstractmethod
    def resample_from_infostate(self, player_id: int, probability_sampler: Any
                                ) -> CardGameState:
        """A state ``player_id`` cannot tell from this one, drawn by the chance of the
        deal given everything it knows (OpenSpiel's API; IS-MCTS samples its worlds so)."""

    @staticmethod
    def face(game: Game | None, players: int) -> int:
        """How many leading cards of a draw someone sees at once (see :mod:`table`)."""
        return no_face(game, players)

    def reveal_needed(self, seat: int, code: int) -> bool:
        """Whether ``seat``'s decision ``code`` shows a card nobody has seen yet, which must
        then be drawn first (:meth:`reveal_outcomes`, :meth:`reveal`)."""
        return False

    def reveal_outcomes(self) -> list[tuple[int, float]]:
        raise NotImplementedError

    def reveal(self, outcome: int) -> None:
        """Puts the card ``alphabet[outcome]`` where the decision will show it."""
        raise NotImplementedError

    #: how many numbers the game's abstraction adds to the observation tensor
    extra: ClassVar[int] = 0
    #: whether the game's abstraction has chance nodes of its own (:meth:`own_chance`)
    has_own_chance: ClassVar[bool] = False

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
        # asked several times a step (OpenSpiel checks it in each call): plain reads only
        table = self.table
        if table is None or table.need is not None or self.revealing is not None:
            return CHANCE
        if table.game.winner is not None or self.turns >= self.max_turns:  # type: ignore[union-attr]
            return TERMINAL
        if self.has_own_chance and self.own_chance() is not None:
            return CHANCE
        return self._decider()

    def _legal_actions(self, player: int) -> list[int]:
        return self._decisions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.table is None:
            return [(seat, 1.0 / self.players) for seat in range(self.players)]
        if self.table.need is not None:
            return card_outcomes(self.table, self.alphabet)
        if self.revealing is not None:
            return self.reveal_outcomes()
        return self.own_chance() or []

    def _apply_action(self, action: int) -> None:
        if self.table is None:
            self.table = Table(self.rules, self.players,
                               {**self.options, self.seat_option: int(action)},
                               face=type(self).face)
        elif self.table.need is not None:
            self.table.give_card(self.alphabet[action])
        elif self.revealing is not None:
            self.reveal(int(action))
            self._go_on()
        elif self.own_chance() is not None:
            self._own_chance_outcome(int(action))
        else:
            self.turns += 1
            self.revealing = (self._decider(), int(action))
            self._go_on()

    def _go_on(self) -> None:
        """Makes the decision waiting in :attr:`revealing` once every card it shows is
        drawn."""
        assert self.revealing is not None
        seat, code = self.revealing
        if self.reveal_needed(seat, code):
            return
        self.revealing = None
        self._decide(seat, code)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.table is None:
                return f"{self.seat_option} {action}"
            if self.table.need is not None or self.revealing is not None:
                return f"card {self.alphabet[action]}"
            return f"abstraction {action}"
        return self.codec.labels()[action]

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def returns(self) -> list[float]:
        game = None if self.table is None else self.table.game
        winner = None if game is None else game.winner
        if winner is None and self.cut == "lead" and self.is_terminal():
            standing = [self.standing(s) for s in range(self.players)]
            best = max(standing)
            if standing.count(best) == 1:
                winner = standing.index(best)
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
                                         "revealing": self.revealing,
                                         }).decode(),
                          *table.told(-1), *self.moves(-1), f"turns {self.turns}"])

    # -- what a seat may know -----------------------------------------------------------------

    def legal(self, seat: int) -> dict[str, Any]:
        """As much of ``seat``'s view as the codec needs for its actions: ``legal``."""
        return {"legal": self.parlour.legal_json(seat)}

    def action_for(self, seat: int, code: int) -> Action:
        """The Parlour action that code ``code`` names for ``seat`` now."""
        game = self.parlour
        obj = self.codec.action_json(code, self.legal(seat))
        if obj is None:
            raise ValueError(f"seat {seat} cannot take action {code} now")
        return game.parse_action(obj, player=seat)

    def view(self, seat: int) -> Mapping[str, Any] | None:
        """``seat``'s view, or ``None`` before the deal."""
        game = None if self.table is None else self.table.game
        return None if game is None else game.view(seat)

    def history_information(self, seat: int) -> str:
        """Perfect recall: every event as ``seat`` was told it, and the abstraction's moves."""
        if self.table is None or self.table.game is None:
            return f"seat {seat}"
        return "\n".join([f"seat {seat}", *self.table.told(seat), *self.moves(seat)])

    def information_for(self, seat: int) -> str:
        if self.table is None or self.table.game is None:
            return f"seat {seat}"
        if self.information == "history":
            return self.history_information(seat)
        return self.compact_information(seat)


def _view_string(state: CardGameState, seat: int) -> str:
    view = state.view(seat)
    if view is None:
        return f"seat {seat}: not dealt yet"
    shown = {k: v for k, v in view.items() if k != "legal"}
    return orjson.dumps({**shown, "moves": state.moves(seat)[-1:],
                         "deciding": state.current_player()}).decode()


class Observer:
    """OpenSpiel's ``PyObserver`` for a Parlour game: the codec of the seat's view (an
    observation), or the seat's information state as a string."""

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
            return state.information_for(player)
        return _view_string(state, player)
