"""Per-game random streams that live inside the game's own state array.

Every game carries a 64-bit splitmix64 state in two ``int32`` slots of its state row, so a
batch of games stepped in parallel stays reproducible game by game, whatever thread runs it.
A user seed becomes a 64-bit key (``numpy.random.SeedSequence``); game ``i`` of a batch seeded
with ``seed`` starts from ``stream_states(key, i)``, and a single ``Game(seed=seed)`` is game 0.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_twelve.core.options import check_seed

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)


def seed_key(seed: int | None) -> np.ndarray:
    """The two int32 words of a user seed's key; ``None`` draws fresh entropy from the OS."""
    return np.random.SeedSequence(check_seed(seed)).generate_state(2, dtype=np.uint32).view(np.int32)


def stream_state(seed: int | None, index: int = 0) -> tuple[int, int]:
    """The two int32 stream words of game ``index`` under ``seed``."""
    out = np.empty((1, 2), dtype=np.int32)
    stream_states(seed_key(seed), index, out)
    return int(out[0, 0]), int(out[0, 1])


@nb.njit(cache=True, inline="always")
def _join(hi, lo):
    return (np.uint64(np.uint32(hi)) << np.uint64(32)) | np.uint64(np.uint32(lo))


@nb.njit(cache=True, inline="always")
def mix64(x):
    """splitmix64's finalizer: a 64-bit word mixed so every input bit moves every output bit."""
    z = (x ^ (x >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def stream_states(key, first_index, out):
    """Write the stream words of games ``first_index, first_index + 1, …`` into ``out[i, 0:2]``."""
    base = _join(key[0], key[1])
    for i in range(out.shape[0]):
        z = mix64(base + np.uint64(first_index + i + 1) * GOLDEN)
        out[i, 0] = np.int32(np.uint32(z >> np.uint64(32)))
        out[i, 1] = np.int32(np.uint32(z & _LOW32))


@nb.njit(cache=True, inline="always")
def next_u64(state, slot):
    """Advance the splitmix64 stream stored at ``state[slot], state[slot + 1]``."""
    x = _join(state[slot], state[slot + 1]) + GOLDEN
    state[slot] = np.int32(np.uint32(x >> np.uint64(32)))
    state[slot + 1] = np.int32(np.uint32(x & _LOW32))
    return mix64(x)


@nb.njit(cache=True)
def split_stream(state, out):
    """Advance the stream ``state[0:2]`` once and write into ``out[i, 0:2]`` the words of
    ``out.shape[0]`` streams made from the word it drew (as ``stream_states`` makes a batch's
    streams from a key): one stream a lane of work, whichever thread runs it."""
    z = next_u64(state, 0)
    key = np.empty(2, dtype=np.int32)
    key[0], key[1] = np.int32(np.uint32(z >> np.uint64(32))), np.int32(np.uint32(z & _LOW32))
    stream_states(key, 0, out)


@nb.njit(cache=True, inline="always")
def below(state, slot, n):
    """A uniform integer in ``[0, n)`` from the stream at ``slot`` (Lemire's multiply-shift)."""
    z = next_u64(state, slot) >> np.uint64(32)
    return np.int64((z * np.uint64(n)) >> np.uint64(32))


@nb.njit(cache=True, inline="always")
def shuffle(state, slot, items, n):
    """Fisher–Yates shuffle of ``items[:n]`` in place, drawing from the stream at ``slot``."""
    for i in range(n - 1, 0, -1):
        j = below(state, slot, i + 1)
        items[i], items[j] = items[j], items[i]


@nb.njit(cache=True, inline="always")
def pick_legal(mask, state, slot):
    """A uniformly random index among the ``True`` entries of the bool vector ``mask``, drawn
    from the stream at ``state[slot]``; ``-1`` when it has none. The scan subtracts each entry
    rather than testing it: one unpredictable branch a call instead of one a legal action."""
    legal = mask.sum()
    if legal == 0:
        return -1
    k = below(state, slot, legal) + 1
    a = -1
    while k > 0:
        a += 1
        k -= np.int64(mask[a])
    return a
