"""Who is connected to a room, and telling them: game pages, spectators and waiting rooms.

:class:`Connections` is a part a :class:`~parlour.live.room.Room` owns: its links (one per
connection: a seat's game page or waiting room, or a spectator), its followers (waiting
room pages), every fan-out to them, and the quick reactions' rate limit. It knows no room:
what each is told is the room's to say (a game page's messages come through
:func:`~parlour.live.table.message_for`, the one secrecy boundary).
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.live.protocol import Refused, error
from parlour.live.seats import Link, Message, Send

#: Seconds a seat waits between two quick reactions (``slow_down`` meanwhile).
REACT_EVERY = 1.5


class Connections:
    """The connections of one room; see the module docstring."""

    def __init__(self) -> None:
        self.links: list[Link] = []
        """Read only: :meth:`add` and :meth:`drop` change it."""
        self.followers: list[Send] = []
        self._reacted: dict[int, float] = {}  # each seat's last reaction
        # the game pages by seat, made again after links come or go (read on every move)
        self._pages: dict[int | None, list[Send]] | None = None

    # -- who is here --------------------------------------------------------------------------

    def present(self, seat: int) -> bool:
        """Whether any connection holds ``seat`` (a game page or a waiting room)."""
        return any(link.seat == seat for link in self.links)

    def watching(self, seat: int) -> bool:
        """Whether a game page shows ``seat`` (a race waits for it: ruling J3)."""
        return any(link.seat == seat and link.play for link in self.links)

    def watchers(self) -> int:
        """Connections that hold no seat: spectators and waiting-room visitors."""
        seated = {link.send for link in self.links if link.seat is not None}
        return (sum(link.seat is None for link in self.links)
                + sum(send not in seated for send in self.followers))

    def holds(self, send: Send) -> bool:
        """Whether ``send`` already counts here: a follower, or a connection at a seat."""
        return send in self.followers or any(
            link.send == send and link.seat is not None for link in self.links)

    def pages(self) -> dict[int | None, list[Send]]:
        """The game pages by the seat they show (``None``: the spectators); read only (it
        is kept until a link comes or goes, and a new one made then)."""
        pages = self._pages
        if pages is None:
            pages = self._pages = {}
            for link in self.links:
                if link.play:
                    pages.setdefault(link.seat, []).append(link.send)
        return pages

    # -- telling ------------------------------------------------------------------------------

    def tell_pages(self, message: Message) -> None:
        """Every game page and spectator (not the waiting rooms)."""
        for link in list(self.links):
            if link.play:
                link.send(message)

    def tell_seat(self, seat: int, message: Message) -> None:
        """The game pages of ``seat``."""
        for link in list(self.links):
            if link.play and link.seat == seat:
                link.send(message)

    def tell_all(self, message: Message) -> None:
        """Every connection with a link (pages, spectators and waiting rooms)."""
        for link in list(self.links):
            link.send(message)

    def tell_followers(self, message: Message) -> None:
        for send in list(self.followers):
            send(message)

    # -- coming and going ---------------------------------------------------------------------

    def add(self, link: Link) -> None:
        self.links.append(link)
        self._pages = None

    def drop(self, which: Callable[[Link], bool]) -> list[Link]:
        """Takes out the links ``which`` picks; returns them."""
        dropped = [link for link in self.links if which(link)]
        for link in dropped:
            self.links.remove(link)
        self._pages = None
        return dropped

    def evict(self, link: Link, code: str, reason: str) -> None:
        """Takes ``link``'s seat from it, and tells it why."""
        self.drop(lambda other: other is link)
        link.send(error(code, reason))
        if link.evicted is not None:
            link.evicted(code)

    def follow(self, send: Send) -> None:
        if send not in self.followers:
            self.followers.append(send)

    def unfollow(self, send: Send) -> None:
        if send in self.followers:
            self.followers.remove(send)

    def clear(self) -> None:
        self.followers.clear()
        self.links.clear()
        self._pages = None

    # -- reactions ----------------------------------------------------------------------------

    def may_react(self, seat: int, now: float) -> None:
        """Raises ``slow_down`` if ``seat`` reacted less than :data:`REACT_EVERY` seconds
        before ``now``; else counts this reaction."""
        if now - self._reacted.get(seat, -REACT_EVERY) < REACT_EVERY:
            raise Refused(f"one reaction every {REACT_EVERY:g} seconds", "slow_down")
        self._reacted[seat] = now
