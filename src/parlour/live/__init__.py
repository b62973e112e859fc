"""Live play on the real clock: tables of people and computer players, and the lobby.

This layer is asyncio only; it imports nothing of the web (:mod:`parlour.web` sits on it).
"""

from parlour.live.lobby import Lobby, LobbyError, Seating
from parlour.live.pacing import PACING, Pacing
from parlour.live.table import Table, message_for

__all__ = ["PACING", "Lobby", "LobbyError", "Pacing", "Seating", "Table", "message_for"]
