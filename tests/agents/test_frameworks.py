"""Policies trained with Stable-Baselines3 / sb3-contrib's own API play as ``sb3:PATH`` agents:
MaskablePPO, PPO and DQN, with and without the action features, legal moves only, from the seat's
view, in worker processes too (smoke-size training)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import sniff_env
import twelve_env
from sniff_env.agents import arena_table, make_agent
from sniff_twelve.core.optional import MissingExtraError
from sniff_twelve.tools import arena, conformance
from twelve_env.agents import make_agent as make_twelve_agent

pytestmark = pytest.mark.train


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict:
    """Four tiny models of 2-player Sniff, trained and saved with the frameworks' own calls."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import DQN, PPO

    from sniff_twelve.envs.sb3 import SB3VecEnv

    folder = tmp_path_factory.mktemp("sb3")
    env = sniff_env.single_agent_env(num_players=2)
    ppo = {"n_steps": 64, "batch_size": 32, "n_epochs": 1, "seed": 0, "device": "cpu"}
    trained = {
        "maskable": MaskablePPO("MlpPolicy", env, **ppo),
        "ppo": PPO("MlpPolicy", env, **ppo),
        "dqn": DQN("MlpPolicy", env, learning_starts=0, buffer_size=500, seed=0, device="cpu"),
        "features": MaskablePPO(
            "MlpPolicy", SB3VecEnv(sniff_env.vector_env(8, action_features=True, seed=0)), **{**ppo, "n_steps": 16}
        ),
    }
    paths = {}
    for name, model in trained.items():
        model.learn(128)
        paths[name] = folder / f"{name}.zip"
        model.save(paths[name])
    return paths


@pytest.mark.parametrize("kind", ["maskable", "ppo", "dqn", "features"])
def test_a_saved_model_plays_legal_moves(models, kind):
    agent = make_agent(f"sb3:{models[kind]}")
    assert agent.kind == ("maskable" if kind == "features" else kind)
    features = 135 + 114 * len(sniff_env.Game.spec.action_feature_names)
    assert agent.inputs == (features if kind == "features" else 135)
    for seed in range(2):
        game = sniff_env.Game(num_players=2, seed=seed, max_steps=300)
        agent.reset(seed)
        while not game.is_terminal():
            action = agent.act(game) if game.current_player == 0 else game.legal_actions()[-1]
            assert action in game.legal_actions()
            game.apply(action)


def test_models_play_in_the_arena_with_workers_and_see_only_their_seat(models, monkeypatch):
    specs = [f"sb3:{models['ppo']}", f"sb3:{models['features']}", "greedy"]
    result = arena.run(arena_table(2), specs, deals=1, seed=1, workers=2, progress=False)
    assert result["games_played"] == 6 and np.isfinite([row["score"] for row in result["entries"]]).all()
    monkeypatch.setattr(conformance, "TWIN_AGENTS", (f"sb3:{models['maskable']}", f"sb3:{models['dqn']}"))
    assert conformance.check_no_peek_twins(sniff_env, {"num_players": 2}, games=4) == list(conformance.TWIN_AGENTS)


def test_bad_models_are_one_clear_line(models, tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="write sb3:PATH"):
        make_agent("sb3")
    with pytest.raises(ValueError, match="no such file"):
        make_agent(f"sb3:{tmp_path / 'missing.zip'}")
    junk = tmp_path / "junk.zip"
    junk.write_text("not a model")
    with pytest.raises(ValueError, match="not a Stable-Baselines3 model"):
        make_agent(f"sb3:{junk}")
    sniff_model = make_twelve_agent(f"sb3:{models['ppo']}")
    with pytest.raises(ValueError, match="trained on 135 inputs; this table's observation has 69"):
        sniff_model.act(twelve_env.Game(num_players=3, seed=0))
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)
    with pytest.raises(MissingExtraError, match="train"):
        make_agent(f"sb3:{models['ppo']}")
