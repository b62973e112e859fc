"""``parlour simulate --ray``: the same games as Ray tasks give exactly the JSON of ``--jobs``.

The Ray run starts a local Ray instance (two CPUs, node address 127.0.0.1). Ray's own
servers listen on every interface of the machine they run on, so the test runs the command
in a fresh network namespace that holds nothing but its own loopback: nothing it opens can
be reached from, or reach, anywhere else.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from parlour.cli import main

ARGS = ["splunk", "--bots", "hard,easy", "--games", "24", "--seed", "5", "--jobs", "2",
        "--swap-seats", "--json"]


def in_private_network(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Runs ``argv`` inside a new network namespace with only a loopback interface."""
    script = 'ip link set lo up && exec "$@"'
    return subprocess.run(["unshare", "--net", "sh", "-c", script, "sh", *argv],
                          capture_output=True, text=True, timeout=240,
                          env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"})


def private_network_available() -> bool:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    try:
        return in_private_network(["true"]).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@pytest.mark.slow
def test_ray_gives_the_same_json_as_two_processes_byte_for_byte() -> None:
    pytest.importorskip("ray")
    if not private_network_available():
        pytest.skip("needs unshare --net (root) to keep Ray's servers off the network")
    simulate = [sys.executable, "-m", "parlour", "simulate"]
    jobs = in_private_network([*simulate, *ARGS, "--quiet"])
    ray = in_private_network([*simulate, *ARGS, "--ray"])
    assert jobs.returncode == 0, jobs.stderr
    assert ray.returncode == 0, ray.stderr
    assert ray.stdout == jobs.stdout
    assert '"games": 24' in ray.stdout


def test_without_ray_the_flag_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("parlour.sim.command.ray_available", lambda: False)
    assert main(["simulate", "slapjack", "--games", "2", "--ray", "--quiet"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) == 1
    assert "pip install 'parlour[ray]'" in lines[0]


def test_the_ray_flag_takes_an_optional_address() -> None:
    from parlour.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["simulate", "splunk"]).ray is None
    assert parser.parse_args(["simulate", "splunk", "--ray"]).ray == ""
    assert parser.parse_args(["simulate", "splunk", "--ray", "ray-head.example:6379"]).ray == \
        "ray-head.example:6379"
