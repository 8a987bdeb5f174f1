"""Determinized rollouts from a game's spec: the search of every game's ``rollout`` agent
(``sniff_twelve.agents.builtin.RolloutAgent``), on worlds its ``resample`` draws and rollouts its
``rollout`` plays (``sniff_twelve.core.rollouts``)."""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_twelve.core.rollouts import paired_rollouts


@nb.njit(cache=True, nogil=True)
def resampled_rollouts(s, params, hooks, actions, iterations, rng, greedy_rate, values):
    """``iterations`` times: a world drawn from the view ``s`` of the seat to act (the game's
    ``resample``), and every one of ``actions`` rolled out on it (``paired_rollouts``);
    ``values[i]`` adds up ``actions[i]``'s rollout values."""
    me = np.int64(s[hooks.CUR])
    world = np.empty_like(s)
    for _ in range(iterations):
        hooks.resample(s, params, me, world, rng)
        paired_rollouts(hooks, world, params, me, actions, rng, greedy_rate, values)
