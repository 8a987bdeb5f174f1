"""Smoke run of ``python -m benchmarks --quick``: every figure is in the JSON (not how fast)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import aec, anchors, ours

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_quick_benchmark_reports_every_figure(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads((tmp_path / "latest.json").read_text())
    expected = [name for name, _ in ours.measurements(quick=True) + anchors.measurements(quick=True)] + aec.names()
    for game in ours.GAMES:
        expected += [f"{game}.vector_best", f"{game}.cold_start_s", f"{game}.warm_start_s"]
    for name in expected:
        value = result["figures"].get(name)
        assert isinstance(value, float) and value > 0, (name, value)
    assert all(v is not None and v > 0 for v in result["ratios"].values()), result["ratios"]
    assert {"cpu", "cores", "numba"} <= set(result["machine"])
    assert (tmp_path / "throughput.png").stat().st_size > 10_000
    assert "| ratio | value |" in run.stdout
