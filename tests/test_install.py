"""The README's first command from a fresh copy of the project: ``scripts/serve`` makes its
own virtualenv with Parlour and what the server needs, nothing more (no Ray, Playwright,
OpenSpiel, matplotlib or test tools), and serves; each command that needs an extra it did
not install says which, in one line, with exit status 2.

It installs from the package index this machine is set up with (pip's cache makes a second
run quick); the server it starts listens on 127.0.0.1 only.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]
#: What serving needs none of: the extras and the test tools.
NOT_FOR_SERVING = ("ray", "playwright", "open_spiel", "pyspiel", "matplotlib", "pytest",
                   "pettingzoo", "gymnasium", "hypothesis", "mypy")


def fresh_copy(where: Path) -> Path:
    """The project as a fresh clone has it: its sources, scripts and metadata, no .venv."""
    copy = where / "parlour"
    copy.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, copy / name)
    junk = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    shutil.copytree(ROOT / "src", copy / "src", ignore=junk)
    shutil.copytree(ROOT / "scripts", copy / "scripts", ignore=junk)
    return copy


@pytest.mark.slow
def test_scripts_serve_installs_what_serving_needs_and_serves(tmp_path: Path) -> None:
    project = fresh_copy(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PYTHONUNBUFFERED"] = "1"
    server = subprocess.Popen([str(project / "scripts" / "serve"), "--port", "0", "--db",
                               str(tmp_path / "games.db")], cwd=project, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    try:
        assert server.stdout is not None
        said = []
        for line in server.stdout:  # until it serves, or stops (the install failed)
            said.append(line)
            match = re.search(r"open (http://127\.0\.0\.1:\d+/) in your browser", line)
            if match:
                break
        assert match, "".join(said[-20:])
        home = httpx.get(match.group(1), timeout=30)
        assert home.status_code == 200 and "Slabberjan" in home.text
    finally:
        os.killpg(server.pid, 15)
        server.wait(30)

    python = str(project / ".venv" / "bin" / "python")
    found = subprocess.run(
        [python, "-c", "import importlib.util as u, sys; "
         "print(' '.join(m for m in sys.argv[1:] if u.find_spec(m)))", *NOT_FOR_SERVING],
        capture_output=True, text=True, check=True).stdout.split()
    assert found == []
    assert list((project / ".venv").glob(".installed-serve-*"))
    assert not list((project / ".venv").glob(".installed-dev-*"))

    parlour = str(project / ".venv" / "bin" / "parlour")
    for flags, extra in ((["--ray"], "parlour[ray]"),
                         (["--plot", str(tmp_path / "out.png")], "parlour[plot]")):
        done = subprocess.run([parlour, "simulate", "slapjack", "--games", "2", *flags],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and f"pip install '{extra}'" in lines[0], lines
        assert done.stdout == ""
    assert not (tmp_path / "out.png").exists()
    for package, extra in (("parlour.envs", "parlour[rl]"), ("parlour.spiel", "parlour[spiel]")):
        done = subprocess.run([python, "-c", f"import {package}"], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode != 0 and f"pip install '{extra}'" in done.stderr

    # run again, it installs nothing: the stamp says this pyproject.toml's set is there
    again = subprocess.run([str(project / "scripts" / "setup")], cwd=project, env=env,
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and again.stdout == "" and "pip" not in again.stderr
