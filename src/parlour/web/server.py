"""``parlour serve``: the web app on uvicorn, on an address we bind ourselves.

Binding the socket before uvicorn starts lets the command say plainly when the port is taken,
print the real address (``--port 0`` picks a free one), and only then start serving.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

import uvicorn

from parlour.live.protocol import MAX_BYTES
from parlour.store import StoreError, open_store
from parlour.web.app import create_app
from parlour.web.guard import Site
from parlour.web.lan import lan_address, local_address
from parlour.web.qr import print_terminal

#: Frames up to this size reach the app, which answers those over the protocol's own
#: :data:`~parlour.live.protocol.MAX_BYTES` with ``too_big``; a bigger one closes the socket
#: (1009) before it is read whole.
WS_MAX_SIZE = 256 * 1024
assert WS_MAX_SIZE > MAX_BYTES


def config(app: object, **options: object) -> uvicorn.Config:
    """uvicorn's settings for the app: the frame size above, no compression, and (as
    :func:`parlour.web.guard.redact_logs` sees to) no query string in a log line."""
    settings: dict[str, object] = {"log_level": "warning", "ws_max_size": WS_MAX_SIZE,
                                   "ws_per_message_deflate": False, **options}
    return uvicorn.Config(app, **settings)  # type: ignore[arg-type]


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


def own_names(host: str) -> list[str]:
    """The host names a server listening on ``host`` is reached by on its own: that address,
    or, listening on every address, this machine's name and addresses (as far as it knows
    them). Any other name must be given (``--allowed-host``).

    >>> own_names("10.1.2.3"), own_names("::1")
    (['10.1.2.3'], ['[::1]'])
    """
    if host not in ("0.0.0.0", "::", ""):
        return [f"[{host}]" if ":" in host else host]
    names = [socket.gethostname()]
    try:
        name, aliases, addresses = socket.gethostbyname_ex(names[0])
        names += [name, *aliases, *addresses]
    except OSError:
        pass
    return [n for n in dict.fromkeys(names) if n]


def announce_party(url: str) -> None:
    """What ``parlour serve --lan`` prints once it listens: the address for every phone and
    computer in the room, and on a terminal a QR code of it for their cameras."""
    print(f"Parlour is running for this network: open {url} on any phone or computer on it "
          "(Ctrl+C stops it)", flush=True)
    if ipaddress.ip_address(urlsplit(url).hostname or "").is_loopback:
        print("That is a loopback address: only this machine can open it.", flush=True)
    if sys.stdout.isatty():
        print_terminal(url)
    print("A table with friends shows its own QR code in its waiting room; "
          "its /screen page shows the game on this screen.", flush=True)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, *,
          allowed_hosts: Sequence[str] = (), origins: Sequence[str] = (),
          redis: str | None = None, lan: bool = False) -> int:
    """Runs the server until Ctrl+C, keeping its games in ``db`` (a SQLite file or a
    PostgreSQL URL; by default :func:`default_database`); returns the exit status. It
    answers to the host names 127.0.0.1, localhost, [::1], its own (:func:`own_names`) and
    ``allowed_hosts``; pages of ``origins`` (besides its own) may open its socket. With
    ``redis`` it is one node of a site (``docs/deploy.md``): ``db`` must then be PostgreSQL,
    shared by every node. With ``lan`` (party mode, :mod:`parlour.web.lan`) it listens on
    ``host``, this machine's address on its local network (found if ``host`` is empty),
    answers to that address alone, and prints it with a QR code to open it by."""
    if redis is not None and not (db or "").startswith(("postgresql://", "postgres://")):
        print("parlour: --redis needs --db postgresql://...: the nodes of a site share one "
              "PostgreSQL database", file=sys.stderr)
        return 2
    try:  # every flag is checked before anything is opened, created or bound
        if lan:
            host = lan_address(host) if host else local_address()
            site = Site.only(host)
        else:
            site = Site.of([*own_names(host), *allowed_hosts], origins)
    except ValueError as exc:
        print(f"parlour: {exc}", file=sys.stderr)
        return 2
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
    print(f"Games are kept in {store.where}", flush=True)
    if lan:
        announce_party(url_of(sock))
    else:
        print(f"Parlour is running: open {url_of(sock)} in your browser (Ctrl+C stops it)",
              flush=True)
    try:
        uvicorn.Server(config(create_app(site=site, store=store, resume=True, redis=redis))).run(
            sockets=[sock])
    finally:
        store.close()
    return 0
