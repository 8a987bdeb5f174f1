"""Reward kernels of the Sniff environments (shared by the AEC env and ``VectorGame``)."""

from __future__ import annotations

import numba as nb

from sniff_env import kernels as K
from sniff_twelve.core.rewards import LIVE, TERMINATED, TRUNCATED

POINTS, WIN = 0, 1
REWARD_MODES = {"points": POINTS, "win": WIN}
SNAPSHOT_SIZE = 4  # the SCORE slots


@nb.njit(cache=True)
def snapshot(s, out):
    """What ``write_rewards`` compares against: the scores."""
    for side in range(SNAPSHOT_SIZE):
        out[side] = s[K.SCORE + side]


@nb.njit(cache=True)
def write_rewards(s, params, scores_before, mode, out):
    """Per-seat reward of what happened since ``scores_before`` (the ``SCORE`` slots then).

    ``points``: each seat gets its side's score change (credits S17 minus deductions S24;
    partners share). ``win``: zero when the match goes on or is truncated; when it is won (S25)
    the winning side gets +1 and the others share −1 (3 players: −0.5 each).
    Returns the episode's ``LIVE`` / ``TERMINATED`` / ``TRUNCATED``.
    """
    n = params[K.P_PLAYERS]
    sides = 2 if n == 4 else n
    out[:n] = 0.0
    if mode == POINTS:
        for seat in range(n):
            side = K.side_of(params, seat)
            out[seat] = s[K.SCORE + side] - scores_before[side]
    elif s[K.STATUS] == K.WON:
        for seat in range(n):
            out[seat] = 1.0 if K.side_of(params, seat) == s[K.WINNER] else -1.0 / (sides - 1)
    status = s[K.STATUS]
    if status == K.WON or status == K.HAND_OVER:
        return TERMINATED
    return TRUNCATED if status == K.TRUNCATED else LIVE
