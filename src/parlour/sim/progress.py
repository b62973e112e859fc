"""The progress bars of the long commands (``parlour simulate``, the calibration tables).

They are tqdm's: one small package with no dependencies of its own, which redraws at a
sensible rate, shows the rate and the time left, and with ``disable=None`` draws nothing
when standard error is not a terminal, so a log, a pipe or CI gets no bar at all.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Never

from tqdm import tqdm

from parlour.sim.simulate import Progress


def bar(total: int, unit: str, *, quiet: bool = False, description: str = "") -> tqdm[Never]:
    """A bar to ``total`` on standard error, drawn only on a terminal (never if ``quiet``)."""
    return tqdm(total=total, unit=unit, desc=description or None, file=sys.stderr,
                disable=True if quiet else None, dynamic_ncols=True, leave=True)


@contextmanager
def games_bar(total: int, *, quiet: bool = False, description: str = "") -> Iterator[Progress]:
    """A :data:`~parlour.sim.simulate.Progress` callback that moves a bar of ``total``
    games; the bar is closed (its last state left on the terminal) when the block ends."""
    with bar(total, "game", quiet=quiet, description=description) as games:
        def advance(done: int, _total: int) -> None:
            games.update(done - games.n)

        yield advance
