"""Where a table is in its life: the one vocabulary of the store and the live rooms.

>>> Phase("playing") is Phase.PLAYING, Phase.FINISHED == "finished"
(True, True)
>>> [p.value for p in Phase if p.resumable]
['waiting', 'playing', 'finished']
"""

from __future__ import annotations

import enum


class Phase(enum.StrEnum):
    """A table's phase, as stored and as its room is in it.

    ``WAITING``: a table with friends before the host starts it; ``PLAYING``; ``FINISHED``:
    over, its replay kept (people may still look at it); ``LEFT``: its people are done with
    it unfinished (its tokens stop working); ``CLOSED``: it cannot be played on (the reason
    is stored beside it: its record no longer replays, its game is gone).
    """

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"
    LEFT = "left"
    CLOSED = "closed"

    @property
    def resumable(self) -> bool:
        """Whether a table in this phase can come back into memory (its tokens work)."""
        return self in (Phase.WAITING, Phase.PLAYING, Phase.FINISHED)

    @property
    def started(self) -> bool:
        return self in (Phase.PLAYING, Phase.FINISHED)
