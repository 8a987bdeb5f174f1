"""Compiled bit tricks for games that keep a set as a bit mask (a hand of dominoes as 28 bits).

>>> popcount(0b1011), lowest_bit(0b1000)
(3, 3)
"""

from __future__ import annotations

import numba as nb
import numpy as np

#: ``lowest_bit``'s table: the bit index of each power of two times 0x077CB531, by its top five bits
DE_BRUIJN = np.zeros(32, dtype=np.int64)
DE_BRUIJN[[((0x077CB531 << bit) & 0xFFFFFFFF) >> 27 for bit in range(32)]] = np.arange(32)


@nb.njit(cache=True, inline="always")
def popcount(mask):
    """Number of set bits of a mask below ``2**32``."""
    mask = mask - ((mask >> 1) & 0x55555555)
    mask = (mask & 0x33333333) + ((mask >> 2) & 0x33333333)
    return (((mask + (mask >> 4)) & 0x0F0F0F0F) * 0x01010101 & 0xFFFFFFFF) >> 24


@nb.njit(cache=True, inline="always")
def lowest_bit(mask):
    """Index of the lowest set bit of a non-zero mask below ``2**32`` (de Bruijn multiplication)."""
    low = mask & -mask
    return DE_BRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
