"""Each seat's network delay, and slap races settled by reaction time (ruling J3).

A person's card reaches them late and their slap comes back late; a computer player sits
inside the server. Settled in order of arrival, every race goes to whoever is nearer the
server (issue 18: a 500 ms person's share of races against Normal fell from 45% at no lag
to 9% at 100 ms one way). So a live table credits each slap at the moment the person
reacted, as the server can tell it:

- **The delay.** The server pings every seated connection about once a second and times
  the answer (:class:`SeatLag`). A round trip is the card's way out plus the slap's way
  back, which is exactly what a slap is late by: a card sent at ``t`` is seen at
  ``t + down``, the key pressed ``r`` later, and the slap arrives at
  ``t + down + r + up``; so ``r = arrival - t - (down + up)``. The estimate of
  ``down + up`` is a low percentile (the 25th) of the last 16 round trips: one slow answer
  (a busy phone, a queue somewhere) does not count, a change of network is followed within
  a few seconds, and the seat keeps it across a reconnect (the table holds it, not the
  socket).
- **The credit.** A person's slap (and a Splunk call, which races a slap, P5) is credited
  at ``arrival - compensation``; a computer player's at its own decision time, counted from
  the card's play. The earliest credit wins.
- **Bounded.** The compensation is at most :data:`CAP_ONE_WAY` each way (so
  ``2 * CAP_ONE_WAY`` in all): a phone on a mobile network or a connection across a
  continent is within it; beyond it the page says races can no longer be made fair. It is
  never more than the seat's own evidence allows (its *quota*, in the spirit of lichess'
  lag tracker, which checks a client's claims against what the server measured): a slap
  that arrived ``a`` after its card was sent proves the round trip was at most
  ``a - HUMAN_FLOOR``, since nobody reacts faster than :data:`HUMAN_FLOOR`, so the fastest
  of the seat's recent slaps bounds what it may be credited. A client that delays its
  pongs to look far away therefore gains at most the cap, and less the faster it slaps;
  and no compensated slap is credited less than :data:`HUMAN_FLOOR` after its card
  reached the person.
- **The settle window.** A slap pressed earlier may arrive later. So a race stays open
  after its first slap, until every person who has not slapped could no longer beat the
  best credit: the best credit plus that person's compensation and the spread of their
  round trips (:meth:`SeatLag.window`). Then the slaps are applied in order of credit (the
  losers' slaps are stale, J6) and whatever else arrived meanwhile in order of arrival.
  With nobody's delay to allow for, the window is nothing: a race is settled at once, in
  order of arrival, exactly as before.

A record holds the order the table settled, so a replay never depends on timing (J3).
"""

from __future__ import annotations

from collections import deque

__all__ = ["CAP_ONE_WAY", "HUMAN_FLOOR", "QUOTA_WINDOW", "RACES", "SPREAD_MAX", "WINDOW", "SeatLag"]

#: The most a seat's slap is moved earlier for its network delay, each way (seconds). 175
#: ms one way covers a home connection (10 to 50 ms), a phone on a mobile network (50 to
#: 100 ms, with jitter) and a connection across a continent (up to 150 ms, with 25 ms of
#: jitter on top); more than that is a connection a race cannot be made fair on without
#: holding every race open too long for everyone else (a race waits up to twice the cap
#: plus the spread for the slowest seat at the table).
CAP_ONE_WAY = 0.175
#: No compensated slap is credited sooner than this after its card reached the person: a
#: faster "reaction" is a guess (the usual false-start limit in sprinting is 100 ms).
HUMAN_FLOOR = 0.100
#: Round trips kept per seat, and the percentile the estimate reads.
WINDOW = 16
PERCENTILE = 0.25
#: Slaps kept per seat for its quota (its fastest recent responses).
QUOTA_WINDOW = 8
#: The settle window allows this much spread of a seat's round trips at most (seconds).
SPREAD_MAX = 0.050
#: The actions that race (J3, P5): a slap, and a Splunk call, which races a slap.
RACES = frozenset({"slap", "call"})


def _quantile(ordered: list[float], q: float) -> float:
    """The ``q`` quantile of a sorted non-empty list (linear between neighbours)."""
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


class SeatLag:
    """One seat's measured network delay; see the module docstring.

    >>> lag = SeatLag()
    >>> for rtt in (0.100, 0.104, 0.098, 0.300, 0.102):  # one slow answer among them
    ...     lag.sample(rtt)
    >>> round(lag.round_trip * 1000), round(lag.one_way * 1000)
    (100, 50)
    >>> lag.responded(0.180)  # a slap 180 ms after its card: the round trip was <= 80 ms
    >>> round(lag.compensation() * 1000)
    80
    """

    __slots__ = ("_responses", "_samples", "_sorted")

    def __init__(self) -> None:
        self._samples: deque[float] = deque(maxlen=WINDOW)
        self._responses: deque[float] = deque(maxlen=QUOTA_WINDOW)
        self._sorted: list[float] = []

    def sample(self, round_trip: float) -> None:
        """A ping answered after ``round_trip`` seconds (a negative one is ignored)."""
        if round_trip >= 0.0:
            self._samples.append(round_trip)
            self._sorted = sorted(self._samples)

    def responded(self, after: float) -> None:
        """A slap (or call) arrived ``after`` seconds after its card was sent."""
        if after >= 0.0:
            self._responses.append(after)

    @property
    def measured(self) -> bool:
        return bool(self._samples)

    @property
    def round_trip(self) -> float:
        """The estimate of the time out and back (0 until measured)."""
        return _quantile(self._sorted, PERCENTILE) if self._sorted else 0.0

    @property
    def one_way(self) -> float:
        return self.round_trip / 2

    @property
    def spread(self) -> float:
        """How much the round trips vary (between the quartiles), at most ``SPREAD_MAX``."""
        if len(self._sorted) < 2:
            return 0.0
        return min(SPREAD_MAX, _quantile(self._sorted, 0.75) - _quantile(self._sorted, 0.25))

    @property
    def quota(self) -> float:
        """The most the seat's own slaps allow crediting it (its fastest recent response
        less the human floor); unbounded before its first slap."""
        if not self._responses:
            return float("inf")
        return max(0.0, min(self._responses) - HUMAN_FLOOR)

    @property
    def fair(self) -> bool:
        """Whether races can be made fair on this connection (within the cap)."""
        return self.one_way <= CAP_ONE_WAY

    def compensation(self) -> float:
        """How much earlier than its arrival a slap from this seat is credited."""
        return min(self.round_trip, 2 * CAP_ONE_WAY, self.quota)

    def window(self) -> float:
        """How long after the best credit a race waits for this seat's slap."""
        return self.compensation() + self.spread if self.measured else 0.0

    def shown(self) -> dict[str, object]:
        """What the page shows: the one-way delay in ms, and whether it is within the cap."""
        return {"ms": round(self.one_way * 1000), "fair": self.fair}
