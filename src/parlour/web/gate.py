"""Sockets and messages per client address, for every connection of one server
(:class:`Gate`), counted with token buckets (:class:`TokenBucket`)."""

from __future__ import annotations

import time
from collections.abc import Iterator


class TokenBucket:
    """A token bucket: ``rate`` a second on average, ``burst`` at once."""

    __slots__ = ("burst", "rate", "refilled", "tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.refilled = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    @property
    def full(self) -> bool:
        return self.tokens + (time.monotonic() - self.refilled) * self.rate >= self.burst


class _Address:
    """One client address's sockets, its share of the message rate and of new sockets."""

    __slots__ = ("connects", "idle", "messages", "open")

    def __init__(self, gate: Gate) -> None:
        self.open = 0
        self.idle = 0
        self.messages = TokenBucket(gate.rate, gate.burst) if gate.rate is not None else None
        self.connects = TokenBucket(gate.connect_rate, gate.connect_burst)


class Gate:
    """Sockets and messages per client address, for every connection of one server.

    ``per_address`` sockets at once from one address, at most ``idle_per_address`` of them
    idle (at no table: neither playing, holding a seat, watching nor in a waiting room);
    ``total`` sockets for the whole server. ``rate`` messages a second on average from one
    address, all its sockets together (``burst`` at once; ``None``: no limit), and
    ``connect_rate`` new sockets a second (``connect_burst`` at once). A socket cut off for
    flooding bars its address from new sockets for ``flood_bar`` seconds: a flooder that
    reconnects at once would otherwise cost a handshake and a warning each time. A socket
    refused for coming too soon is held ``hold`` seconds before its answer (at most
    ``held_per_address`` at once per address; more are answered at once), so that a client
    that retries as soon as it is refused retries once a second, not a thousand times.
    """

    def __init__(self, *, per_address: int = 32, idle_per_address: int = 8,
                 total: int = 10_000, rate: float | None = 100.0, burst: int = 200,
                 connect_rate: float = 5.0, connect_burst: int = 20,
                 flood_bar: float = 5.0, hold: float = 1.0, held_per_address: int = 64) -> None:
        self.per_address = per_address
        self.idle_per_address = idle_per_address
        self.total = total
        self.rate = rate
        self.burst = burst
        self.connect_rate = connect_rate
        self.connect_burst = connect_burst
        self.flood_bar = flood_bar
        self.hold = hold
        self.held_per_address = held_per_address
        self.open = 0
        self._held: dict[str, int] = {}
        self._addresses: dict[str, _Address] = {}

    def _state(self, address: str) -> _Address:
        state = self._addresses.get(address)
        if state is None:
            state = self._addresses[address] = _Address(self)
        return state

    def admit(self, address: str) -> tuple[str, str] | None:
        """Counts a new socket of ``address`` (idle until it joins a table); or says why
        not: ``(code, reason)``, and nothing is counted. ``slow_down`` (new sockets too
        fast, as a flooder that was cut off reconnects) is refused before the handshake,
        the cheapest way."""
        if self.open >= self.total:
            return ("busy", "the server has too many connections: try again in a minute")
        state = self._state(address)
        try:
            if state.open >= self.per_address:
                return ("too_many_connections",
                        f"at most {self.per_address} connections from one address")
            if state.idle >= self.idle_per_address:
                return ("too_many_connections",
                        f"at most {self.idle_per_address} connections from one address "
                        "that are not at a table")
            if not state.connects.take():
                return ("slow_down",
                        "too many new connections from this address: try again in a moment")
            state.open += 1
            state.idle += 1
            self.open += 1
            return None
        finally:
            self._forget(address, state)

    def _forget(self, address: str, state: _Address) -> None:
        """Drops an address with no socket whose buckets are full again: it is as new."""
        if (state.open <= 0 and state.connects.full
                and (state.messages is None or state.messages.full)):
            self._addresses.pop(address, None)

    def busy(self, address: str, busy: bool) -> None:
        """A socket of ``address`` is at a table now (``busy``), or idle again."""
        state = self._addresses.get(address)
        if state is not None:
            state.idle += -1 if busy else 1

    def gone(self, address: str, *, idle: bool) -> None:
        """A socket of ``address`` closed (``idle``: it was at no table)."""
        state = self._addresses.get(address)
        if state is None:
            return
        state.open -= 1
        state.idle -= idle
        self.open -= 1
        self._forget(address, state)

    def allow(self, address: str) -> bool:
        """Takes one message from ``address``'s share; ``False``: drop the message."""
        state = self._addresses.get(address)
        return state is None or state.messages is None or state.messages.take()

    def flooded(self, address: str) -> None:
        """A socket of ``address`` was cut off for flooding: no new socket from it for
        :attr:`flood_bar` seconds (its bucket of new sockets owes that long)."""
        state = self._addresses.get(address)
        if state is not None:
            state.connects.tokens = -self.flood_bar * self.connect_rate

    def holding(self, address: str) -> bool:
        """Takes one of ``address``'s places to hold a refused socket; ``False``: none is
        left (refuse at once). Give it back with :meth:`held`."""
        held = self._held.get(address, 0)
        if self.hold <= 0 or held >= self.held_per_address:
            return False
        self._held[address] = held + 1
        return True

    def held(self, address: str) -> None:
        held = self._held.pop(address, 1) - 1
        if held > 0:
            self._held[address] = held

    def connections(self, address: str) -> int:
        state = self._addresses.get(address)
        return 0 if state is None else state.open

    def addresses(self) -> Iterator[str]:
        """Every address with a socket open."""
        return (address for address, state in self._addresses.items() if state.open > 0)
