"""A real Parlour server process for the durability and node tests:
``python tests/fast_server.py DB [REDIS]`` (with a Redis URL: one node of a site).

The app and the store are the real ones (``parlour serve`` builds the same); the computer
players are the tests' quick stand-ins on stacked Slapjack decks, so that a game ends in
seconds. Prints the URL once it listens; a SIGKILL is the crash the tests inflict.
``PARLOUR_TEST_PORT`` listens on that port (a restart on the same address, as a real
deployment has); ``PARLOUR_TEST_GRACE`` shortens how long a table nobody is at stays in
memory (seconds).
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import uvicorn
from conftest import FAST_PACING, fast_decks, fast_players

from parlour.games import GAMES
from parlour.live import Lobby
from parlour.store import StoreError, open_store
from parlour.web import create_app
from parlour.web.server import bind, config, url_of

#: Slapjack's test pacing; the other games' own, without their pauses
PACING = {**{name: replace(cls.spec.pacing, pause={}) for name, cls in GAMES.items()},
          **FAST_PACING}


def main() -> int:
    try:
        store = open_store(sys.argv[1])
    except StoreError as exc:
        print(f"parlour: {exc}", file=sys.stderr)
        return 2
    lobby = Lobby(store=store, players=fast_players, decks=fast_decks, pacing=PACING,
                  takeover=0.3, grace=float(os.environ.get("PARLOUR_TEST_GRACE", "30")))
    sock = bind("127.0.0.1", int(os.environ.get("PARLOUR_TEST_PORT", "0")))
    redis = sys.argv[2] if len(sys.argv) > 2 else None
    app = create_app(lobby=lobby, resume=True, redis=redis)
    print(url_of(sock), flush=True)
    uvicorn.Server(config(app, timeout_graceful_shutdown=2)).run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main())
