"""A live table: one game on the real clock, with people and computer players at its seats.

- Players: any game of :mod:`parlour.games`; each seat is a person (moves arrive through
  :meth:`Table.act`) or a computer player (:class:`~parlour.bots.base.AnyPlayer`).
  Anyone may also watch a seat, or watch as a spectator (seat ``None``).
- Clock: asyncio. Moves are applied in the order they arrive, which is how a slap race is
  settled (ruling J3: the earlier slap wins); an action carrying ``at`` that lost the race
  is ignored by the rules without a penalty (J6).
- Computer players: the :class:`~parlour.bots.scheduler.Scheduler` that simulations use,
  on an asyncio clock: after every change each computer seat whose view changed is asked
  what to do (on the clock's next turn, once the people have been told), timed from the
  change it answers; a newer answer supersedes an older one, and the game's pacing holds
  some actions back (J10). What changes nothing (a stale slap) moves no computer's timer.
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
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from parlour.bots.base import AnyPlayer
from parlour.bots.scheduler import Clock, Scheduler, Timer
from parlour.engine import Action, Event, Game, GameError, Pacing
from parlour.live.protocol import GameMessage, Refused

Message = Mapping[str, Any]
Send = Callable[[Message], None]


class AsyncioClock:
    """The scheduler's clock on the running event loop."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def call_at(self, when: float, callback: Callable[[], None], order: int = 0) -> Timer:
        return asyncio.get_running_loop().call_at(when, callback)


def message_for(game: Game, seat: int | None, events: Iterable[Event],
                kind: str = "events") -> GameMessage:
    """What ``seat`` (``None``: a spectator) is told about ``events`` and the game now.

    This is the secrecy boundary: nothing about a game leaves a table except through here,
    and here only ``game.view(seat)`` and ``event.seen_by(seat)`` are used.
    """
    return {"type": "events" if kind == "events" else "state",
            "events": [e.seen_by(seat) for e in events], "view": game.view(seat)}


class Table:
    """One game being played live; see the module docstring.

    ``on_change`` is told of every applied action before anybody else (the lobby keeps the
    room's phase, the store the action); ``aim_once``: one slap per target and seat (a
    person's double tap or a flood of slaps at one card costs nothing), see :meth:`act`.
    """

    def __init__(
        self,
        game: Game,
        computers: Mapping[int, AnyPlayer],
        pacing: Pacing | None = None,
        *,
        level: str | None = None,
        on_lag: Callable[[float], None] | None = None,
        on_change: Callable[[Action, Sequence[Event]], None] | None = None,
        aim_once: bool = True,
        clock: Clock | None = None,
    ) -> None:
        self.game = game
        self.pacing = pacing if pacing is not None else game.spec.pacing
        self.level = level
        self.closed = False
        self.aim_once = aim_once
        self._on_change = on_change
        self._watchers: dict[int | None, list[Send]] = {}
        # per person seat: the latest `at` it aimed actions at, and what it aimed at there
        self._aimed: dict[int, tuple[int, set[tuple[Any, ...]]]] = {}
        # `clock`: the lobby's, which takes every table's computer moves in turns
        self.scheduler = Scheduler(game, computers, clock or AsyncioClock(), pacing=self.pacing,
                                   level=level, notify=self._changed, on_lag=on_lag,
                                   strict=False, ask_later=True)

    # -- life ----------------------------------------------------------------------------

    def start(self) -> None:
        """Starts the clock: the computer players see the deal. Call inside the event loop."""
        self.scheduler.start()

    def close(self) -> None:
        """Stops every pending computer move; the table takes no more moves."""
        self.closed = True
        self.scheduler.close()
        self._watchers.clear()

    @property
    def over(self) -> bool:
        return self.game.outcome is not None

    @property
    def computers(self) -> Mapping[int, AnyPlayer]:
        return self.scheduler.computers

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

    def act(self, seat: int, action: Action) -> None:
        """Applies a person's move for ``seat``; :class:`~parlour.live.protocol.Refused`
        (code ``refused``) says why not, and a refused move changes nothing. A move that
        merely lost a race (a Splunk call after a slap settled the play) is answered
        ``stale``: too late, not wrong.

        One action per target and seat: a second slap at the same target (the same card,
        and in Splunk the same stack at the same play) is refused before the rules see it,
        so a double tap or a flood of slaps costs one card at most; a slap at another
        stack at the same play is another target and goes to the rules.
        """
        if self.closed:
            raise Refused("this table is closed", "closed")
        if seat in self.scheduler.computers:
            raise Refused("a computer player has this seat now", "refused")
        if action.player != seat:
            raise Refused("that is not your seat", "refused")
        aimed = self._aim(action)
        if aimed is not None:
            at, target = aimed
            last = self._aimed.get(seat)
            if last is not None and last[0] == at and target in last[1]:
                raise Refused("you already did that at this card", "refused")
        try:
            self.scheduler.act(action)
        except GameError as exc:
            late = self.game.late(action)
            if late is not None:
                raise Refused(late, "stale") from None
            raise Refused(str(exc), "refused") from None
        if aimed is not None:
            at, target = aimed
            last = self._aimed.get(seat)
            if last is None or last[0] != at:
                self._aimed[seat] = (at, {target})
            else:
                last[1].add(target)

    def _aim(self, action: Action) -> tuple[int, tuple[Any, ...]] | None:
        """The resolved ``at`` of ``action`` and what it aims at there (its type and every
        other field: the stack, in Splunk), if it carries an ``at``; ``None`` for everything
        else."""
        if not self.aim_once or not hasattr(action, "at"):
            return None
        at = action.at
        if at is None and self.pacing.at_field is not None:
            at = self.game.view(None).get(self.pacing.at_field)
        if not isinstance(at, int):
            return None
        shape = action.for_seat()
        shape.pop("at", None)
        return at, tuple(sorted(shape.items()))

    # -- after every change ----------------------------------------------------------------

    def _changed(self, action: Action, events: Sequence[Event]) -> None:
        if self._on_change is not None:
            # before anyone is told: the lobby keeps its books, the store keeps the action
            self._on_change(action, events)
        game = self.game
        for seat, senders in list(self._watchers.items()):
            if senders:
                message = message_for(game, seat, events)
                for send in list(senders):
                    send(message)

    # -- seats changing hands ----------------------------------------------------------------

    def seat_computer(self, seat: int, player: AnyPlayer) -> None:
        """A computer player takes over ``seat`` (its person has gone) from the game as it
        is now; moves people send for the seat are refused meanwhile."""
        self._aimed.pop(seat, None)
        self.scheduler.seat_computer(seat, player)

    def seat_person(self, seat: int) -> None:
        """The seat's person is back: its computer player stops, its pending move with it."""
        self.scheduler.seat_person(seat)
