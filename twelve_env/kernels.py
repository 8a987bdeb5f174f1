"""Compiled rules of "12" (Jamaican Sniping): the single source of truth (docs/rules.md Part T).

One game is one ``int32`` row (``STATE_SIZE`` slots); its options are a small ``PARAMS_SIZE`` row.
Every function is ``numba.njit(cache=True)`` over these arrays only, so batches of rows can be
stepped in ``prange``.

State layout (``STATE``; a field's offset is the module constant named after it in capitals):

{STATE}
"""

from __future__ import annotations

import numba as nb

from sniff_twelve.core.layout import Layout, with_tables
from sniff_twelve.core.rng import below, shuffle
from sniff_twelve.core.seats import seat_after
from twelve_env.cards import COPIES, LIST_DECK, MAX_RANKS, SIX, VALUES

P_PLAYERS, P_DECK, P_EXTRA_TURN, P_HAND_SIZE, P_COUNTS = range(5)  # P_COUNTS: 11 slots, values 1–11
PARAMS_SIZE = P_COUNTS + 11

STATE = Layout(
    ("rng", 2, "the game's own splitmix64 stream (the shuffle, the first player)"),
    ("status", 1, "``LIVE`` or ``OVER``"),
    ("cur", 1, "seat to act"),
    ("first", 1, "seat that played first (T6)"),
    ("steps", 1, "cards played so far"),
    ("last_round", 1, "turns left in the last round (T13), ``-1`` before it"),
    ("stock_head", 1, "the next stock card"),
    ("stock_len", 1, "cards dealt to the stock"),
    ("pile_len", 1, "face-up cards"),
    ("hand", 7 * MAX_RANKS, "``HAND + 13 * s + r``: how many cards of rank ``r`` seat ``s`` holds"),
    ("captured", 7, "cards each seat has captured (T8)"),
    ("seen", MAX_RANKS, "cards of each rank seen face up so far (played or turned)"),
    ("stock", 52, "the stock in order"),
    ("pile", 52, "the face-up pile, bottom first (``PILE_LEN - 1`` is the top)"),
)
RNG, STATUS, CUR, FIRST, STEPS, LAST_ROUND, STOCK_HEAD, STOCK_LEN, PILE_LEN, HAND, CAPTURED, SEEN, STOCK, PILE = (
    STATE.offsets()
)
STATE_SIZE = STATE.size
__doc__ = with_tables(__doc__, STATE=STATE)

LIVE, OVER = 0, 1
HAND_SIZE = 5  # T5; the size dial's ``hand_size`` deals another count


@nb.njit(cache=True, inline="always")
def num_ranks(params):
    return 13 if params[P_DECK] == 0 else 11


@nb.njit(cache=True, inline="always")
def copies(params, rank):
    """Cards of ``rank`` in the deck: four of each (T1), or the size dial's list of values."""
    return params[P_COUNTS + rank] if params[P_DECK] == LIST_DECK else COPIES


@nb.njit(cache=True, inline="always")
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


@nb.njit(cache=True, inline="always")
def _draw(s, seat):
    """Move the next stock card into ``seat``'s hand, if there is one."""
    if s[STOCK_HEAD] < s[STOCK_LEN]:
        s[HAND + MAX_RANKS * seat + s[STOCK + s[STOCK_HEAD]]] += 1
        s[STOCK_HEAD] += 1


@nb.njit(cache=True, inline="always")
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
    """Shuffle, deal 5 each (T5; the size dial's ``hand_size``) and pick the first player by the
    stream (T6)."""
    s[:] = 0
    s[RNG] = rng_hi
    s[RNG + 1] = rng_lo
    n = params[P_PLAYERS]
    size = params[P_HAND_SIZE]
    cards = 0
    for r in range(num_ranks(params)):  # the deck is laid out in the stock's slots, no allocation
        for _ in range(copies(params, r)):
            s[STOCK + cards] = r
            cards += 1
    deck = s[STOCK : STOCK + cards]
    shuffle(s, RNG, deck, cards)
    for i in range(n * size):
        s[HAND + MAX_RANKS * (i // size) + deck[i]] += 1
    rest = cards - n * size
    for i in range(cards):
        deck[i] = deck[n * size + i] if i < rest else 0  # what is left over, moved to the front
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
    nxt = seat_after(cur, 1, n)
    if capture:
        if rank == SIX and top == SIX:  # T11: the others draw, in turn order, first
            for i in range(1, n):
                _draw(s, seat_after(cur, i, n))
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
