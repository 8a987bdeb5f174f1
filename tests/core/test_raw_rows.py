"""``Game.from_state``: a raw state row is checked slot by slot before any kernel reads it
(bounds at every public entry), and the rows the library makes always pass."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sniff_env
import twelve_env
from sniff_twelve.core.options import ArgumentTypeError

GAMES = [sniff_env.Game(num_players=4, seed=1), twelve_env.Game(num_players=3, seed=1)]


@pytest.mark.parametrize("game", GAMES, ids=["sniff", "twelve"])
def test_rows_of_real_games_are_accepted(game):
    game = game.clone()
    while not game.is_terminal() and len(game.history) < 300:
        copy = type(game).from_state(game.state_array, game._params)
        assert copy.state_array.tobytes() == game.state_array.tobytes()
        game.apply(game.legal_actions()[-1])


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_out_of_range_slots_are_refused(data):
    game = data.draw(st.sampled_from(GAMES))
    bounds = type(game).row_bounds(game._params)
    what, (start, stop), low, high = data.draw(st.sampled_from(bounds))
    slot = data.draw(st.integers(start, stop - 1))
    bad = data.draw(st.one_of(st.integers(-(2**31), low - 1), st.integers(high + 1, 2**31 - 1)))
    row = game.state_array.copy()
    row[slot] = bad
    with pytest.raises(ValueError, match=re.escape(f"state row: {what} must lie in {low} … {high}")):
        type(game).from_state(row, game._params)


@pytest.mark.parametrize("game", GAMES, ids=["sniff", "twelve"])
def test_wrong_shapes_kinds_and_options_are_refused(game):
    cls, state, params = type(game), game.state_array, game._params
    with pytest.raises(ValueError, match="shape"):
        cls.from_state(state[:-1], params)
    with pytest.raises(ArgumentTypeError, match="integer array"):
        cls.from_state(state.astype(np.float32), params)
    with pytest.raises(ValueError, match="num_players"):
        cls.from_state(state, np.where(np.arange(params.size) == 0, 9, params))
    with pytest.raises(ValueError, match="shape"):
        cls.from_state(state, params[:-1])
