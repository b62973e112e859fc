"""A room's journal: its life as the store keeps it, written before anyone is told.

A :class:`Journal` is one room's port to the store (SQLite or PostgreSQL,
:mod:`parlour.store`): :meth:`Journal.opened` as the room opens, :meth:`Journal.seated`
when its seats change, :meth:`Journal.phase` when its phase does, and
:meth:`Journal.played` after every applied action, before anyone is told of it. It keeps
its own cursor into the game's chance outcomes (the decks and shuffles stored so far), so
each action is stored with exactly the outcomes it drew. A move the store cannot keep is
not an exception thrown through the rules: ``played`` answers ``False`` and the room
decides (:meth:`parlour.live.room.Room.commit`).

:func:`rebuild` makes the game of a stored table again by replaying its record, checked:
a table whose game is gone or whose record no longer replays raises :class:`Unresumable`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from parlour.engine import Action, Game, GameError
from parlour.games import GAME_NAMES, dealt
from parlour.live.seats import Seat
from parlour.store import Phase, Store, StoredSeat, StoredTable

log = logging.getLogger(__name__)


class Unresumable(Exception):
    """A stored table cannot be played on; the message says why, for a person."""


class Journal:
    """Writes table ``table`` (whose game is ``game``, opened at ``created``) to ``store``;
    every method commits before it returns.

    The chance cursor starts at the outcomes the game holds now: a new room's deal (which
    :meth:`opened` stores), or every outcome of a game replayed from its record."""

    def __init__(self, store: Store, table: str, game: Game, created: float) -> None:
        self.store = store
        self.table = table
        self.game = game
        self.created = created
        chance = game.chance
        self._decks = len(chance.used_decks)
        self._shuffles = len(chance.used_shuffles)

    def opened(self, *, level: str, friends: bool, seats: Sequence[Seat], host: int,
               phase: Phase) -> None:
        """The table as it opens: its game (the deal's chance outcomes), seats and phase."""
        game = self.game
        outcomes = game.chance.outcomes()
        self.store.new_table(StoredTable(
            self.table, game.spec.name, game.players, dict(game.options), level,
            friends=friends, seed=game.seed, decks=outcomes["decks"],
            shuffles=outcomes["shuffles"], seats=_stored(seats), host=host, phase=phase,
            created=self.created))
        self._decks = len(outcomes["decks"])
        self._shuffles = len(outcomes["shuffles"])

    def seated(self, seats: Sequence[Seat], *, host: int, level: str) -> None:
        """Who sits where, who hosts, and the computers' speed."""
        self.store.set_seats(self.table, _stored(seats), host=host, level=level)

    def phase(self, phase: Phase, reason: str | None = None) -> None:
        self.store.set_phase(self.table, phase, reason=reason)

    def rematch(self, again: str) -> None:
        """The table ``again`` plays this one again."""
        self.store.set_rematch(self.table, again)

    def touched(self) -> None:
        """Nobody is at the table now: its keep period runs from here."""
        self.store.touch(self.table)

    def played(self, action: Action) -> bool:
        """Stores the action just applied with the chance outcomes it drew (and the outcome,
        if it ended the game). ``False`` if the store could not (logged): the action must
        not be told to anybody."""
        game = self.game
        chance = game.chance
        decks = chance.used_decks[self._decks:]
        shuffles = chance.used_shuffles[self._shuffles:]
        outcome = game.outcome
        try:
            self.store.add_action(
                self.table, len(game.history) - 1, action.to_json(),
                t=round(time.time() - self.created, 3), decks=decks, shuffles=shuffles,
                outcome=None if outcome is None else outcome.to_json())
        except Exception:
            log.exception("table %s: an action could not be stored", self.table)
            return False
        self._decks += len(decks)
        self._shuffles += len(shuffles)
        return True


def _stored(seats: Sequence[Seat]) -> list[StoredSeat]:
    return [StoredSeat(seat.name, seat.kind, seat.token_hash, seat.left) for seat in seats]


def rebuild(table: StoredTable) -> Game:
    """The game of ``table`` after its last stored action; :class:`Unresumable` if it
    cannot be made again."""
    try:
        game = dealt(table.game, table.players, table.options, table.decks, table.shuffles)
    except GameError as exc:
        if table.game not in GAME_NAMES:
            raise Unresumable(f"this server no longer has the game {table.game!r}") from None
        raise Unresumable(f"its record no longer replays ({exc})") from None
    try:
        for action in table.actions:
            game.apply_json(action)
    except GameError as exc:
        raise Unresumable(f"its record no longer replays ({exc})") from None
    game.seed = table.seed
    return game
