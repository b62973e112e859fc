"""What one browser is doing at the lobby: its place, and the commands that change it.

A connection's place is one value (:data:`Place`): nowhere yet, playing a seat (a game
page), in a waiting room (holding a seat there, or visiting), watching a table, or
relayed to the node that owns its table. :class:`Session` carries out each parsed command
(:mod:`parlour.live.protocol`) against the lobby and the rooms; a command refused raises
:class:`~parlour.live.Refused` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from parlour.live import Lobby, Refused, Room, Seating
from parlour.live import protocol as p
from parlour.live.seats import Send


@dataclass(frozen=True)
class Nowhere:
    """Not at any table."""


@dataclass(frozen=True)
class Playing:
    """A game page at ``seating``'s seat."""

    seating: Seating


@dataclass(frozen=True)
class Waiting:
    """A waiting room page of ``room``: holding ``seating`` there, or a visitor (``None``)."""

    room: Room
    seating: Seating | None = None


@dataclass(frozen=True)
class Watching:
    """A spectator of ``room``."""

    room: Room


@dataclass(frozen=True)
class Relayed:
    """Its table is another node's: frames go there (:mod:`parlour.web.relay`)."""

    node: str


Place = Nowhere | Playing | Waiting | Watching | Relayed
NOWHERE = Nowhere()


class Session:
    """One browser's place and commands; ``send`` reaches its socket, ``owner`` is its
    client address (the caps count tables per address), ``on_busy`` is told whether it is
    at a table as that changes."""

    def __init__(self, lobby: Lobby, send: Send, *, owner: str,
                 on_busy: Callable[[bool], None] | None = None) -> None:
        self.lobby = lobby
        self.send = send
        self.owner = owner
        self.place: Place = NOWHERE
        self._on_busy = on_busy
        self.busy = False

    @property
    def seating(self) -> Seating | None:
        """The seat this session plays or holds, if any."""
        place = self.place
        return place.seating if isinstance(place, Playing | Waiting) else None

    def _moved(self, place: Place) -> None:
        self.place = place
        busy = place is not NOWHERE
        if busy != self.busy:
            self.busy = busy
            if self._on_busy is not None:
                self._on_busy(busy)

    def relay_to(self, node: str) -> None:
        """From now on this browser's table is ``node``'s: every local place is let go."""
        self.release()
        self._moved(Relayed(node))

    def unrelay(self) -> None:
        if isinstance(self.place, Relayed):
            self._moved(NOWHERE)

    def release(self) -> None:
        """Lets go of this session's local place, without leaving any seat."""
        place, send = self.place, self.send
        match place:
            case Playing(seating=seating):
                seating.room.detach(seating, send)
            case Waiting(room=room, seating=seating):
                if seating is not None:
                    room.detach(seating, send)
                room.unfollow(send)
            case Watching(room=room):
                room.unwatch(send)
            case _:
                return
        self._moved(NOWHERE)

    def carry_out(self, command: p.Command) -> None:
        """Carries out one command; :class:`Refused` if it cannot be (nothing changed)."""
        try:
            self._carry_out(command)
        except Refused as exc:
            exc.about = command.type
            raise

    def _carry_out(self, command: p.Command) -> None:
        match command:
            case p.Start():
                seating = self.lobby.open(command, owner=self.owner)
                self._leave()
                self._join(seating)
            case p.Resume(token=token):
                found = self.lobby.find(token)
                if found is None:
                    raise Refused("unknown or expired seat token", "bad_token")
                self._join(found)
            case p.Act():
                self._act(command)
            case p.Leave():
                self._leave()
            case p.Create():
                seating = self.lobby.create(command, owner=self.owner)
                self._leave()
                self._hold(seating)
            case p.Join():
                self._join_room(command)
            case p.Sit():
                self._sit(command)
            case p.Speed(level=level):
                host = self._host()
                host.room.set_level(host, level)
            case p.Begin():
                host = self._host()
                host.room.begin(host)
            case p.Remove(seat=seat):
                host = self._host()
                host.room.remove(host, seat)
            case p.Watch(table=table):
                room = self.lobby.room_for_watcher(table)  # refused: nothing changes
                self.release()
                self._moved(Watching(self.lobby.watch(room.id, self.send)))
            case p.Rematch():
                self._rematch()
            case p.React(reaction=reaction):
                place = self.place
                if not isinstance(place, Playing):
                    raise Refused("take a seat to react", "no_seat")
                place.seating.room.react(place.seating, reaction)

    def _leave(self) -> None:
        seating = self.seating
        self.release()
        if seating is not None:
            self.lobby.leave(seating.token)

    def _join(self, seating: Seating) -> None:
        self.release()
        joined = self.lobby.attach(seating.token, self.send, welcome=True,
                                   evicted=lambda code: self._lost(joined))
        self._moved(Playing(joined))

    def _lost(self, seating: Seating) -> None:
        """The room took ``seating`` from this session (another device took the seat up,
        or the host removed us); the room already told the browser why."""
        place = self.place
        if isinstance(place, Playing) and place.seating == seating:
            self._moved(NOWHERE)
        elif isinstance(place, Waiting) and place.seating == seating:
            self._moved(Waiting(place.room))

    def _act(self, command: p.Act) -> None:
        place = self.place
        if not isinstance(place, Playing):
            raise Refused("start or resume a started table before acting", "no_table")
        seating = place.seating
        room = seating.room
        room.commit(seating.seat, p.action_for(command, room.spec, seating.seat),
                    command.version)

    # -- tables with friends -------------------------------------------------------------

    def _hold(self, seating: Seating) -> None:
        """Seats this session in the waiting room: ``seated``, then ``lobby`` updates."""
        room = seating.room
        self.lobby.attach(seating.token, self.send, play=False,
                          evicted=lambda code: self._lost(seating))
        self.send({"type": "seated", "table": room.id, "game": room.spec.name,
                   "seat": seating.seat, "token": seating.token})
        if isinstance(self.place, Waiting):
            self.place.room.unfollow(self.send)
        # follow() sends the room as it is now: with this seat taken
        self._moved(Waiting(self.lobby.follow(room.id, self.send), seating))

    def _join_room(self, command: p.Join) -> None:
        room = self.lobby.room(command.table)
        found = self.lobby.find(command.token) if command.token is not None else None
        mine = found is not None and found.room is room
        if command.token is not None and not mine:
            self.send(p.error("bad_token", "that seat token is not for this table", "join"))
        here = isinstance(self.place, Waiting) and self.place.room is room
        if not mine and not here:
            self.lobby.room_for_watcher(room.id)  # refused: nothing changes
        self.release()
        if found is not None and mine:
            self._hold(found)
        else:
            self._moved(Waiting(self.lobby.follow(room.id, self.send)))

    def _sit(self, command: p.Sit) -> None:
        if self.seating is not None:
            raise Refused("you already have a seat here: leave it first", "seated")
        place = self.place
        table = command.table or (place.room.id if isinstance(place, Waiting) else None)
        if table is None:
            raise Refused("join a table before taking a seat", "unknown_table")
        self._hold(self.lobby.room(table).sit(command.name, command.seat))

    def _rematch(self) -> None:
        """The finished table's rematch: this seat goes to its waiting room (``seated``,
        then ``lobby`` updates), with the same token."""
        seating = self.seating
        if seating is None:
            raise Refused("only the people at a table can ask for a rematch", "no_seat")
        again = self.lobby.rematch(seating)
        self.release()
        self._hold(again)

    def _host(self) -> Seating:
        seating = self.seating
        if seating is None:
            raise Refused("create a table or take a seat first", "no_seat")
        return seating
