"""The sequential test (``sniff_twelve.tools.compare``): its error rates on self-play, and the command."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from sniff_env.agents import arena_table as sniff_table
from sniff_twelve.agents.builtin import RandomAgent
from sniff_twelve.tools import arena, compare

TABLE = sniff_table(2, max_hands=1)
ALPHA = BETA = 0.05
RUNS = 400


@pytest.fixture(scope="module")
def self_play_margins() -> np.ndarray:
    """Seat 0's margin in 300 games of greedy against greedy, each on its own deal."""
    return np.array([arena.play(arena.GameTask(TABLE, ("greedy", "greedy"), seed))["margin"][0] for seed in range(300)])


def _paired(margins: np.ndarray, rng: np.random.Generator, deals: int, shift: float = 0.0) -> np.ndarray:
    """Paired values of ``deals`` deals under self-play: half the difference of two games, plus ``shift``."""
    i, j = rng.integers(len(margins), size=(2, deals))
    return (margins[i] - margins[j]) / 2 + shift


def rate(test, margins: np.ndarray, verdict: str, delta: float, shift: float = 0.0, seed: int = 0) -> float:
    """How often ``test(values, delta, alpha, beta, max_deals)`` answers ``verdict`` over ``RUNS``
    simulated runs of at most 400 deals."""
    rng = np.random.default_rng(seed)
    hits = sum(test(_paired(margins, rng, 400, shift), delta, ALPHA, BETA, 400)[0] == verdict for _ in range(RUNS))
    return hits / RUNS


def within_alpha(false_rate: float) -> bool:
    """The false "better" rate is at most α plus 2.33 standard errors of a rate α over ``RUNS`` runs."""
    return false_rate <= ALPHA + 2.33 * math.sqrt(ALPHA * (1 - ALPHA) / RUNS)


def test_self_play_false_better_rate_is_at_most_alpha(self_play_margins):
    delta = 0.25 * float(np.std(self_play_margins) / math.sqrt(2))
    assert within_alpha(rate(compare.sequential, self_play_margins, "better", delta))


def test_a_test_that_always_says_better_fails_the_error_rate_check(self_play_margins):
    def always_better(values, delta, alpha, beta, max_deals):
        return "better", 16

    assert not within_alpha(rate(always_better, self_play_margins, "better", 1.0))


def test_it_finds_a_real_edge_at_the_stated_power(self_play_margins):
    delta = 0.25 * float(np.std(self_play_margins) / math.sqrt(2))
    missed = 1 - rate(compare.sequential, self_play_margins, "better", delta, shift=delta, seed=1)
    assert missed <= BETA + 2.33 * math.sqrt(BETA * (1 - BETA) / RUNS) + 0.05  # some runs stop undecided


def test_llr_and_bounds_by_hand():
    lower, upper = compare.bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(math.log(0.95 / 0.05))
    values = [1.0, 3.0, 2.0, 2.0]  # mean 2, sample variance 2/3
    assert compare.llr(values, 1.0) == pytest.approx(4 * 1.0 * (2 - 0.5) / (2 / 3))
    assert compare.decide([0.0, 0.0, 0.0], 1.0, 0.05, 0.05) == "not better"


def test_real_self_play_runs_rarely_say_better():
    class Shifted(RandomAgent):  # the same policy on another stream: A is no better than B
        def reset(self, seed=None):
            super().reset(None if seed is None else seed + 1)

    verdicts = [
        compare.run(TABLE, RandomAgent(), Shifted(), delta=8.0, max_deals=48, seed=seed, progress=False)["verdict"]
        for seed in range(12)
    ]
    assert verdicts.count("better") <= 3  # P(≥ 4 of 12 at α = 0.05) < 0.003


def test_compare_starts_its_worker_processes_once(pool_starts):
    """Every batch plays on the same worker processes, and the verdict and margins are those of
    games played in this process (the games do not depend on where they ran)."""
    settings = {"delta": 0.01, "max_deals": 48, "seed": 3, "progress": False}
    in_processes = compare.run(TABLE, "greedy", "heuristic", workers=2, **settings)
    assert len(pool_starts) == 1 and in_processes["deals"] == 48  # three batches, one start
    assert in_processes == compare.run(TABLE, "greedy", "heuristic", workers=1, **settings)


def test_compare_command_writes_its_verdict(tmp_path):
    out = tmp_path / "c.json"
    argv = ["compare", "greedy", "random", "--players", "2", "--max-hands", "1", "--delta", "5", "--max-deals", "48"]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sniff_env",
            *argv,
            "--max-deals",
            "48",
            "--workers",
            "1",
            "--no-progress",
            "--json",
            out,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(out.read_text())
    assert result["verdict"] == "better" and "BETTER" in done.stdout
    assert {"verdict", "hands", "margin", "margin_ci95", "llr", "bounds", "deals"} <= set(result)
    assert result["hands"] == 2 * result["deals"] and result["margin"] > 5


@pytest.mark.parametrize(
    ("flags", "message"),
    [(["--delta", "0"], "delta must be a positive"), (["--alpha", "0.6"], "alpha must be between")],
)
def test_compare_command_rejects_bad_settings(flags, message):
    done = subprocess.run(
        [sys.executable, "-m", "twelve_env", "compare", "greedy", "random", *flags], capture_output=True, text=True
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "error:" in lines[0] and message in lines[0]
