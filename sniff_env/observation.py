"""Seat-relative observation of American Sniff, written by one compiled kernel for every layer.

Relative seat ``r`` is absolute seat ``(me + r) % n``: 0 = me, 1 = left (acts next),
2 = across (the partner with 4 players), 3 = right. Slots for seats a smaller table lacks are 0.
All values are ``float32``. The observation (``OBS``):

{OBS}

The omniscient ``state`` for centralised critics (``CRITIC``):

{CRITIC}
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_env import kernels as K
from sniff_env.tiles import NUM_TILES, TILE_LOW
from sniff_twelve.core.bits import popcount
from sniff_twelve.core.layout import Layout, with_tables
from sniff_twelve.core.seats import seat_after
from sniff_twelve.core.tiles import BYTE_BITS, write_tiles

OBS = Layout(
    ("hand", 28, "my hand: 1 for each tile held (tile index order)"),
    ("table", 28, "tiles on the table"),
    ("arms", 36, "arms 0–3, 9 each: free spot (1), pip it accepts one-hot (7), what it scores now (S14)"),
    ("end_total", 1, "current end total (S17)"),
    ("sniff", 9, "the Sniff: laid (1), its pip one-hot (7), side arms open (1) (S12–S13)"),
    ("hand_sizes", 3, "hand sizes of relative seats 1–3"),
    ("boneyard_size", 1, "boneyard size"),
    ("scores", 4, "score / target of relative seats 0–3 (the partnership's score with 4 players)"),
    ("turn_position", 4, "my turn position in this hand: one-hot of ``(me - opener) % n``"),
    ("known_voids", 21, "relative seats 1–3, 7 each: pips that seat is known to lack (S19/S21)"),
)
HAND, TABLE, ARMS, END_TOTAL, SNIFF, HAND_SIZES, BONEYARD_SIZE, SCORES, TURN_POSITION, KNOWN_VOIDS = OBS.offsets()
OBS_FIELDS = OBS.fields()
OBS_SIZE = OBS.size

CRITIC = Layout(
    ("observation", OBS_SIZE, "the observation of the seat to act"),
    ("hands", 3 * NUM_TILES, "the hands of relative seats 1–3, 28 tiles each"),
    ("boneyard", NUM_TILES, "the boneyard's tiles"),
)
#: the omniscient vector (PettingZoo's ``state()``, for centralised critics)
CRITIC_SIZE = CRITIC.size
_HIDDEN_HANDS, _BONEYARD = CRITIC.offset("hands"), CRITIC.offset("boneyard")
__doc__ = with_tables(__doc__, OBS=OBS, CRITIC=CRITIC)


#: the most one end can count (a double of sixes, S14) and one placement can credit (four such
#: ends, S17, in multiples of five)
MAX_END, MAX_CREDIT = 12, 45
#: the most one hand's settlement can move a side's score (S23–S24, and S4a's All Fives award):
#: every pip of the set (168), plus at most 2 of rounding for each of four hands
MAX_SETTLEMENT = 180


def observation_bounds(params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of every observation entry under ``params``: the envs' ``Box``. Flags lie
    in [0, 1] and counts within the set; a score (divided by the target) ends a match at most one
    credit and one settlement past the target (S25), and falls by at most one settlement a hand
    (S4: no floor) — so it has no lower bound when no limit on hands or steps cuts the match
    short (S26)."""
    target = float(params[K.P_TARGET])
    hands = params[K.P_MAX_HANDS] or params[K.P_MAX_STEPS]  # a hand takes at least one step
    lowest = -MAX_SETTLEMENT * float(hands) / target if hands else -np.inf
    flags, counts = (0, 1), (0, NUM_TILES)
    return OBS.bounds(
        {
            "hand": flags,
            "table": flags,
            "arms": (0, np.tile([1.0] * 8 + [MAX_END], 4)),
            "end_total": (0, 4 * MAX_END),
            "sniff": flags,
            "hand_sizes": counts,
            "boneyard_size": counts,
            "scores": (lowest, (target + MAX_CREDIT + MAX_SETTLEMENT) / target),
            "turn_position": flags,
            "known_voids": flags,
        }
    )


@nb.njit(cache=True)
def write_observation(s, params, me, out):
    """Fill ``out[:OBS_SIZE]`` with what seat ``me`` sees (layout in the module docstring)."""
    n = params[K.P_PLAYERS]
    out[:OBS_SIZE] = 0.0
    write_tiles(s[K.HAND + me], out, HAND)
    write_tiles(s[K.PLAYED], out, TABLE)
    total = 0
    for k in range(4):
        base = ARMS + 9 * k
        pip = s[K.END_PIP + k]
        if pip >= 0:
            out[base] = 1.0
            out[base + 1 + pip] = 1.0
            c = K.arm_contribution(s, k)
            if c > 0:
                out[base + 8] = c
                total += c
    out[END_TOTAL] = total
    if s[K.SNIFF] >= 0:
        out[SNIFF] = 1.0
        out[SNIFF + 1 + TILE_LOW[s[K.SNIFF]]] = 1.0
        out[SNIFF + 8] = s[K.SIDE_ARMS_OPEN]
    out[BONEYARD_SIZE] = s[K.BONE_LEN] - s[K.BONE_HEAD]
    target = params[K.P_TARGET]
    for r in range(n):
        seat = seat_after(me, r, n)
        out[SCORES + r] = s[K.SCORE + K.side_of(params, seat)] / target
        if r > 0:
            out[HAND_SIZES + r - 1] = popcount(s[K.HAND + seat])
            voids = BYTE_BITS[s[K.VOIDS + seat] & 127]
            for p in range(7):
                out[KNOWN_VOIDS + 7 * (r - 1) + p] = voids[p]
    out[TURN_POSITION + seat_after(me, n - s[K.OPENER], n)] = 1.0


@nb.njit(cache=True)
def write_state(s, params, out):
    """Fill ``out[:CRITIC_SIZE]`` (``CRITIC``): the observation of the seat to act plus every hidden tile."""
    n = params[K.P_PLAYERS]
    me = np.int64(s[K.CUR])
    write_observation(s, params, me, out)
    out[OBS_SIZE:CRITIC_SIZE] = 0.0
    for r in range(1, n):
        write_tiles(s[K.HAND + seat_after(me, r, n)], out, _HIDDEN_HANDS + NUM_TILES * (r - 1))
    bone = 0
    for i in range(s[K.BONE_HEAD], s[K.BONE_LEN]):
        bone |= 1 << s[K.BONE + i]
    write_tiles(bone, out, _BONEYARD)
