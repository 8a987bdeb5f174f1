"""Learned-policy plumbing: action values, seat observations, NumPy checkpoints, the ``ppo`` agent
and the shipped baselines."""

from __future__ import annotations

import random

import numpy as np
import pytest

import sniff_env
import sniff_env.agents as sniff_agents
import twelve_env
import twelve_env.agents as twelve_agents
from envkit.arena import run
from envkit.policy import MlpPolicy

SHIPPED = sniff_agents.CHECKPOINTS


def _random_positions(game_cls, count, **options):
    rng = random.Random(0)
    for seed in range(count):
        game = game_cls(seed=seed, **options)
        for _ in range(rng.randrange(0, 30)):
            if game.is_terminal():
                break
            game.apply(rng.choice(game.legal_actions()))
        if not game.is_terminal():
            yield game


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_sniff_action_values_are_the_credit_of_each_placement(num_players):
    """S17: the value of a placement is the credit the seat scores by making it."""
    scoring = 0
    for game in _random_positions(sniff_env.Game, 60, num_players=num_players):
        values = game.action_values()
        assert values.shape == (sniff_env.NUM_ACTIONS,)
        for action in range(sniff_env.NUM_ACTIONS):
            expected = 0
            if game.legal_mask()[action] and action < sniff_env.DRAW:
                after = game.clone()
                after.apply(action)
                expected = after.last_credit
            assert values[action] == expected, (action, game.describe())
            scoring += expected > 0
    assert scoring > 10  # the positions include scoring placements


@pytest.mark.parametrize("deck", ["bridge", "numbers"])
def test_twelve_action_values_are_the_cards_each_play_captures(deck):
    """T8/T11: the value of a play is the number of cards it captures (0 if it captures none)."""
    captures = 0
    for game in _random_positions(twelve_env.Game, 80, num_players=3, deck=deck):
        me, values = game.current_player, game.action_values()
        for action in range(len(values)):
            expected = 0
            if game.legal_mask()[action]:
                after = game.clone()
                after.apply(action)
                expected = after.captured[me] - game.captured[me]
            assert values[action] == expected
            captures += expected > 0
    assert captures > 10


@pytest.mark.parametrize("package", [sniff_env, twelve_env])
def test_vector_action_values_and_seat_observations_match_game(package):
    vec = package.VectorGame(64, num_players=4, seed=5)
    for _ in range(40):
        vec.step(vec.sample_actions())
    values = vec.action_values().copy()
    views = vec.seat_observations()
    assert views.shape == (64, 4, vec.obs.shape[1])
    for i in range(64):
        game = vec.game(i)
        np.testing.assert_array_equal(values[i], game.action_values())
        for seat in range(4):
            np.testing.assert_array_equal(views[i, seat], game.observation(seat))
        np.testing.assert_array_equal(views[i, vec.player[i]], vec.obs[i])


def _tiny_policy(obs_size: int, num_actions: int, gain: float | None, game: str = "sniff", players: int = 2):
    rng = np.random.default_rng(1)
    weights = {
        "w0": rng.normal(size=(obs_size, 16)).astype(np.float32),
        "b0": rng.normal(size=16).astype(np.float32),
        "policy_w": rng.normal(size=(16, num_actions)).astype(np.float32),
        "policy_b": np.zeros(num_actions, np.float32),
        "value_w": rng.normal(size=(16, 1)).astype(np.float32),
        "value_b": np.zeros(1, np.float32),
    }
    if gain is not None:
        weights["action_value_gain"] = np.float32(gain)
    meta = {"game": game, "num_players": players, "obs_size": obs_size, "num_actions": num_actions}
    return MlpPolicy(weights, meta)


def test_checkpoint_round_trip_and_forward(tmp_path):
    policy = _tiny_policy(135, 114, gain=0.5)
    policy.save(tmp_path / "p.npz")
    loaded = MlpPolicy.load(tmp_path / "p.npz")
    assert loaded.meta == policy.meta and loaded.uses_action_values
    game = sniff_env.Game(num_players=2, seed=3)
    obs, mask, values = game.observation(), game.legal_mask(), game.action_values()
    hidden = np.maximum(obs @ policy.layers[0][0] + policy.layers[0][1], 0)
    expected = hidden @ policy.policy_head[0] + policy.policy_head[1] + 0.5 * values
    logits = loaded.logits(obs, mask, values)
    np.testing.assert_allclose(logits[mask], expected[mask], rtol=1e-5)
    assert np.all(np.isneginf(logits[~mask]))
    assert loaded.act(obs, mask, values) == int(np.flatnonzero(mask)[np.argmax(expected[mask])])
    np.testing.assert_allclose(loaded.value(obs), (hidden @ policy.value_head[0] + policy.value_head[1])[0], rtol=1e-5)
    with pytest.raises(ValueError, match="action values"):
        loaded.logits(obs, mask)


def test_bad_checkpoints_are_clear_errors(tmp_path):
    np.savez(tmp_path / "plain.npz", w0=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="not a policy checkpoint"):
        MlpPolicy.load(tmp_path / "plain.npz")
    with pytest.raises(ValueError, match="meta lacks obs_size"):
        MlpPolicy({}, {"game": "sniff", "num_players": 2, "num_actions": 3})
    with pytest.raises(ValueError, match="do not map 135 inputs"):
        _tiny_policy(134, 114, None).__class__(
            {"w0": np.zeros((134, 4)), "b0": np.zeros(4), "policy_w": np.zeros((4, 114)), "policy_b": np.zeros(114)},
            {"game": "sniff", "num_players": 2, "obs_size": 135, "num_actions": 114},
        )
    _tiny_policy(61, 13, None, game="twelve").save(tmp_path / "twelve.npz")
    with pytest.raises(ValueError, match="for 'twelve', not 'sniff'"):
        sniff_agents.make_agent(f"ppo:{tmp_path / 'twelve.npz'}")
    _tiny_policy(135, 114, None, players=4).save(tmp_path / "four.npz")
    agent = sniff_agents.make_agent(f"ppo:{tmp_path / 'four.npz'}")
    with pytest.raises(ValueError, match="for 4 players, the table has 2"):
        agent.act(sniff_env.Game(num_players=2, seed=0))
    with pytest.raises(ValueError, match="no shipped twelve checkpoint for 2 players"):
        twelve_agents.make_agent("ppo").act(twelve_env.Game(seed=0))
    with pytest.raises(ValueError, match="takes no argument"):
        sniff_agents.make_agent("greedy:5")


def test_sampling_policy_agent_is_reproducible(tmp_path):
    _tiny_policy(135, 114, 0.2).save(tmp_path / "p.npz")

    def choices(seed):
        agent = sniff_agents.PpoAgent(tmp_path / "p.npz", sample=True)
        agent.reset(seed)
        game = sniff_env.Game(num_players=2, seed=1)
        out = []
        for _ in range(30):
            action = agent.act(game)
            assert game.legal_mask()[action]
            out.append(action)
            game.apply(action)
        return out

    assert choices(4) == choices(4)


@pytest.mark.parametrize("players", [2, 4])
def test_shipped_checkpoints_are_small_and_describe_themselves(players):
    path = SHIPPED / f"ppo_{players}p.npz"
    assert path.stat().st_size <= 2 * 1024 * 1024
    meta = MlpPolicy.load(path).meta
    assert (meta["game"], meta["num_players"], meta["obs_size"], meta["num_actions"]) == ("sniff", players, 135, 114)
    # trained for 30 minutes: the run stops at the first update that ends past the budget
    assert meta["train_seconds"] <= 30 * 60 + 10


@pytest.mark.parametrize("players", [2, 4])
def test_shipped_ppo_plays_legally_and_beats_random(players):
    result = run(sniff_agents.arena_table(players), ["ppo", "random"], deals=6, seed=11, progress=False)
    row = next(r for r in result["entries"] if r["entry"] == "ppo")
    assert row["score"] >= 0.9, row


def test_ppo_does_not_peek_at_hidden_tiles():
    """The policy reads the observation and the action values: both are the acting seat's view."""
    from test_agents_arena import _swap_hidden_sniff

    checked = 0
    for seed in range(20):
        game = sniff_env.Game(num_players=4, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 6)):
            game.apply(rng.choice(game.legal_actions()))
        if game.boneyard_size == 0:
            continue
        twin = _swap_hidden_sniff(game)
        np.testing.assert_array_equal(twin.action_values(), game.action_values())
        assert sniff_agents.make_agent("ppo").act(game) == sniff_agents.make_agent("ppo").act(twin)
        checked += 1
    assert checked >= 10
