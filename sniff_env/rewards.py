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
    status, winner = s[K.STATUS], s[K.WINNER]
    sides = 2 if n == 4 else n
    loser = -1.0 / (sides - 1)  # the other sides share -1
    # one loop and one exit: numba's pass that drops the reference counting of the arrays handed
    # in recognises this shape (two loops in branches kept four atomic increments a call)
    for seat in range(n):
        side = K.side_of(params, seat)
        reward = 0.0
        if mode == POINTS:
            reward = s[K.SCORE + side] - scores_before[side]
        elif status == K.WON:
            reward = 1.0 if side == winner else loser
        out[seat] = reward
    episode = LIVE
    if status == K.WON or status == K.HAND_OVER:
        episode = TERMINATED
    elif status == K.TRUNCATED:
        episode = TRUNCATED
    return episode
