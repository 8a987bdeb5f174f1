"""The lanes a decision's rollouts are split into (``sniff_twelve.search.rollouts``): each lane on
a stream of its own, made from one draw of the agent's stream (``split_stream``, checked against
splitmix64 written out here), the iterations covered once, the same sums on any number of threads."""

from __future__ import annotations

import numpy as np
import pytest

import sniff_env
from sniff_twelve.core.rng import split_stream, stream_state
from sniff_twelve.search.rollouts import LANES, lane_values, resampled_rollouts

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix(z: int) -> int:
    """splitmix64's finalizer, in Python integers."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def words(x: int) -> tuple[int, int]:
    """A 64-bit word as the two int32 words a stream is stored in."""
    hi, lo = x >> 32, x & 0xFFFFFFFF
    return tuple(int(np.uint32(w).view(np.int32)) for w in (hi, lo))


def test_split_stream_advances_the_stream_once_and_mixes_the_draw_per_lane() -> None:
    state = np.array(stream_state(7), dtype=np.int32)
    x = ((int(np.uint32(state[0])) << 32 | int(np.uint32(state[1]))) + GOLDEN) & MASK
    drawn = mix(x)
    lanes = np.empty((5, 2), dtype=np.int32)
    split_stream(state, lanes)
    assert tuple(int(w) for w in state) == words(x)
    assert [tuple(int(w) for w in row) for row in lanes] == [
        words(mix((drawn + (i + 1) * GOLDEN) & MASK)) for i in range(5)
    ]
    assert len({tuple(row) for row in lanes.tolist()}) == 5


@pytest.mark.parametrize("iterations", [1, 3, 8, 13, 64])
def test_the_lanes_cover_every_iteration_once_each_on_its_own_stream(iterations: int) -> None:
    calls = []

    def lane(stream: np.ndarray, first: int, stop: int, values: np.ndarray) -> None:
        calls.append((tuple(stream.tolist()), first, stop))
        values[0] = stop - first

    rng = np.array(stream_state(1), dtype=np.int32)
    sums = lane_values(lane, iterations, rng, 1, threads=1)
    calls.sort(key=lambda call: call[1])
    assert len(calls) == min(iterations, LANES) == sums.shape[0]
    assert [i for _, first, stop in calls for i in range(first, stop)] == list(range(iterations))
    assert len({stream for stream, _, _ in calls}) == len(calls)
    assert sums.sum() == iterations


def test_each_lane_rolls_out_on_its_own_worlds_and_threads_change_no_lane() -> None:
    """Lanes drawing from one shared stream, or from equal ones, would give equal rows."""
    game = sniff_env.Game(num_players=4, seed=2)
    view = game.seat_view(game.current_player)
    moves = np.flatnonzero(view.legal_mask()).astype(np.int64)

    def lane(stream: np.ndarray, first: int, stop: int, values: np.ndarray) -> None:
        view.run(resampled_rollouts, view.spec, moves, stop - first, stream, 800, values)

    rows = {}
    for threads in (1, 2):
        rows[threads] = lane_values(lane, 16, np.array(stream_state(3), dtype=np.int32), moves.size, threads)
    assert np.array_equal(rows[1], rows[2]) and rows[1].shape == (LANES, moves.size)
    assert len({row.tobytes() for row in rows[1]}) == LANES
    state = np.array(stream_state(3), dtype=np.int32)
    drawn = mix(((int(np.uint32(state[0])) << 32 | int(np.uint32(state[1]))) + GOLDEN) & MASK)
    for k in range(LANES):  # lane k alone, on the stream it should get, gives row k
        alone = np.zeros(moves.size)
        lane(np.array(words(mix((drawn + (k + 1) * GOLDEN) & MASK)), dtype=np.int32), 2 * k, 2 * k + 2, alone)
        assert np.array_equal(alone, rows[1][k])
