"""Slabberjan and Splunk as OpenSpiel games (``pip install 'parlour[spiel]'``).

Importing this package registers them with OpenSpiel:

- ``pyspiel.load_game("parlour_slabberjan", {"players": 4, "chips": 3,
  "free_choice": False})``: played as its rules are, one seat a turn;
- ``pyspiel.load_game("parlour_splunk", {"jokers": False})``: its slap and call races
  played as *reaction rounds* (:mod:`parlour.spiel.splunk` says how, and why that is
  honest). Slapjack is left out: it is a race and nothing else.

Both have explicit chance nodes for every deal, card by card, and for the seat the rules
draw (:mod:`parlour.spiel.table`), observation tensors by the PettingZoo environments'
codecs from a seat's view only, and perfect-recall information-state strings from the
events that seat was told (:mod:`parlour.spiel.base`). :class:`ParlourBot` puts one of
our computer players at a seat.
"""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on what is installed
    raise ImportError("parlour.spiel needs OpenSpiel: pip install 'parlour[spiel]'") from exc

from parlour.spiel.bots import ParlourBot
from parlour.spiel.slabberjan import SlabberjanGame, SlabberjanState
from parlour.spiel.splunk import SplunkGame, SplunkState

__all__ = ["ParlourBot", "SlabberjanGame", "SlabberjanState", "SplunkGame", "SplunkState"]
