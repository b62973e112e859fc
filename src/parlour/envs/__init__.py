"""PettingZoo and Gymnasium environments for the three games (``pip install parlour[rl]``).

- :class:`SlabberjanEnv`: AEC, one agent a turn (players, ``chips``, ``free_choice``).
- :class:`SlapjackEnv`, :class:`SplunkEnv`: Parallel, on ticks of virtual time (the time
  model is in :mod:`parlour.envs.realtime`).
- :func:`make_single`: one seat learns in a plain Gymnasium environment; the other seats
  are our computer players at a chosen speed. Registered with Gymnasium as
  ``parlour/Slabberjan-v0``, ``parlour/Slapjack-v0`` and ``parlour/Splunk-v0`` (the race
  benchmark preset, :mod:`parlour.envs.registry`).
- :mod:`parlour.envs.policies` (our computer players as policies) and
  :mod:`parlour.envs.evaluate` (seeded evaluations, paired head-to-head comparisons).

Any seat may be one of our computer players (``opponents={seat: "easy"|"normal"|"hard"}``),
driven by the scheduler and virtual clock of our simulations. Observations are built from
the seat's view and nothing else (:mod:`parlour.envs.encoding`); every environment is
seeded through ``reset(seed=...)``.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on what is installed
    raise ImportError("parlour.envs needs PettingZoo and Gymnasium: "
                      "pip install 'parlour[rl]'") from exc

from parlour.envs.encoding import CODECS, Codec
from parlour.envs.realtime import RealTimeEnv, SlapjackEnv, SplunkEnv
from parlour.envs.registry import PRESETS, register
from parlour.envs.single import SingleAgentEnv, make_single
from parlour.envs.slabberjan import SlabberjanEnv

register()

__all__ = ["CODECS", "PRESETS", "Codec", "RealTimeEnv", "SingleAgentEnv", "SlabberjanEnv",
           "SlapjackEnv", "SplunkEnv", "make_single"]
