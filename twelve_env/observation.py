"""Seat-relative observation of "12", written by one compiled kernel for every layer.

Relative seat ``r`` is absolute seat ``(me + r) % n`` (``r = 1`` acts next); slots for seats a
smaller table lacks are 0. ``R`` is the number of ranks: 13 (bridge deck) or 11 (number deck),
so the vector has ``4R + 17`` entries (69 or 61). All values are ``float32``.

=========  ====  ==========================================================================
offset     size  meaning
=========  ====  ==========================================================================
0          R     my hand: cards held of each rank
R          R     the top face-up card, one-hot (all 0 when there is no pile)
2R         R     the face-up pile: cards of each rank in it (the pile is public)
3R         1     pile size
3R+1       R     cards of each rank seen face up so far (played or turned; 4 of each exist)
4R+1       1     stock size
4R+2       6     hand sizes of relative seats 1–6
4R+8       7     captured cards of relative seats 0–6
4R+15      1     1 while the last round (T13) is being played
4R+16      1     turns left in the last round (0 before it)
=========  ====  ==========================================================================

The omniscient ``state`` appends to the observation of the seat to act the hands of relative
seats 1–6 (6 × R, by rank) and the stock's cards by rank (R).
"""

from __future__ import annotations

import numba as nb

from twelve_env import kernels as K
from twelve_env.cards import MAX_RANKS


def obs_fields(num_ranks: int) -> tuple[tuple[str, int, int], ...]:
    """``(name, offset, size)`` of every field for a deck with ``num_ranks`` ranks."""
    r = num_ranks
    return (
        ("hand", 0, r),
        ("top", r, r),
        ("pile", 2 * r, r),
        ("pile_size", 3 * r, 1),
        ("seen", 3 * r + 1, r),
        ("stock_size", 4 * r + 1, 1),
        ("hand_sizes", 4 * r + 2, 6),
        ("captured", 4 * r + 8, 7),
        ("last_round", 4 * r + 15, 1),
        ("turns_left", 4 * r + 16, 1),
    )


def obs_size(num_ranks: int) -> int:
    return 4 * num_ranks + 17


def state_size(num_ranks: int) -> int:
    return obs_size(num_ranks) + 7 * num_ranks


@nb.njit(cache=True)
def write_observation(s, params, me, out):
    """Fill ``out[:obs_size]`` with what seat ``me`` sees (layout in the module docstring)."""
    n = params[K.P_PLAYERS]
    r = K.num_ranks(params)
    out[: 4 * r + 17] = 0.0
    for k in range(r):
        out[k] = s[K.HAND + MAX_RANKS * me + k]
        out[3 * r + 1 + k] = s[K.SEEN + k]
    pile = s[K.PILE_LEN]
    for i in range(pile):
        out[2 * r + s[K.PILE + i]] += 1.0
    if pile > 0:
        out[r + s[K.PILE + pile - 1]] = 1.0
    out[3 * r] = pile
    out[4 * r + 1] = s[K.STOCK_LEN] - s[K.STOCK_HEAD]
    for rel in range(n):
        seat = (me + rel) % n
        if rel > 0:
            out[4 * r + 1 + rel] = K.hand_size(s, seat)
        out[4 * r + 8 + rel] = s[K.CAPTURED + seat]
    if s[K.LAST_ROUND] >= 0:
        out[4 * r + 15] = 1.0
        out[4 * r + 16] = s[K.LAST_ROUND]


@nb.njit(cache=True)
def write_state(s, params, out):
    """Fill ``out[:state_size]``: the observation of the seat to act plus every hidden card."""
    n = params[K.P_PLAYERS]
    r = K.num_ranks(params)
    me = s[K.CUR]
    write_observation(s, params, me, out)
    base = 4 * r + 17
    out[base : base + 7 * r] = 0.0
    for rel in range(1, n):
        seat = (me + rel) % n
        for k in range(r):
            out[base + (rel - 1) * r + k] = s[K.HAND + MAX_RANKS * seat + k]
    for i in range(s[K.STOCK_HEAD], s[K.STOCK_LEN]):
        out[base + 6 * r + s[K.STOCK + i]] += 1.0
