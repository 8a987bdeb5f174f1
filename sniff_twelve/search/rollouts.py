"""Determinized rollouts from a game's spec: the search of every game's ``rollout`` agent
(``sniff_twelve.agents.builtin.RolloutAgent``), on worlds its ``resample`` draws and rollouts its
``rollout`` plays (``sniff_twelve.core.rollouts``).

A decision's iterations are split into ``LANES`` lanes (fewer when there are fewer iterations),
each drawing from a stream of its own (``sniff_twelve.core.rng.split_stream``) and run on the
search threads (``sniff_twelve.search.worlds.thread_map``; the kernels release the GIL). The lanes
are fixed by the iterations alone and their sums added in lane order, so the values are the same,
bit for bit, for every thread count.
"""

from __future__ import annotations

from collections.abc import Callable

import numba as nb
import numpy as np

from sniff_twelve.core.rng import split_stream
from sniff_twelve.core.rollouts import paired_rollouts
from sniff_twelve.search.worlds import thread_map

#: lanes a decision's iterations are split into, whatever the number of threads
LANES = 8


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


def lane_values(
    lane: Callable[[np.ndarray, int, int, np.ndarray], None], iterations: int, rng: np.ndarray, size: int, threads: int
) -> np.ndarray:
    """Every lane's sums, ``[lanes, size]``: the ``iterations`` split into ``min(iterations, LANES)``
    lanes of consecutive iterations, lane ``k`` adding ``lane(stream, first, stop, values)`` into
    its row from its own stream (``split_stream`` of ``rng``, which advances once), the lanes run
    on ``threads`` threads (module docstring)."""
    count = min(iterations, LANES)
    streams = np.empty((count, 2), dtype=np.int32)
    split_stream(rng, streams)
    bounds = [iterations * k // count for k in range(count + 1)]

    chunks = min(threads, count)  # one job a thread, of consecutive lanes: less to hand out than a job a lane
    rows = np.zeros((count, size))

    def run(j: int) -> None:
        for k in range(count * j // chunks, count * (j + 1) // chunks):
            lane(streams[k], bounds[k], bounds[k + 1], rows[k])

    thread_map(threads)(run, range(chunks))
    return rows
