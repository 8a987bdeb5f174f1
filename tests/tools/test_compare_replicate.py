"""``compare --replicate``: how the runs are joined (``compare.combine``), and the command."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from sniff_twelve.tools import compare
from twelve_env.agents import arena_table

#: a cheap replicated command: "12", 2 players, at most 32 deals a run, runs on seeds 5 and 6
COMMAND = [sys.executable, "-m", "twelve_env", "compare", "random", "greedy", "--players", "2", "--delta", "1"]
COMMAND += ["--max-deals", "32", "--seed", "5", "--workers", "1", "--no-progress"]


def _run(seed: int, verdict: str, values: list[float], hands: int) -> dict:
    """A run's result as ``compare.run`` gives it, with the mean of ``values`` as its margin."""
    return {"seed": seed, "verdict": verdict, "deals": len(values), "hands": hands, "margin": sum(values) / len(values)}


@pytest.mark.parametrize(
    "verdicts",
    [("better", "not better"), ("not better", "better"), ("better", "undecided"), ("better", "better", "not better")],
)
def test_runs_that_disagree_are_never_called_better(verdicts):
    runs = [_run(seed, verdict, [1.0, 3.0], 4) for seed, verdict in enumerate(verdicts)]
    combined = compare.combine(runs, [{"margin": [1.0, 3.0]}] * len(runs))
    assert combined["verdict"] == "not separated"
    assert [r["verdict"] for r in combined["runs"]] == list(verdicts)


@pytest.mark.parametrize("verdict", ["better", "not better", "undecided"])
def test_runs_that_agree_give_their_verdict(verdict):
    runs = [_run(0, verdict, [1.0, 3.0], 4), _run(1, verdict, [2.0, 2.0], 4)]
    assert compare.combine(runs, [{"margin": [1.0, 3.0]}, {"margin": [2.0, 2.0]}])["verdict"] == verdict


def test_all_better_pools_the_margin_by_hand():
    runs = [_run(0, "better", [1.0, 3.0], 4), _run(1, "better", [0.0, 2.0, 4.0, 6.0], 8)]
    combined = compare.combine(runs, [{"margin": [1.0, 3.0]}, {"margin": [0.0, 2.0, 4.0, 6.0]}])
    assert combined["verdict"] == "better"
    assert (combined["deals"], combined["hands"]) == (6, 12)
    # hand-weighted: (4·2 + 8·3) / 12 = 8/3 (the plain mean of the two margins would be 2.5)
    assert combined["margin"] == pytest.approx(8 / 3)
    # the six values about 8/3: squares 25/9, 1/9, 64/9, 4/9, 16/9, 100/9 → 210/9; variance 210/45 = 14/3;
    # 1.96·√(14/3)/√6 = 1.96·√7/3
    assert combined["margin_ci95"] == pytest.approx(1.96 * math.sqrt(7) / 3)
    assert [r["seed"] for r in combined["runs"]] == [0, 1]
    assert "margin_aivat" not in combined


def _command(tmp_path, name: str) -> tuple[str, dict]:
    out = tmp_path / name
    done = subprocess.run([*COMMAND, "--replicate", "2", "--json", out], capture_output=True, text=True, check=True)
    return done.stdout, json.loads(out.read_text())


def test_the_replicated_command_is_reproducible_and_runs_on_fresh_seeds(tmp_path):
    stdout, result = _command(tmp_path, "first.json")
    assert _command(tmp_path, "second.json")[1] == result
    assert {"verdict", "hands", "margin", "margin_ci95", "runs", "replicate"} <= set(result)
    runs = result["runs"]
    assert len(runs) == 2 and all({"seed", "verdict", "hands", "margin", "margin_ci95"} <= set(r) for r in runs)
    assert [r["seed"] for r in runs] == [5, 6] and result["seed"] == 5
    assert result["hands"] == sum(r["hands"] for r in runs)
    same = runs[0]["verdict"] == runs[1]["verdict"]
    assert result["verdict"] == (runs[0]["verdict"] if same else "not separated")
    assert "seed 5:" in stdout and "seed 6:" in stdout and "combined:" in stdout
    # run i is the run of --seed 5+i alone
    alone = compare.run(arena_table(2), "random", "greedy", delta=1.0, max_deals=32, seed=6, progress=False)
    assert runs[1] == {k: alone[k] for k in runs[1]}


def test_the_command_refuses_no_runs():
    done = subprocess.run([*COMMAND, "--replicate", "0"], capture_output=True, text=True)
    assert done.returncode == 2 and "error:" in done.stderr and "--replicate" in done.stderr
