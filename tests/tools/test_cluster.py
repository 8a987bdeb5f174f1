"""``--address``: the arena, cross-play, analyze and expert iteration's labels on a Ray cluster
are the local run's, byte for byte, even when a worker dies mid-run (its games are played again
elsewhere, none twice in the results). The cluster is a real one (``ray start --head``) in a loopback-only network
namespace (``tests.loopback``); ``tests.tools.ray_cluster`` is what runs inside it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.loopback import in_loopback, needs_loopback

pytest.importorskip("ray", reason='--address needs Ray: pip install -e ".[rllib]"')
REPO = Path(__file__).resolve().parents[2]


@pytest.mark.long
@needs_loopback
def test_arena_and_crossplay_on_a_ray_cluster_match_the_local_run(tmp_path):
    done = subprocess.run(
        in_loopback([sys.executable, "-m", "tests.tools.ray_cluster", str(tmp_path)]),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "died").exists()  # an agent killed its worker on the cluster, once
    for name in ("arena", "crossplay", "analyze", "exit"):
        local, remote = (tmp_path / f"{name}-{where}.json" for where in ("local", "ray"))
        assert local.read_bytes() == remote.read_bytes(), name
        result = json.loads(local.read_text())
        if name == "exit":  # the labels' digests, array by array
            assert set(result) == {"obs", "features", "mask", "target", "outcome"}
            continue
        assert not result["partial"]
        if name != "analyze":
            assert result["games_played"] == result["games_scheduled"] > 0
        else:
            assert result["records"] == 2 and sum(agent["decisions"] for agent in result["agents"].values()) > 10


def test_an_address_with_no_cluster_is_one_line(tmp_path):
    """Nothing listens on the port: a usage error naming the address, before any game."""
    done = subprocess.run(
        [sys.executable, "-m", "sniff_env", "arena", "--deals", "1", "--address", "127.0.0.1:1", "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "RAY_AUTH_MODE": "disabled"},
    )
    assert done.returncode == 2 and "--address 127.0.0.1:1: cannot reach a Ray cluster there" in done.stderr
