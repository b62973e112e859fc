"""``parlour serve``: the web app on uvicorn, on an address we bind ourselves.

Binding the socket before uvicorn starts lets the command say plainly when the port is taken,
print the real address (``--port 0`` picks a free one), and only then start serving.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import uvicorn

from parlour.store import StoreError, open_store
from parlour.web.app import create_app


def default_database() -> Path:
    """Where ``parlour serve`` keeps its games without ``--db``: the user's data directory."""
    import platformdirs

    return Path(platformdirs.user_data_dir("parlour")) / "parlour.db"


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port``; raises :class:`OSError` if it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    """The address to open in a browser on this machine."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"  # listening everywhere: this machine's own address works
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None) -> int:
    """Runs the server until Ctrl+C, keeping its games in ``db`` (a SQLite file or a
    PostgreSQL URL; by default :func:`default_database`); returns the exit status."""
    try:
        store = open_store(db if db is not None else default_database())
    except StoreError as exc:
        print(f"parlour: {exc}", file=sys.stderr)
        return 2
    try:
        sock = bind(host, port)
    except OSError as exc:
        store.close()
        print(f"parlour: cannot listen on {host}:{port}: {exc.strerror or exc}"
              + (" (try --port with another number)" if port else ""), file=sys.stderr)
        return 2
    config = uvicorn.Config(create_app(store=store, resume=True), log_level="warning",
                            ws_max_size=65536, ws_per_message_deflate=False)
    print(f"Games are kept in {store.where}", flush=True)
    print(f"Parlour is running: open {url_of(sock)} in your browser (Ctrl+C stops it)",
          flush=True)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        store.close()
    return 0
