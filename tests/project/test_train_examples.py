"""Smoke runs of the RL-framework examples (a few hundred steps): they produce a model that loads
and acts legally; and the frameworks' own entry points accept our envs unchanged (RLlib's default
env check and registered names, sb3-contrib's documented ``MaskablePPO`` loop). Marked ``train``:
they need the ``train`` extra (torch, sb3-contrib) and, for RLlib, the ``rllib`` extra.

Tianshou is not a dependency (PettingZoo's Tianshou tutorials pin tianshou 0.5.0, which needs
``numpy<2``); its tutorials were run by hand in a separate venv with only the env line changed."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests import loopback

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.train
@pytest.mark.parametrize(
    ("game", "env_args"),
    [("sniff", ["--envs", "8"]), ("twelve", ["--envs", "8"]), ("twelve", ["--env", "single"])],
)
def test_sb3_maskable_ppo_smoke(game, env_args, tmp_path):
    """The example trains on ``vector_env`` (action features appended) by default and on the
    single-seat env with ``--env single``; the exported checkpoint is the trained actor."""
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="needs the train extra")
    example = _example("sb3_maskable_ppo")
    argv = ["--game", game, "--timesteps", "256", "--eval-every", "128", "--eval-games", "4", "--arena-deals", "2"]
    summary = example.main([*argv, *env_args, "--out", str(tmp_path)])
    assert summary["arena"]["deals"] == 2 and 0.0 <= summary["arena"]["score"] <= 1.0
    assert 0.0 <= summary["win_rate"] <= 1.0 and len(summary["curve"]) == 2
    assert summary["features"] == (summary["env"] == "vector")
    assert json.loads((tmp_path / "summary.json").read_text())["timesteps"] == 256
    assert (tmp_path / "learning_curve.png").stat().st_size > 1000
    model = sb3_contrib.MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    from sniff_twelve.batch.mlp import MlpPolicy

    policy = MlpPolicy.load(tmp_path / "policy.npz")
    package = importlib.import_module(f"{game}_env")
    venv = package.vector_env(16, opponents="random", seed=3, action_features=summary["features"])
    obs, _ = venv.reset()
    for _ in range(30):
        mask = venv.action_masks()
        actions, _ = model.predict(obs, action_masks=mask, deterministic=False)
        assert mask[np.arange(16), actions].all(), "the trained model chose an illegal action"
        # the exported checkpoint is the same actor: same most likely action in every row
        best, _ = model.predict(obs, action_masks=mask, deterministic=True)
        for i in range(16):
            game_i = venv.game(i)
            features = game_i.action_features() if summary["features"] else None
            assert policy.act(game_i.observation(0), mask[i], features) == int(best[i])
        obs, *_ = venv.step(actions)
    if summary["env"] == "single":
        assert np.isfinite(summary["mean_reward"])


def _example(name):
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        return __import__(name)
    finally:
        sys.path.pop(0)


def _brute_force_gae(seat, learner, values, rewards, done, boot, gamma, lam):
    """Per (game, seat): the chain of that seat's decisions, each collecting the rewards up to the
    seat's next decision in the same episode; GAE along the chain."""
    steps, n, players = rewards.shape
    adv = np.zeros((steps, n))
    for i in range(n):
        for p in range(players):
            times = [t for t in range(steps) if seat[t, i] == p]
            deltas = []
            for k, t in enumerate(times):
                end = times[k + 1] if k + 1 < len(times) else steps
                ended = next((u for u in range(t, end) if done[u, i]), None)
                if ended is not None:
                    reward, next_value = rewards[t : ended + 1, i, p].sum(), 0.0
                else:
                    reward = rewards[t:end, i, p].sum()
                    next_value = values[end, i] if end < steps else boot[i, p]
                deltas.append((t, reward + gamma * next_value - values[t, i], ended is not None))
            gae = 0.0
            for t, delta, episode_ended in reversed(deltas):
                gae = delta + (0.0 if episode_ended else gamma * lam * gae)
                if learner[t, i]:
                    adv[t, i] = gae
    return adv


@pytest.mark.train
def test_selfplay_gae_follows_each_seats_own_decisions():
    pytest.importorskip("torch", reason="needs the train extra")
    example = _example("selfplay_ppo")
    rng = np.random.default_rng(0)
    steps, n, players = 40, 6, 4
    seat = rng.integers(0, players, (steps, n)).astype(np.int32)
    learner = rng.random((steps, n)) < 0.8
    values = rng.normal(size=(steps, n)).astype(np.float32)
    rewards = (rng.normal(size=(steps, n, players)) * (rng.random((steps, n, players)) < 0.3)).astype(np.float32)
    done = rng.random((steps, n)) < 0.05
    boot = rng.normal(size=(n, players)).astype(np.float32)
    adv, ret = np.zeros_like(values), np.zeros_like(values)
    example.seat_gae(seat, learner, values, rewards, done, boot, 0.97, 0.9, adv, ret)
    expected = _brute_force_gae(seat, learner, values, rewards, done, boot, 0.97, 0.9)
    np.testing.assert_allclose(adv, expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ret[learner], (adv + values)[learner], rtol=1e-5)


@pytest.mark.train
def test_selfplay_update_survives_a_one_sample_minibatch():
    """16 learner decisions in minibatches of 5 leave one of 1: its advantage std is undefined, and
    a NaN there once poisoned a run's weights (the next move was an illegal action 0)."""
    torch = pytest.importorskip("torch", reason="needs the train extra")
    example = _example("selfplay_ppo")
    argv = ["--game", "twelve", "--players", "2", "--envs", "4", "--rollout", "4", "--minibatch", "5"]
    args = example.build_parser().parse_args([*argv, "--hidden", "16", "--epochs", "1"])
    trainer = example.Trainer(args)
    obs, mask, player = trainer.vec.reset()
    trainer.assign_roles(np.arange(args.envs))
    boot = trainer.collect(obs, mask, player)[3]
    stats = trainer.update(boot, 0.0)
    assert stats["samples"] == 16
    assert np.isfinite(stats["policy_loss"])
    assert all(torch.isfinite(p).all() for p in trainer.model.parameters())


@pytest.mark.train
def test_train_beliefs_writes_a_network_infer_reads(tmp_path, capsys):
    """``examples/train_beliefs.py`` at smoke size: a network for the table it played, the held-out
    bits of every epoch and the rules' baseline printed and kept in its meta."""
    pytest.importorskip("torch", reason="needs the train extra")
    from sniff_twelve.beliefs import learned

    out = tmp_path / "net.npz"
    argv = ["--players", "2", "--model", "greedy", "--games", "3", "--epochs", "2", "--hidden", "16"]
    _example("train_beliefs").main([*argv, "--out", str(out)])
    net = learned.BeliefNet.load(out)
    assert net.meta["model"] == "greedy" and net.meta["params"][0] == 2 and len(net.meta["validation_bits"]) == 2
    printed = capsys.readouterr().out
    assert f"{net.meta['rules_bits']:.3f} with every place alike" in printed and f"wrote {out}" in printed


@pytest.mark.train
def test_selfplay_belief_head_learns_where_the_hidden_tiles_are():
    """``--belief-coef``: the rollouts carry where each tile the seat cannot see truly is (at a
    4-player deal's first move, 5 tiles at each other seat and 8 in the boneyard (S5); never a tile
    in two places), the head's cross-entropy falls as it trains on
    them, and the exported policy is the ``ppo`` format without the head."""
    pytest.importorskip("torch", reason="needs the train extra")
    example = _example("selfplay_ppo")
    argv = ["--players", "4", "--envs", "4", "--rollout", "32", "--hidden", "32", "--epochs", "1"]
    args = example.build_parser().parse_args([*argv, "--belief-coef", "1.0", "--lr", "3e-3"])
    trainer = example.Trainer(args)
    obs, mask, player = trainer.vec.reset()
    trainer.assign_roles(np.arange(args.envs))
    boot = trainer.collect(obs, mask, player)[3]
    truth = trainer.buf.truth
    assert truth.shape == (32, 4, 28, 4) and set(np.unique(truth)) <= {0.0, 1.0}
    assert truth.sum(axis=3).max() == 1
    np.testing.assert_array_equal(truth[0].sum(axis=1), np.tile([5, 5, 5, 8], (4, 1)))
    losses = [trainer.update(boot, 0.0)["belief_loss"] for _ in range(6)]
    assert losses[-1] < losses[0] - 0.5, losses
    exported = trainer.model.export(trainer.meta)
    plain = example.ActorCritic(obs.shape[1], mask.shape[1], [32], *trainer.input_scales()).export(trainer.meta)
    assert [w.shape for w, _ in exported.layers] == [w.shape for w, _ in plain.layers]
    assert exported.policy_head[0].shape == plain.policy_head[0].shape


@pytest.mark.train
def test_selfplay_ppo_smoke(tmp_path):
    """A few updates of self-play PPO (4-player partnerships, pool in use): checkpoints that load,
    equal the torch network, play legally in the arena; resume continues the step count; a fresh
    run's ``--save-at`` snapshot replaces a stale file, a resumed run keeps it."""
    torch = pytest.importorskip("torch", reason="needs the train extra")
    example = _example("selfplay_ppo")
    argv = ["--players", "4", "--envs", "8", "--rollout", "64", "--eval-every", "1", "--eval-deals", "1"]
    argv += ["--snapshot-every", "1", "--pool-rate", "0.5", "--pool-agents", "greedy", "--final-deals", "1"]
    argv += ["--imitate", "heuristic", "--imitate-share", "0.5", "--out", str(tmp_path), "--quiet", "--threads", "1"]
    (tmp_path / "at_0min.npz").write_bytes(b"left by an earlier run")
    summary = example.main([*argv, "--steps", "1024", "--save-at", "0"])
    assert summary["env_steps"] == 1024 and summary["steps_per_second"] > 0
    assert len(summary["evals"]) == 2 and {"greedy", "heuristic"} <= set(summary["evals"][0])
    assert summary["final"]["chosen"] in ("latest", "best") and (tmp_path / "final.npz").exists()
    assert (tmp_path / "learning_curve.png").stat().st_size > 1000
    from sniff_env import Game
    from sniff_env.agents import make_agent
    from sniff_twelve.batch.mlp import MlpPolicy

    policy = MlpPolicy.load(tmp_path / "latest.npz")
    assert policy.meta["env_steps"] == 1024 and policy.uses_action_features
    state = torch.load(tmp_path / "trainer.pt", weights_only=False)
    trainer = example.Trainer(example.build_parser().parse_args([*argv, "--reward-scale", "0.05"]))
    trainer.model.load_state_dict(state["model"])
    game = Game(num_players=4, seed=9)
    agent = make_agent(f"ppo:{tmp_path / 'best.npz'}")
    for _ in range(60):
        obs, mask, features = game.observation(), game.legal_mask(), game.action_features()
        with torch.no_grad():
            logits, value = trainer.model(torch.from_numpy(obs[None]), torch.from_numpy(features[None]))
        np.testing.assert_allclose(
            policy.logits(obs, mask, features)[mask], logits[0].numpy()[mask], rtol=1e-4, atol=1e-4
        )
        np.testing.assert_allclose(policy.value(obs), value.item(), rtol=1e-4, atol=1e-4)
        action = agent.act(game)
        assert mask[action]
        game.apply(action)
    assert MlpPolicy.load(tmp_path / "at_0min.npz").meta["env_steps"] == 512  # the first update's policy
    resumed = example.main([*argv, "--steps", "1536", "--resume", "--save-at", "0"])
    assert resumed["env_steps"] == 1536 and len(resumed["evals"]) == 3
    assert MlpPolicy.load(tmp_path / "at_0min.npz").meta["env_steps"] == 512  # kept on resume


@pytest.mark.train
def test_rllib_selfplay_smoke(tmp_path):
    """One RLlib PPO iteration on the masked multi-agent env; the checkpoint plays in the arena as
    ``rllib:PATH``, and the exported NumPy policy equals the RLlib module and plays legally."""
    pytest.importorskip("ray.rllib", reason="needs the rllib extra")
    torch = pytest.importorskip("torch")
    example = _example("rllib_selfplay")
    loopback.run_python(  # it starts Ray: in a loopback-only network namespace
        [
            str(ROOT / "examples/rllib_selfplay.py"),
            "--players",
            "2",
            "--iterations",
            "1",
            "--batch",
            "256",
            "--env-runners",
            "0",
            "--eval-deals",
            "1",
            "--eval-against",
            "random",
            "--out",
            str(tmp_path),
        ]
    )
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["env_steps"] >= 256 and "vs_random" in summary
    from sniff_twelve.tools import arena

    table = importlib.import_module("sniff_env.agents").arena_table(2)
    played = arena.run(table, [f"rllib:{tmp_path / 'checkpoint'}", "random"], deals=1, progress=False)
    assert played["games_played"] == 2  # the checkpoint itself plays in the arena, as rllib:PATH
    from ray.rllib.core.rl_module.rl_module import RLModule

    from sniff_twelve.batch.mlp import MlpPolicy
    from sniff_twelve.envs.rllib import RllibEnv

    module = RLModule.from_checkpoint(str(tmp_path / "checkpoint/learner_group/learner/rl_module/main"))
    policy = MlpPolicy.load(tmp_path / "policy.npz")
    env = RllibEnv(example.env_config(example.build_parser().parse_args(["--players", "2"])))
    obs, _ = env.reset(seed=4)
    for _ in range(80):
        [(agent, o)] = obs.items()
        legal = o["action_mask"] > 0
        batch = {"obs": {k: torch.from_numpy(v[None]) for k, v in o.items()}}
        logits = module.forward_inference(batch)["action_dist_inputs"][0].detach().numpy()
        np.testing.assert_allclose(policy.logits(o["observations"], legal)[legal], logits[legal], rtol=1e-4, atol=1e-4)
        action = policy.act(o["observations"], legal)
        assert legal[action]
        obs, rewards, terminated, truncated, _ = env.step({agent: action})
        assert set(rewards) == set(env.possible_agents)
        if terminated["__all__"] or truncated["__all__"]:
            obs, _ = env.reset()


@pytest.mark.train
def test_selfplay_ppo_smoke_twelve(tmp_path):
    """The same trainer on "12" (one look-ahead feature: the cards a play captures)."""
    pytest.importorskip("torch", reason="needs the train extra")
    example = _example("selfplay_ppo")
    argv = ["--game", "twelve", "--players", "2", "--envs", "8", "--rollout", "32", "--steps", "512"]
    argv += ["--eval-deals", "1", "--final-deals", "1", "--out", str(tmp_path), "--quiet", "--threads", "1"]
    summary = example.main(argv)
    assert summary["env_steps"] == 512 and summary["action_features"] == ["captured"]
    from twelve_env import Game
    from twelve_env.agents import make_agent

    agent = make_agent(f"ppo:{tmp_path / 'final.npz'}")
    game = Game(seed=2)
    while not game.is_terminal():
        action = agent.act(game)
        assert game.legal_mask()[action]
        game.apply(action)
    with pytest.raises(ValueError, match="two-sided table"):
        example.main(["--game", "twelve", "--players", "3", "--out", str(tmp_path)])


@pytest.mark.train
def test_selfplay_ppo_takes_block_dominoes_reward_from_its_spec(tmp_path):
    """No branch per game: on block dominoes the trainer plays the spec's points reward (D12:
    paid at the end, partners alike, zero-sum) at the spec's scale, learns from it, and exports a
    checkpoint that ``ppo:PATH`` plays."""
    pytest.importorskip("torch", reason="needs the train extra")
    example = _example("selfplay_ppo")
    argv = ["--game", "dominoes", "--players", "4", "--envs", "4", "--rollout", "40", "--hidden", "16"]
    args = example.build_parser().parse_args([*argv, "--epochs", "1", "--pool-agents", "greedy"])
    trainer = example.Trainer(args)
    assert trainer.vector_options() == {"reward": "points"} and args.reward_scale == 0.05
    obs, mask, player = trainer.vec.reset()
    trainer.assign_roles(np.arange(args.envs))
    boot = trainer.collect(obs, mask, player)[3]
    reward, done = trainer.buf.reward, trainer.buf.done
    assert done.any() and not reward[~done].any()  # a deal is paid when it ends, never before
    ended = reward[done]
    np.testing.assert_array_equal(ended[:, 0], ended[:, 2])  # partners are paid alike
    np.testing.assert_array_equal(ended[:, 0], -ended[:, 1])
    pips = ended[:, 0] / (2 * args.reward_scale)  # a side's return minus the other side's
    np.testing.assert_allclose(pips, np.round(pips), atol=1e-4)
    assert np.abs(pips).max() >= 1
    assert np.isfinite(trainer.update(boot, 0.0)["policy_loss"])
    trainer.save(tmp_path / "p.npz")
    from dominoes_env import Game
    from dominoes_env.agents import make_agent

    agent, game = make_agent(f"ppo:{tmp_path / 'p.npz'}"), Game(num_players=4, seed=1)
    while not game.is_terminal():
        action = agent.act(game)
        assert action in game.legal_actions()
        game.apply(action)


@pytest.mark.train
@pytest.mark.parametrize("game", ["sniff", "twelve"])
def test_sb3_docs_loop_takes_the_0d_array_predict_returns(game, tmp_path):
    """sb3-contrib's MaskablePPO docs example with only the env line changed: learn, maskable
    ``evaluate_policy``, save/load, and the ``predict(obs, action_masks=...)`` loop, whose action is
    a 0-d array passed straight to ``step``."""
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="needs the train extra")
    from sb3_contrib.common.maskable.evaluation import evaluate_policy
    from sb3_contrib.common.maskable.utils import get_action_masks

    env = importlib.import_module(f"{game}_env").single_agent_env(num_players=2)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, gamma=0.4, seed=32, n_steps=64, batch_size=32, device="cpu")
    model.learn(64)
    mean_reward, _ = evaluate_policy(model, env, n_eval_episodes=1, warn=False)
    assert np.isfinite(mean_reward)
    model.save(tmp_path / "ppo_mask")
    model = sb3_contrib.MaskablePPO.load(tmp_path / "ppo_mask", device="cpu")
    obs, _ = env.reset(seed=0)
    while True:
        action_masks = get_action_masks(env)
        action, _states = model.predict(obs, action_masks=action_masks)
        assert isinstance(action, np.ndarray) and action.shape == ()
        obs, _reward, terminated, truncated, info = env.step(action)
        assert not info["illegal_action"]
        if terminated or truncated:
            break


RLLIB_CONFIGS = [
    {"game": "sniff", "num_players": 2},
    {"game": "sniff", "num_players": 4, "forced": "auto", "reward": "points"},
    {"game": "twelve", "num_players": 2},
    {"game": "twelve", "num_players": 5, "deck": "numbers"},
]


@pytest.mark.train
@pytest.mark.parametrize("config", RLLIB_CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_rllib_default_env_check_passes(config):
    """RLlib's default pre-check (``check_multiagent_environments``, what ``MultiAgentEnvRunner``
    runs unless ``disable_env_checking=True``) steps a random *unmasked* action: it passes whether
    that action is legal (the game goes on) or not (the episode ends), and both cases occur here."""
    pytest.importorskip("ray.rllib", reason="needs the rllib extra")
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    from sniff_twelve.envs.rllib import RllibEnv

    ended = []
    for seed in range(60):
        env = RllibEnv(config)
        for space in env.action_spaces.values():
            space.seed(seed)
        step = env.step

        def spy(action_dict, step=step):
            result = step(action_dict)
            ended.append(result[2]["__all__"])
            return result

        env.step = spy
        check_multiagent_environments(env)
    assert len(ended) == 60 and set(ended) == {True, False}


@pytest.mark.train
@pytest.mark.parametrize("config", RLLIB_CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_rllib_unmasked_illegal_action_ends_the_episode(config):
    """PettingZoo's illegal-move convention: −1 to the actor, 0 to the others, everyone terminated
    with a final observation, the game unchanged; a value that is no action id raises instead."""
    pytest.importorskip("ray.rllib", reason="needs the rllib extra")
    from sniff_twelve.envs.rllib import RllibEnv

    env = RllibEnv(config)
    agents = env.possible_agents
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(5):  # into the game a little
        [(agent, o)] = obs.items()
        obs, _, terminated, _, _ = env.step({agent: int(rng.choice(np.flatnonzero(o["action_mask"])))})
        assert not terminated["__all__"]
    [(actor, o)] = obs.items()
    state = env.env.state()
    n = env.action_spaces[actor].n
    for bad in (1.5, "3", None, True, -1, n):
        with pytest.raises(ValueError, match="action"):
            env.step({actor: bad})
    np.testing.assert_array_equal(env.env.state(), state)
    illegal = np.flatnonzero(o["action_mask"] == 0)[0]  # an np.int64, as Discrete.sample() gives
    obs, rewards, terminated, truncated, infos = env.step({actor: illegal})
    assert rewards == {agent: -1.0 if agent == actor else 0.0 for agent in agents}
    assert terminated == dict.fromkeys([*agents, "__all__"], True)
    assert truncated == dict.fromkeys([*agents, "__all__"], False)
    assert set(obs) == set(agents) and all(env.observation_spaces[a].contains(obs[a]) for a in agents)
    assert infos[actor] == {"illegal_action": True} and env.agents == agents
    np.testing.assert_array_equal(env.env.state(), state)
    with pytest.raises(ValueError, match="call reset"):
        env.step({actor: int(np.flatnonzero(o["action_mask"])[0])})
    obs, _ = env.reset(seed=3)
    [(agent, o)] = obs.items()
    assert o["action_mask"].any()


REGISTERED_NAMES = """
import sniff_twelve.envs.rllib  # registers "sniff" and "twelve"; nothing else below names our code
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import ENV_CREATOR, _global_registry

for game in ("sniff", "twelve"):
    config = (
        PPOConfig()
        .environment(game, env_config={"num_players": 3})
        .multi_agent(policies={"p0"}, policy_mapping_fn=lambda agent_id, episode, **kwargs: "p0")
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule))
    )
    assert not config.disable_env_checking
    runner = MultiAgentEnvRunner(config=config)  # makes the env by name and runs RLlib's env check
    env = runner.env.envs[0].unwrapped
    assert type(env) is sniff_twelve.envs.rllib.RllibEnv, type(env)
    assert env.env.metadata["name"] == game + "_v0" and len(env.possible_agents) == 3
    assert sum(map(len, runner.sample(num_timesteps=60))) >= 60
    runner.stop()
try:
    _global_registry.get(ENV_CREATOR, "sniff")({"game": "twelve"})
except ValueError as e:
    assert "registered as 'sniff'" in str(e)
else:
    raise AssertionError("a disagreeing game key was accepted")
print("REGISTERED OK")
"""


@pytest.mark.train
def test_rllib_config_names_the_game_after_import():
    """``config.environment("sniff" | "twelve")`` resolves in RLlib's own env runner once
    ``sniff_twelve.envs.rllib`` is imported (a fresh interpreter, as a user's script), with the default env check."""
    pytest.importorskip("ray.rllib", reason="needs the rllib extra")
    done = subprocess.run(
        [sys.executable, "-c", REGISTERED_NAMES], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0 and "REGISTERED OK" in done.stdout, done.stderr[-3000:]


@pytest.mark.train
def test_expert_iteration_smoke(tmp_path):
    """Two tiny rounds, then a third resumed: the labels are distributions over the legal moves,
    the same for the same seed, the checkpoints are ``ppo`` checkpoints that play in the arena."""
    pytest.importorskip("torch")
    example = _example("expert_iteration")
    from sniff_twelve.batch.mlp import MlpPolicy

    shipped = MlpPolicy.load(ROOT / "sniff_env/checkpoints/ppo_4p.npz")
    net = example.Net(shipped)  # the trainable copy computes what the checkpoint computes
    view = __import__("sniff_env").Game(num_players=4, seed=3).seat_view()
    obs, features, mask = view.observation(), view.action_features(), view.legal_mask()
    logits = net(example.torch.from_numpy(obs[None]), example.torch.from_numpy(features[None].astype(np.float32)))[0]
    expected = shipped.logits(obs, mask, features)
    np.testing.assert_allclose(logits.detach().numpy()[0][mask], expected[mask], rtol=1e-4, atol=1e-4)
    job = {"game": "sniff", "players": 4, "policy": shipped, "iterations": 4, "label_share": 0.3, "temperature": 2.0}
    job["beliefs"] = False
    [match] = example.label_games({**job, "seeds": [7]})
    assert np.array_equal(match["target"], example.label_games({**job, "seeds": [7]})[0]["target"])  # pure
    assert np.allclose(match["target"].sum(1), 1) and not match["target"][~match["mask"]].any()
    assert set(np.unique(match["outcome"])) <= {0.0, 0.5, 1.0} and len(match["obs"]) == len(match["outcome"]) > 5
    argv = ["--rounds", "2", "--games", "2", "--iterations", "4", "--label-share", "0.3", "--eval-deals", "1"]
    argv += ["--workers", "1", "--eval-every", "3", "--save-at", "0", "1000", "--out", str(tmp_path)]
    (tmp_path / "at_1000min.npz").write_bytes(b"an earlier run's")
    summary = example.main(argv)
    assert summary["rounds"] == 2 and summary["labels"] > 10
    assert [point["round"] for point in summary["evals"]] == [2]  # every 3rd round, and after the last
    latest = MlpPolicy.load(tmp_path / "latest.npz")
    assert latest.meta["algorithm"].startswith("expert iteration") and latest.meta["rounds"] == 2
    assert MlpPolicy.load(tmp_path / "at_0min.npz").meta["rounds"] == 1  # the first round past 0 minutes
    assert not (tmp_path / "at_1000min.npz").exists()  # a fresh run drops the snapshots it did not reach
    resumed = example.main([*argv[:1], "3", *argv[2:], "--resume"])
    assert resumed["rounds"] == 3 and resumed["labels"] > summary["labels"]
    assert [point["round"] for point in resumed["evals"]] == [2, 3]
    assert MlpPolicy.load(tmp_path / "at_0min.npz").meta["rounds"] == 1  # a resumed run keeps them
    from sniff_twelve.tools import arena

    table = importlib.import_module("sniff_env.agents").arena_table(4)
    played = arena.run(table, [f"ppo:{tmp_path / 'best.npz'}", "greedy"], deals=1, progress=False)
    assert played["games_played"] == 2


@pytest.mark.train
def test_expert_iteration_belief_head_learns_where_the_hidden_tiles_are(tmp_path, capsys):
    """``--belief-coef``: every label carries where each tile its seat cannot see truly is (at the
    deal, 5 tiles at each other seat and 8 in the boneyard (S5); never a tile in two places), the
    head's cross-entropy falls as it trains, the exported policy is the ``ppo`` layout without the
    head, and a run resumed without the head it was trained with stops with a clear error."""
    pytest.importorskip("torch")
    example = _example("expert_iteration")
    from sniff_twelve.batch.mlp import MlpPolicy

    shipped = MlpPolicy.load(ROOT / "sniff_env/checkpoints/ppo_4p.npz")
    job = {"game": "sniff", "players": 4, "policy": shipped, "iterations": 2, "label_share": 1.0, "temperature": 2.0}
    [match] = example.label_games({**job, "beliefs": True, "seeds": [5]})
    truth = match["truth"]
    assert truth.shape == (len(match["obs"]), 28, 4) and set(np.unique(truth)) <= {0.0, 1.0}
    assert truth.sum(axis=2).max() == 1
    np.testing.assert_array_equal(truth[0].sum(axis=0), [5, 5, 5, 8])
    assert "truth" not in example.label_games({**job, "beliefs": False, "seeds": [5]})[0]
    argv = ["--rounds", "1", "--games", "2", "--iterations", "2", "--label-share", "1", "--eval-deals", "1"]
    argv += ["--workers", "1", "--belief-coef", "1", "--lr", "3e-3", "--out", str(tmp_path)]
    example.main(argv)
    trainer = example.Trainer(example.build_parser().parse_args(argv))
    trainer.load_state()
    losses = [trainer.train()["belief_loss"] for _ in range(4)]
    assert losses[-1] < losses[0] - 0.5, losses
    exported = MlpPolicy.load(tmp_path / "latest.npz")
    assert [w.shape for w, _ in exported.layers] == [w.shape for w, _ in shipped.layers]
    assert exported.policy_head[0].shape == shipped.policy_head[0].shape and exported.meta["belief_coef"] == 1
    capsys.readouterr()
    with pytest.raises(SystemExit, match="trained with --belief-coef 1: resume with it"):
        example.main([*argv[: argv.index("--belief-coef")], "--rounds", "2", "--resume", "--out", str(tmp_path)])


@pytest.mark.train
@pytest.mark.parametrize("name, unit", [("selfplay_ppo", "updates"), ("expert_iteration", "rounds")])
def test_eval_every_below_one_is_a_usage_error(name, unit, tmp_path, capsys):
    """``--eval-every 0`` stops with a one-line usage error before any training, not a division by zero."""
    pytest.importorskip("torch")
    example = _example(name)
    with pytest.raises(SystemExit) as stopped:
        example.main(["--eval-every", "0", "--out", str(tmp_path / "run")])
    assert stopped.value.code == 2
    assert f"--eval-every is a number of {unit} (at least 1); got 0" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
