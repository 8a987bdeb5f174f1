"""Worlds drawn in proportion to weights on each item's place (``kernels.deal_from_weights``),
held to a brute-force enumeration."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from sniff_twelve.beliefs import kernels as BK
from sniff_twelve.core.rng import stream_state


def enumerate_deals(units, sizes, weights):
    """Every assignment of the units to the hands (``sizes``) and the pool, by brute force, with
    its probability ∝ the product of its units' weights: {hands-and-pool as sorted tuples: p}."""
    places = len(sizes) + 1
    table: Counter = Counter()
    for assignment in itertools.product(range(places), repeat=len(units)):
        counts = Counter(assignment)
        if any(counts[h] != sizes[h] for h in range(len(sizes))):
            continue
        weight = math.prod(weights[p][u] for p, u in zip(assignment, units, strict=True))
        if weight > 0:
            pairs = list(zip(assignment, units, strict=True))
            key = tuple(tuple(sorted(u for p, u in pairs if p == q)) for q in range(places))
            table[key] += weight
    total = sum(table.values())
    return {key: w / total for key, w in table.items()}


@pytest.mark.parametrize(
    "units, sizes",
    [([0, 1, 2, 3, 4, 5], [2, 1]), ([0, 0, 1, 1, 2, 3], [2, 2]), ([0, 1, 2, 3, 4], [1, 1, 2])],
    ids=["distinct", "alike", "three-hands"],
)
def test_weighted_deals_follow_the_product_of_their_weights(units, sizes):
    """``_deal_weighted`` draws each deal of the units with probability ∝ Π weights (an item may
    not go where its weight is 0): its frequencies over 40,000 draws match the enumeration."""
    rng_np = np.random.default_rng(len(units) + len(sizes))
    items = max(units) + 1
    weights = rng_np.uniform(0.2, 3.0, size=(len(sizes) + 1, items))
    weights[0, 1] = 0.0  # a known void: item 1 is never in the first hand
    exact = enumerate_deals(units, sizes, weights)
    units_a, sizes_a = np.array(units, dtype=np.int64), np.array(sizes, dtype=np.int64)
    radix = np.cumprod([1, *(s + 1 for s in sizes[:-1])]).astype(np.int64)
    table = np.zeros((len(units) + 1, int(radix[-1]) * (sizes[-1] + 1)))
    BK._completions(units_a, weights, sizes_a, radix, table)
    rng = np.array(stream_state(5), dtype=np.int32)
    holdings = np.zeros((len(sizes) + 1, items), dtype=np.int64)
    draws = 40_000
    seen: Counter = Counter()
    for _ in range(draws):
        BK._deal_weighted(units_a, weights, sizes_a, radix, table, rng, holdings)
        seen[tuple(tuple(sorted(np.repeat(np.arange(items), row).tolist())) for row in holdings)] += 1
    assert set(seen) <= set(exact), set(seen) - set(exact)
    for key, p in exact.items():
        assert abs(seen[key] / draws - p) < 4 * math.sqrt(p * (1 - p) / draws) + 1e-3, (key, p, seen[key] / draws)
