"""The kernels entered without numba's typing (``sniff_twelve.core.row_calls``) compute what the
typed calls of the same kernels do, on every game, position by position of random games."""

from __future__ import annotations

import random

import numpy as np
import pytest

import dominoes_env
import sniff_env
import twelve_env
from sniff_twelve.core.row_calls import row_calls
from tests.blockdom import game as blockdom

GAMES = [sniff_env.Game, twelve_env.Game, dominoes_env.Game, blockdom.Game]


@pytest.mark.parametrize("game_cls", GAMES, ids=lambda cls: cls.spec.name)
def test_entry_points_compute_what_the_kernels_do(game_cls):
    spec, rng = game_cls.spec, random.Random(3)
    calls = row_calls(spec)
    for seed in range(3):
        game = game_cls(seed=seed)
        s, params = game._state, game._params
        while not game.is_terminal():
            mask, typed_mask = np.ones(spec.MAX_ACTIONS, np.bool_), np.zeros(spec.MAX_ACTIONS, np.bool_)
            calls.legal_mask_into(s, params, mask)
            spec.legal_mask_into(s, params, typed_mask)
            np.testing.assert_array_equal(mask, typed_mask)
            for seat in range(game.num_players):
                obs, typed_obs = np.full(game.obs_size, 9, np.float32), np.zeros(game.obs_size, np.float32)
                calls.write_observation(s, params, seat, obs)
                spec.write_observation(s, params, seat, typed_obs)
                np.testing.assert_array_equal(obs, typed_obs)
            before = np.zeros(spec.SNAPSHOT_SIZE, np.int32)
            calls.snapshot(s, before)
            action = rng.choice(np.flatnonzero(mask).tolist())
            typed = s.copy()
            assert calls.apply_action(s, params, action) == spec.apply_action(typed, params, action)
            np.testing.assert_array_equal(s, typed)
            for mode in spec.reward_modes.values():
                rewards, typed_rewards = np.full(game.num_players, 9.0), np.zeros(game.num_players)
                status = calls.write_rewards(s, params, before, mode, rewards)
                assert status == spec.write_rewards(s, params, before, mode, typed_rewards)
                np.testing.assert_array_equal(rewards, typed_rewards)
