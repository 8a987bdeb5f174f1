"""Search machinery both games share: UCB1 selection at the root of a determinized search."""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True)
def ucb_pick(values, visits, total, exploration):
    """Index maximising UCB1 (``values`` are sums); unvisited entries first, in order."""
    best = -1
    best_score = -np.inf
    log_total = np.log(max(total, 1))
    for i in range(visits.shape[0]):
        if visits[i] == 0:
            return i
        score = values[i] / visits[i] + exploration * np.sqrt(log_total / visits[i])
        if score > best_score:
            best_score = score
            best = i
    return best
