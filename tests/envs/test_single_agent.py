"""The single-agent gymnasium view (sniff_twelve.envs.single_agent) of both games."""

from __future__ import annotations

import numpy as np
import pytest

import sniff_env
import twelve_env
from sniff_env import single_agent_env as sniff_single
from sniff_env.agents import GreedyAgent, HeuristicAgent
from sniff_env.tiles import DRAW, PASS
from sniff_twelve.tools import conformance
from twelve_env import single_agent_env as twelve_single


@pytest.mark.parametrize(
    "package, options",
    [
        (sniff_env, {"num_players": 3, "seat": None, "opponents": ["random", "greedy"]}),
        (sniff_env, {"num_players": 4, "partner": "heuristic", "reward": "points"}),
        (twelve_env, {"num_players": 5, "deck": "numbers", "reward": "win", "seat": None}),
    ],
)
def test_gymnasium_check_env_passes_with_other_seatings(package, options):
    """gymnasium's ``check_env`` (every table's default seating: tests/conformance)."""
    conformance.check_gymnasium(package, options)


def _play(env, seed):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.any() and np.array_equal(mask, info["action_mask"])
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        steps += 1
        assert not info["illegal_action"]
        if terminated or truncated:
            return total, steps


def test_sniff_points_rewards_sum_to_the_learners_side_score():
    env = sniff_single(4, partner="greedy", opponents="greedy", seat=1, reward="points", target=100)
    for seed in range(5):
        total, _ = _play(env, seed)
        assert total == env.game.scores[1 % 2]


def test_twelve_score_rewards_sum_to_the_learners_final_score():
    env = twelve_single(3, opponents="heuristic", seat=2)
    for seed in range(10):
        total, _ = _play(env, seed)
        assert total == env.game.scores[2]


def test_sniff_win_reward_is_plus_or_minus_one_at_the_end():
    env = sniff_single(2, target=60)
    for seed in range(5):
        total, _ = _play(env, seed)
        assert total in (1.0, -1.0) and (total == 1.0) == (env.game.winner == 0)


def test_the_learner_never_sees_a_forced_draw_or_pass():
    env = sniff_single(2, opponents="random")
    for seed in range(5):
        env.reset(seed=seed)
        done = False
        while not done:
            mask = env.action_masks()
            assert not mask[DRAW] and not mask[PASS]
            _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
            done = terminated or truncated


def test_illegal_action_ends_the_episode_with_minus_one_and_changes_nothing():
    env = sniff_single(2)
    env.reset(seed=3)
    before = env.game.state_array.copy()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    np.testing.assert_array_equal(env.game.state_array, before)


def test_same_seed_same_episode_and_random_seats():
    a, b = twelve_single(4, seat=None), twelve_single(4, seat=None)
    assert _play(a, 9) == _play(b, 9)
    seats = set()
    for seed in range(20):
        _, info = a.reset(seed=seed)
        seats.add(info["seat"])
    assert seats == {0, 1, 2, 3}


def test_partner_and_opponents_sit_where_asked():
    env = sniff_single(4, seat=3, partner="heuristic", opponents="greedy")
    env.reset(seed=0)
    assert env._others[3] is None
    assert isinstance(env._others[1], HeuristicAgent)
    assert isinstance(env._others[0], GreedyAgent) and isinstance(env._others[2], GreedyAgent)
    with pytest.raises(ValueError, match="opponents"):
        sniff_single(4, opponents=["greedy", "greedy", "greedy"])
