"""The environments registered with Gymnasium: ``gymnasium.make("parlour/Splunk-v0")``.

Importing :mod:`parlour.envs` registers them (or name the module in the id:
``gymnasium.make("parlour.envs:parlour/Splunk-v0")``). Each id is :func:`make_single` with
the *race benchmark* preset: one learner at seat 0 against Normal computer players, in the
races reacting as they do (``reaction="opponents"``: Normal's reaction times), so that a
result measures what the learner decides and not a reflex no person has (with
``reaction=0`` a learner reacts within the tick and beats Normal at Slapjack by speed
alone). Any keyword of :func:`make_single` overrides the preset:
``gymnasium.make("parlour/Slapjack-v0", opponents="hard", players=4)``.

>>> import gymnasium, parlour.envs
>>> env = gymnasium.make("parlour/Splunk-v0")
>>> env.spec.id, env.spec.kwargs["opponents"], env.unwrapped.env.reaction.median
('parlour/Splunk-v0', 'normal', 0.48)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium

#: id -> the :func:`make_single` keywords of the race benchmark preset
PRESETS: Mapping[str, Mapping[str, Any]] = {
    "parlour/Slabberjan-v0": {"game": "slabberjan", "players": 4, "opponents": "normal"},
    "parlour/Slapjack-v0": {"game": "slapjack", "players": 2, "opponents": "normal",
                            "reaction": "opponents", "tick": 0.1},
    "parlour/Splunk-v0": {"game": "splunk", "players": 2, "opponents": "normal",
                          "reaction": "opponents", "tick": 0.1},
}


def register() -> None:
    """Registers every id of :data:`PRESETS` (again is harmless: the same spec)."""
    for env_id, kwargs in PRESETS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="parlour.envs.single:make_single",
                               kwargs=dict(kwargs))
