"""A live table: one game on the real clock, with people and computer players at its seats.

- Players: any game of :mod:`parlour.games`; each seat is a person (moves arrive through
  :meth:`Table.act`) or a computer player (:class:`~parlour.bots.base.ComputerPlayer`).
  Anyone may also watch a seat, or watch as a spectator (seat ``None``).
- Clock: asyncio. Moves are applied in the order they arrive, which is how a slap race is
  settled (ruling J3: the earlier slap wins); an action carrying ``at`` that lost the race
  is ignored by the rules without a penalty (J6).
- Computer players: after every change each computer seat is asked
  ``decide(view, new events as that seat sees them)``; its answer is carried out ``delay``
  seconds later, unless a newer answer from the same seat supersedes it first. Some actions
  are held back after some events (:mod:`parlour.live.pacing`, ruling J10).
- Seats changing hands: a computer player may take over a person's seat
  (:meth:`Table.seat_computer`, from the game as it is now) and hand it back
  (:meth:`Table.seat_person`); the lobby decides when (tables with friends).
- Information: :func:`message_for` is the one place where game state and events become what
  a seat is told (ruling G3); every message a table sends goes through it.
- Bad input: every move is applied with the checked :meth:`~parlour.engine.Game.apply`, so a
  refused move changes nothing (G1) and comes back as the reason.

The table imports nothing of the web: the web layer gives it one ``send`` callback per
watcher and forwards what people do.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from parlour.bots.base import ComputerPlayer
from parlour.engine import Event, Game, GameError
from parlour.live.pacing import Pacing

log = logging.getLogger(__name__)

Message = dict[str, Any]
Send = Callable[[Message], None]


def message_for(game: Game, seat: int | None, events: Iterable[Event],
                kind: str = "events") -> Message:
    """What ``seat`` (``None``: a spectator) is told about ``events`` and the game now.

    This is the secrecy boundary: nothing about a game leaves a table except through here,
    and here only ``game.view(seat)`` and ``event.seen_by(seat)`` are used.
    """
    return {"type": kind, "events": [e.seen_by(seat) for e in events], "view": game.view(seat)}


class Table:
    """One game being played live; see the module docstring."""

    def __init__(
        self,
        game: Game,
        computers: Mapping[int, ComputerPlayer],
        pacing: Pacing,
        *,
        level: str | None = None,
        on_lag: Callable[[float], None] | None = None,
    ) -> None:
        for seat in computers:
            if not 0 <= seat < game.players:
                raise ValueError(f"no seat {seat} at a {game.players}-player table")
        self.game = game
        self.computers = dict(computers)
        self.pacing = pacing
        self.level = level
        self.closed = False
        self._on_lag = on_lag
        self._watchers: dict[int | None, list[Send]] = {}
        self._pending: dict[int, asyncio.TimerHandle] = {}
        self._hold_until = 0.0
        # per person seat: the (action type, at) of its last action that carried `at`
        self._last_aimed: dict[int, tuple[str, int]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- life ----------------------------------------------------------------------------

    def start(self) -> None:
        """Starts the clock: the computer players see the deal. Call inside the event loop."""
        self._loop = asyncio.get_running_loop()
        self._changed(list(self.game.events))

    def close(self) -> None:
        """Stops every pending computer move; the table takes no more moves."""
        self.closed = True
        for handle in self._pending.values():
            handle.cancel()
        self._pending.clear()
        self._watchers.clear()

    @property
    def over(self) -> bool:
        return self.game.outcome is not None

    def watch(self, seat: int | None, send: Send) -> Callable[[], None]:
        """Sends ``seat``'s state now and its messages from now on; returns the way to stop."""
        if seat is not None and not 0 <= seat < self.game.players:
            raise ValueError(f"no seat {seat} at a {self.game.players}-player table")
        self._watchers.setdefault(seat, []).append(send)
        send(message_for(self.game, seat, (), kind="state"))

        def unwatch() -> None:
            senders = self._watchers.get(seat, [])
            if send in senders:
                senders.remove(send)

        return unwatch

    def watched(self, seat: int | None) -> bool:
        return bool(self._watchers.get(seat))

    # -- moves ---------------------------------------------------------------------------

    def act(self, seat: int, obj: object) -> str | None:
        """Applies a person's move (an action's JSON form, without ``player``).

        Returns ``None`` if it was applied, else the reason it was not; a refused move
        changes nothing.
        """
        if self.closed:
            return "this table is closed"
        if seat in self.computers:
            return f"seat {seat} is a computer player"
        try:
            action = self.game.parse_action(obj, player=seat)
        except GameError as exc:
            return str(exc)
        aimed = self._aim(action)
        if aimed is not None and self._last_aimed.get(seat) == aimed:
            # One slap per card and seat: a double tap or a flood of slaps costs nothing.
            return f"you already did {aimed[0]} at {aimed[1]}"
        try:
            events = self.game.apply(action)
        except GameError as exc:
            return str(exc)
        if aimed is not None:
            self._last_aimed[seat] = aimed
        self._changed(events)
        return None

    def _aim(self, action: Any) -> tuple[str, int] | None:
        field = self.pacing.at_field
        if field is None or not hasattr(action, "at"):
            return None
        at = action.at
        if at is None:
            at = self.game.view(None).get(field)
        return (action.type, at) if isinstance(at, int) else None

    def _fire(self, seat: int, action: Any, due: float) -> None:
        self._pending.pop(seat, None)
        if self._on_lag is not None and self._loop is not None:
            self._on_lag(self._loop.time() - due)
        if self.closed or self.over:
            return
        try:
            events = self.game.apply(action)
        except GameError:
            # Its answer went stale in a way the rules refuse (a decision is superseded on
            # every change, so this is rare); nothing changed, so nobody needs telling.
            return
        self._changed(events)

    # -- after every change ----------------------------------------------------------------

    def _changed(self, events: Sequence[Event]) -> None:
        game = self.game
        for seat, senders in list(self._watchers.items()):
            if senders:
                message = message_for(game, seat, events)
                for send in list(senders):
                    send(message)
        if self.over:
            for handle in self._pending.values():
                handle.cancel()
            self._pending.clear()
            return
        loop = self._loop
        if loop is None:
            return
        now = loop.time()
        pacing = self.pacing
        if any(e.type in pacing.after for e in events):
            self._hold_until = now + pacing.pause_for(self.level)
        for seat, player in self.computers.items():
            self._ask(seat, player, [e.seen_by(seat) for e in events], now, loop)

    def _ask(self, seat: int, player: ComputerPlayer, seen: list[dict[str, Any]], now: float,
             loop: asyncio.AbstractEventLoop) -> None:
        try:
            decision = player.decide(self.game.view(seat), seen)
        except Exception:
            # A faulty computer player must not stop the table or the server.
            log.exception("computer player at seat %d failed", seat)
            decision = None
        old = self._pending.pop(seat, None)
        if old is not None:
            old.cancel()
        if decision is None or decision.action.player != seat:
            return
        delay = max(0.0, decision.delay)
        if decision.action.type in self.pacing.held:
            delay = max(delay, self._hold_until - now)
        due = now + delay
        self._pending[seat] = loop.call_at(due, self._fire, seat, decision.action, due)

    # -- seats changing hands ----------------------------------------------------------------

    def seat_computer(self, seat: int, player: ComputerPlayer) -> None:
        """A computer player takes over ``seat`` (its person has gone) from the game as it
        is now; moves people send for the seat are refused meanwhile."""
        if not 0 <= seat < self.game.players:
            raise ValueError(f"no seat {seat} at a {self.game.players}-player table")
        self.computers[seat] = player
        self._last_aimed.pop(seat, None)
        loop = self._loop
        if loop is not None and not self.closed and not self.over:
            self._ask(seat, player, [], loop.time(), loop)

    def seat_person(self, seat: int) -> None:
        """The seat's person is back: its computer player stops, its pending move with it."""
        self.computers.pop(seat, None)
        handle = self._pending.pop(seat, None)
        if handle is not None:
            handle.cancel()
