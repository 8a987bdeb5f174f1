"""Learned-policy plumbing: action features, seat observations, NumPy checkpoints, the ``ppo`` agent
and the shipped baselines."""

from __future__ import annotations

import importlib
import os
import random

import numpy as np
import pytest

import dominoes_env
import dominoes_env.agents
import sniff_env
import sniff_env.agents as sniff_agents
import twelve_env
import twelve_env.agents as twelve_agents
from sniff_twelve.batch.mlp import MlpPolicy
from sniff_twelve.tools.arena import run
from tests.bounds import usage_error


def _random_positions(game_cls, count, depth=30, **options):
    rng = random.Random(0)
    for seed in range(count):
        game = game_cls(seed=seed, **options)
        for _ in range(rng.randrange(0, depth)):
            if game.is_terminal():
                break
            game.apply(rng.choice(game.legal_actions()))
        if not game.is_terminal():
            yield game


def _threat(game, after, tiles_unseen):
    """The most the seat to act in ``after`` could credit with one placement of a tile it may
    hold: any tile the previous mover could not see, except those with a pip it is known to lack."""
    import sniff_env.kernels as K

    seat = after.current_player
    voids = set(game.known_voids(seat))
    best = 0
    for tile in tiles_unseen:
        if voids & set(tile):
            continue
        t = sniff_env.TILES.index(tile)
        for arm in range(4):
            trial = after.clone()
            trial._state[K.HAND + seat] |= 1 << t  # let that seat hold the tile, then try it
            if trial.legal_mask()[t * 4 + arm]:
                trial.apply(t * 4 + arm)
                best = max(best, trial.last_credit)
    return best


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_sniff_action_features(num_players):
    """Per legal placement: its credit (S17), the next seat's best immediate reply among the tiles
    the mover cannot see and that seat is not known to lack, and whether it ends the hand (S22)."""
    assert sniff_env.Game.spec.action_feature_names == ("credit", "threat", "ends_hand")
    seen = np.zeros(3)
    for game in _random_positions(sniff_env.Game, 60, depth=120, num_players=num_players):
        me = game.current_player
        features = game.action_features()
        assert features.shape == (sniff_env.NUM_ACTIONS, 3)
        unseen = [t for t in sniff_env.TILES if t not in game.hand(me) and t not in game.describe()["tiles"]]
        for action in range(sniff_env.NUM_ACTIONS):
            expected = [0, 0, 0]
            if game.legal_mask()[action] and action < sniff_env.DRAW:
                after = game.clone()
                after.apply(action)
                ends = after.is_terminal() or after.hands_played != game.hands_played
                threat = 0 if ends else _threat(game, after, unseen)
                expected = [after.last_credit, threat, float(ends)]
            np.testing.assert_array_equal(features[action], expected, err_msg=f"action {action}")
            seen += np.array(expected) > 0
    assert (seen > 0).all(), seen  # every feature was exercised


@pytest.mark.parametrize("deck", ["bridge", "numbers"])
def test_twelve_action_features_are_the_cards_each_play_captures(deck):
    """T8/T11: the feature of a play is the number of cards it captures (0 if it captures none)."""
    captures = 0
    for game in _random_positions(twelve_env.Game, 80, num_players=3, deck=deck):
        me, features = game.current_player, game.action_features()
        assert features.shape == (game.num_actions, 1)
        for action in range(game.num_actions):
            expected = 0
            if game.legal_mask()[action]:
                after = game.clone()
                after.apply(action)
                expected = after.captured[me] - game.captured[me]
            assert features[action, 0] == expected
            captures += expected > 0
    assert captures > 10


@pytest.mark.parametrize("package", [sniff_env, twelve_env])
def test_vector_action_features_and_seat_observations_match_game(package):
    vec = package.VectorGame(64, num_players=4, seed=5)
    for _ in range(40):
        vec.step(vec.sample_actions())
    features = vec.action_features().copy()
    views = vec.seat_observations()
    assert views.shape == (64, 4, vec.obs.shape[1])
    for i in range(64):
        game = vec.game(i)
        np.testing.assert_array_equal(features[i], game.action_features())
        for seat in range(4):
            np.testing.assert_array_equal(views[i, seat], game.observation(seat))
        np.testing.assert_array_equal(views[i, vec.player[i]], vec.obs[i])


def _tiny_policy(obs_size: int, num_actions: int, gains: list | None, game: str = "sniff", players: int = 2):
    rng = np.random.default_rng(1)
    weights = {
        "w0": rng.normal(size=(obs_size, 16)).astype(np.float32),
        "b0": rng.normal(size=16).astype(np.float32),
        "policy_w": rng.normal(size=(16, num_actions)).astype(np.float32),
        "policy_b": np.zeros(num_actions, np.float32),
        "value_w": rng.normal(size=(16, 1)).astype(np.float32),
        "value_b": np.zeros(1, np.float32),
    }
    if gains is not None:
        weights["action_feature_gains"] = np.array(gains, np.float32)
    meta = {"game": game, "num_players": players, "obs_size": obs_size, "num_actions": num_actions}
    return MlpPolicy(weights, meta)


def test_checkpoint_round_trip_and_forward(tmp_path):
    policy = _tiny_policy(135, 114, gains=[0.5, -0.2, 1.0])
    policy.save(tmp_path / "p.npz")
    loaded = MlpPolicy.load(tmp_path / "p.npz")
    assert loaded.meta == policy.meta and loaded.uses_action_features
    game = sniff_env.Game(num_players=2, seed=3)
    obs, mask, features = game.observation(), game.legal_mask(), game.action_features()
    hidden = np.maximum(obs @ policy.layers[0][0] + policy.layers[0][1], 0)
    expected = hidden @ policy.policy_head[0] + policy.policy_head[1]
    expected += 0.5 * features[:, 0] - 0.2 * features[:, 1] + 1.0 * features[:, 2]
    logits = loaded.logits(obs, mask, features)
    np.testing.assert_allclose(logits[mask], expected[mask], rtol=1e-5)
    assert np.all(np.isneginf(logits[~mask]))
    assert loaded.act(obs, mask, features) == int(np.flatnonzero(mask)[np.argmax(expected[mask])])
    np.testing.assert_allclose(loaded.value(obs), (hidden @ policy.value_head[0] + policy.value_head[1])[0], rtol=1e-5)
    with pytest.raises(ValueError, match="action features"):
        loaded.logits(obs, mask)


def test_checkpoint_with_action_features_as_input(tmp_path):
    """``meta["input_features"]``: the network reads the observation followed by the flattened
    ``[A, F]`` action features (the layout of ``vector_env(..., action_features=True)``)."""
    rng = np.random.default_rng(2)
    inputs = 135 + 114 * 3
    weights = {
        "w0": rng.normal(size=(inputs, 8)).astype(np.float32),
        "b0": rng.normal(size=8).astype(np.float32),
        "policy_w": rng.normal(size=(8, 114)).astype(np.float32),
        "policy_b": np.zeros(114, np.float32),
    }
    meta = {"game": "sniff", "num_players": 2, "obs_size": 135, "num_actions": 114, "input_features": 3}
    MlpPolicy(weights, meta).save(tmp_path / "p.npz")
    loaded = MlpPolicy.load(tmp_path / "p.npz")
    assert loaded.input_features == 3 and loaded.uses_action_features
    game = sniff_env.Game(num_players=2, seed=4)
    obs, mask, features = game.observation(), game.legal_mask(), game.action_features()
    x = np.concatenate([obs, features.reshape(-1)])
    expected = np.maximum(x @ weights["w0"] + weights["b0"], 0) @ weights["policy_w"]
    np.testing.assert_allclose(loaded.logits(obs, mask, features)[mask], expected[mask], rtol=1e-4)
    np.testing.assert_allclose(loaded.logits(obs[None], mask[None], features[None])[0][mask], expected[mask], rtol=1e-4)
    with pytest.raises(ValueError, match="action features"):
        loaded.logits(obs, mask)
    with pytest.raises(ValueError, match=f"do not map {135 + 114 * 2} inputs"):
        MlpPolicy(weights, meta | {"input_features": 2})
    best = int(np.flatnonzero(mask)[np.argmax(expected[mask])])
    assert sniff_agents.make_agent(f"ppo:{tmp_path / 'p.npz'}").act(game) == best


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
    _tiny_policy(135, 114, [1.0]).save(tmp_path / "one.npz")
    with pytest.raises(ValueError, match=r"one.npz reads 1 action features; sniff has 3 \(credit, threat, ends_hand\)"):
        sniff_agents.make_agent(f"ppo:{tmp_path / 'one.npz'}")
    _tiny_policy(61, 11, None, game="twelve").save(tmp_path / "numbers.npz")
    with pytest.raises(ValueError, match=r"numbers\.npz maps 61 inputs to 11 actions; this table has 69 and 13"):
        twelve_agents.make_agent(f"ppo:{tmp_path / 'numbers.npz'}").act(twelve_env.Game(seed=0))
    with pytest.raises(ValueError, match="no shipped twelve checkpoint for 2 players"):
        twelve_agents.make_agent("ppo").act(twelve_env.Game(seed=0))
    with pytest.raises(ValueError, match="takes no argument"):
        sniff_agents.make_agent("greedy:5")


def test_damaged_checkpoint_files_are_one_line_errors(tmp_path):
    """A checkpoint file that is missing, truncated, of other bytes, a bare array, or holds pickled
    objects: a ValueError naming the file and the problem — never numpy's advice to unpickle it."""
    shipped = sniff_agents.PpoAgent.shipped()[2].read_bytes()
    cases = {
        "missing.npz": (None, "no such file"),
        "truncated.npz": (shipped[: len(shipped) // 3], "truncated or damaged"),
        "bytes.npz": (b"not a checkpoint at all " * 20, "not a policy checkpoint"),
    }
    for name, (content, message) in cases.items():
        if content is not None:
            (tmp_path / name).write_bytes(content)
        with pytest.raises(ValueError, match=message) as error:
            sniff_agents.make_agent(f"ppo:{tmp_path / name}")
        assert name in str(error.value) and "\n" not in str(error.value) and "allow_pickle" not in str(error.value)
    np.save(tmp_path / "bare.npy", np.zeros(3))
    (tmp_path / "bare.npz").write_bytes((tmp_path / "bare.npy").read_bytes())
    np.savez(tmp_path / "pickled.npz", meta=np.array([{"game": "sniff"}], dtype=object))
    for name in ("bare.npz", "pickled.npz"):
        with pytest.raises(ValueError, match=f"{name}: not a policy checkpoint") as error:
            MlpPolicy.load(tmp_path / name)
        assert "allow_pickle" not in str(error.value)


def test_sampling_policy_agent_is_reproducible(tmp_path):
    _tiny_policy(135, 114, [0.2, -0.1, 0.0]).save(tmp_path / "p.npz")

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


#: the games that ship ``ppo`` checkpoints: package, observation and action widths, minutes trained,
#: and the deals and least score of the arena against ``random`` (a block dominoes deal is one game
#: with much luck in it: ``random`` scores about 0.4 against ``greedy``, ``heuristic`` and ``ppo``)
SHIPPING = {"sniff": (sniff_env, 135, 114, 30, 6, 0.9), "dominoes": (dominoes_env, 98, 77, 20, 200, 0.55)}


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("game", list(SHIPPING))
def test_shipped_checkpoints_are_small_and_describe_themselves(game, players):
    package, obs_size, num_actions, minutes, _, _ = SHIPPING[game]
    path = package.agents.CHECKPOINTS / f"ppo_{players}p.npz"
    assert path.stat().st_size <= 2 * 1024 * 1024
    meta = MlpPolicy.load(path).meta
    described = (meta["game"], meta["num_players"], meta["obs_size"], meta["num_actions"])
    assert described == (game, players, obs_size, num_actions)
    # trained for its minutes: the run stops at the first update that ends past the budget
    assert meta["train_seconds"] <= minutes * 60 + 10


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("game", list(SHIPPING))
def test_shipped_ppo_plays_legally_and_beats_random(game, players):
    package, *_, deals, least = SHIPPING[game]
    result = run(package.agents.arena_table(players), ["ppo", "random"], deals=deals, seed=11, progress=False)
    row = next(r for r in result["entries"] if r["entry"] == "ppo")
    assert row["score"] >= least, row


def test_a_lineup_the_checkpoints_cannot_seat_fails_before_any_game(capsys):
    with pytest.raises(ValueError, match="no shipped twelve checkpoint for 2 players"):
        run(twelve_agents.arena_table(2), ["greedy", "ppo"], deals=1, progress=False)
    from twelve_env.__main__ import main

    argv = ["arena", "--players", "2", "--agents", "greedy", "ppo", "--deals", "1", "--workers", "1"]
    assert "error: no shipped twelve checkpoint" in usage_error(capsys, main, argv)
    with pytest.raises(SystemExit) as stop:
        main(["play", "--players", "2", "--opponents", "ppo"])
    assert stop.value.code == 2


@pytest.mark.parametrize("package", [sniff_env, twelve_env])
def test_vector_agent_actions_match_the_agents(package):
    agents = importlib.import_module(f"{package.__name__}.agents")
    vec = package.VectorGame(48, num_players=2, seed=8)
    for _ in range(25):
        vec.step(vec.sample_actions())
    rows = np.arange(0, 48, 3)
    for name in ("greedy", "heuristic"):
        actions = vec.agent_actions(name, rows)
        assert actions.tolist() == [agents.make_agent(name).act(vec.game(int(i))) for i in rows]
        assert vec.agent_actions(name).shape == (48,)
    with pytest.raises(ValueError, match="agent_actions plays greedy, heuristic; got 'rollout'"):
        vec.agent_actions("rollout")
    with pytest.raises(ValueError, match="row indices below 48"):
        vec.agent_actions("greedy", [48])


def test_agents_share_one_read_only_copy_of_a_checkpoint(tmp_path):
    """``load_shared``: every agent playing one file holds the same arrays, which nobody can write;
    a file changed on disk is read again."""
    from sniff_twelve.agents.policy import load_shared

    table = sniff_env.Game(num_players=4, seed=0)
    first, second, shipped = (sniff_agents.make_agent("ppo") for _ in range(3))
    first.act(table), second.act(table), shipped.act(table)
    assert first.policy_for(4) is second.policy_for(4) is shipped.policy_for(4)
    weights = first.policy_for(4).layers[0][0]
    with pytest.raises(ValueError, match="read-only"):
        weights[0, 0] = 1.0
    copy = tmp_path / "copy.npz"
    copy.write_bytes((sniff_agents.CHECKPOINTS / "ppo_4p.npz").read_bytes())
    before = load_shared(copy)
    assert load_shared(copy) is before
    os.utime(copy, ns=(0, 1))  # the same bytes, another modification time
    assert load_shared(copy) is not before
