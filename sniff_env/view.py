"""The Sniff seat view (``sniff_twelve.core.view``): what one seat may know, as a compiled row.

``write_view`` copies the state row and replaces what the seat cannot see — the other hands and
the boneyard — by a canonical deal of the same tiles (ascending tile index: the other hands in
seat order, their sizes kept, then the boneyard's remaining slots); the random stream and the
record of past draws are zeroed. The tiles in play (every tile, unless a given deal left some
out) are public. ``determinize`` deals the hidden tiles at random instead, consistently with the
view: hand sizes and known voids (S19, S21) are respected.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_env import kernels as K
from sniff_env.tiles import DRAW, NUM_TILES, TILE_HIGH, TILE_LOW
from sniff_twelve.core.bits import lowest_bit, popcount
from sniff_twelve.core.rng import below, shuffle
from sniff_twelve.core.view import copy_public

SEARCH_RNG = 0  # a determinization draws from a 2-word stream, like the games'


@nb.njit(cache=True)
def unseen_tiles(s, params, me):
    """Bit mask of the tiles ``me`` cannot see: the other hands and the boneyard."""
    hidden = 0
    for seat in range(params[K.P_PLAYERS]):
        if seat != me:
            hidden |= s[K.HAND + seat]
    for i in range(s[K.BONE_HEAD], s[K.BONE_LEN]):
        hidden |= 1 << s[K.BONE + i]
    return hidden


@nb.njit(cache=True)
def write_view(s, params, seat, out):
    """Fill ``out`` (a state-sized row) with what ``seat`` may know of ``s`` (module docstring)."""
    copy_public(s, out, K.RNG)
    out[K.LOG + s[K.N_PLACED] : K.LOG + NUM_TILES] = 0  # earlier hands' placements
    hidden = np.int64(unseen_tiles(s, params, seat))
    for other in range(params[K.P_PLAYERS]):
        if other != seat:
            out[K.HAND + other] = 0
            for _ in range(popcount(s[K.HAND + other])):
                out[K.HAND + other] |= 1 << lowest_bit(hidden)
                hidden &= hidden - 1
    out[K.BONE : K.BONE + NUM_TILES] = 0
    for i in range(s[K.BONE_HEAD], s[K.BONE_LEN]):
        out[K.BONE + i] = lowest_bit(hidden)
        hidden &= hidden - 1


@nb.njit(cache=True)
def determinize(s, params, me, d, rng, tiles):
    """Copy ``s`` into ``d`` with every tile hidden from ``me`` dealt again at random: other hands
    keep their sizes and get no tile with a pip they are known to lack; the rest, shuffled, is the
    boneyard. Each tile goes to a place with probability proportional to the room left there.
    Falls back to ignoring voids if 50 tries cannot honour them. ``tiles`` is scratch (28)."""
    n = params[K.P_PLAYERS]
    d[:] = s
    hidden = unseen_tiles(s, params, me)
    count = 0
    for t in range(NUM_TILES):
        if (hidden >> t) & 1:
            tiles[count] = t
            count += 1
    room = np.zeros(4, dtype=np.int64)
    for attempt in range(51):
        shuffle(rng, SEARCH_RNG, tiles, count)
        for seat in range(n):
            room[seat] = 0 if seat == me else popcount(s[K.HAND + seat])
            if seat != me:
                d[K.HAND + seat] = 0
        bone_left = s[K.BONE_LEN] - s[K.BONE_HEAD]
        ok = True
        for j in range(count):
            t = tiles[j]
            pips = (1 << TILE_LOW[t]) | (1 << TILE_HIGH[t])
            total = bone_left
            for seat in range(n):
                if attempt == 50 or not s[K.VOIDS + seat] & pips:
                    total += room[seat]
            if total == 0:
                ok = False
                break
            r = below(rng, SEARCH_RNG, total)
            for seat in range(n):
                if attempt == 50 or not s[K.VOIDS + seat] & pips:
                    if r < room[seat]:
                        d[K.HAND + seat] |= 1 << t
                        room[seat] -= 1
                        break
                    r -= room[seat]
            else:
                bone_left -= 1
                d[K.BONE + s[K.BONE_LEN] - 1 - bone_left] = t  # boneyard slots in shuffled order
        if ok:
            return


@nb.njit(cache=True)
def resample(view, params, seat, out, rng):
    """``determinize`` with its own scratch: a full state consistent with ``seat``'s view."""
    determinize(view, params, seat, out, rng, np.empty(NUM_TILES, dtype=np.int32))


# --- what a seat's beliefs are about (``sniff_twelve.beliefs``) -------------------------------------
ITEMS = NUM_TILES  # each tile once: an item is a tile index


@nb.njit(cache=True)
def hidden_items(view, params, me, out):
    """``out[t]``: 1 if ``me`` cannot see tile ``t`` (another hand or the boneyard), else 0."""
    hidden = unseen_tiles(view, params, me)
    for t in range(NUM_TILES):
        out[t] = (hidden >> t) & 1


@nb.njit(cache=True)
def held_items(s, params, seat, out):
    """``out[t]``: 1 if ``seat`` holds tile ``t`` in ``s``, else 0."""
    for t in range(NUM_TILES):
        out[t] = (s[K.HAND + seat] >> t) & 1


@nb.njit(cache=True)
def hand_size(s, params, seat):
    return popcount(s[K.HAND + seat])


@nb.njit(cache=True)
def shown_item(s, params, action):
    """The tile ``action`` puts face up from the actor's hand (a placement, S9), else ``-1``."""
    return action // 4 if action < DRAW else -1


@nb.njit(cache=True)
def deal_hidden(view, params, me, holdings, pool, out):
    """``out``: ``view`` with the other hands dealt from ``holdings[i]`` (tile counts of the
    ``i``-th other seat, in seat order) and the boneyard's remaining slots from ``pool`` (tile
    indices, in draw order)."""
    out[:] = view
    place = 0
    for seat in range(params[K.P_PLAYERS]):
        if seat == me:
            continue
        out[K.HAND + seat] = 0
        for t in range(NUM_TILES):
            if holdings[place, t]:
                out[K.HAND + seat] |= 1 << t
        place += 1
    for i in range(pool.shape[0]):
        out[K.BONE + view[K.BONE_HEAD] + i] = pool[i]


@nb.njit(cache=True)
def allowed_items(view, params, me, out):
    """``out[i, t]``: whether the ``i``-th other seat (in seat order) may hold tile ``t``: not if
    the tile carries a pip that seat is publicly known to lack (S19, S21)."""
    place = 0
    for seat in range(params[K.P_PLAYERS]):
        if seat == me:
            continue
        for t in range(NUM_TILES):
            pips = (1 << TILE_LOW[t]) | (1 << TILE_HIGH[t])
            out[place, t] = not view[K.VOIDS + seat] & pips
        place += 1
