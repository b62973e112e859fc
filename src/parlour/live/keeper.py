"""Between the lobby's rooms and the store: what a room is as a stored table, and back.

The lobby calls :func:`keep_new` when a room opens, :func:`keep_seats` when its seats
change and :func:`keep_play` after every applied action, before anyone is told of it (the
table's ``on_change``). :func:`rebuild` makes the game of a stored table again by replaying
its record, checked: a table whose game is gone or whose record no longer replays raises
:class:`Unresumable` with the reason, and the lobby closes it with that reason.
"""

from __future__ import annotations

import time

from parlour.engine import Action, Game, GameError
from parlour.games import game_class
from parlour.live.room import Room
from parlour.store import Store, StoredSeat, StoredTable


class Unresumable(Exception):
    """A stored table cannot be played on; the message says why, for a person."""


def stored_seats(room: Room) -> list[StoredSeat]:
    return [StoredSeat(seat.name, seat.kind, seat.token_hash, seat.left)
            for seat in room.seats]


def keep_new(store: Store, room: Room) -> None:
    """Stores a room as it opens: its game (the deal's chance outcomes), seats and phase."""
    game = room.game
    outcomes = game.chance.outcomes()
    room.kept_decks = len(outcomes["decks"])
    room.kept_shuffles = len(outcomes["shuffles"])
    store.new_table(StoredTable(
        room.id, room.spec.name, game.players, dict(game.options), room.level,
        friends=room.friends, seed=game.seed, decks=outcomes["decks"],
        shuffles=outcomes["shuffles"], seats=stored_seats(room), host=room.host,
        phase=room.phase.value, created=room.created))


def keep_seats(store: Store, room: Room) -> None:
    store.set_seats(room.id, stored_seats(room), host=room.host, level=room.level)


def keep_play(store: Store, room: Room, action: Action) -> None:
    """Stores the action just applied with the chance outcomes it drew (and the outcome,
    if it ended the game), committed before this returns."""
    game = room.game
    chance = game.chance
    decks = chance.used_decks[room.kept_decks:]
    shuffles = chance.used_shuffles[room.kept_shuffles:]
    outcome = game.outcome
    store.add_action(room.id, len(game.history) - 1, action.to_json(),
                     t=round(time.time() - room.created, 3), decks=decks, shuffles=shuffles,
                     outcome=None if outcome is None else outcome.to_json())
    room.kept_decks += len(decks)
    room.kept_shuffles += len(shuffles)


def rebuild(table: StoredTable) -> Game:
    """The game of ``table`` after its last stored action; :class:`Unresumable` if it
    cannot be made again."""
    try:
        cls = game_class(table.game)
    except GameError:
        raise Unresumable(f"this server no longer has the game {table.game!r}") from None
    try:
        # The record gives every chance outcome: no seed, so nothing is drawn again.
        game = cls(table.players, options=table.options, decks=table.decks,
                   shuffles=table.shuffles)
        for action in table.actions:
            game.apply_json(action)
    except GameError as exc:
        raise Unresumable(f"its record no longer replays ({exc})") from None
    game.seed = table.seed
    return game
