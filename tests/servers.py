"""Throwaway PostgreSQL and Redis servers for tests: Debian's packages (installed by
``scripts/setup --browser``), started on 127.0.0.1 and a free port in a temporary
directory, stopped and deleted afterwards. Nothing is mocked: the tests talk to the real
thing a deployment runs."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def postgres_bin() -> Path | None:
    """Debian's PostgreSQL programs (initdb, pg_ctl), newest version first."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    return Path(found[0]).parent if found else None


def _as_postgres(argv: list[str]) -> list[str]:
    # initdb refuses to run as root: run as the postgres user Debian's package creates
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *argv]
    return argv


@contextmanager
def postgres_server() -> Iterator[str]:
    """A fresh PostgreSQL cluster on 127.0.0.1: yields its URL (database ``postgres``)."""
    bindir = postgres_bin()
    if bindir is None:
        raise RuntimeError("PostgreSQL is not installed: run scripts/setup --browser")
    home = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
    data = home / "data"
    if os.geteuid() == 0:
        shutil.chown(home, "postgres", "postgres")
    port = free_port()
    subprocess.run(_as_postgres([str(bindir / "initdb"), "-D", str(data), "-A", "trust",
                                 "-U", "parlour", "--no-sync"]),
                   check=True, capture_output=True)
    options = (f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories='"
               f"{home}' -c fsync=on -c max_connections=200")
    url = f"postgresql://parlour@127.0.0.1:{port}/postgres"
    _clusters[url] = (bindir, data, options, home)
    postgres_start(url)
    try:
        yield url
    finally:
        with suppress(subprocess.CalledProcessError):  # a test may have stopped it
            postgres_stop(url)
        _clusters.pop(url, None)
        shutil.rmtree(home, ignore_errors=True)


_clusters: dict[str, tuple[Path, Path, str, Path]] = {}


def postgres_stop(url: str) -> None:
    """Stops the server of ``url`` at once, as a crash would (started again by
    :func:`postgres_start`)."""
    bindir, data, _, _ = _clusters[url]
    subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                                 "-w", "stop"]), check=True, capture_output=True)


def postgres_start(url: str) -> None:
    bindir, data, options, home = _clusters[url]
    subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-o", options,
                                 "-l", str(home / "log"), "-w", "-t", "30", "start"]),
                   check=True, capture_output=True)


def new_database(url: str, name: str) -> str:
    """A new empty database on the server at ``url``; its URL."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + f"/{name}"


@contextmanager
def redis_server() -> Iterator[str]:
    """A redis-server on 127.0.0.1 without persistence: yields its URL."""
    exe = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.path.exists(exe):
        raise RuntimeError("redis-server is not installed: run scripts/setup --browser")
    home = tempfile.mkdtemp(prefix="parlour-redis-")
    port = free_port()
    proc = subprocess.Popen([exe, "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                             "--appendonly", "no", "--dir", home],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(home, ignore_errors=True)
