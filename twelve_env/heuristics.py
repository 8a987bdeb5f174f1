"""The rules of thumb of "12" and the rollouts built on them: card counting, the ``greedy`` and
``heuristic`` policies, the action features, and the paired rollouts the ``rollout`` agent runs on
re-dealt worlds (``sniff_twelve.search.rollouts``).

Every function here takes a seat's view (``twelve_env.view.write_view``), not the referee's
state, so nothing here can depend on a hidden card: counts of unseen cards come from the public
``SEEN`` counts and the seat's own hand (a rollout's world is a view re-dealt by
``twelve_env.view.resample``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_twelve.core.rng import below, pick_legal
from sniff_twelve.core.seats import seat_after
from twelve_env import kernels as K
from twelve_env.cards import MAX_RANKS, SIX, VALUES
from twelve_env.view import SEARCH_RNG


@nb.njit(cache=True)
def _unseen(s, params, me, out):
    """Cards of each rank ``me`` has not seen (not in its hand, never face up)."""
    for r in range(K.num_ranks(params)):
        out[r] = max(K.copies(params, r) - s[K.HAND + MAX_RANKS * me + r] - s[K.SEEN + r], 0)


@nb.njit(cache=True)
def _capturers(params, rank, unseen):
    """How many unseen cards would capture ``rank`` if it were the top card (T3, T8)."""
    deck = params[K.P_DECK]
    count = 0
    for r in range(K.num_ranks(params)):
        if r == rank or VALUES[deck, r] + VALUES[deck, rank] == 12:
            count += unseen[r]
    return count


@nb.njit(cache=True)
def _captures(s, params, rank):
    if s[K.PILE_LEN] == 0:
        return False
    top = s[K.PILE + s[K.PILE_LEN] - 1]
    return rank == top or VALUES[params[K.P_DECK], rank] + VALUES[params[K.P_DECK], top] == 12


ACTION_FEATURES = ("captured",)


@nb.njit(cache=True)
def action_features(s, params, out):
    """``out[r, 0]``: the cards the seat to act captures at once by playing rank ``r`` (T8–T11), 0
    for ranks it does not hold or that capture nothing — the look-ahead ``greedy`` uses."""
    me = np.int64(s[K.CUR])
    scratch = np.empty_like(s)
    out[:MAX_RANKS] = 0.0
    for r in range(K.num_ranks(params)):
        if s[K.HAND + MAX_RANKS * me + r] > 0 and _captures(s, params, r):
            scratch[:] = s
            K.apply_action(scratch, params, r)
            out[r, 0] = scratch[K.CAPTURED + me] - s[K.CAPTURED + me]


@nb.njit(cache=True)
def greedy_action(s, params):
    """Capture if possible (6 on 6 first: the others draw, T11); else the card the fewest unseen
    cards could capture."""
    me = np.int64(s[K.CUR])
    unseen = np.zeros(MAX_RANKS, dtype=np.int64)
    _unseen(s, params, me, unseen)
    best, best_key = -1, -1e9
    top = s[K.PILE + s[K.PILE_LEN] - 1]
    for r in range(K.num_ranks(params)):
        if s[K.HAND + MAX_RANKS * me + r] == 0:
            continue
        if _captures(s, params, r):
            key = 1000.0 + (100.0 if r == SIX and top == SIX else 0.0)
        else:
            key = -float(_capturers(params, r, unseen))
        if key > best_key:
            best, best_key = r, key
    return best


@nb.njit(cache=True)
def _chance_any(pool, good, draws):
    """Chance that ``draws`` cards from a pool of ``pool`` hold at least one of ``good``."""
    if good <= 0 or draws <= 0:
        return 0.0
    if pool - good < draws:
        return 1.0
    miss = 1.0
    for i in range(draws):
        miss *= (pool - good - i) / (pool - i)
    return 1.0 - miss


@nb.njit(cache=True)
def heuristic_action(s, params):
    """Card counting: a capture is worth the pile plus one card out of hand (plus a card for each
    opponent on 6-on-6), and gives up the capturing card least useful later; a card left on the
    pile costs the chance the next player can capture it, given the unseen cards and its hand
    size, times the pile it would take."""
    return _heuristic(s, params, np.zeros(MAX_RANKS, dtype=np.int64))


@nb.njit(cache=True)
def _heuristic(s, params, unseen):
    """``heuristic_action`` with a caller's scratch row for the unseen counts (rollouts reuse one)."""
    n = params[K.P_PLAYERS]
    me = np.int64(s[K.CUR])
    nxt = seat_after(me, 1, n)
    _unseen(s, params, me, unseen)
    pool = unseen.sum()
    nxt_hand = K.hand_size(s, nxt)
    pile = s[K.PILE_LEN]
    top = s[K.PILE + pile - 1]
    best, best_value = -1, -1e9
    for r in range(K.num_ranks(params)):
        if s[K.HAND + MAX_RANKS * me + r] == 0:
            continue
        if _captures(s, params, r):
            # of the cards that capture, give up the one that would capture least later
            value = pile + 2.0 + (n - 1.0 if r == SIX and top == SIX else 0.0) - 0.01 * _capturers(params, r, unseen)
        else:
            value = -_chance_any(pool, _capturers(params, r, unseen), nxt_hand) * (pile + 1.0)
        if value > best_value:
            best, best_value = r, value
    return best


@nb.njit(cache=True)
def rollout(d, params, me, first, mask, rng, greedy_rate):
    """Apply ``first``, play one more round (heuristic moves with probability ``greedy_rate`` per
    mille, else random) and return my T15 score minus the best other score then. A round, not
    the whole game: with the stock order unknown, longer rollouts only add noise (measured)."""
    n = params[K.P_PLAYERS]
    unseen = np.zeros(MAX_RANKS, dtype=np.int64)
    K.apply_action(d, params, first)
    for _ in range(n):
        if d[K.STATUS] != K.LIVE:
            break
        if below(rng, SEARCH_RNG, 1000) < greedy_rate:
            a = _heuristic(d, params, unseen)
        else:
            K.legal_mask_into(d, params, mask)
            a = pick_legal(mask, rng, SEARCH_RNG)
        K.apply_action(d, params, a)
    scores = np.empty(n, dtype=np.int64)
    K.write_scores(d, params, scores)
    best_other = -1_000_000
    for seat in range(n):
        if seat != me:
            best_other = max(best_other, scores[seat])
    return float(scores[me] - best_other)
