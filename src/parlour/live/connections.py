"""Who is connected to a room, and telling them: game pages, spectators and waiting rooms.

:class:`Connections` is the part of :class:`~parlour.live.room.Room` that keeps its links
(one per connection: a seat's game page or waiting room, or a spectator) and its
followers (waiting-room pages), and every fan-out to them. A game page's messages come
from the room's table (:func:`~parlour.live.table.message_for`, the one secrecy
boundary); what this part sends is public: seats, the waiting room, reactions, errors.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from parlour.bots.scheduler import Clock
from parlour.live.protocol import LobbyState, Reaction, Refused, SeatInfo, Welcome, error
from parlour.live.seats import Link, Seat, Seating, Send

if TYPE_CHECKING:
    from parlour.live.presence import Presence
    from parlour.live.table import Table


#: Seconds a seat waits between two quick reactions (``slow_down`` meanwhile).
REACT_EVERY = 1.5


class Connections:
    """The connections of one room (a base of :class:`~parlour.live.room.Room`)."""

    links: list[Link]
    followers: list[Send]
    seats: list[Seat]
    friends: bool
    closed: bool
    table: Table | None
    presence: Presence
    _clock: Clock
    _reacted: dict[int, float]

    def seat_list(self) -> list[SeatInfo]:
        raise NotImplementedError

    def welcome(self, seat: int | None, token: str | None) -> Welcome:
        raise NotImplementedError

    def summary(self) -> LobbyState:
        raise NotImplementedError

    def _put_away_if_empty(self) -> None:
        raise NotImplementedError

    def watchers(self) -> int:
        """Connections that hold no seat: spectators and waiting-room visitors."""
        seated = {link.send for link in self.links if link.seat is not None}
        return (sum(link.seat is None for link in self.links)
                + sum(send not in seated for send in self.followers))

    def present(self, seat: int) -> bool:
        return any(link.seat == seat for link in self.links)

    def tell_followers(self) -> None:
        summary = self.summary()
        for send in list(self.followers):
            send(summary)

    def tell_seats(self) -> None:
        # Who sits where is public: every game page and spectator is told.
        self.tell_pages({"type": "seats", "seats": self.seat_list()})

    def tell_pages(self, message: Mapping[str, Any]) -> None:
        """Every game page and spectator here (not the waiting rooms)."""
        for link in list(self.links):
            if link.play:
                link.send(message)

    def attach(self, seating: Seating, send: Send, *, play: bool = True,
               welcome: bool = False, evicted: Callable[[str], None] | None = None) -> None:
        """A connection takes up ``seating`` (see :meth:`parlour.live.lobby.Lobby.attach`)."""
        seat = seating.seat
        self.presence.back(seat)
        for link in [link for link in self.links
                     if link.seat == seat and link.play == play and link.send != send]:
            self._evict(link, "elsewhere", "your seat was taken up on another device or tab")
        table = self.table
        if table is not None and self.friends and seat in table.computers:
            table.seat_person(seat)
            self.tell_seats()
        if welcome:
            send(seating.welcome())
        self._link(Link(seat, send, play, evicted=evicted))

    def detach(self, seating: Seating, send: Send) -> None:
        """A connection left its seat (see :mod:`parlour.live.presence` for what follows)."""
        self._unlink(lambda link: link.seat == seating.seat and link.send == send)
        if not self.closed and not self.present(seating.seat):
            self.presence.gone(seating.seat)

    def watch(self, send: Send) -> None:
        """A spectator: ``welcome`` (seat ``None``), then the public view now (or at the
        start) and every change."""
        send(self.welcome(None, None))
        self._link(Link(None, send, True))

    def unwatch(self, send: Send) -> None:
        self._unlink(lambda link: link.seat is None and link.send == send)
        self._put_away_if_empty()

    def follow(self, send: Send) -> None:
        """A waiting room page: ``lobby`` messages now and on every change of the seats."""
        if send not in self.followers:
            self.followers.append(send)
        send(self.summary())

    def unfollow(self, send: Send) -> None:
        if send in self.followers:
            self.followers.remove(send)
        self._put_away_if_empty()

    def _link(self, link: Link) -> None:
        self.links.append(link)
        if link.play and self.table is not None:
            link.unwatch = self.table.watch(link.seat, link.send)

    def _unlink(self, which: Callable[[Link], bool]) -> None:
        for link in [link for link in self.links if which(link)]:
            if link.unwatch is not None:
                link.unwatch()
            self.links.remove(link)

    def _evict(self, link: Link, code: str, reason: str) -> None:
        """Takes ``link``'s seat from it, and tells it why."""
        self._unlink(lambda other: other is link)
        link.send(error(code, reason))
        if link.evicted is not None:
            link.evicted(code)

    def react(self, seating: Seating, reaction: str) -> None:
        """A quick reaction (a checked code) from ``seating``'s seat at a table with friends,
        to every game page and spectator there; one a seat every :data:`REACT_EVERY`
        seconds."""
        if not self.friends:
            raise Refused("reactions are for tables with friends", "no_reactions")
        now = self._clock.now()
        if now - self._reacted.get(seating.seat, -REACT_EVERY) < REACT_EVERY:
            raise Refused(f"one reaction every {REACT_EVERY:g} seconds", "slow_down")
        self._reacted[seating.seat] = now
        message: Reaction = {"type": "reaction", "seat": seating.seat, "reaction": reaction}
        self.tell_pages(message)
