"""What other frameworks' own code needs from our envs' infos and vector API: TorchRL (its info
reader and its PettingZoo wrapper build their specs at ``reset``, from numpy values), gymnasium's
``SyncVectorEnv`` (the infos, ``final_info`` and ``call`` / ``get_attr`` / ``set_attr`` that
``vector_env`` must match), and a clear error before ``reset``."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import sniff_env
import twelve_env

GAMES = [(sniff_env, {"num_players": 2, "target": 30}), (twelve_env, {"num_players": 2})]
IDS = ["sniff", "twelve"]
#: the info keys of each game's AEC env, at reset and after every step, for every agent
AEC_KEYS = {"sniff_env": {"credit", "scored"}, "twelve_env": {"captured"}}


@pytest.mark.parametrize(("package", "options"), GAMES, ids=IDS)
def test_aec_infos_have_the_same_keys_at_reset_and_after_every_step(package, options):
    env = package.env(**options)
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        for _agent in env.agent_iter(max_iter=2000):
            assert {agent: set(info) for agent, info in env.infos.items()} == dict.fromkeys(
                env.agents, AEC_KEYS[package.__name__]
            )
            for info in env.infos.values():
                assert all(isinstance(value, np.generic | np.ndarray) for value in info.values()), info
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_aec_infos_say_what_the_actor_scored_and_nothing_for_the_others():
    """Sniff: the S17 credit of a placement lands in the actor's info only."""
    env = sniff_env.env(num_players=2, target=60)
    env.reset(seed=2)
    credited = 0
    for agent in env.agent_iter(max_iter=400):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        game = env.unwrapped.game
        action = int(np.flatnonzero(obs["action_mask"])[0])  # placements first, DRAW (112) and PASS last
        env.step(action)
        if env.agents:
            assert env.infos[agent]["credit"] == (game.last_credit if action < 112 else 0)
            credited += int(env.infos[agent]["credit"] > 0)
            others = [info for name, info in env.infos.items() if name != agent]
            assert all(info["credit"] == 0 and (info["scored"] == -1).all() for info in others)
    assert credited > 0


@pytest.mark.parametrize(("package", "options"), GAMES, ids=IDS)
def test_torchrl_reads_the_single_seat_env_infos(package, options):
    """TorchRL's ``GymWrapper.auto_register_info_dict()`` (it fails on a plain Python ``int``)."""
    pytest.importorskip("torchrl", reason="needs torchrl (the test extra)")
    from torchrl.envs import GymWrapper
    from torchrl.envs.utils import check_env_specs

    env = GymWrapper(package.single_agent_env(**options))
    env.auto_register_info_dict()
    check_env_specs(env, seed=0)
    rollout = env.rollout(20)
    assert {"action_mask", "seat", "illegal_action"} <= set(rollout["next"].keys())
    assert (rollout["next", "seat"] == 0).all()


@pytest.mark.parametrize(("package", "options"), GAMES, ids=IDS)
def test_torchrl_pettingzoo_wrapper_keeps_every_info_key(package, options):
    """TorchRL's ``PettingZooWrapper`` builds its info spec at ``reset``: every key is there."""
    pytest.importorskip("torchrl", reason="needs torchrl (the test extra)")
    from torchrl.envs import PettingZooWrapper
    from torchrl.envs.utils import check_env_specs

    env = PettingZooWrapper(package.env(**options), use_mask=True, categorical_actions=True, seed=0)
    assert len(env.group_map) == 2  # one group per agent (TorchRL's default for AEC envs)
    for group in env.group_map:
        assert set(env.observation_spec[group]["info"].keys()) == AEC_KEYS[package.__name__]
    check_env_specs(env, seed=0)


def _structure(infos: dict) -> tuple:
    """Each key's dtype kind and shape, sorted by key (nested for ``final_info``); ``final_obs`` is
    an object array in both."""
    out = []
    for key, value in sorted(infos.items()):
        if isinstance(value, dict):
            out.append((key, _structure(value)))
        else:
            kind = "b" if value.dtype == object and key in ("illegal_action", "_illegal_action") else value.dtype.kind
            out.append((key, kind, value.shape))
    return tuple(out)


@pytest.mark.parametrize(("package", "options"), GAMES, ids=IDS)
def test_vector_env_infos_match_a_same_step_sync_vector_env(package, options):
    """The same keys, kinds and shapes as ``SyncVectorEnv`` over ``single_agent_env`` in
    same-step autoreset (whose ``illegal_action`` is an object array: gymnasium stacks a numpy
    bool that way), at reset and at steps with and without finished games; ``final_info``
    filled for the finished rows."""
    n = 6
    sync = SyncVectorEnv([lambda: package.single_agent_env(**options)] * n, autoreset_mode=AutoresetMode.SAME_STEP)
    ours = package.vector_env(n, **options)
    rng = np.random.default_rng(0)
    _, sync_infos = sync.reset(seed=0)
    _, our_infos = ours.reset(seed=0)
    assert _structure(our_infos) == _structure(sync_infos)
    assert np.array_equal(our_infos["action_mask"], ours.action_masks())
    seen = {"sync": set(), "ours": set()}
    for _ in range(300):
        for name, env, masks in (
            ("sync", sync, np.stack(sync.call("action_masks"))),
            ("ours", ours, ours.action_masks()),
        ):
            actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
            _, _, terminated, truncated, infos = env.step(actions)
            done = terminated | truncated
            structure = _structure(infos)
            seen[name].add(structure)
            if name == "ours":
                assert np.array_equal(infos["action_mask"], ours.action_masks())
            if done.any():
                final = infos["final_info"]
                assert np.array_equal(infos["_final_info"], done) and np.array_equal(final["_action_mask"], done)
                assert not final["action_mask"].any() and (final["seat"][done] == 0).all()
        if len(seen["sync"]) == len(seen["ours"]) == 2:
            break
    assert seen["sync"] == seen["ours"] and len(seen["ours"]) == 2  # a step with and one without a finished game


def test_vector_env_call_get_attr_and_set_attr_answer_per_row_like_sync_vector_env():
    n = 4
    sync = SyncVectorEnv([lambda: sniff_env.single_agent_env(num_players=2)] * n)
    ours = sniff_env.vector_env(n, num_players=2)
    sync.reset(seed=1)
    ours.reset(seed=1)
    assert ours.get_attr("seat") == sync.get_attr("seat") == (0,) * n
    rows = ours.call("action_masks")
    assert len(rows) == n and all(
        np.array_equal(row, mask) for row, mask in zip(rows, ours.action_masks(), strict=True)
    )
    games = ours.call("game")
    assert [g.legal_mask().tolist() for g in games] == [m.tolist() for m in ours.action_masks()]
    ours.set_attr("note", "curriculum 3")
    assert ours.get_attr("note") == ("curriculum 3",) * n
    ours.set_attr("note", ["a"] * n)
    assert ours.get_attr("note") == ("a",) * n
    with pytest.raises(ValueError, match="share 'note'"):
        ours.set_attr("note", ["a", "b", "a", "a"])
    with pytest.raises(ValueError, match="one value or 4"):
        ours.set_attr("note", ["a"])
    with pytest.raises(ValueError, match="'seat' is fixed"):
        ours.set_attr("seat", 1)
    with pytest.raises(AttributeError, match="no public attribute 'nothing'"):
        ours.call("nothing")
    assert ours.get_attr("seat") == (0,) * n


@pytest.mark.parametrize(("package", "options"), GAMES, ids=IDS)
def test_action_masks_before_reset_is_a_clear_error(package, options):
    env = package.single_agent_env(**options)
    with pytest.raises(ValueError, match=r"call reset\(\) before action_masks\(\)"):
        env.action_masks()
    _, info = env.reset(seed=0)
    assert np.array_equal(env.action_masks(), info["action_mask"])
