"""Paired rollouts on one full position, for any game: what the rollout searches add up
(``sniff_twelve.search.rollouts``, ``sniff_twelve.beliefs``) over the worlds they draw."""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_twelve.core.rng import below

SEARCH_RNG = 0  # a world's rollouts draw from a 2-word stream, like the games'


@nb.njit(cache=True, nogil=True)
def paired_rollouts(hooks, d, params, me, actions, rng, greedy_rate, values):
    """Score every one of ``actions`` on the full position ``d`` by one rollout each (the game's
    ``rollout``), all on the same stream drawn from ``rng`` (paired comparisons, so the luck of
    the play cancels between actions): ``values[i]`` adds up ``actions[i]``'s rollout value."""
    mask = np.zeros(hooks.MAX_ACTIONS, dtype=np.bool_)
    trial = np.empty_like(d)
    stream = np.empty(2, dtype=np.int32)
    hi, lo = below(rng, SEARCH_RNG, 1 << 31), below(rng, SEARCH_RNG, 1 << 31)
    for i in range(actions.shape[0]):
        trial[:] = d
        stream[0], stream[1] = hi, lo
        values[i] += hooks.rollout(trial, params, me, actions[i], mask, stream, greedy_rate)
