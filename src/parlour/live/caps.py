"""How much of the server one client may hold: tables per address and in all, places in the
public list of open tables, and the computer players' CPU time per table and per address
(:class:`Budgets`), taken in turns so that no burst of them holds the event loop
(:class:`Turns`).

The lobby names each table's ``owner`` (its creator's client address) and asks here before
it opens one. A table counts while it *holds its slot*: once someone played at it (a
person's move, or the host started it), or while a person is at it. A table nobody ever
played frees its slot as soon as its people are gone, so a client that opens tables and
drops them holds nothing (the lobby also closes such a table at once, or, with friends
before the start, after a reload's time).

>>> caps = TableCaps(total=3, per_address=2)
>>> caps.admit("1.2.3.4", lambda room: True)
>>> caps.add("1.2.3.4", "a"); caps.add("1.2.3.4", "b")
>>> caps.admit("1.2.3.4", lambda room: True)
Traceback (most recent call last):
...
parlour.live.protocol.Refused: you have 2 tables open already: finish or leave one first
>>> caps.admit("1.2.3.4", lambda room: room != "a")  # "a" was never played and is empty
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from parlour.bots.base import AnyPlayer, ComputerPlayer, Decision
from parlour.bots.scheduler import Clock, Timer
from parlour.live.protocol import Refused

log = logging.getLogger(__name__)


class TableCaps:
    """Tables per client address (``per_address``; ``None``: no limit) and in all
    (``total``), counting only the tables that hold their slot (``holds(table id)``)."""

    def __init__(self, *, total: int = 1000, per_address: int | None = 10) -> None:
        self.total = total
        self.per_address = per_address
        self._owned: dict[str, set[str]] = {}
        self._owner: dict[str, str] = {}
        self.elsewhere: dict[str, int] = {}
        """With several nodes: each address's tables on the other nodes, as last read."""
        self.elsewhere_total = 0

    def admit(self, owner: str, holds: Callable[[str], bool]) -> None:
        """Raises :class:`Refused` (``full``, ``too_many_tables``) if ``owner`` may not open
        one more table now (counting its tables on other nodes too)."""
        limit = self.per_address
        if limit is not None:
            mine = self._owned.get(owner, ())
            others = self.elsewhere.get(owner, 0)
            if (len(mine) + others >= limit
                    and sum(map(holds, mine)) + others >= limit):
                raise Refused(f"you have {limit} tables open already: finish or leave one "
                              "first", "too_many_tables")
        total, others = self.total, self.elsewhere_total
        if (len(self._owner) + others >= total
                and sum(map(holds, self._owner)) + others >= total):
            raise Refused("the server is full; try again in a minute", "full")

    def add(self, owner: str, table: str) -> None:
        self._owned.setdefault(owner, set()).add(table)
        self._owner[table] = owner

    def remove(self, table: str) -> None:
        owner = self._owner.pop(table, None)
        if owner is None:
            return
        mine = self._owned.get(owner)
        if mine is not None:
            mine.discard(table)
            if not mine:
                del self._owned[owner]

    def counts(self) -> dict[str, int]:
        """Tables by owner address, on this node."""
        return {owner: len(tables) for owner, tables in self._owned.items()}


def listed(entries: Sequence[dict[str, Any]], owners: Sequence[str], *, per_address: int,
           limit: int) -> list[dict[str, Any]]:
    """The public list of open tables: in order, at most ``per_address`` of one owner's, at
    most ``limit`` in all, so that one client cannot fill the home page.

    >>> listed([{"t": 1}, {"t": 2}, {"t": 3}], ["a", "a", "b"], per_address=1, limit=5)
    [{'t': 1}, {'t': 3}]
    """
    shown: list[dict[str, Any]] = []
    per: dict[str, int] = {}
    for entry, owner in zip(entries, owners, strict=True):
        if per.get(owner, 0) >= per_address:
            continue
        per[owner] = per.get(owner, 0) + 1
        shown.append(entry)
        if len(shown) >= limit:
            break
    return shown


# -- the computer players' CPU time ---------------------------------------------------------------

class Budget:
    """CPU time as a share of one core: ``share`` seconds of computing per second on
    average, ``burst`` seconds at once. Computing beyond it is a debt, which the computer
    players it pays for wait off before their next move."""

    __slots__ = ("burst", "left", "share", "when")

    def __init__(self, share: float, burst: float) -> None:
        self.share = share
        self.burst = burst
        self.left = burst
        self.when = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.left = min(self.burst, self.left + (now - self.when) * self.share)
        self.when = now

    def debt(self) -> float:
        """How long to wait until nothing is owed, in seconds (0: within the budget)."""
        self._refill()
        return 0.0 if self.left >= 0 else -self.left / self.share

    def spend(self, seconds: float) -> None:
        self._refill()
        self.left -= seconds


class Metered(ComputerPlayer[Any]):
    """A computer player whose thinking is paid from budgets (its table's, its owner's).

    Each decision is charged to every budget at its player's estimate
    (:meth:`~parlour.bots.base.ComputerPlayer.cpu_cost`, from public facts), not at the time
    it took, which depends on what the player holds; a player whose budgets are in debt
    moves later by that debt, so that a table (or a client's tables together) cannot take
    more than its share of the server's CPU, and the delay tells nothing of any hand.
    Players that share a debt wait it off spread over as long again, at random from the
    operating system (a seeded player's own generator stays as its seed made it).
    """

    def __init__(self, player: AnyPlayer, budgets: Sequence[Budget]) -> None:
        self.player = player
        self.budgets = tuple(budgets)
        self.game = player.game
        self.seat = player.seat
        self.level = player.level
        self.rng = player.rng

    def cpu_cost(self, view: Any) -> float:
        return self.player.cpu_cost(view)

    def decide(self, view: Any, events: Sequence[dict[str, Any]]) -> Decision | None:
        owed = max((b.debt() for b in self.budgets), default=0.0)
        decision = self.player.decide(view, events)
        cost = self.player.cpu_cost(view)
        for budget in self.budgets:
            budget.spend(cost)
        if decision is None or owed <= 0.0:
            return decision
        # spread over [owed, 2 owed): the tables that share a debt do not all wake at once
        return Decision(decision.action, decision.delay + owed * (1.0 + _spread.random()))

    def __repr__(self) -> str:
        return f"Metered({self.player!r})"


#: Where a debt's spread comes from: nothing a person sees predicts it.
_spread = random.SystemRandom()


class Budgets:
    """The computer players' budgets: one per table (``per_table`` of a core) and one per
    client address (``per_address``), each with a burst of ``burst`` seconds."""

    def __init__(self, *, per_table: float = 0.05, per_address: float = 0.15,
                 burst: float = 0.25) -> None:
        self.per_table = per_table
        self.per_address = per_address
        self.burst = burst
        self._tables: dict[str, Budget] = {}
        self._addresses: dict[str, tuple[Budget, set[str]]] = {}

    def player(self, player: AnyPlayer, table: str, owner: str | None) -> Metered:
        """``player``, paid from ``table``'s budget and its ``owner``'s."""
        budgets = [self._tables.setdefault(table, Budget(self.per_table, self.burst))]
        if owner is not None:
            budget, tables = self._addresses.setdefault(
                owner, (Budget(self.per_address, self.burst), set()))
            tables.add(table)
            budgets.append(budget)
        return Metered(player, budgets)

    def forget(self, table: str, owner: str | None) -> None:
        """``table`` closed (an address's budget goes with its last table)."""
        self._tables.pop(table, None)
        if owner is not None and owner in self._addresses:
            tables = self._addresses[owner][1]
            tables.discard(table)
            if not tables:
                del self._addresses[owner]


# -- computer moves in turns ----------------------------------------------------------------------

class _Turn:
    __slots__ = ("callback", "cancelled", "due", "handle")

    def __init__(self, callback: Callable[[], None], due: float) -> None:
        self.callback = callback
        self.cancelled = False
        self.due = due
        self.handle: Timer | None = None

    def when(self) -> float:
        """When it falls due (as :meth:`asyncio.TimerHandle.when`)."""
        return self.due

    def cancel(self) -> None:
        """Not due yet: never queued; queued: never run."""
        self.cancelled = True
        if self.handle is not None:
            self.handle.cancel()


class Turns:
    """Runs the computer moves of every live table one at a time, owners in rotation.

    A computer move (the rules, every seat's message, every computer player asked again)
    costs up to some milliseconds at a 42-seat table. When many fall due at once, the event
    loop would run them all back to back before it reads a socket again; here each due move
    joins its owner's queue (a client address's tables together), and one callback at a
    time takes a move from each owner in turn, letting the loop read and write the sockets
    between two moves. So a person elsewhere waits for one move at most, and one client's
    many tables wait for each other rather than for everyone.

    ``clock``: the clock the moves fall due on; by default the running event loop's. Given
    one (a :class:`~parlour.bots.scheduler.VirtualClock` in tests), the moves fall due on it
    and the queue is worked on it too. Either way one move is taken per callback, so other
    callbacks due then (a person's message, a presence timer) come between two.
    """

    def __init__(self, clock: Clock | None = None) -> None:
        self.given = clock
        self._queues: dict[str | None, deque[_Turn]] = {}
        self._order: deque[str | None] = deque()
        self._stepping = False  # a step is on the clock

    def clock(self, owner: str | None) -> TurnClock:
        """A clock for the scheduler of a table of ``owner``."""
        return TurnClock(self, owner)

    def _due(self, owner: str | None, turn: _Turn) -> None:
        turn.handle = None
        if turn.cancelled:
            return
        queue = self._queues.get(owner)
        if queue is None:
            queue = self._queues[owner] = deque()
            self._order.append(owner)
        queue.append(turn)
        if not self._stepping:
            self._stepping = True
            self._soon(self._step)

    def _soon(self, callback: Callable[[], None]) -> None:
        """``callback`` on the clock's next turn (after what is due now: the sockets)."""
        clock = self.given
        if clock is None:
            asyncio.get_running_loop().call_soon(callback)
        else:
            clock.call_at(clock.now(), callback)

    def _next(self) -> _Turn:
        owner = self._order.popleft()
        queue = self._queues[owner]
        turn = queue.popleft()
        if queue:
            self._order.append(owner)
        else:
            del self._queues[owner]
        return turn

    @staticmethod
    def _take(turn: _Turn) -> None:
        if not turn.cancelled:
            turn.cancelled = True  # run once
            try:
                turn.callback()
            except Exception:  # as the event loop would: logged, and the others go on
                log.exception("a computer move failed")

    def _step(self) -> None:
        """One move (the next owner's), then the next on the clock's next turn: a plain
        callback, not a task, as this runs after every change of every live table."""
        while self._order:
            turn = self._next()
            if not turn.cancelled:
                self._take(turn)
                break
        if self._order:
            self._soon(self._step)
        else:
            self._stepping = False


class TurnClock:
    """The scheduler's clock on the running loop (or on the clock given to :class:`Turns`),
    its callbacks run by :class:`Turns`."""

    def __init__(self, turns: Turns, owner: str | None) -> None:
        self.turns = turns
        self.owner = owner

    def now(self) -> float:
        given = self.turns.given
        return asyncio.get_running_loop().time() if given is None else given.now()

    def call_at(self, when: float, callback: Callable[[], None], order: int = 0) -> _Turn:
        turn = _Turn(callback, when)
        turns, owner, given = self.turns, self.owner, self.turns.given
        if given is not None:
            if when <= given.now():
                turns._due(owner, turn)  # due already: its owner's queue at once
            else:
                turn.handle = given.call_at(when, lambda: turns._due(owner, turn), order)
            return turn
        loop = asyncio.get_running_loop()
        if when <= loop.time():
            turns._due(owner, turn)  # due already: its owner's queue at once
        else:
            turn.handle = loop.call_at(when, turns._due, owner, turn)
        return turn
