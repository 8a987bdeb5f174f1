"""Reward kernels of the "12" environments (shared by the AEC env and ``VectorGame``)."""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_twelve.core.rewards import LIVE, TERMINATED, rank_rewards
from twelve_env import kernels as K

SCORE, WIN = 0, 1
REWARD_MODES = {"score": SCORE, "win": WIN}
SNAPSHOT_SIZE = 8  # captured per seat, then the status


@nb.njit(cache=True)
def snapshot(s, out):
    """What ``write_rewards`` compares against: captured counts and whether the game was live."""
    for seat in range(7):
        out[seat] = s[K.CAPTURED + seat]
    out[7] = s[K.STATUS]


@nb.njit(cache=True)
def write_rewards(s, params, before, mode, out):
    """Per-seat reward of what happened since ``before`` (a ``snapshot``).

    ``score`` (dense): +1 per card captured, when captured (T8); when the game ends, −1 per card
    still in hand — so an episode's rewards sum to the T15 score. ``win``: zero until the game
    ends, then zero-sum by final score rank (+1 first … −1 last; tied seats share their places'
    mean). Returns the episode's ``LIVE`` / ``TERMINATED``.
    """
    n = params[K.P_PLAYERS]
    out[:n] = 0.0
    ended = s[K.STATUS] == K.OVER and before[7] == K.LIVE
    if mode == SCORE:
        for seat in range(n):
            out[seat] = s[K.CAPTURED + seat] - before[seat]
            if ended:
                out[seat] -= K.hand_size(s, seat)
    elif ended:
        scores = np.empty(n, dtype=np.float64)
        K.write_scores(s, params, scores)
        rank_rewards(scores, n, out)
    return TERMINATED if s[K.STATUS] == K.OVER else LIVE
