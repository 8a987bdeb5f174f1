"""The "12" seat view (``sniff_twelve.core.view``): what one seat may know, as a compiled row.

``write_view`` copies the state row and replaces what the seat cannot see — the other hands and
the stock — by a canonical deal of the same cards (ascending rank: the other hands in seat order,
their sizes kept, then the stock's remaining slots); the random stream, the record of cards
already taken from the stock and the slots above the pile are zeroed. The cards in play (the
whole deck, unless a given deal left some out) are public. ``determinize`` deals the hidden cards
at random instead.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_twelve.core.rng import shuffle
from sniff_twelve.core.view import copy_public
from twelve_env import kernels as K
from twelve_env.cards import COPIES, MAX_RANKS

SEARCH_RNG = 0  # a determinization draws from a 2-word stream, like the games'
STOCK_SLOTS = K.PILE - K.STOCK


@nb.njit(cache=True)
def hidden_items(s, params, me, out):
    """``out[r]``: cards of rank ``r`` that ``me`` cannot see (the other hands and the stock; the
    beliefs' items, ``sniff_twelve.beliefs``)."""
    out[:] = 0
    for seat in range(params[K.P_PLAYERS]):
        if seat != me:
            for r in range(MAX_RANKS):
                out[r] += s[K.HAND + MAX_RANKS * seat + r]
    for i in range(s[K.STOCK_HEAD], s[K.STOCK_LEN]):
        out[s[K.STOCK + i]] += 1


@nb.njit(cache=True)
def _deal(s, params, me, d, cards):
    """Deal ``cards`` (in order) to the other hands in seat order, their sizes kept, then to the
    stock's remaining slots of ``d``."""
    j = 0
    for seat in range(params[K.P_PLAYERS]):
        if seat == me:
            continue
        size = K.hand_size(s, seat)
        for r in range(MAX_RANKS):
            d[K.HAND + MAX_RANKS * seat + r] = 0
        for _ in range(size):
            d[K.HAND + MAX_RANKS * seat + cards[j]] += 1
            j += 1
    for i in range(s[K.STOCK_HEAD], s[K.STOCK_LEN]):
        d[K.STOCK + i] = cards[j]
        j += 1


@nb.njit(cache=True)
def _hidden_in_rank_order(s, params, me, cards):
    """Write the hidden cards into ``cards`` in rank order; returns how many there are."""
    counts = np.zeros(MAX_RANKS, dtype=np.int64)
    hidden_items(s, params, me, counts)
    count = 0
    for r in range(MAX_RANKS):
        for _ in range(counts[r]):
            cards[count] = r
            count += 1
    return count


@nb.njit(cache=True)
def write_view(s, params, seat, out):
    """Fill ``out`` (a state-sized row) with what ``seat`` may know of ``s`` (module docstring)."""
    copy_public(s, out, K.RNG)
    out[K.PILE + s[K.PILE_LEN] : K.PILE + STOCK_SLOTS] = 0  # cards of piles already taken
    out[K.STOCK : K.STOCK + STOCK_SLOTS] = 0
    cards = np.empty(COPIES * MAX_RANKS, dtype=np.int32)
    _hidden_in_rank_order(s, params, seat, cards)
    _deal(s, params, seat, out, cards)


@nb.njit(cache=True)
def determinize(s, params, me, d, rng, cards):
    """Copy ``s`` into ``d`` with the cards hidden from ``me`` (other hands, stock) shuffled and
    dealt again; hand sizes and the stock size are kept. ``cards`` is scratch (52)."""
    d[:] = s
    count = _hidden_in_rank_order(s, params, me, cards)  # so the result depends only on the view
    shuffle(rng, SEARCH_RNG, cards, count)
    _deal(s, params, me, d, cards)


@nb.njit(cache=True)
def resample(view, params, seat, out, rng):
    """``determinize`` with its own scratch: a full state consistent with ``seat``'s view."""
    determinize(view, params, seat, out, rng, np.empty(COPIES * MAX_RANKS, dtype=np.int32))


# --- what a seat's beliefs are about (``sniff_twelve.beliefs``) -------------------------------------
ITEMS = MAX_RANKS  # cards of one rank are alike: an item is a rank, held in counts


@nb.njit(cache=True)
def held_items(s, params, seat, out):
    """``out[r]``: cards of rank ``r`` that ``seat`` holds in ``s``."""
    for r in range(MAX_RANKS):
        out[r] = s[K.HAND + MAX_RANKS * seat + r]


@nb.njit(cache=True)
def hand_size(s, params, seat):
    return K.hand_size(s, seat)


@nb.njit(cache=True)
def shown_item(s, params, action):
    """The card ``action`` puts face up from the actor's hand: every play (T7)."""
    return action


@nb.njit(cache=True)
def deal_hidden(view, params, me, holdings, pool, out):
    """``out``: ``view`` with the other hands dealt from ``holdings[i]`` (rank counts of the
    ``i``-th other seat, in seat order) and the stock's remaining slots from ``pool`` (ranks, in
    draw order)."""
    out[:] = view
    place = 0
    for seat in range(params[K.P_PLAYERS]):
        if seat == me:
            continue
        for r in range(MAX_RANKS):
            out[K.HAND + MAX_RANKS * seat + r] = holdings[place, r]
        place += 1
    for i in range(pool.shape[0]):
        out[K.STOCK + view[K.STOCK_HEAD] + i] = pool[i]


@nb.njit(cache=True)
def allowed_items(view, params, me, out):
    """Any other seat may hold any rank until its history says otherwise (T7: any card may be
    played, so no move reveals a void)."""
    out[:] = True
