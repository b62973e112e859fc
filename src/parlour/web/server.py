"""``parlour serve``: the web app on uvicorn, on an address we bind ourselves.

Binding the socket before uvicorn starts lets the command say plainly when the port is taken,
print the real address (``--port 0`` picks a free one), and only then start serving.
"""

from __future__ import annotations

import socket
import sys

import uvicorn

from parlour.web.app import create_app


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


def serve(host: str = "127.0.0.1", port: int = 8000) -> int:
    """Runs the server until Ctrl+C; returns the exit status."""
    try:
        sock = bind(host, port)
    except OSError as exc:
        print(f"parlour: cannot listen on {host}:{port}: {exc.strerror or exc}"
              + (" (try --port with another number)" if port else ""), file=sys.stderr)
        return 2
    config = uvicorn.Config(create_app(), log_level="warning", ws_max_size=65536,
                            ws_per_message_deflate=False)
    print(f"Parlour is running: open {url_of(sock)} in your browser (Ctrl+C stops it)",
          flush=True)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
