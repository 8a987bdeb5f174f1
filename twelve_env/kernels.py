"""Compiled rules of "12" (Jamaican Sniping): the single source of truth (docs/rules.md Part T).

One game is one ``int32`` row (``STATE_SIZE`` slots); its options are a small ``PARAMS_SIZE`` row.
Every function is ``numba.njit(cache=True)`` over these arrays only, so batches of rows can be
stepped in ``prange``.

State layout (slot: meaning):

=====================  ==========================================================================
``RNG``, ``RNG+1``     the game's own splitmix64 stream (the shuffle, the first player)
``STATUS``             ``LIVE`` or ``OVER``
``CUR`` / ``FIRST``    seat to act / seat that played first (T6)
``STEPS``              cards played so far
``LAST_ROUND``         turns left in the last round (T13), ``-1`` before it
``STOCK_HEAD/LEN``     next stock card / cards dealt to the stock; ``STOCK+i`` the stock in order
``PILE_LEN``           face-up cards; ``PILE+i`` the pile bottom first (``PILE_LEN - 1`` is the top)
``HAND+13*s+r``        how many cards of rank ``r`` seat ``s`` holds
``CAPTURED+s``         cards seat ``s`` has captured (T8)
``SEEN+r``             cards of rank ``r`` seen face up so far (played or turned)
=====================  ==========================================================================
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_twelve.core.rng import below, shuffle
from twelve_env.cards import COPIES, MAX_RANKS, SIX, VALUES

P_PLAYERS, P_DECK, P_EXTRA_TURN = range(3)
PARAMS_SIZE = 3

RNG = 0
STATUS = 2
CUR = 3
FIRST = 4
STEPS = 5
LAST_ROUND = 6
STOCK_HEAD = 7
STOCK_LEN = 8
PILE_LEN = 9
HAND = 10  # 7 * 13 slots
CAPTURED = HAND + 7 * MAX_RANKS  # 7 slots
SEEN = CAPTURED + 7  # 13 slots
STOCK = SEEN + MAX_RANKS  # 52 slots
PILE = STOCK + 52  # 52 slots
STATE_SIZE = PILE + 52

LIVE, OVER = 0, 1
HAND_SIZE = 5  # T5


@nb.njit(cache=True, inline="always")
def num_ranks(params):
    return 13 if params[P_DECK] == 0 else 11


@nb.njit(cache=True)
def hand_size(s, seat):
    total = 0
    for r in range(MAX_RANKS):
        total += s[HAND + MAX_RANKS * seat + r]
    return total


@nb.njit(cache=True)
def legal_mask_into(s, params, out):
    """T7: any rank the seat to act holds; nothing once the game is over."""
    out[:] = False
    if s[STATUS] != LIVE:
        return
    base = HAND + MAX_RANKS * s[CUR]
    for r in range(num_ranks(params)):
        out[r] = s[base + r] > 0


@nb.njit(cache=True)
def _draw(s, seat):
    """Move the next stock card into ``seat``'s hand, if there is one."""
    if s[STOCK_HEAD] < s[STOCK_LEN]:
        s[HAND + MAX_RANKS * seat + s[STOCK + s[STOCK_HEAD]]] += 1
        s[STOCK_HEAD] += 1


@nb.njit(cache=True)
def _turn_up(s):
    """Start a new face-up pile from the stock (T5, T10)."""
    card = s[STOCK + s[STOCK_HEAD]]
    s[STOCK_HEAD] += 1
    s[PILE] = card
    s[PILE_LEN] = 1
    s[SEEN + card] += 1


@nb.njit(cache=True)
def start_game(s, params, first):
    """After the hands and stock are in place: turn up the first card (T5) and seat ``first``."""
    s[STATUS] = LIVE
    s[CUR] = first
    s[FIRST] = first
    s[LAST_ROUND] = -1
    _turn_up(s)
    if s[STOCK_HEAD] >= s[STOCK_LEN]:
        s[LAST_ROUND] = params[P_PLAYERS]  # T13: the stock ran out as the card was turned


@nb.njit(cache=True)
def new_game(s, params, rng_hi, rng_lo):
    """Shuffle, deal 5 each (T5) and pick the first player by the stream (T6)."""
    s[:] = 0
    s[RNG] = rng_hi
    s[RNG + 1] = rng_lo
    n = params[P_PLAYERS]
    ranks = num_ranks(params)
    deck = np.empty(ranks * COPIES, dtype=np.int32)
    for i in range(ranks * COPIES):
        deck[i] = i // COPIES
    shuffle(s, RNG, deck, ranks * COPIES)
    for i in range(n * HAND_SIZE):
        s[HAND + MAX_RANKS * (i // HAND_SIZE) + deck[i]] += 1
    rest = ranks * COPIES - n * HAND_SIZE
    for i in range(rest):
        s[STOCK + i] = deck[n * HAND_SIZE + i]
    s[STOCK_LEN] = rest
    start_game(s, params, below(s, RNG, n))


@nb.njit(cache=True)
def apply_action(s, params, rank):
    """Play one card of ``rank`` for the seat to act (T7–T14). Legality is the caller's."""
    n = params[P_PLAYERS]
    cur = s[CUR]
    in_last_round = s[LAST_ROUND] >= 0
    top = s[PILE + s[PILE_LEN] - 1]
    s[HAND + MAX_RANKS * cur + rank] -= 1
    s[SEEN + rank] += 1
    s[PILE + s[PILE_LEN]] = rank
    s[PILE_LEN] += 1
    s[STEPS] += 1
    deck = params[P_DECK]
    capture = rank == top or VALUES[deck, rank] + VALUES[deck, top] == 12  # T8, T3
    if capture:
        s[CAPTURED + cur] += s[PILE_LEN]
        s[PILE_LEN] = 0
    if hand_size(s, cur) == 0:
        s[STATUS] = OVER  # T12: the play counts, nothing is drawn after it
        return 1
    nxt = (cur + 1) % n
    if capture:
        if rank == SIX and top == SIX:  # T11: the others draw, in turn order, first
            for i in range(1, n):
                _draw(s, (cur + i) % n)
        if s[STOCK_HEAD] >= s[STOCK_LEN]:
            s[STATUS] = OVER  # T14: no card can be turned face up
            return 1
        _turn_up(s)  # T10
        if params[P_EXTRA_TURN]:
            nxt = cur  # T10 variant: the capturer plays again
    elif not in_last_round:
        _draw(s, cur)  # T9
    s[CUR] = nxt
    if in_last_round:
        s[LAST_ROUND] -= 1
        if s[LAST_ROUND] == 0:
            s[STATUS] = OVER  # T13: everyone has had their last turn
            return 1
    elif s[STOCK_HEAD] >= s[STOCK_LEN]:
        s[LAST_ROUND] = n  # T13: from the next turn on, one more turn each
    return 0


@nb.njit(cache=True)
def write_scores(s, params, out):
    """T15: captured cards minus cards in hand, per seat."""
    for seat in range(params[P_PLAYERS]):
        out[seat] = s[CAPTURED + seat] - hand_size(s, seat)
