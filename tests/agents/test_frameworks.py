"""Policies trained with Stable-Baselines3 / sb3-contrib's own API play as ``sb3:PATH`` agents:
MaskablePPO, PPO and DQN, with and without the action features, legal moves only, from the seat's
view, in worker processes too (smoke-size training). RLlib checkpoints play as ``rllib:PATH``, each
seat with the module RLlib's policy mapping gives it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import sniff_env
import twelve_env
from sniff_env.agents import arena_table, make_agent
from sniff_twelve.core.optional import MissingExtraError
from sniff_twelve.tools import arena, conformance
from tests import loopback
from twelve_env.agents import make_agent as make_twelve_agent

pytestmark = [pytest.mark.train, pytest.mark.xdist_group("frameworks")]  # one worker: its module fixture is made once


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


RLLIB_CHECKPOINT = """
import logging
import sys

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

import sniff_twelve.envs.rllib  # registers "sniff"

module = RLModuleSpec(
    module_class=ActionMaskingTorchRLModule,
    model_config=DefaultModelConfig(fcnet_hiddens=[16], head_fcnet_hiddens=[]),
)
config = (
    PPOConfig()
    .environment("sniff", env_config={"num_players": 2})
    .env_runners(num_env_runners=0)
    .multi_agent(
        policies={"even", "odd"},
        policy_mapping_fn=lambda agent_id, episode, **kwargs: ("even", "odd")[int(agent_id[-1]) % 2],
    )
    .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"even": module, "odd": module}))
    .debugging(seed=0)
)
ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
try:
    algo = config.build_algo()
    algo.save_to_path(sys.argv[1])
    algo.stop()
finally:
    ray.shutdown()
"""


@pytest.fixture(scope="module")
def rllib_checkpoint(tmp_path_factory) -> Path:
    """An RLlib algorithm checkpoint of 2-player Sniff with two modules, seats mapped by parity
    (``even`` plays seat 0, ``odd`` seat 1), saved by RLlib's own ``save_to_path`` untrained — in
    a fresh interpreter in a loopback-only network namespace, as every test that starts Ray."""
    pytest.importorskip("ray.rllib", reason="needs the rllib extra")
    path = tmp_path_factory.mktemp("rllib") / "checkpoint"
    loopback.run_python(["-c", RLLIB_CHECKPOINT, str(path)])
    return path


def _module_choice(module, view) -> int:
    """What an action-masking RLlib module plays from a seat's view, computed here from RLlib's own
    ``forward_inference`` (not from the agent under test)."""
    import torch

    obs, mask = view.observation().astype(np.float32), view.legal_mask()
    batch = {"obs": {"observations": torch.from_numpy(obs[None]), "action_mask": torch.from_numpy(mask[None] * 1.0)}}
    with torch.no_grad():
        logits = module.forward_inference(batch)["action_dist_inputs"][0].numpy()
    logits[~mask] = -np.inf
    return int(np.argmax(logits))


def test_an_rllib_checkpoint_plays_each_seat_with_its_mapped_module(rllib_checkpoint):
    from ray.rllib.core.rl_module.rl_module import RLModule

    folder = rllib_checkpoint / "learner_group/learner/rl_module"
    modules = {name: RLModule.from_checkpoint(str(folder / name)) for name in ("even", "odd")}
    agent = make_agent(f"rllib:{rllib_checkpoint}")
    assert sorted(agent.modules) == ["even", "odd"]
    differ = 0
    for seed in range(3):
        game = sniff_env.Game(num_players=2, seed=seed, max_steps=300)
        agent.reset(seed)
        while not game.is_terminal():
            view = game.seat_view()
            own = modules[("even", "odd")[view.seat % 2]]
            other = modules[("odd", "even")[view.seat % 2]]
            action = agent.act(game)
            assert action in game.legal_actions() and action == _module_choice(own, view)
            differ += action != _module_choice(other, view)
            game.apply(action)
    assert differ > 0  # the two untrained modules disagree somewhere: the seat's mapping is what chose


def test_one_module_folder_plays_every_seat(rllib_checkpoint):
    from ray.rllib.core.rl_module.rl_module import RLModule

    folder = rllib_checkpoint / "learner_group/learner/rl_module/odd"
    module = RLModule.from_checkpoint(str(folder))
    agent = make_agent(f"rllib:{folder}")
    game = sniff_env.Game(num_players=2, seed=5, max_steps=300)
    while not game.is_terminal():
        assert agent.act(game) == _module_choice(module, game.seat_view())
        game.apply(agent.act(game))


def test_rllib_agents_play_in_the_arena_with_workers_and_see_only_their_seat(rllib_checkpoint, monkeypatch):
    specs = [f"rllib:{rllib_checkpoint}", "greedy"]
    one = arena.run(arena_table(2), specs, deals=1, seed=3, workers=1, progress=False)
    two = arena.run(arena_table(2), specs, deals=1, seed=3, workers=2, progress=False)
    assert one["games_played"] == 2 and one["entries"] == two["entries"]
    monkeypatch.setattr(conformance, "TWIN_AGENTS", (f"rllib:{rllib_checkpoint}",))
    assert conformance.check_no_peek_twins(sniff_env, {"num_players": 2}, games=4) == list(conformance.TWIN_AGENTS)


def test_bad_rllib_checkpoints_are_one_clear_line(rllib_checkpoint, tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="write rllib:PATH"):
        make_agent("rllib")
    with pytest.raises(ValueError, match="no such folder"):
        make_agent(f"rllib:{tmp_path / 'missing'}")
    (tmp_path / "junk").mkdir()
    with pytest.raises(ValueError, match="not an RLlib checkpoint"):
        make_agent(f"rllib:{tmp_path / 'junk'}")
    modules = rllib_checkpoint / "learner_group/learner/rl_module"
    with pytest.raises(ValueError, match=r"holds the modules even, odd and no policy_mapping_fn.*rl_module/MODULE"):
        make_agent(f"rllib:{modules}")
    sniff_model = make_twelve_agent(f"rllib:{modules / 'even'}")
    with pytest.raises(ValueError, match="trained on 135 inputs; this table's observation has 69"):
        sniff_model.act(twelve_env.Game(num_players=3, seed=0))
    monkeypatch.setitem(sys.modules, "ray.rllib.core.rl_module.rl_module", None)
    with pytest.raises(MissingExtraError, match="rllib"):
        make_agent(f"rllib:{rllib_checkpoint}")
