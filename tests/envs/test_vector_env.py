"""``sniff_env.vector_env`` / ``twelve_env.vector_env``: one learning seat per row, the other seats
compiled; checked against ``single_agent_env`` + ``make_agent`` on the same games."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import sniff_env
import twelve_env
from sniff_twelve.core.options import ArgumentTypeError
from sniff_twelve.core.seats import Table
from sniff_twelve.envs.learner_vector import LearnerVectorEnv

GAMES = {"sniff": sniff_env, "twelve": twelve_env}


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


def test_is_a_gymnasium_vector_env_with_declared_spaces():
    venv = sniff_env.vector_env(8, seed=0)
    assert isinstance(venv, gymnasium.vector.VectorEnv)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, infos = venv.reset(seed=1)
    assert obs.shape == (8, 135) and obs.dtype == np.float32
    assert np.array_equal(infos["action_mask"], venv.action_masks()) and infos["_action_mask"].all()
    assert venv.single_observation_space.shape == (135,) and venv.single_action_space.n == 114
    assert venv.observation_space.contains(obs)
    masks = venv.action_masks()
    assert masks.shape == (8, 114) and masks.dtype == bool
    actions = random_actions(masks, np.random.default_rng(0))
    assert venv.action_space.contains(actions)
    obs, rewards, terminated, truncated, infos = venv.step(actions)
    assert obs.shape == (8, 135) and rewards.shape == terminated.shape == truncated.shape == (8,)
    assert terminated.dtype == truncated.dtype == bool
    venv.close()


def test_action_features_are_appended():
    venv = sniff_env.vector_env(4, action_features=True, seed=0)
    obs, _ = venv.reset()
    assert obs.shape == (4, 135 + 114 * 3) == (4, venv.single_observation_space.shape[0])
    for i in range(4):
        game = venv.game(i)
        assert np.array_equal(obs[i, :135], game.observation(0))
        assert np.array_equal(obs[i, 135:].reshape(114, 3), game.action_features())
    venv = twelve_env.vector_env(4, num_players=3, deck="numbers", action_features=True, seed=0)
    obs, _ = venv.reset()
    assert obs.shape == (4, 61 + 11)
    assert np.array_equal(obs[0, 61:].reshape(11, 1), venv.game(0).action_features())


@pytest.mark.parametrize(
    "game, kwargs",
    [
        ("sniff", {}),
        ("sniff", {"opponents": "random", "num_players": 3, "seat": 1}),
        ("sniff", {"num_players": 4, "opponents": "heuristic", "partner": "ppo", "seat": 3}),
        ("twelve", {"num_players": 3, "opponents": ["random", "heuristic"]}),
    ],
)
def test_reproducible_learner_always_to_act_masks_never_empty(game, kwargs):
    def run(seed):
        venv = GAMES[game].vector_env(16, seed=seed, **kwargs)
        out = [venv.reset()[0]]
        rng = np.random.default_rng(0)
        for _ in range(60):
            masks = venv.action_masks()
            assert masks.any(axis=1).all()
            for i in range(venv.num_envs):
                g = venv.game(i)
                assert g.current_player == venv.seat and not g.is_terminal()
                assert np.array_equal(masks[i], g.legal_mask())
            obs, rewards, terminated, truncated, infos = venv.step(random_actions(masks, rng))
            out += [obs, rewards, terminated]
            if (terminated | truncated).any():
                assert set(np.flatnonzero(infos["_final_obs"])) == set(np.flatnonzero(terminated | truncated))
        return out

    first, again, other = run(5), run(5), run(6)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


@pytest.mark.parametrize(
    "game, kwargs",
    [
        ("sniff", {"opponents": "greedy"}),
        ("sniff", {"opponents": "heuristic", "reward": "points", "target": 60}),
        ("sniff", {"num_players": 4, "opponents": "ppo", "partner": "heuristic", "seat": 1, "target": 50}),
        ("sniff", {"num_players": 2, "opponents": "ppo", "episode": "hand"}),
        ("sniff", {"num_players": 3, "opponents": ["greedy", "heuristic"], "max_steps": 40, "reward": "points"}),
        ("twelve", {"num_players": 3, "opponents": ["greedy", "heuristic"], "seat": 2}),
        ("twelve", {"num_players": 2, "opponents": "heuristic", "reward": "win"}),
        ("twelve", {"num_players": 4, "opponents": "greedy", "seat": 1, "capture_extra_turn": True}),
    ],
)
def test_same_rewards_as_single_agent_env_with_the_same_agents(game, kwargs):
    """Each row, copied into ``single_agent_env`` (whose agents come from ``make_agent``), gives the
    same observations, masks, rewards and ends for the same learner actions."""
    module = GAMES[game]
    rows, steps = 6, 150
    venv = module.vector_env(rows, seed=3, **kwargs)
    obs, _ = venv.reset()
    envs = [module.single_agent_env(**kwargs) for _ in range(rows)]
    pending = np.zeros(rows)

    def sync(i):
        envs[i].reset(seed=0)
        envs[i].game = venv.game(i)
        envs[i]._pending = 0.0
        pending[i] = venv.pending_rewards[i]

    for i in range(rows):
        sync(i)
    rng = np.random.default_rng(1)
    episodes = 0
    for _ in range(steps):
        masks = venv.action_masks()
        actions = random_actions(masks, rng)
        obs, rewards, terminated, truncated, infos = venv.step(actions)
        for i, env in enumerate(envs):
            o, r, te, tr, _ = env.step(int(actions[i]))
            assert r + pending[i] == pytest.approx(rewards[i], abs=1e-9), (i, r, pending[i], rewards[i])
            pending[i] = 0.0
            assert (te, tr) == (terminated[i], truncated[i])
            if te or tr:
                assert np.array_equal(infos["final_obs"][i], o)
                episodes += 1
                sync(i)
            else:
                assert np.array_equal(obs[i], o)
                assert np.array_equal(venv.action_masks()[i], env.action_masks())
    assert episodes > 0


@pytest.mark.parametrize(
    "game, kwargs",
    [
        ("sniff", {"num_players": 2, "opponents": "greedy", "max_hands": 1}),
        ("sniff", {"num_players": 4, "opponents": "heuristic", "partner": "greedy", "seat": 1, "max_hands": 1}),
        ("sniff", {"num_players": 3, "opponents": ["greedy", "heuristic"], "seat": 2, "max_hands": 1}),
        ("twelve", {"num_players": 2, "opponents": "heuristic"}),
        ("twelve", {"num_players": 3, "opponents": "greedy", "seat": 1}),
    ],
)
def test_margin_pays_the_learner_its_margin_of_the_game_points(game, kwargs):
    """With ``margin=True`` a learner's rewards over a game add up to its margin of the points the
    game ends with (``Table.margins``: its side's points minus the mean of the seats outside its
    side), read from the finished game itself, replayed in ``single_agent_env`` (whose agents play
    as the compiled ones do: no random seat, which draws from another stream there)."""
    module = GAMES[game]
    spec = module.Game.spec
    reward = next(name for name in spec.reward_modes if name != "win")
    rows, seat, n = 4, kwargs.get("seat", 0), kwargs["num_players"]
    venv = module.vector_env(rows, seed=11, margin=True, reward=reward, **kwargs)
    venv.reset()
    envs = [module.single_agent_env(reward=reward, **kwargs) for _ in range(rows)]
    totals = np.zeros(rows)  # what a game pays before the learner's first decision comes with its first step
    table = Table.of(spec, n)
    outcome = spec.part("outcome")

    def sync(i):
        envs[i].reset(seed=0)
        envs[i].game = venv.game(i)
        totals[i] = 0.0

    for i in range(rows):
        sync(i)
    rng, finished = np.random.default_rng(2), 0
    while finished < 12:
        actions = random_actions(venv.action_masks(), rng)
        _, rewards, terminated, truncated, _ = venv.step(actions)
        totals += rewards
        for i, env in enumerate(envs):
            env.step(int(actions[i]))
            if terminated[i] or truncated[i]:
                points = outcome(env.game)["points"]
                assert totals[i] == pytest.approx(table.margins(points)[seat], abs=1e-9), (i, points)
                finished += 1
                sync(i)


def test_random_opponents_differ_from_greedy():
    a = sniff_env.vector_env(32, opponents="random", seed=0)
    b = sniff_env.vector_env(32, opponents="greedy", seed=0)
    assert not np.array_equal(a.reset()[0], b.reset()[0]) or not np.array_equal(
        a.step(a.action_masks().argmax(1))[0], b.step(b.action_masks().argmax(1))[0]
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda: sniff_env.vector_env(0),
        lambda: sniff_env.vector_env(-1),
        lambda: sniff_env.vector_env(2.0),
        lambda: sniff_env.vector_env(True),
        lambda: sniff_env.vector_env(4, seat=2),
        lambda: sniff_env.vector_env(4, seat=-1),
        lambda: sniff_env.vector_env(4, num_players=5),
        lambda: sniff_env.vector_env(4, opponents="rollout"),
        lambda: sniff_env.vector_env(4, opponents="rollout:10"),
        lambda: sniff_env.vector_env(4, opponents="alphazero"),
        lambda: sniff_env.vector_env(4, opponents="ppo:/no/such/file.npz"),
        lambda: sniff_env.vector_env(4, opponents=3),
        lambda: sniff_env.vector_env(4, num_players=3, opponents=["greedy"] * 3),
        lambda: sniff_env.vector_env(4, num_players=3, opponents="ppo"),  # nothing shipped for 3
        lambda: sniff_env.vector_env(4, reward="money"),
        lambda: sniff_env.vector_env(4, action_features=1),
        lambda: sniff_env.vector_env(4, seed=-1),
        lambda: sniff_env.vector_env(4, target=0),
        lambda: twelve_env.vector_env(4, opponents="ppo"),  # nothing shipped for "12"
        lambda: twelve_env.vector_env(4, num_players=8),
        lambda: twelve_env.vector_env(4, seat=2),
        lambda: twelve_env.vector_env(4, deck="tarot"),
    ],
)
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_unsupported_spec_names_what_is_supported():
    with pytest.raises(ValueError, match="greedy, heuristic, random, ppo"):
        sniff_env.vector_env(4, opponents="rollout")


def test_bad_actions_raise_and_change_nothing():
    venv = sniff_env.vector_env(4, seed=0)
    venv.reset()
    masks = venv.action_masks()
    illegal = np.array([np.flatnonzero(~m)[0] for m in masks])
    for actions in (illegal, np.zeros(3, np.int64), masks.argmax(1).astype(float), np.full(4, 114), np.full(4, -1)):
        with pytest.raises(ValueError):
            venv.step(actions)
    assert np.array_equal(venv.action_masks(), masks)
    with pytest.raises(ArgumentTypeError):
        venv.step(masks.argmax(1).astype(np.float32))
    with pytest.raises(ValueError):
        venv.reset(options={"deal": {}})


def test_sb3_adapter_interface():
    from sniff_twelve.envs.sb3 import SB3VecEnv

    venv = SB3VecEnv(sniff_env.vector_env(4, target=20, seed=0))
    venv.seed(3)
    obs = venv.reset()
    assert obs.shape == (4, 135)
    masks = np.stack(venv.env_method("action_masks"))
    assert masks.shape == (4, 114) and np.array_equal(masks, venv.action_masks())
    assert venv.env_is_wrapped(gymnasium.Wrapper) == [False] * 4
    assert venv.get_attr("seat") == [0] * 4
    done_seen = False
    for _ in range(200):
        _, _, dones, infos = venv.step(venv.action_masks().argmax(1))
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == (135,)
            done_seen = True
    assert done_seen
    venv.close()


@pytest.mark.train
def test_maskable_ppo_learns_on_the_adapter():
    from sb3_contrib import MaskablePPO

    from sniff_twelve.envs.sb3 import SB3VecEnv

    venv = SB3VecEnv(sniff_env.vector_env(16, seed=0))
    model = MaskablePPO("MlpPolicy", venv, n_steps=128, batch_size=256, n_epochs=1, seed=0, device="cpu")
    model.learn(2048)
    assert model.num_timesteps >= 2048


def test_kernel_vector_env_is_what_vector_env_builds():
    assert isinstance(twelve_env.vector_env(2), LearnerVectorEnv)


def test_gymnasium_vector_wrappers_accept_it():
    """gymnasium 1.2 has no vector-env checker; its vector wrappers read the autoreset mode."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    venv = RecordEpisodeStatistics(twelve_env.vector_env(8, seed=0))
    venv.reset(seed=0)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(60):
        *_, infos = venv.step(random_actions(venv.unwrapped.action_masks(), rng))
        if "episode" in infos:
            finished += int(infos["_episode"].sum())
    assert finished > 0 and len(venv.return_queue) == finished


@pytest.mark.parametrize("input_features", [False, True])
def test_checkpoint_opponent_from_a_path_matches_the_policy_agent(tmp_path, input_features):
    """``ppo:PATH`` (a checkpoint without action-feature gains; with and without the action features
    as input, as ``sb3_maskable_ppo.py`` exports) picks what ``make_agent`` picks."""
    from sniff_twelve.batch.mlp import MlpPolicy
    from twelve_env.agents import make_agent

    rng = np.random.default_rng(0)
    features = len(twelve_env.Game.spec.action_feature_names) if input_features else 0
    inputs = 69 + 13 * features
    weights = {"w0": rng.normal(size=(inputs, 32)), "b0": rng.normal(size=32), "w1": rng.normal(size=(32, 16))}
    weights |= {"b1": np.zeros(16), "policy_w": rng.normal(size=(16, 13)), "policy_b": np.zeros(13)}
    path = tmp_path / "policy.npz"
    meta = {"game": "twelve", "num_players": 2, "obs_size": 69, "num_actions": 13}
    MlpPolicy(weights, meta | ({"input_features": features} if features else {})).save(path)
    venv = twelve_env.vector_env(8, opponents=f"ppo:{path}", seed=0)
    venv.reset()
    agent = make_agent(f"ppo:{path}")
    checked = 0
    for _ in range(40):
        before = [venv.game(i) for i in range(8)]
        actions = random_actions(venv.action_masks(), rng)
        venv.step(actions)
        for i, game in enumerate(before):
            game.apply(int(actions[i]))
            if not game.is_terminal() and game.current_player != 0:
                game.apply(agent.act(game))
                if not game.is_terminal() and game.current_player == 0:
                    assert np.array_equal(game._state, venv.game(i)._state)
                    checked += 1
    assert checked > 100


def test_policy_objects_and_set_opponents_seat_a_frozen_snapshot(tmp_path):
    """An ``MlpPolicy`` object plays exactly as the same checkpoint from ``ppo:PATH``, and
    ``set_opponents`` swaps the other seats in place (a refreshed snapshot of the learner): the
    env then plays as one built with those opponents. A policy that cannot sit at the table is
    refused and the old opponents stay."""
    from sniff_twelve.batch.mlp import MlpPolicy

    policy = MlpPolicy.load(sniff_env.agents.CHECKPOINTS / "ppo_2p.npz")
    path = tmp_path / "snapshot.npz"
    policy.save(path)
    by_object = sniff_env.vector_env(16, opponents=policy, seed=5)
    by_path = sniff_env.vector_env(16, opponents=f"ppo:{path}", seed=5)
    swapped = sniff_env.vector_env(16, opponents="random", seed=5)
    swapped.set_opponents(policy)
    envs = (by_object, by_path, swapped)
    results = [env.reset() for env in envs]
    rng = np.random.default_rng(0)
    for _ in range(60):
        for obs, _ in results[1:]:
            np.testing.assert_array_equal(obs, results[0][0])
        actions = random_actions(by_object.action_masks(), rng)
        results = [env.step(actions)[:2] for env in envs]
        for _, rewards in results[1:]:
            np.testing.assert_array_equal(rewards, results[0][1])
    with pytest.raises(ValueError, match="the policy for seat 1 is for 2 players, the table has 4"):
        sniff_env.vector_env(4, num_players=4, opponents=policy)
    with pytest.raises(ValueError, match="no partner"):
        swapped.set_opponents("greedy", partner="heuristic")
    four = sniff_env.vector_env(4, num_players=4, opponents="greedy", partner="greedy", seed=1)
    with pytest.raises(ValueError, match="the policy for seat 2 is for 2 players"):
        four.set_opponents("heuristic", partner=policy)
    assert four._seating.codes.tolist() == [-1, 0, 0, 0]  # unchanged
    four.set_opponents("heuristic", partner="random")
    assert four._seating.codes.tolist() == [-1, 1, 2, 1]


@pytest.mark.parametrize("name", GAMES)
def test_thread_count_changes_no_result(name):
    """The learner's rows play out the same on one thread, two, or numba's setting."""
    runs = []
    for threads in (1, 2, None):
        venv = GAMES[name].vector_env(32, opponents="heuristic", seed=3, threads=threads)
        obs, _ = venv.reset()
        rng = np.random.default_rng(0)
        trace = [obs.copy()]
        for _ in range(40):
            obs, rewards, terminated, truncated, _ = venv.step(random_actions(venv.action_masks(), rng))
            trace += [obs.copy(), rewards.copy(), terminated.copy(), truncated.copy()]
        runs.append(trace)
    for other in runs[1:]:
        assert all(np.array_equal(a, b) for a, b in zip(runs[0], other, strict=True))


def test_bad_thread_count_is_rejected_naming_what_is_allowed():
    with pytest.raises(ValueError, match=r"threads must be None .* or an int from 1 to"):
        sniff_env.vector_env(4, seed=0, threads=0)
