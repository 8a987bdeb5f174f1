"""Smoke runs of the RL-framework examples (a few hundred steps): they produce a model that loads
and acts legally. Marked ``train``: they need the ``train`` extra (torch, sb3-contrib)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.train
@pytest.mark.parametrize("game", ["sniff", "twelve"])
def test_sb3_maskable_ppo_smoke(game, tmp_path):
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="needs the train extra")
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import sb3_maskable_ppo as example
    finally:
        sys.path.pop(0)
    summary = example.main(
        ["--game", game, "--timesteps", "256", "--eval-every", "128", "--eval-games", "4", "--out", str(tmp_path)]
    )
    assert 0.0 <= summary["win_rate"] <= 1.0 and len(summary["curve"]) == 2
    assert json.loads((tmp_path / "summary.json").read_text())["timesteps"] == 256
    assert (tmp_path / "learning_curve.png").stat().st_size > 1000
    model = sb3_contrib.MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    env = example.make_env(game, "random", 0)
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            mask = env.action_masks()
            action, _ = model.predict(obs, action_masks=mask, deterministic=False)
            assert mask[int(action)], "the trained model chose an illegal action"
            obs, _, terminated, truncated, info = env.step(int(action))
            assert "illegal_action" not in info
            done = terminated or truncated
    assert np.isfinite(summary["mean_reward"])
