"""Seat-relative observation of American Sniff, written by one compiled kernel for every layer.

Relative seat ``r`` is absolute seat ``(me + r) % n``: 0 = me, 1 = left (acts next),
2 = across (the partner with 4 players), 3 = right. Slots for seats a smaller table lacks are 0.
All values are ``float32``.

======  ====  ==========================================================================
offset  size  meaning
======  ====  ==========================================================================
0       28    my hand: 1 for each tile held (tile index order)
28      28    tiles on the table
56      36    arms 0–3, 9 each: free spot (1), pip it accepts one-hot (7), what it scores now (S14)
92      1     current end total (S17)
93      9     the Sniff: laid (1), its pip one-hot (7), side arms open (1) (S12–S13)
102     3     hand sizes of relative seats 1–3
105     1     boneyard size
106     4     score / target of relative seats 0–3 (the partnership's score with 4 players)
110     4     my turn position in this hand: one-hot of ``(me - opener) % n``
114     21    relative seats 1–3, 7 each: pips that seat is known to lack (it drew or passed
              while they were open, S19/S21)
======  ====  ==========================================================================

The omniscient ``state`` (for centralised critics) appends to the observation of the seat to
act the hands of relative seats 1–3 (3 × 28) and the boneyard's tiles (28).
"""

from __future__ import annotations

import numba as nb

from sniff_env import kernels as K
from sniff_env.tiles import NUM_TILES, TILE_LOW

OBS_FIELDS: tuple[tuple[str, int, int], ...] = (
    ("hand", 0, 28),
    ("table", 28, 28),
    ("arms", 56, 36),
    ("end_total", 92, 1),
    ("sniff", 93, 9),
    ("hand_sizes", 102, 3),
    ("boneyard_size", 105, 1),
    ("scores", 106, 4),
    ("turn_position", 110, 4),
    ("known_voids", 114, 21),
)
OBS_SIZE = 135
STATE_SIZE = OBS_SIZE + 4 * NUM_TILES


@nb.njit(cache=True)
def _write_tiles(mask, out, offset):
    for t in range(NUM_TILES):
        out[offset + t] = (mask >> t) & 1


@nb.njit(cache=True)
def write_observation(s, params, me, out):
    """Fill ``out[:OBS_SIZE]`` with what seat ``me`` sees (layout in the module docstring)."""
    n = params[K.P_PLAYERS]
    out[:OBS_SIZE] = 0.0
    _write_tiles(s[K.HAND + me], out, 0)
    _write_tiles(s[K.PLAYED], out, 28)
    total = 0
    for k in range(4):
        base = 56 + 9 * k
        pip = s[K.END_PIP + k]
        if pip >= 0:
            out[base] = 1.0
            out[base + 1 + pip] = 1.0
            c = K.arm_contribution(s, k)
            if c > 0:
                out[base + 8] = c
                total += c
    out[92] = total
    if s[K.SNIFF] >= 0:
        out[93] = 1.0
        out[94 + TILE_LOW[s[K.SNIFF]]] = 1.0
        out[101] = s[K.SIDE_ARMS_OPEN]
    out[105] = s[K.BONE_LEN] - s[K.BONE_HEAD]
    target = params[K.P_TARGET]
    for r in range(n):
        seat = (me + r) % n
        out[106 + r] = s[K.SCORE + K.side_of(params, seat)] / target
        if r > 0:
            out[101 + r] = K.tile_count(s[K.HAND + seat])
            voids = s[K.VOIDS + seat]
            for p in range(7):
                out[114 + 7 * (r - 1) + p] = (voids >> p) & 1
    out[110 + (me - s[K.OPENER]) % n] = 1.0


@nb.njit(cache=True)
def write_state(s, params, out):
    """Fill ``out[:STATE_SIZE]``: the observation of the seat to act plus every hidden tile."""
    n = params[K.P_PLAYERS]
    me = s[K.CUR]
    write_observation(s, params, me, out)
    out[OBS_SIZE:STATE_SIZE] = 0.0
    for r in range(1, n):
        _write_tiles(s[K.HAND + (me + r) % n], out, OBS_SIZE + 28 * (r - 1))
    bone = 0
    for i in range(s[K.BONE_HEAD], s[K.BONE_LEN]):
        bone |= 1 << s[K.BONE + i]
    _write_tiles(bone, out, OBS_SIZE + 84)
