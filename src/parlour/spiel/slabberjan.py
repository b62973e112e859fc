"""Slabberjan as an OpenSpiel game: ``pyspiel.load_game("parlour_slabberjan")``.

Parameters: ``players`` (2 to 42, default 4), ``chips`` (1 to 9, default 3),
``free_choice`` (default false), ``variant`` (``"full"``, ``"medium"`` or ``"small"``: the
kinds of piece, :data:`parlour.games.slabberjan.VARIANTS`), ``max_turns`` (0:
``4 * players**2 * chips``, far above any game measured; a game that reaches it is a
draw, or with ``cut="lead"`` won by the seat with the most chips), ``information``
(``"compact"``, the default, or ``"history"``: see below).

It is played as its rules are, one seat a turn (Slabberjan has no race). The chance nodes
are what someone sees (:mod:`parlour.spiel.table`):

- the first dealer (one outcome per seat);
- at every deal, each seat's piece, one node a seat in the order they draw (outcomes: the
  21 kinds of piece, action ``i`` is ``KINDS[i]``, knight first, each as likely as its
  copies left). The bag is not drawn: nobody sees it;
- a piece of the bag when the dealer draws it (a node over the pieces nobody has seen,
  the bag's; again after an inn, which is set aside and the next piece drawn).

So a 4-player deal is 4 chance nodes and a draw 1, where every order of the 42 pieces
would be 42: outcome-sampling MCCFR's chance reach stays within a float's range.

Actions: 0 swap, 1 stand, 2 draw (:mod:`parlour.envs.encoding`); every turn is a
decision, even a forced one (one legal action).

**Information states.** Compact (the default): the chips, who is out, the pot and the
decisions made so far (the game's length bound), then every event of the current deal as
the seat was told it. Nothing of an earlier deal bears on the rest of the game but the
chips (a new deal is a fresh bag), so two histories with the same compact string have the
same future and the same chances of every hidden piece: a lossless merge, bounded by the
length of one deal. ``"history"``: every event of the game as the seat was told it.

**Resampling** (:meth:`SlabberjanState.resample_from_infostate`, for IS-MCTS): the other
seats' pieces of the current deal, drawn uniformly among every deal that agrees with what
the seat knows (its own piece, what its swaps showed it, the matadors announced, who must
have held a matador to stand or a plain piece to swap), and the game replayed from them;
the result is checked to tell the seat exactly what it was told.

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

import contextlib
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import orjson
import pyspiel

from parlour.engine import Game, IllegalAction
from parlour.engine.chance import ChanceNeeded
from parlour.envs.encoding import CODECS
from parlour.games.slabberjan import KINDS, MATADORS, Draw, Slabberjan
from parlour.spiel.base import (
    CardGameState,
    Observer,
    cut_kind,
    game_info,
    game_type,
    information_kind,
)
from parlour.spiel.table import counted_outcomes

PARAMETERS: Mapping[str, Any] = {"players": 4, "chips": 3, "free_choice": False,
                                 "variant": "full", "max_turns": 0,
                                 "information": "compact", "cut": "draw"}
GAME_TYPE = game_type("parlour_slabberjan", "Parlour Slabberjan",
                      min_players=Slabberjan.min_players, max_players=Slabberjan.max_players,
                      parameters=PARAMETERS)
CODEC = CODECS["slabberjan"]
SWAP, STAND, DRAW = 0, 1, 2
#: how many worlds a resample may throw away before it says the state is inconsistent
RESAMPLE_TRIES = 200


def seats_in(game: Game | None, players: int) -> int:
    """How many pieces of a deal are seen at once: one by each seat still in (S2); the
    bag is nobody's."""
    return players if game is None else int(game.active)  # type: ignore[attr-defined]


def max_turns(players: int, chips: int) -> int:
    return 4 * players * players * chips


class SlabberjanGame(pyspiel.Game):
    """Slabberjan for OpenSpiel."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        p = {**PARAMETERS, **(params or {})}
        players, chips = int(p["players"]), int(p["chips"])
        self.rules_options = {"chips": chips, "free_choice": bool(p["free_choice"]),
                              "variant": str(p["variant"])}
        self.information = information_kind(p)
        self.cut = cut_kind(p)
        # bad parameters: the rules' own error (RecordError), before OpenSpiel sees them
        Slabberjan.spec.check_players(players)
        Slabberjan.spec.resolve_options(self.rules_options, players=players,
                                        draw=lambda n: 0)
        turns = int(p["max_turns"]) or max_turns(players, chips)
        super().__init__(GAME_TYPE, game_info(players=players, actions=CODEC.actions,
                                              cards=len(KINDS), max_turns=turns),
                         params or {})

    def new_initial_state(self) -> SlabberjanState:
        return SlabberjanState(self, self.rules_options, self.information, self.cut)

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

    def __init__(self, game: Any, options: Mapping[str, Any], information: str,
                 cut: str = "draw") -> None:
        super().__init__(game, options, information, cut)
        #: while a draw is being revealed: the bag's places up to here are drawn
        self.bag_drawn: int | None = None

    @staticmethod
    def face(game: Game | None, players: int) -> int:
        return seats_in(game, players)

    def _decider(self) -> int:
        return self.table.game.turn  # type: ignore[union-attr,no-any-return]

    def _decisions(self, seat: int) -> list[int]:
        mask = self.codec.shared_mask(self.legal(seat))
        return [code for code in range(len(mask)) if mask[code]]

    def _decide(self, seat: int, code: int) -> None:
        assert self.table is not None
        self.table.act(self.action_for(seat, code))

    def standing(self, seat: int) -> float:
        return float(self.parlour.chips[seat])  # type: ignore[attr-defined]

    # -- the bag, drawn as the dealer draws -------------------------------------------------------

    def reveal_needed(self, seat: int, code: int) -> bool:
        if code != DRAW:
            return False
        game: Any = self.parlour
        if self.bag_drawn is None:
            self.bag_drawn = int(game.bag_top)
        # Which places of the bag does this draw read? Play it on a copy (S8: an inn is set
        # aside and the next piece drawn) and see how far it got.
        probe = game.clone()
        with contextlib.suppress(ChanceNeeded):  # the next deal: the draw itself is done
            probe.push(Draw(seat))
        if probe.bag_top > self.bag_drawn:
            return True
        self.bag_drawn = None
        return False

    def reveal_outcomes(self) -> list[tuple[int, float]]:
        game: Any = self.parlour
        return counted_outcomes(Counter(game.bag[self.bag_drawn:]), KINDS)

    def reveal(self, outcome: int) -> None:
        game: Any = self.parlour
        assert self.table is not None and self.bag_drawn is not None
        place, piece, bag = self.bag_drawn, KINDS[outcome], game.bag
        if bag[place] != piece:
            other = bag.index(piece, place + 1)  # a stand-in nobody has seen either
            bag[place], bag[other] = bag[other], bag[place]
            self.table.exchange("deck", -1, place, other)
        self.bag_drawn = place + 1

    # -- what a seat knows ------------------------------------------------------------------------

    def compact_information(self, seat: int) -> str:
        game: Any = self.parlour
        events = game.events
        start = _latest_deal(events)
        public = {"chips": game.chips, "out": game.out, "pot": game.pot, "turns": self.turns}
        return "\n".join([f"seat {seat}", orjson.dumps(public).decode(),
                          *(orjson.dumps(e.seen_by(seat)).decode() for e in events[start:])])

    def resample_from_infostate(self, player_id: int, probability_sampler: Any
                                ) -> SlabberjanState:
        table = self.table
        if table is None:
            same: SlabberjanState = self.clone()  # nothing is dealt
            return same
        if table.game is None or table.need is not None or self.revealing is not None:
            raise ValueError("resample a state at a decision, not while chance is drawn")
        rng = random.Random(int(probability_sampler() * 2**53))
        known = self.history_information(player_id)
        deal = _Deal(table.game, player_id)
        for _ in range(RESAMPLE_TRIES):
            deck = deal.sample(rng)
            try:
                new_table = table.rebuilt([*table.decks[:-1], deck])
            except (IllegalAction, ChanceNeeded):  # a world the actions cannot be played in
                continue
            new: SlabberjanState = self.clone()
            new.table = new_table
            if new.history_information(player_id) == known:
                return new
        raise RuntimeError(f"no deal agrees with what seat {player_id} knows in "
                           f"{RESAMPLE_TRIES} tries")


def _latest_deal(events: list[Any]) -> int:
    for i in range(len(events) - 1, -1, -1):
        if events[i].type == "deal":
            return i
    raise ValueError("no deal yet")


class _Deal:
    """What one seat knows of the current deal's pieces, and deals that agree with it.

    A seat's piece at the deal is known (``pieces``) to the seat itself, to whoever learns
    it in a swap (tracked through the public swaps and undos), and to all once announced;
    a seat that tried to swap, or was swapped with, held a plain piece then (``plain``), and
    a non-dealer that stood without ``free_choice`` a matador (``matador``). Matadors never
    change hands (S4, S5), so a piece is followed back to the seat that drew it."""

    def __init__(self, game: Any, seat: int) -> None:
        events = game.events
        start = _latest_deal(events)
        deal = events[start]
        dealt: list[str | None] = list(deal.hands)
        self.dealer = int(deal.dealer)
        n = len(dealt)
        #: the seats that drew, from the dealer's left round to the dealer (S2)
        self.order = [s % n for s in range(self.dealer + 1, self.dealer + n + 1)
                      if dealt[s % n] is not None]
        self.deck_size = len(game.bag)
        self.cards = Counter(game.bag)  # the deal's pieces, bag and hands
        self.pieces: dict[int, str] = {seat: str(dealt[seat])}
        self.plain: set[int] = set()
        self.matador: set[int] = set()
        free_choice = bool(game.free_choice)
        holds = {s: s for s in self.order}  # seat -> the seat whose dealt piece it holds
        for event in events[start + 1:]:
            told = event.seen_by(seat)
            kind = told["type"]
            if kind == "swap":
                p, t = told["player"], told["target"]
                self.plain.update((holds[p], holds[t]))
                if p == seat:
                    self.pieces[holds[t]] = told["got"]
                elif t == seat:
                    self.pieces[holds[p]] = told["got"]
                holds[p], holds[t] = holds[t], holds[p]
            elif kind == "announce" and not told["bag"]:
                self.pieces[holds[told["holder"]]] = told["piece"]
                self.plain.add(holds[told["player"]])
            elif kind == "no_swap":
                self.plain.add(holds[told["player"]])
            elif kind == "undo":
                holds = {s: s for s in self.order}
            elif kind == "stand" and told["player"] != self.dealer and not free_choice:
                self.matador.add(holds[told["player"]])

    def sample(self, rng: random.Random) -> list[str]:
        """A deck of this deal that agrees with what the seat knows, each such deck as
        likely as the deal makes it (uniform over them)."""
        pool = self.cards - Counter(self.pieces.values())
        matadors = [p for p in pool.elements() if p in MATADORS]
        plain = [p for p in pool.elements() if p not in MATADORS]
        unknown = [s for s in self.order if s not in self.pieces]
        # places: the unknown seats' pieces, then the bag's
        must_m = [s for s in unknown if s in self.matador]
        must_p = [s for s in unknown if s in self.plain and s not in self.matador]
        free: list[Any] = [s for s in unknown if s not in self.matador and s not in self.plain]
        free += [("bag", i) for i in range(self.deck_size - len(self.order))]
        extra = len(matadors) - len(must_m)  # matadors that go to free places
        if extra < 0 or extra > len(free) or len(plain) < len(must_p):
            raise RuntimeError("the deal cannot agree with what the seat knows")
        chosen = set(rng.sample(range(len(free)), extra))
        rng.shuffle(matadors)
        rng.shuffle(plain)
        given: dict[Any, str] = dict(self.pieces)
        for place in must_m:
            given[place] = matadors.pop()
        for place in must_p:
            given[place] = plain.pop()
        for i, place in enumerate(free):
            given[place] = matadors.pop() if i in chosen else plain.pop()
        return ([given[s] for s in self.order]
                + [given[("bag", i)] for i in range(self.deck_size - len(self.order))])


pyspiel.register_game(GAME_TYPE, SlabberjanGame)
