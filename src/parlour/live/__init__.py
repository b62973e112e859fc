"""Live play on the real clock: tables of people and computer players, and the lobby.

This layer is asyncio only; it imports nothing of the web (:mod:`parlour.web` sits on it).
Its one typed protocol (:mod:`parlour.live.protocol`) is what the web's socket speaks.
"""

from parlour.live.lobby import Lobby
from parlour.live.protocol import Refused
from parlour.live.room import Phase, Room, Seating
from parlour.live.table import Table, message_for

__all__ = ["Lobby", "Phase", "Refused", "Room", "Seating", "Table", "message_for"]
