"""The compiled bit tricks against Python's own integers (``sniff_twelve.core.bits``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sniff_twelve.core.bits import lowest_bit, popcount

MASKS = st.integers(min_value=1, max_value=2**32 - 1)


@settings(deadline=None)  # the first call compiles
@given(MASKS)
def test_popcount_counts_the_set_bits(mask):
    assert popcount(mask) == mask.bit_count()
    assert popcount(0) == 0


@settings(deadline=None)  # the first call compiles
@given(MASKS)
def test_lowest_bit_is_the_index_of_the_lowest_set_bit(mask):
    assert lowest_bit(mask) == (mask & -mask).bit_length() - 1
