"""Splunk as an OpenSpiel game, its races played as reaction rounds:
``pyspiel.load_game("parlour_splunk")``.

Parameters: ``jokers`` (default false), ``max_turns`` (default 3000 decisions, several
times the longest random game measured; a game that reaches it is a draw).

Splunk is a race: after a play, either seat may slap and the opponent may call, and the
first to act wins (P5). OpenSpiel's algorithms want one seat to move at a time, so each
play is followed by a *reaction round*, an abstraction of the race that keeps its choices
and puts its speed in a fair coin:

1. **Turn.** The seat whose turn it is plays a card: actions 1 to 4 (stacks 0 to 3).
2. **Race** (a chance node, two outcomes of 1/2): which seat reacts first. Both seats
   see the play at the same moment and, in this abstraction, are equally quick.
3. **Reactions.** The faster seat decides: 0 pass, 5 call (the opponent of the player
   only, while the call is open), 6 to 9 slap stack 0 to 3. If it passes, the other seat
   decides the same. A call or a slap settles the play (the rules decide who takes the
   stack, P4 and P5); two passes let it stand. Either way the next turn follows.

What is left out, and why it is honest: a slap at any other moment than after a play
(with nothing open it is a wrong slap, which only takes cards: never better than waiting)
and the timing itself (who is quicker is the coin, and nobody can wait and see what the
other does except by the order of the round, which both seats know). Slapjack is left out
of OpenSpiel altogether: it is *only* a race (every decision is "slap now or not", its
single choice is how fast), so a turn-based abstraction of it would be a coin with no
decisions left to study.

Chance: the first player (one outcome per seat) and the deal, card by card (52 nodes, or
54 with jokers; action ``i`` is ``JOKER_DECK[i]``). Every seat sees the same (P1: nobody
sees a pile or a base), so the information state is the public history.

>>> import pyspiel, parlour.spiel
>>> game = pyspiel.load_game("parlour_splunk")
>>> game.num_distinct_actions(), game.observation_tensor_shape()
(10, [101])
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import pyspiel

from parlour.engine.cards import JOKER_DECK
from parlour.envs.encoding import CODECS
from parlour.games.splunk import Splunk
from parlour.spiel.base import CardGameState, Observer, game_info, game_type

PARAMETERS: Mapping[str, Any] = {"jokers": False, "max_turns": 3000}
GAME_TYPE = game_type("parlour_splunk", "Parlour Splunk (reaction rounds)",
                      min_players=2, max_players=2, parameters=PARAMETERS)
CODEC = CODECS["splunk"]
PASS, CALL = 0, 5
PLAYS = range(1, 5)
SLAPS = range(6, 10)
TURN, RACE, REACT = "turn", "race", "react"


class Log(list[str]):
    """A list of texts that copies as a list: ``copy.deepcopy`` need not copy each text
    (OpenSpiel deep-copies a state's attributes at every ``clone``)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Log:
        return Log(self)


class SplunkGame(pyspiel.Game):
    """Splunk for OpenSpiel, its races as reaction rounds."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        p = {**PARAMETERS, **(params or {})}
        self.rules_options = {"jokers": bool(p["jokers"])}
        super().__init__(GAME_TYPE, game_info(players=2, actions=CODEC.actions,
                                              cards=len(JOKER_DECK),
                                              max_turns=int(p["max_turns"])),
                         params or {})

    def new_initial_state(self) -> SplunkState:
        return SplunkState(self, self.rules_options)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> Observer:
        return Observer(CODEC, 2, self.rules_options,
                        iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                        params, extra=SplunkState.extra)


class SplunkState(CardGameState):
    """A state of Splunk: turns, and a reaction round after every play."""

    rules = Splunk
    codec = CODEC
    alphabet = JOKER_DECK
    seat_option = "first"
    #: the observation tensor adds: it is a turn, the observer reacts first, second
    extra: ClassVar[int] = 3

    def __init__(self, game: Any, options: Mapping[str, Any]) -> None:
        super().__init__(game, options)
        self.phase = TURN
        #: the seats of the reaction round, the faster first, and how many have passed
        self.order: tuple[int, int] = (0, 1)
        self.passed = 0
        #: the public moves of the abstraction: races and passes
        self.log = Log()

    # -- the reaction round ---------------------------------------------------------------

    def own_chance(self) -> list[tuple[int, float]] | None:
        return [(0, 0.5), (1, 0.5)] if self.phase == RACE else None

    def _own_chance_outcome(self, action: int) -> None:
        self.order = (action, 1 - action)
        self.phase, self.passed = REACT, 0
        self.log.append(f"race: seat {action} first")

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE and self.phase == RACE and self.table:
            return f"seat {action} reacts first"
        return super()._action_to_string(player, action)

    def _decider(self) -> int:
        if self.phase == REACT:
            return self.order[self.passed]
        turn = self.parlour.turn  # type: ignore[attr-defined]
        assert turn is not None
        return int(turn)

    def _decisions(self, seat: int) -> list[int]:
        mask = self.codec.mask(self.parlour.view(seat))
        if self.phase == TURN:
            return [code for code in PLAYS if mask[code]]
        return [PASS, *(code for code in (CALL, *SLAPS) if mask[code])]

    def _decide(self, seat: int, code: int) -> None:
        assert self.table is not None
        if self.phase == REACT and code == PASS:
            self.log.append(f"seat {seat} passes")
            self.passed += 1
            if self.passed == 2:
                self.phase = TURN
            return
        self.table.act(self.action_for(seat, code))
        # a play opens a reaction round; a call or a slap settles it
        self.phase = RACE if self.phase == TURN else TURN

    def moves(self, seat: int) -> list[str]:
        return self.log

    def extra_features(self, seat: int) -> list[float]:
        reacting = self.phase == REACT
        return [float(self.phase == TURN),
                float(reacting and self._decider() == seat and self.passed == 0),
                float(reacting and self._decider() == seat and self.passed == 1)]

    # -- for information-set search ----------------------------------------------------------

    def resample(self, rng: random.Random) -> SplunkState:
        """A state the seats cannot tell from this one: the cards nobody has seen yet
        (never played face up, never turned over by a call) dealt again at random among
        their places, everything seen where it was. Splunk's information is public, so
        this is a sample of the one information state both seats share, given the public
        history (the deal is a uniform shuffle)."""
        table = self.table
        if table is None or table.game is None or table.need is not None:
            raise ValueError("resample a state after the deal")
        seen: set[str] = set()
        for event in table.game.events:
            if event.type == "play":
                seen.add(event.data["card"])
            elif event.type == "call":
                seen.update(event.data["cards"])
        deck = list(table.decks[0])
        places = [i for i, card in enumerate(deck) if card not in seen]
        cards = [deck[i] for i in places]
        rng.shuffle(cards)
        for i, card in zip(places, cards, strict=True):
            deck[i] = card
        new: SplunkState = self.clone()
        assert new.table is not None
        new.table = table.restacked([deck, *table.decks[1:]])
        return new


pyspiel.register_game(GAME_TYPE, SplunkGame)
