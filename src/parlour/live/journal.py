"""The room's journal: its life as the store keeps it, written before anyone is told.

A :class:`Journal` is the one port between the live rooms and the store (SQLite or
PostgreSQL, :mod:`parlour.store`). A room calls :meth:`Journal.opened` as it opens,
:meth:`Journal.seated` when its seats change, :meth:`Journal.phase` when its phase does,
and :meth:`Journal.played` after every applied action, before anyone is told of it.
A move the store cannot keep is not an exception thrown through the rules: ``played``
answers ``False`` and the room decides (:meth:`parlour.live.room.Room.applied`).

:func:`rebuild` makes the game of a stored table again by replaying its record, checked:
a table whose game is gone or whose record no longer replays raises :class:`Unresumable`.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from parlour.engine import Action, Game, GameError
from parlour.games import GAME_NAMES, dealt
from parlour.store import Phase, Store, StoredSeat, StoredTable

if TYPE_CHECKING:
    from parlour.live.room import Room

log = logging.getLogger(__name__)


class Unresumable(Exception):
    """A stored table cannot be played on; the message says why, for a person."""


class Journal:
    """Writes the rooms of one server to ``store``; every method commits before it returns."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def opened(self, room: Room) -> None:
        """A room as it opens: its game (the deal's chance outcomes), seats and phase."""
        game = room.game
        outcomes = game.chance.outcomes()
        room.kept_decks = len(outcomes["decks"])
        room.kept_shuffles = len(outcomes["shuffles"])
        self.store.new_table(StoredTable(
            room.id, room.spec.name, game.players, dict(game.options), room.level,
            friends=room.friends, seed=game.seed, decks=outcomes["decks"],
            shuffles=outcomes["shuffles"], seats=_seats(room), host=room.host,
            phase=room.phase, created=room.created))

    def seated(self, room: Room) -> None:
        """Who sits where, who hosts, and the computers' speed."""
        self.store.set_seats(room.id, _seats(room), host=room.host, level=room.level)

    def phase(self, room: Room, phase: Phase, reason: str | None = None) -> None:
        self.store.set_phase(room.id, phase, reason=reason)

    def rematch(self, room: Room, again: str) -> None:
        self.store.set_rematch(room.id, again)

    def touched(self, room: Room) -> None:
        """Nobody is at ``room`` now: its keep period runs from here."""
        self.store.touch(room.id)

    def played(self, room: Room, action: Action) -> bool:
        """Stores the action just applied with the chance outcomes it drew (and the outcome,
        if it ended the game). ``False`` if the store could not (logged): the action must
        not be told to anybody."""
        game = room.game
        chance = game.chance
        decks = chance.used_decks[room.kept_decks:]
        shuffles = chance.used_shuffles[room.kept_shuffles:]
        outcome = game.outcome
        try:
            self.store.add_action(
                room.id, len(game.history) - 1, action.to_json(),
                t=round(time.time() - room.created, 3), decks=decks, shuffles=shuffles,
                outcome=None if outcome is None else outcome.to_json())
        except Exception:
            log.exception("table %s: an action could not be stored", room.id)
            return False
        room.kept_decks += len(decks)
        room.kept_shuffles += len(shuffles)
        return True


def _seats(room: Room) -> list[StoredSeat]:
    return [StoredSeat(seat.name, seat.kind, seat.token_hash, seat.left)
            for seat in room.seats]


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
