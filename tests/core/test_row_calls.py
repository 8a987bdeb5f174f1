"""The step calls entered without numba's typing (``sniff_twelve.core.row_calls``) do what the
game's own kernels do, on every game: a legal move as ``apply_action``, an illegal one refused with
the row untouched, and an observation as ``write_observation`` with the mask only for the seat to act."""

from __future__ import annotations

import random

import numpy as np
import pytest

import dominoes_env
import sniff_env
import twelve_env
from sniff_twelve.core.row_calls import ILLEGAL, row_calls
from tests.blockdom import game as blockdom

GAMES = [sniff_env.Game, twelve_env.Game, dominoes_env.Game, blockdom.Game]


@pytest.mark.parametrize("game_cls", GAMES, ids=lambda cls: cls.spec.name)
def test_calls_match_the_kernels_move_by_move(game_cls):
    spec, rng = game_cls.spec, random.Random(3)
    calls = row_calls(spec)
    for seed in range(5):
        game = game_cls(seed=seed)
        s, params = game._state, game._params
        while not game.is_terminal():
            legal = game.legal_actions()
            for seat in range(game.num_players):
                obs = np.empty(game.obs_size, np.float32)
                mask = np.ones(game.num_actions, np.bool_)
                calls.observe(s, params, seat, obs, mask)
                np.testing.assert_array_equal(obs, game.observation(seat))
                assert np.flatnonzero(mask).tolist() == (legal if seat == game.current_player else [])
            illegal = [a for a in range(game.num_actions) if a not in legal]
            if illegal:
                before = s.copy()
                assert calls.apply(s, params, rng.choice(illegal), np.zeros(spec.MAX_ACTIONS, np.bool_)) == ILLEGAL
                np.testing.assert_array_equal(s, before)
            action = rng.choice(legal)
            expected = s.copy()
            events = spec.apply_action(expected, params, action)
            assert calls.apply(s, params, action, np.zeros(spec.MAX_ACTIONS, np.bool_)) == events >= 0
            np.testing.assert_array_equal(s, expected)
