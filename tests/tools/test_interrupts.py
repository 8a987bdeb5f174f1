"""Long runs keep their work: a real SIGTERM (what a scheduler or ``kill`` sends; Ctrl-C's SIGINT
takes the same path, ``sniff_twelve.tools.interrupt``) stops the arena, self-play PPO and sb3-contrib training
at their next safe point; what they have is written, they exit with 130 and say how to go on."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def interrupt_when(args: list[str], ready: Callable[[str], bool], tmp: Path, limit: float = 240) -> tuple:
    """Start ``python args``, send SIGTERM once ``ready(output so far)`` holds (stdout, then
    stderr), and return ``(exit status, stdout, stderr)``."""
    out, err = tmp / "stdout.txt", tmp / "stderr.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen([sys.executable, *args], cwd=ROOT, stdout=stdout, stderr=stderr)
        try:
            deadline = time.monotonic() + limit
            while not ready(out.read_text() + err.read_text()) and process.poll() is None:
                assert time.monotonic() < deadline, f"not ready after {limit} s: {err.read_text()[-500:]}"
                time.sleep(0.2)
            assert process.poll() is None, f"finished before the signal: {err.read_text()[-500:]}"
            process.send_signal(signal.SIGTERM)
            status = process.wait(timeout=120)
        finally:
            if process.poll() is None:  # a failed check never leaves the run behind
                process.kill()
                process.wait()
    return status, out.read_text(), err.read_text()


def test_an_interrupted_arena_writes_the_games_played_marked_partial(tmp_path):
    def some_games_done(output: str) -> bool:
        done = [int(n) for n in re.findall(r"(\d+)/\d+ \[", output)]
        return bool(done) and max(done) >= 2

    args = ["-m", "sniff_env", "arena", "--players", "4", "--agents", "rollout:200", "greedy", "--deals", "300"]
    args += ["--workers", "2", "--json", str(tmp_path / "arena.json"), "--records", str(tmp_path / "games.jsonl")]
    status, stdout, stderr = interrupt_when(args, some_games_done, tmp_path)
    assert status == 130, stderr[-800:]
    result = json.loads((tmp_path / "arena.json").read_text())
    assert result["partial"] and 2 <= result["games_played"] < result["games_scheduled"] == 600
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == result["games_played"]
    assert "PARTIAL" in stdout and "interrupted" in stderr and "Traceback" not in stderr


@pytest.mark.train
def test_interrupted_selfplay_saves_and_resumes(tmp_path):
    pytest.importorskip("torch", reason="needs the train extra")
    out = tmp_path / "run"
    argv = ["examples/selfplay_ppo.py", "--players", "2", "--envs", "8", "--rollout", "32", "--eval-every", "1"]
    argv += ["--eval-deals", "1", "--final-deals", "1", "--threads", "1", "--out", str(out), "--steps", "10000000"]
    status, stdout, stderr = interrupt_when(argv, lambda _: (out / "trainer.pt").exists(), tmp_path)
    assert status == 130, stderr[-800:]
    log = json.loads((out / "log.json").read_text())
    assert log["interrupted"] == "SIGTERM" and log["env_steps"] >= 256
    assert (out / "latest.npz").exists() and "Traceback" not in stderr
    resume = stdout.strip().splitlines()[-1].split()
    assert resume[-1] == "--resume" and "--steps" in resume
    resume[resume.index("--steps") + 1] = str(log["env_steps"] + 256)
    done = subprocess.run(resume, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-800:]
    finished = json.loads((out / "log.json").read_text())
    assert "interrupted" not in finished and finished["env_steps"] == log["env_steps"] + 256


@pytest.mark.train
def test_interrupted_sb3_training_saves_the_model_and_resumes(tmp_path):
    pytest.importorskip("sb3_contrib", reason="needs the train extra")
    out = tmp_path / "run"
    argv = ["examples/sb3_maskable_ppo.py", "--game", "twelve", "--timesteps", "10000000", "--eval-every", "256"]
    argv += ["--eval-games", "4", "--arena-deals", "2", "--out", str(out)]
    status, stdout, stderr = interrupt_when(argv, lambda output: "training MaskablePPO" in output, tmp_path)
    assert status == 130, stderr[-800:]
    assert (out / "model.zip").exists() and "Traceback" not in stderr
    last = stdout.strip().splitlines()[-1].split()
    assert last[-1] == "--resume" and re.search(r"interrupted \(SIGTERM\) at \d+ of 10000000", stdout)


@pytest.mark.long
@pytest.mark.train
def test_interrupted_rllib_run_saves_its_checkpoint_and_resumes(tmp_path):
    pytest.importorskip("ray", reason="needs the rllib extra")
    out = tmp_path / "run"
    argv = ["examples/rllib_selfplay.py", "--players", "2", "--iterations", "500", "--batch", "256"]
    argv += ["--env-runners", "1", "--eval-deals", "1", "--eval-against", "random", "--out", str(out)]
    status, stdout, stderr = interrupt_when(argv, lambda output: '"iteration": 1,' in output, tmp_path)
    assert status == 130, stderr[-800:]
    summary = json.loads((out / "summary.json").read_text())
    done = len(summary["history"])
    assert summary["interrupted"] == "SIGTERM" and done >= 1 and (out / "policy.npz").exists()
    resume = stdout.strip().splitlines()[-1].split()
    assert resume[-1] == "--resume"
    resume[resume.index("--iterations") + 1] = str(done + 1)
    finished = subprocess.run(resume, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr[-800:]
    history = json.loads((out / "summary.json").read_text())["history"]
    assert [h["iteration"] for h in history] == list(range(1, done + 2))


def test_an_interrupted_ladder_keeps_its_tables(tmp_path):
    def playing(output: str) -> bool:
        return any(int(n) >= 2 for n in re.findall(r"(\d+)/\d+ \[", output))

    args = ["-m", "benchmarks.ladder", "--game", "sniff", "--deals", "300", "--workers", "2", "--out", str(tmp_path)]
    status, stdout, stderr = interrupt_when(args, playing, tmp_path)
    assert status == 130, stderr[-800:]
    tables = json.loads((tmp_path / "ladder.json").read_text())
    assert list(tables) == ["sniff, 2 players"] and tables["sniff, 2 players"]["partial"]
    assert "interrupted" in stdout and "Traceback" not in stderr


def test_interrupted_benchmarks_write_what_they_measured(tmp_path):
    def measuring(output: str) -> bool:
        return any(int(n) >= 1 for n in re.findall(r"benchmarks:.*?(\d+)/\d+ \[", output))

    status, _, stderr = interrupt_when(["-m", "benchmarks", "--quick", "--out", str(tmp_path)], measuring, tmp_path)
    assert status == 130, stderr[-800:]
    result = json.loads((tmp_path / "latest.json").read_text())
    assert result["interrupted"] == "SIGTERM" and result["figures"] and "Traceback" not in stderr
