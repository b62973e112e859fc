"""Splunk as an OpenSpiel game, its races played as reaction rounds:
``pyspiel.load_game("parlour_splunk")``.

Parameters: ``jokers`` (default false), ``variant`` (``"full"`` or ``"small"``: 20 cards,
over 11, :data:`parlour.games.splunk.VARIANTS`), ``max_turns`` (default 3000 decisions, several
times the longest random game measured; a game that reaches it is a draw),
``information`` (``"compact"``, the default, or ``"history"``: see below).

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

**Chance**: the first player (one outcome per seat), then a card whenever one is first
seen, never before (:mod:`parlour.spiel.table`): the card a play turns over, the base a
call turns over. Nobody sees a pile or a base (P1), so nothing of the deal is drawn until
then: each such node is over the *ranks* nobody has seen yet, each as likely as its unseen
cards (action ``i`` is ``JOKER_DECK[i]``, the first unseen card of that rank; suits never
matter in Splunk). Every seat knows everything drawn so far, so a state hides nothing:
its resample (:meth:`SplunkState.resample_from_infostate`) is itself.

**Information states.** Compact (the default): the public view (without the play count),
where every card seen so far lies now (a card once seen stays known as it moves: into a
pile under a taken stack, out again as a base or a play) with ``"?"`` for each card
nobody has seen, the reaction round, and the decisions made so far (the game's length
bound). That is everything a seat can know that bears on the rest of the game, in about a
kilobyte whatever the game's length. ``"history"``: every event as the seat was told it,
and the rounds' races and passes (tens of kilobytes in a long game).

>>> import pyspiel, parlour.spiel
>>> game = pyspiel.load_game("parlour_splunk")
>>> game.num_distinct_actions(), game.observation_tensor_shape()
(10, [101])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import orjson
import pyspiel

from parlour.engine.cards import JOKER_DECK
from parlour.envs.encoding import CODECS
from parlour.games.splunk import Splunk
from parlour.spiel.base import (
    CardGameState,
    Observer,
    cut_kind,
    game_info,
    game_type,
    information_kind,
)

PARAMETERS: Mapping[str, Any] = {"jokers": False, "variant": "full", "max_turns": 3000,
                                 "information": "compact", "cut": "draw"}
GAME_TYPE = game_type("parlour_splunk", "Parlour Splunk (reaction rounds)",
                      min_players=2, max_players=2, parameters=PARAMETERS)
CODEC = CODECS["splunk"]
PASS, CALL = 0, 5
PLAYS = range(1, 5)
SLAPS = range(6, 10)
TURN, RACE, REACT = "turn", "race", "react"
#: what the compact information state writes for a card nobody has seen
UNSEEN = "?"


class Log(list[str]):
    """A list of texts that copies as a list: ``copy.deepcopy`` need not copy each text
    (OpenSpiel deep-copies a state's attributes at every ``clone``)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Log:
        return Log(self)


class SplunkGame(pyspiel.Game):
    """Splunk for OpenSpiel, its races as reaction rounds."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        p = {**PARAMETERS, **(params or {})}
        self.rules_options = {"jokers": bool(p["jokers"]), "variant": str(p["variant"])}
        Splunk.spec.resolve_options(self.rules_options, players=2, draw=lambda n: 0)
        self.information = information_kind(p)
        self.cut = cut_kind(p)
        super().__init__(GAME_TYPE, game_info(players=2, actions=CODEC.actions,
                                              cards=len(JOKER_DECK),
                                              max_turns=int(p["max_turns"])),
                         params or {})

    def new_initial_state(self) -> SplunkState:
        return SplunkState(self, self.rules_options, self.information, self.cut)

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
    has_own_chance: ClassVar[bool] = True

    def __init__(self, game: Any, options: Mapping[str, Any], information: str,
                 cut: str = "draw") -> None:
        super().__init__(game, options, information, cut)
        self.phase = TURN
        #: the seats of the reaction round, the faster first, and how many have passed
        self.order: tuple[int, int] = (0, 1)
        self.passed = 0
        #: the public moves of the abstraction: races and passes
        self.log = Log()
        #: every card someone has seen (played face up, or turned over by a call), and
        #: how many of the game's events have been read for them
        self.seen: set[str] = set()
        self.events_read = 0
        #: the stand-in card a decision turns over, while it is being drawn
        self.showing: str | None = None

    # -- the reaction round ---------------------------------------------------------------

    def own_chance(self) -> list[tuple[int, float]] | None:
        return [(0, 0.5), (1, 0.5)] if self.phase == RACE else None

    def _own_chance_outcome(self, action: int) -> None:
        self.order = (action, 1 - action)
        self.phase, self.passed = REACT, 0
        self.log.append(f"race: seat {action} first")

    def _action_to_string(self, player: int, action: int) -> str:
        if (player == pyspiel.PlayerId.CHANCE and self.phase == RACE and self.table
                and self.revealing is None):
            return f"seat {action} reacts first"
        return super()._action_to_string(player, action)

    def _decider(self) -> int:
        if self.phase == REACT:
            return self.order[self.passed]
        turn = self.parlour.turn  # type: ignore[attr-defined]
        assert turn is not None
        return int(turn)

    def _decisions(self, seat: int) -> list[int]:
        mask = self.codec.shared_mask(self.legal(seat))
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
        self._read_events()
        # a play opens a reaction round; a call or a slap settles it
        self.phase = RACE if self.phase == TURN else TURN

    def _read_events(self) -> None:
        events = self.parlour.events
        seen = self.seen
        for event in events[self.events_read:]:
            if event.type == "play":
                seen.add(event.card)  # type: ignore[attr-defined]
            elif event.type == "call":
                seen.update(event.cards)  # type: ignore[attr-defined]
        self.events_read = len(events)

    def moves(self, seat: int) -> list[str]:
        return self.log

    def standing(self, seat: int) -> float:
        return -float(len(self.parlour.piles[seat]))  # type: ignore[attr-defined]

    def extra_features(self, seat: int) -> list[float]:
        reacting = self.phase == REACT
        return [float(self.phase == TURN),
                float(reacting and self._decider() == seat and self.passed == 0),
                float(reacting and self._decider() == seat and self.passed == 1)]

    # -- a card drawn when it is first turned over -------------------------------------------

    def reveal_needed(self, seat: int, code: int) -> bool:
        game: Any = self.parlour
        if code in PLAYS:
            card = game.piles[seat][0]  # P3: the top card of the player's pile
        elif code == CALL:
            card = game.stacks[game.last_stack][0]  # P4: the base is turned over
        else:
            return False
        if card in self.seen:
            return False
        self.showing = card
        return True

    def _unseen_by_rank(self) -> dict[str, list[str]]:
        assert self.table is not None
        seen = self.seen
        ranks: dict[str, list[str]] = {}
        for card in self.table.decks[0]:
            if card not in seen:
                ranks.setdefault(card[0], []).append(card)
        return ranks

    def _stand_for(self, cards: list[str]) -> str:
        """The card of a rank that a reveal names: the stand-in itself if it is of that
        rank, else the first of them (suits never matter in Splunk)."""
        showing = self.showing
        return showing if showing is not None and showing in cards else min(cards)

    def reveal_outcomes(self) -> list[tuple[int, float]]:
        ranks = self._unseen_by_rank()
        total = sum(len(cards) for cards in ranks.values())
        index = JOKER_DECK.index
        return sorted((index(self._stand_for(cards)), len(cards) / total)
                      for cards in ranks.values())

    def reveal(self, outcome: int) -> None:
        game: Any = self.parlour
        table, showing = self.table, self.showing
        assert table is not None and showing is not None
        card = JOKER_DECK[outcome]
        if card != showing:
            # two cards nobody has seen change places: the game cannot tell
            for place in (*game.piles, *game.stacks):
                for i, there in enumerate(place):
                    if there == showing:
                        place[i] = card
                    elif there == card:
                        place[i] = showing
            deck = table.decks[0]
            table.exchange("deck", 0, deck.index(showing), deck.index(card))
        self.seen.add(card)
        self.showing = None

    # -- what a seat knows ------------------------------------------------------------------------

    def compact_information(self, seat: int) -> str:
        game: Any = self.parlour
        seen = self.seen
        view = {k: v for k, v in game.view(seat).items() if k not in ("legal", "plays")}
        return orjson.dumps({
            "seat": seat, "turns": self.turns, "round": [self.phase, *self.order, self.passed],
            "piles": [[c if c in seen else UNSEEN for c in pile] for pile in game.piles],
            "bases": [(stack[0] if stack[0] in seen else UNSEEN) if stack else None
                      for stack in game.stacks],
            "view": view}).decode()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any
                                ) -> SplunkState:
        """Itself (a copy): every card drawn so far has been seen by both seats, and the
        rest are drawn when they are turned over."""
        same: SplunkState = self.clone()
        return same


pyspiel.register_game(GAME_TYPE, SplunkGame)
