"""One seed from another: every derived seed of Parlour (a simulation's games, an
environment's episodes, a seeded table's computer players) is made here.

>>> derived_seed("parlour-sim", 7, "game", 0) == derived_seed("parlour-sim", 7, "game", 0)
True
>>> derived_seed(1, 2) != derived_seed(2, 1)
True
"""

from __future__ import annotations

import random


def derived_seed(*parts: object) -> int:
    """A 63-bit seed named by ``parts`` (joined with ``:``). A string seed goes through
    SHA-512 in :mod:`random`, so this is stable across runs, versions and platforms."""
    return random.Random(":".join(map(str, parts))).getrandbits(63)
