"""Smoke run of ``python -m benchmarks --quick``: every figure is in the JSON (not how fast)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import aec, anchors, ours, solvers

ROOT = Path(__file__).resolve().parents[2]


def run_module(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_quick_benchmark_reports_every_figure(tmp_path):
    run = run_module("benchmarks", "--quick", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads((tmp_path / "latest.json").read_text())
    expected = [name for name, _ in ours.measurements(quick=True) + anchors.measurements(quick=True)] + aec.names()
    expected += solvers.names()
    for game in ours.GAMES:
        expected += [f"{game}.vector_best", f"{game}.cold_start_s", f"{game}.warm_start_s"]
    for name in expected:
        value = result["figures"].get(name)
        assert isinstance(value, float) and (value > 0 or name.endswith("solved_share")), (name, value)
    assert all(v is not None and v > 0 for v in result["ratios"].values()), result["ratios"]
    assert {"cpu", "cores", "numba"} <= set(result["machine"])
    assert (tmp_path / "throughput.png").stat().st_size > 10_000
    assert "| ratio | value |" in run.stdout


def test_time_to_skill_recipes_are_the_readmes_training_commands():
    """``benchmarks.training`` times the commands the README gives under "Self-play PPO" (less the
    budget, threads and output flags it sets itself), so the table measures what users run."""
    from benchmarks import training

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Self-play PPO on `VectorGame`", 1)[1].split("\n```\n", 1)[0]
    commands = [shlex.split(c) for c in section.replace("\\\n", " ").splitlines() if "selfplay_ppo.py" in c]
    documented = []
    for argv in commands:
        args = argv[argv.index("examples/selfplay_ppo.py") + 1 :]
        for flag in ("--minutes", "--threads", "--out"):
            i = args.index(flag)
            del args[i : i + 2]
        documented.append(args)
    assert documented == [args for _, args in training.RECIPES.values()]


@pytest.mark.train
def test_quick_time_to_skill_reports_every_snapshot(tmp_path):
    """``python -m benchmarks.training --quick``: a snapshot at each mark of training time, each
    scored against every opponent on the evaluation deals, with the table, JSON and plot."""
    pytest.importorskip("torch", reason="needs the train extra")
    from benchmarks import training

    run = run_module("benchmarks.training", "--quick", "--recipes", "sniff2", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads((tmp_path / "training.json").read_text())
    points = result["recipes"]["sniff2"]
    assert [p["minutes"] for p in points] == list(training.QUICK_MARKS)
    steps = [p["env_steps"] for p in points]
    assert steps == sorted(steps) and steps[0] > 0
    for point in points:
        assert set(point["scores"]) == set(training.OPPONENTS)
        assert all(0.0 <= s["score"] <= 1.0 and s["ci95"] >= 0 for s in point["scores"].values())
    assert (tmp_path / "training_runs" / "sniff2" / "at_0.05min.npz").exists()
    assert (tmp_path / "training.png").stat().st_size > 10_000
    assert "| sniff2 | 0.2 |" in run.stdout


def test_time_to_skill_without_the_train_extra_says_what_to_install(monkeypatch, capsys):
    """Without torch, ``benchmarks.training`` stops before any run with a one-line message."""
    from benchmarks import training

    monkeypatch.setitem(sys.modules, "torch", None)  # what an install without the train extra sees
    monkeypatch.setattr(training, "train", lambda *args: pytest.fail("a training run started"))
    with pytest.raises(SystemExit) as stopped:
        training.main(["--quick"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.strip() == (
        "error: python -m benchmarks.training needs torch, which is not installed: "
        'pip install "sniff-twelve[train]" (pip install -e ".[train]" in a checkout)'
    )
