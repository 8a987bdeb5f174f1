"""Run inside a loopback-only network namespace by ``test_cluster`` (``tests.loopback``):
``python -m tests.tools.ray_cluster OUT`` starts a local Ray cluster (``ray start --head``, two
CPUs), plays the same arena and cross-play, grades the same records and makes the same
expert-iteration labels locally and on the cluster, and writes both JSON files of each to
``OUT``. On the cluster an agent kills its worker once (``tests.tools.dying``); the cluster is
stopped by its process group."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

PORT = 6390
REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(REPO), "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}


def start_head(scratch: Path) -> subprocess.Popen:
    """The head node, its files in ``scratch`` (not the machine's /tmp/ray, where a later
    ``ray.init()`` would look for a cluster)."""
    ray = Path(sys.executable).parent / "ray"
    command = [str(ray), "start", "--head", f"--port={PORT}", "--num-cpus=2", "--include-dashboard=false", "--block"]
    command.append(f"--temp-dir={scratch}")
    head = subprocess.Popen(command, env=ENV, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", PORT), 1).close()
            return head
        except OSError:
            if head.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"ray start failed: {head.stderr.read().decode()[-2000:]}") from None
            time.sleep(0.2)


def stop_head(head: subprocess.Popen) -> None:
    os.killpg(head.pid, signal.SIGTERM)
    try:
        head.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(head.pid, signal.SIGKILL)
        head.wait(10)


def short_matches(path: Path) -> Path:
    """Two 2-player matches to 40, greedy against random, as records to grade."""
    from sniff_env import Game
    from sniff_env.agents import make_agent

    lines = []
    for seed in range(2):
        game = Game(num_players=2, seed=seed, target=40)
        agents = (make_agent("greedy"), make_agent("random", seed=seed))
        while not game.is_terminal():
            game.apply(agents[game.current_player].act(game))
        lines.append(json.dumps(game.to_record()) + "\n")
    path.write_text("".join(lines))
    return path


def both(out: Path, name: str, command: list[str], marker: Path | None = None, local=("--workers", "2")) -> None:
    """``command`` run locally with ``local`` (``name``-local.json), then on the cluster
    (``name``-ray.json); with ``marker``, a worker dies once on the cluster."""
    run = [sys.executable, "-m", "sniff_env", *command, "--seed", "5", "--no-progress"]
    if marker is not None:
        marker.touch()  # nobody dies in the local run
    subprocess.run([*run, *local, "--json", str(out / f"{name}-local.json")], env=ENV, check=True)
    if marker is not None:
        marker.unlink()
    remote = [*run, "--address", f"127.0.0.1:{PORT}", "--json", str(out / f"{name}-ray.json")]
    subprocess.run(remote, env=ENV, check=True)


def main(out: Path) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="ray"))  # short: Ray's socket paths must fit 107 bytes
    head = start_head(scratch)
    try:
        marker = out / "died"
        dying = f"py:tests.tools.dying:DiesOnce:{marker}"
        arena = ["arena", "--players", "4", "--deals", "3", "--agents", "greedy", dying, "heuristic"]
        both(out, "arena", arena, marker)
        crossplay = ["crossplay", "--deals", "2", "--agents", "greedy", "heuristic", "--opponents", "random"]
        both(out, "crossplay", crossplay)
        both(out, "analyze", ["analyze", str(short_matches(out / "records.jsonl")), "--worlds", "2"], local=())
        for where, flags in (("local", ["--workers", "2"]), ("ray", ["--address", f"127.0.0.1:{PORT}"])):
            folder = out / f"exit-{where}"
            exit_iteration = [sys.executable, str(REPO / "examples/expert_iteration.py"), "--rounds", "1"]
            exit_iteration += ["--games", "3", "--iterations", "4", "--label-share", "0.3", "--eval-deals", "1"]
            exit_iteration += [*flags, "--out", str(folder)]
            subprocess.run(exit_iteration, env=ENV, check=True, stdout=subprocess.DEVNULL)
            with np.load(folder / "buffer.npz") as labels:  # what was made on the cluster
                digest = {key: hashlib.sha256(labels[key].tobytes()).hexdigest() for key in sorted(labels.files)}
            (out / f"exit-{where}.json").write_text(json.dumps(digest))
    finally:
        stop_head(head)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
