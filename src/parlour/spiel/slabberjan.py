"""Slabberjan as an OpenSpiel game: ``pyspiel.load_game("parlour_slabberjan")``.

Parameters: ``players`` (2 to 42, default 4), ``chips`` (1 to 9, default 3),
``free_choice`` (default false), ``max_turns`` (0: ``4 * players**2 * chips``, far above
any game measured; a game that reaches it is a draw).

It is played as its rules are, one seat a turn (Slabberjan has no race). The chance nodes
are the first dealer (one outcome per seat) and every deal, piece by piece: 42 nodes a deal
whose outcomes are the 21 kinds of piece (action ``i`` is ``KINDS[i]``, knight first),
each as likely as its copies left. The bag is the rest of the deal, so the dealer's draws
need no nodes of their own: nobody sees a piece of the bag before it is drawn.

Actions: 0 swap, 1 stand, 2 draw (:mod:`parlour.envs.encoding`); every turn is a
decision, even a forced one (one legal action).

>>> import pyspiel, parlour.spiel
>>> game = pyspiel.load_game("parlour_slabberjan", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())  # the first dealer
(True, 3)
>>> state.apply_action(0)
>>> [p for _, p in state.chance_outcomes()][:2]  # the first piece: 2 of 42 of each kind
[0.047619047619047616, 0.047619047619047616]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyspiel

from parlour.envs.encoding import CODECS
from parlour.games.slabberjan import KINDS, Slabberjan
from parlour.spiel.base import CardGameState, Observer, game_info, game_type

PARAMETERS: Mapping[str, Any] = {"players": 4, "chips": 3, "free_choice": False,
                                 "max_turns": 0}
GAME_TYPE = game_type("parlour_slabberjan", "Parlour Slabberjan",
                      min_players=Slabberjan.min_players, max_players=Slabberjan.max_players,
                      parameters=PARAMETERS)
CODEC = CODECS["slabberjan"]


def max_turns(players: int, chips: int) -> int:
    return 4 * players * players * chips


class SlabberjanGame(pyspiel.Game):
    """Slabberjan for OpenSpiel."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        p = {**PARAMETERS, **(params or {})}
        players, chips = int(p["players"]), int(p["chips"])
        self.rules_options = {"chips": chips, "free_choice": bool(p["free_choice"])}
        # bad parameters: the rules' own error (RecordError), before OpenSpiel sees them
        Slabberjan.spec.check_players(players)
        Slabberjan.spec.resolve_options(self.rules_options, players=players,
                                        draw=lambda n: 0)
        turns = int(p["max_turns"]) or max_turns(players, chips)
        super().__init__(GAME_TYPE, game_info(players=players, actions=CODEC.actions,
                                              cards=len(KINDS), max_turns=turns),
                         params or {})

    def new_initial_state(self) -> SlabberjanState:
        return SlabberjanState(self, self.rules_options)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> Observer:
        return Observer(CODEC, self.num_players(), self.rules_options,
                        iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                        params)


class SlabberjanState(CardGameState):
    """A state of Slabberjan: the rules' own turns."""

    rules = Slabberjan
    codec = CODEC
    alphabet = KINDS
    seat_option = "dealer"

    def _decider(self) -> int:
        turn = self.parlour.turn  # type: ignore[attr-defined]
        assert turn is not None
        return int(turn)

    def _decisions(self, seat: int) -> list[int]:
        mask = self.codec.mask(self.parlour.view(seat))
        return [code for code in range(len(mask)) if mask[code]]

    def _decide(self, seat: int, code: int) -> None:
        assert self.table is not None
        self.table.act(self.action_for(seat, code))


pyspiel.register_game(GAME_TYPE, SlabberjanGame)
