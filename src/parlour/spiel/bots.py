"""Our computer players as OpenSpiel bots, for matches against OpenSpiel's algorithms.

:class:`ParlourBot` sits at one seat of a ``parlour_*`` game and asks one of our computer
players (:func:`parlour.bots.make_player`) what to do, from that seat's view and the
events it was told, exactly as a live table or a simulation does. The answer's timing is
dropped: in Splunk's reaction rounds who is quicker is the round's coin, so a computer
player is judged on what it does, not how fast (its misses and wrong slaps stay).

In a Splunk reaction round the player's answer counts if it is a call or a slap; any
other answer (a play, or nothing) is a pass, and a play it chose then is kept for its
turn, as at a live table where it would have played next.

>>> import numpy as np, pyspiel, parlour.spiel
>>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
>>> game = pyspiel.load_game("parlour_splunk")
>>> bots = [ParlourBot(game, 0, "hard", seed=1), ParlourBot(game, 1, "easy", seed=2)]
>>> sorted(evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3)))
[-1.0, 1.0]
"""

from __future__ import annotations

from typing import Any

import pyspiel

from parlour.bots import make_player
from parlour.engine import Action
from parlour.spiel.base import CardGameState
from parlour.spiel.efg import Tree


class ParlourBot(pyspiel.Bot):
    """One of our computer players at ``seat`` of a ``parlour_*`` OpenSpiel game."""

    def __init__(self, game: Any, seat: int, level: str, *, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        if isinstance(game, CardGameState):  # a state of the game will do
            game = game.get_game()
        self.name = game.get_type().short_name.removeprefix("parlour_")
        self.seat, self.level, self.seed = seat, level, seed
        self.restart()

    def restart(self) -> None:
        self.player = make_player(self.name, self.level, self.seat, seed=self.seed)
        self.told = 0
        self.kept: Action | None = None

    def restart_at(self, state: CardGameState) -> None:
        self.restart()

    def inform_action(self, state: CardGameState, player: int, action: int) -> None:
        pass

    def step(self, state: CardGameState) -> int:
        game = state.parlour
        seat = self.seat
        events = game.events
        if self.told > len(events):  # another game: start again
            self.restart()
        told = [e.seen_by(seat) for e in events[self.told:]]
        self.told = len(events)
        legal = state.legal_actions(seat)
        decision = self.player.decide(game.view(seat), told)
        action = decision.action if decision is not None else None
        if action is None or self._code(state, action) not in legal:
            action, self.kept = self.kept, None
        elif action.type == "play" and 0 in legal:  # a reaction round: keep it, pass
            self.kept = action
            return 0
        code = None if action is None else self._code(state, action)
        if code is not None and code in legal:
            self.kept = None
            return code
        # nothing it would do now is open (a turn whose play it had not chosen yet):
        # the first open action, as a forced move
        return 0 if 0 in legal else legal[0]

    @staticmethod
    def _code(state: CardGameState, action: Action) -> int | None:
        return state.codec.code(action.for_seat())


def bot_policy(game: Any, tree: Tree, level: str, *, samples: int = 20,
               seed: int = 0) -> Any:
    """Our computer player of ``level`` as a tabular policy of the EFG game ``game``
    exported as ``tree`` (:mod:`parlour.spiel.efg`): at each information set, how often it
    chose each action in ``samples`` asks (a fresh player each time, told every event the
    seat was told, seeded ``seed``, ``seed + 1``, ...). A forced move needs no asking."""
    from open_spiel.python import policy as policies

    table = policies.TabularPolicy(game)
    for info, index in table.state_lookup.items():
        ours = tree.states[info.rsplit("-", 1)[1]]
        seat = ours.current_player()
        legal = ours.legal_actions()
        probs = table.action_probability_array[index]
        probs[:] = 0.0
        efg_state = table.states[index]
        efg_actions = efg_state.legal_actions()
        if len(legal) == 1:
            probs[efg_actions[0]] = 1.0
            continue
        counts = dict.fromkeys(legal, 0)
        for k in range(samples):
            counts[ParlourBot(ours, seat, level, seed=seed + k).step(ours)] += 1
        for ours_action, efg_action in zip(legal, efg_actions, strict=True):
            probs[efg_action] = counts[ours_action] / samples
    return table
