"""Per-game random streams that live inside the game's own state array.

Every game carries a 64-bit splitmix64 state in two ``int32`` slots of its state row, so a
batch of games stepped in parallel stays reproducible game by game, whatever thread runs it.
``stream_state(seed, index)`` turns a user seed into that state: game ``index`` of a batch seeded
with ``seed`` gets the same stream as a single game seeded with ``seed`` when ``index == 0``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)


def stream_state(seed: int | None, index: int = 0) -> tuple[int, int]:
    """The two int32 words that seed game ``index`` of a stream seeded with ``seed``.

    ``seed=None`` draws fresh entropy from the OS.
    """
    words = np.random.SeedSequence(None if seed is None else [int(seed), int(index)])
    hi, lo = words.generate_state(2, dtype=np.uint32)
    return int(hi.astype(np.int32)), int(lo.astype(np.int32))


@nb.njit(cache=True, inline="always")
def next_u64(state, slot):
    """Advance the splitmix64 stream stored at ``state[slot], state[slot + 1]``."""
    x = (np.uint64(np.uint32(state[slot])) << np.uint64(32)) | np.uint64(np.uint32(state[slot + 1]))
    x = x + _GOLDEN
    state[slot] = np.int32(np.uint32(x >> np.uint64(32)))
    state[slot + 1] = np.int32(np.uint32(x & _LOW32))
    z = (x ^ (x >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True, inline="always")
def below(state, slot, n):
    """A uniform integer in ``[0, n)`` from the stream at ``slot`` (Lemire's multiply-shift)."""
    z = next_u64(state, slot) >> np.uint64(32)
    return np.int64((z * np.uint64(n)) >> np.uint64(32))


@nb.njit(cache=True)
def shuffle(state, slot, items, n):
    """Fisher–Yates shuffle of ``items[:n]`` in place, drawing from the stream at ``slot``."""
    for i in range(n - 1, 0, -1):
        j = below(state, slot, i + 1)
        items[i], items[j] = items[j], items[i]
