"""Party mode, ``parlour serve --lan [ADDRESS]`` (docs/security.md): the server listens on
one local-network address, answers to it alone and lets only its own pages open the socket,
prints it with a QR code that reads back as that address, and refuses any address that is
not private (or not one machine's) before anything is opened.

The tests give it a loopback address, 127.0.0.2, and reach no other."""

from __future__ import annotations

import asyncio
import fcntl
import ipaddress
import json
import os
import pty
import re
import select
import socket
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import websockets
from qr import HALF_BLOCKS, read_terminal

from parlour.cli import main
from parlour.web.lan import lan_address, local_address

ADDRESS = "127.0.0.2"


@contextmanager
def party(tmp_path: Path, *flags: str) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``parlour serve --lan FLAGS`` with its output on a terminal (a pty of 100 columns),
    as a person starts it; yields the process and the terminal's end to read."""
    reader, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.Popen([sys.executable, "-m", "parlour", "serve", "--lan", *flags,
                             "--port", "0", "--db", str(tmp_path / "games.db")],
                            stdin=subprocess.DEVNULL, stdout=terminal, stderr=terminal, env=env)
    os.close(terminal)
    try:
        yield proc, reader
    finally:
        proc.terminate()
        proc.wait(10)
        os.close(reader)


def read_until(reader: int, done: str, limit: float = 60) -> str:
    """What the terminal shows up to the line after ``done`` (bounded: a server that never
    says it fails the test, however slow the machine)."""
    shown = ""
    end = time.monotonic() + limit
    while done not in shown or "\n" not in shown[shown.index(done):]:
        if time.monotonic() > end:
            raise AssertionError(f"the server never said {done!r}: {shown!r}")
        ready, _, _ = select.select([reader], [], [], 1)
        if ready:
            try:
                shown += os.read(reader, 4096).decode("utf-8", "replace").replace("\r\n", "\n")
            except OSError:
                raise AssertionError(f"the server stopped: {shown!r}") from None
    return shown


async def can_open(url: str, origin: str) -> bool:
    """Whether a socket from a page of ``origin`` is accepted and answers a ping."""
    try:
        async with websockets.connect(url, origin=origin) as ws:  # type: ignore[arg-type]
            await ws.send('{"type": "ping", "id": 1}')
            return json.loads(await asyncio.wait_for(ws.recv(), 10)) == {"type": "pong", "id": 1}
    except websockets.InvalidStatus as exc:
        assert exc.response.status_code == 403
        return False


def test_lan_serves_its_address_alone_and_prints_a_qr_code_of_it(tmp_path: Path) -> None:
    with party(tmp_path, ADDRESS) as (_, reader):
        shown = read_until(reader, "its /screen page")
        match = re.search(r"open (http://127\.0\.0\.2:(\d+)/) on any phone", shown)
        assert match, shown
        url, port = match.group(1), int(match.group(2))
        assert "only this machine can open it" in shown  # a loopback address, said so
        code = [line for line in shown.splitlines() if line and set(line) <= set(HALF_BLOCKS)]
        assert len(code) >= 10 and read_terminal(code) == [url]

        assert httpx.get(url, timeout=10).status_code == 200
        for name in ("127.0.0.1", "localhost", "evil.example", f"{ADDRESS}.nip.io"):
            refused = httpx.get(url, headers={"Host": name}, timeout=10)
            assert refused.status_code == 400, name  # that address alone: no wider
        with socket.socket() as other, pytest.raises(ConnectionRefusedError):
            other.connect(("127.0.0.1", port))  # it listens on that address only


async def test_lan_lets_only_its_own_pages_open_the_socket(tmp_path: Path) -> None:
    with party(tmp_path, ADDRESS) as (_, reader):
        match = re.search(r"open (http://127\.0\.0\.2:(\d+))/", read_until(reader, "open http"))
        assert match
        site, port = match.group(1), match.group(2)
        ws = site.replace("http", "ws") + "/ws"
        assert await can_open(ws, origin=site)
        for foreign in (f"http://127.0.0.1:{port}", f"http://localhost:{port}",
                        f"https://{ADDRESS}:{port}", f"http://{ADDRESS}:1", "null",
                        "http://evil.example"):
            assert not await can_open(ws, origin=foreign), foreign


@pytest.mark.parametrize("address, words", [
    ("8.8.8.8", "8.8.8.8 is not a private address"),
    ("2001:4860:4860::8888", "is not a private address"),
    ("100.64.0.1", "is not a private address"),
    ("0.0.0.0", "0.0.0.0 is not one"),
    ("::", ":: is not one"),
    ("224.0.0.1", "is not one"),
    ("255.255.255.255", "is not one"),
    ("fe80::1", "link-local"),
    ("laptop.local", "as numbers"),
])
def test_lan_refuses_any_address_but_a_private_one_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], address: str, words: str) -> None:
    db = tmp_path / "games.db"
    assert main(["serve", "--lan", address, "--port", "0", "--db", str(db)]) == 2
    done = capsys.readouterr()
    lines = done.err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], lines
    assert done.out == "" and not db.exists()  # nothing opened, created or bound


@pytest.mark.parametrize("flags", [["--host", "0.0.0.0"], ["--allowed-host", "cards.example.org"],
                                   ["--origin", "https://cards.example.org"]])
def test_lan_takes_no_wider_hosts_or_origins(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str]) -> None:
    db = tmp_path / "games.db"
    assert main(["serve", "--lan", ADDRESS, *flags, "--port", "0", "--db", str(db)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "--lan chooses the address" in lines[0], lines
    assert not db.exists()


def test_the_address_lan_finds_is_a_private_one_of_this_machine_or_it_says_how_to_give_one(
        ) -> None:
    """Found from the routes, without a packet sent: one this machine can listen on."""
    try:
        found = local_address()
    except ValueError as exc:  # a machine on no network at all
        assert "--lan 192.168.1.20" in str(exc)
        return
    ip = ipaddress.ip_address(found)
    assert not ip.is_loopback and lan_address(found) == found
    with socket.socket() as sock:
        sock.bind((found, 0))  # one of ours: binding sends nothing
