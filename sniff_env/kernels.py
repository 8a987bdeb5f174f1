"""Compiled rules of American Sniff: the single source of truth (docs/rules.md Part S).

One match is one ``int32`` row (``STATE_SIZE`` slots, laid out below); the match's options are a
second small row (``PARAMS_SIZE``). Every function here is ``numba.njit(cache=True)``, touches only
these arrays and the tile tables, and so can run over rows of a 2-D batch in ``prange``.

State layout (``STATE``; a field's offset is the module constant named after it in capitals):

{STATE}
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_env.tiles import DRAW, NUM_TILES, PASS, PIP_TILES, TILE_HIGH, TILE_LOW
from sniff_twelve.core.bits import lowest_bit
from sniff_twelve.core.layout import Layout, with_tables
from sniff_twelve.core.rng import below, shuffle
from sniff_twelve.core.seats import seat_after
from sniff_twelve.core.tiles import is_double, pip_count

# --- options row -------------------------------------------------------------------------------
P_PLAYERS, P_TARGET, P_MAX_HANDS, P_MAX_STEPS, P_HAND_EPISODE, P_ALL_FIVES, P_UNDRAWN, P_PIPS, P_HAND_SIZE = range(9)
PARAMS_SIZE = 9

# --- state row (the table in the module docstring is STATE.rst()) ------------------------------
STATE = Layout(
    ("rng", 2, "the match's own splitmix64 stream (deals and lots, S5/S6)"),
    ("status", 1, "``LIVE``, ``WON`` (S25), ``TRUNCATED`` (S26), ``HAND_OVER`` (hand episodes)"),
    ("winner", 1, "side that reached the target, ``-1``"),
    ("cur", 1, "seat to act"),
    ("opener", 1, "seat that opened this hand"),
    ("hands_done", 1, "hands completed in this match"),
    ("steps", 1, "actions applied in this match"),
    ("hand", 4, "28-bit tile mask of each seat"),
    ("bone", 28, "the boneyard in draw order"),
    ("bone_head", 1, "the next boneyard tile to draw"),
    ("bone_len", 1, "tiles dealt to the boneyard"),
    ("score", 4, "match score per side (seat with 2–3 players, seat % 2 with 4)"),
    ("credit", 1, "credit of the last placement (S17), kept when that placement ends the hand"),
    ("played", 1, "mask of the tiles on the table"),
    ("n_placed", 1, "count of the tiles on the table"),
    ("log", 28, "placement ``i``, packed: tile, arm, parent tile + 1, parent side, own side"),
    ("sniff", 1, "the Sniff's tile (S12), ``-1``"),
    ("side_arms_open", 1, "both line sides of the Sniff taken (S13)"),
    ("end_tile", 4, "arm ``k``'s outer end: its tile (``-1``: the arm is not a free spot)"),
    ("end_side", 4, "arm ``k``'s outer end: the side that is free"),
    ("end_pip", 4, "arm ``k``'s outer end: the pip it accepts"),
    ("voids", 4, "pips each seat is publicly known to lack (drew or passed while open)"),
    ("last_result", 1, "how the last hand ended (``DOMINO`` / ``BLOCKED``)"),
    ("last_out", 1, "who went out in the last hand"),
    ("deduct", 4, "rounded pips deducted from each seat at the last settlement (S23/S24)"),
    ("last_scored", 4, "scored ends right after the last placement: ``tile * 64 + contribution``, ``-1``"),
    ("voids_held", 1, "the drawing seat's voids while it holds a drawn tile it must place, ``-1``"),
    ("settled_side", 1, "All Fives variant (S4a): the side credited at the last settlement"),
    ("settled_points", 1, "All Fives variant (S4a): how much it was credited"),
)
(
    RNG, STATUS, WINNER, CUR, OPENER, HANDS_DONE, STEPS, HAND, BONE, BONE_HEAD, BONE_LEN, SCORE, CREDIT,
    PLAYED, N_PLACED, LOG, SNIFF, SIDE_ARMS_OPEN, END_TILE, END_SIDE, END_PIP, VOIDS, LAST_RESULT,
    LAST_OUT, DEDUCT, LAST_SCORED, VOIDS_HELD, SETTLED_SIDE, SETTLED_POINTS,
) = STATE.offsets()  # fmt: skip
STATE_SIZE = STATE.size
__doc__ = with_tables(__doc__, STATE=STATE)

# STATUS values
LIVE, WON, TRUNCATED, HAND_OVER = 0, 1, 2, 3
# LAST_RESULT values
NO_RESULT, DOMINO, BLOCKED = 0, 1, 2
# sides of a tile (docs/api.md describe())
LOW, HIGH, LINE_A, LINE_B, ARM_A, ARM_B = range(6)
SIDE_NAMES = ("low", "high", "line_a", "line_b", "arm_a", "arm_b")
# bit flags returned by apply()
EV_HAND_END, EV_BLOCKED, EV_WON, EV_TRUNCATED = 1, 2, 4, 8

HAND_SIZE = {2: 7, 3: 6, 4: 5}  # S5, by player count
MAX_PIPS = 6  # S2: the double-six set; the size dial's ``pips`` plays the double-N set, N <= 6
DEFAULT_TARGET = {2: 250, 3: 200, 4: 200}  # S3


@nb.njit(cache=True, inline="always")
def side_of(params, seat):
    """Score slot of ``seat``: partnerships 0+2 / 1+3 with four players (S1)."""
    return seat % 2 if params[P_PLAYERS] == 4 else seat


@nb.njit(cache=True, inline="always")
def can_draw(s, params):
    """Whether the boneyard still has a tile to draw (S19); the ``undrawn`` variant (S4a) leaves
    its last one or two tiles in it."""
    return s[BONE_LEN] - s[BONE_HEAD] > params[P_UNDRAWN]


@nb.njit(cache=True)
def stuck_action(s, params):
    """What the seat to act does when no tile fits: DRAW while the boneyard allows (S19), else
    PASS (S21)."""
    return DRAW if can_draw(s, params) else PASS


@nb.njit(cache=True)
def forced_move(s, params):
    """DRAW or PASS when that is all the seat to act can do (S19, S21), else ``-1``: the one
    place the forced-move rule is written (the env's ``forced="auto"``, ``VectorGame.step``, the
    single-seat env and the learner all ask it)."""
    if s[STATUS] != LIVE or playable_mask(s, np.int64(s[HAND + s[CUR]])) != 0:
        return -1
    return stuck_action(s, params)


@nb.njit(cache=True)
def open_pips(s):
    """Bit mask of the pips accepted by the free attachment spots (all pips before the opening)."""
    if s[N_PLACED] == 0:
        return 0x7F
    pips = 0
    for k in range(4):
        if s[END_PIP + k] >= 0:
            pips |= 1 << s[END_PIP + k]
    return pips


@nb.njit(cache=True)
def playable_mask(s, hand):
    """Tiles of ``hand`` that have a legal placement now (S9)."""
    if s[N_PLACED] == 0:
        return hand
    out = 0
    pips = open_pips(s)
    for p in range(7):
        if (pips >> p) & 1:
            out |= hand & PIP_TILES[p]
    return out


@nb.njit(cache=True, inline="always")
def arm_contribution(s, k):
    """What arm ``k``'s outer end scores (S10, S14), or ``-1`` when it is not a scored end.

    The opening Sniff with both line sides free is one end double: it is scored once, on arm 0.
    """
    if s[END_PIP + k] < 0:
        return -1
    tile = s[END_TILE + k]
    pip = s[END_PIP + k]
    if k == 1 and tile == s[SNIFF] and tile == s[END_TILE]:
        return -1  # both line sides of the opening Sniff are free: counted on arm 0
    if k >= 2 and tile == s[SNIFF]:
        return pip  # an uncovered side arm counts one half (S14)
    if is_double(tile):
        return 2 * pip  # an end double counts both halves (S10)
    return pip


@nb.njit(cache=True, inline="always")
def _record_scored(s):
    """Store the scored ends in ``LAST_SCORED`` and return their total (S17)."""
    total = 0
    for k in range(4):
        c = arm_contribution(s, k)
        s[LAST_SCORED + k] = s[END_TILE + k] * 64 + c if c >= 0 else -1
        total += max(c, 0)
    return total


@nb.njit(cache=True, inline="always")
def _fit(s, hand, k):
    pip = s[END_PIP + k]
    return np.int64(hand & PIP_TILES[pip]) if pip >= 0 else np.int64(0)


@nb.njit(cache=True, inline="always")
def fitting(s, hand):
    """The tiles of ``hand`` that fit arm 0, 1, 2 and 3 (S9: a tile carrying the pip of the arm's
    free spot; 0 for an arm without one). Before the opening every tile opens, on arm 0 (S8)."""
    if s[N_PLACED] == 0:
        return np.int64(hand), np.int64(0), np.int64(0), np.int64(0)
    return _fit(s, hand, 0), _fit(s, hand, 1), _fit(s, hand, 2), _fit(s, hand, 3)


@nb.njit(cache=True)
def legal_mask_into(s, params, out):
    """Write the legal actions of the seat to act into the bool array ``out`` (S8, S18–S21)."""
    out[:] = False
    if s[STATUS] != LIVE:
        return
    fits = fitting(s, s[HAND + s[CUR]])  # S20 holds by itself: after a draw only the drawn tile can fit
    if (fits[0] | fits[1] | fits[2] | fits[3]) == 0:
        out[stuck_action(s, params)] = True
        return
    for k in range(4):
        cand = fits[k]
        while cand:
            out[lowest_bit(cand) * 4 + k] = True
            cand &= cand - 1


@nb.njit(cache=True)
def legal_actions_into(s, params, out):
    """The legal actions of ``legal_mask_into`` as a list: written to ``out`` in increasing order,
    returns how many (what a search walks, without scanning all 114 ids)."""
    if s[STATUS] != LIVE:
        return 0
    fits = fitting(s, s[HAND + s[CUR]])
    cand = fits[0] | fits[1] | fits[2] | fits[3]
    if cand == 0:
        out[0] = stuck_action(s, params)
        return 1
    count = 0
    while cand:
        tile = lowest_bit(cand)
        cand &= cand - 1
        for k in range(4):
            if (fits[k] >> tile) & 1:
                out[count] = tile * 4 + k
                count += 1
    return count


@nb.njit(cache=True, inline="always")
def _set_end(s, k, tile, side, pip):
    s[END_TILE + k] = tile
    s[END_SIDE + k] = side
    s[END_PIP + k] = pip


@nb.njit(cache=True, inline="always")
def _place(s, tile, arm):
    """Lay ``tile`` on ``arm`` and update the layout (S8–S13). Legality is the caller's."""
    low = TILE_LOW[tile]
    high = TILE_HIGH[tile]
    double = low == high
    if s[N_PLACED] == 0:
        parent, parent_side, own_side = -1, 0, LINE_A if double else LOW
        if double:
            s[SNIFF] = tile  # S12: an opening double is the Sniff
            _set_end(s, 0, tile, LINE_A, low)
            _set_end(s, 1, tile, LINE_B, low)
        else:
            _set_end(s, 0, tile, LOW, low)
            _set_end(s, 1, tile, HIGH, high)
    else:
        parent, parent_side, pip = s[END_TILE + arm], s[END_SIDE + arm], s[END_PIP + arm]
        if double:
            own_side = LINE_A
            _set_end(s, arm, tile, LINE_B, pip)  # S11: one onward spot
            if s[SNIFF] < 0:
                s[SNIFF] = tile  # S12: the first double of the hand
        elif low == pip:
            own_side = LOW
            _set_end(s, arm, tile, HIGH, high)
        else:
            own_side = HIGH
            _set_end(s, arm, tile, LOW, low)
        sniff = s[SNIFF]
        if sniff >= 0 and s[SIDE_ARMS_OPEN] == 0 and s[END_TILE] != sniff and s[END_TILE + 1] != sniff:
            s[SIDE_ARMS_OPEN] = 1  # S13: both line sides continued
            v = TILE_LOW[sniff]
            _set_end(s, 2, sniff, ARM_A, v)
            _set_end(s, 3, sniff, ARM_B, v)
    s[LOG + s[N_PLACED]] = tile | (arm << 5) | ((parent + 1) << 7) | (parent_side << 12) | (own_side << 15)
    s[N_PLACED] += 1
    s[PLAYED] |= 1 << tile
    s[HAND + s[CUR]] &= ~(1 << tile)


@nb.njit(cache=True)
def lay_tile(s, action):
    """Lay the placement ``action`` for the seat to act and score the new layout (S8–S17): sets
    ``CREDIT`` and ``LAST_SCORED`` and returns the credit. Scores, turn and hand end are
    ``apply_action``'s; the look-ahead uses this part alone."""
    _place(s, action // 4, action % 4)
    total = _record_scored(s)
    credit = total if total > 0 and total % 5 == 0 else 0  # S17
    s[CREDIT] = credit
    return credit


@nb.njit(cache=True, inline="always")
def _anyone_can_play(s, params):
    for seat in range(params[P_PLAYERS]):
        if playable_mask(s, np.int64(s[HAND + seat])) != 0:
            return True
    return False


@nb.njit(cache=True, inline="always")
def _clear_table(s):
    s[PLAYED] = 0
    s[N_PLACED] = 0
    s[SNIFF] = -1
    s[SIDE_ARMS_OPEN] = 0
    for k in range(4):
        _set_end(s, k, -1, 0, -1)
        s[VOIDS + k] = 0


@nb.njit(cache=True)
def deal_hand(s, params, opener):
    """Shuffle the set and deal a new hand (S5): the double-``pips`` set, ``hand_size`` tiles a
    seat (the size dial; S2 and S5's counts by default); ``opener < 0`` draws the opener by lot (S6)."""
    n = params[P_PLAYERS]
    tiles = s[BONE : BONE + NUM_TILES]  # the set is shuffled in the boneyard's slots, no allocation
    count = 0
    for t in range(NUM_TILES):
        tiles[t] = 0
        if TILE_HIGH[t] <= params[P_PIPS]:
            tiles[count] = t
            count += 1
    shuffle(s, RNG, tiles, count)
    size = params[P_HAND_SIZE]
    for seat in range(4):
        s[HAND + seat] = 0
    for seat in range(n):
        for j in range(size):
            s[HAND + seat] |= 1 << tiles[seat * size + j]
    rest = count - n * size
    for j in range(NUM_TILES):
        tiles[j] = tiles[n * size + j] if j < rest else 0  # what is left over, moved to the front
    s[BONE_HEAD] = 0
    s[BONE_LEN] = rest
    _clear_table(s)
    lot = below(s, RNG, n)  # drawn every hand, so hand k's deal never depends on how hand k-1 ended
    if opener < 0:
        opener = lot
    s[OPENER] = opener
    s[CUR] = opener


@nb.njit(cache=True)
def new_match(s, params, rng_hi, rng_lo):
    """Reset ``s`` to the first hand of a fresh match seeded with the given stream words."""
    s[:] = 0
    s[RNG] = rng_hi
    s[RNG + 1] = rng_lo
    s[WINNER] = -1
    s[LAST_OUT] = -1
    s[VOIDS_HELD] = -1
    s[LAST_SCORED : LAST_SCORED + 4] = -1
    deal_hand(s, params, np.int64(-1))


@nb.njit(cache=True)
def _settle(s, params, result, out_seat):
    """End the hand (S22–S24, S6) and deal the next one unless the match or episode is over.
    Its callers pass int64 arguments, as they do to ``deal_hand`` and ``playable_mask``: numba
    compiles a kernel once per argument types, and a literal or an int32 read from the row would
    each compile another copy."""
    n = params[P_PLAYERS]
    for seat in range(4):
        s[DEDUCT + seat] = 0
    for seat in range(n):
        s[DEDUCT + seat] = (pip_count(s[HAND + seat]) + 2) // 5 * 5  # S23: each hand on its own
    s[LAST_RESULT] = result
    s[LAST_OUT] = out_seat
    s[HANDS_DONE] += 1
    s[SETTLED_SIDE] = -1
    s[SETTLED_POINTS] = 0
    if params[P_ALL_FIVES]:
        if _all_fives_settlement(s, params, out_seat if result == DOMINO else _lowest_hand(s, params)):
            return EV_HAND_END | EV_WON
    else:
        for seat in range(n):
            s[SCORE + side_of(params, seat)] -= s[DEDUCT + seat]  # S24
    if params[P_HAND_EPISODE]:
        s[STATUS] = HAND_OVER
        return EV_HAND_END
    if params[P_MAX_HANDS] > 0 and s[HANDS_DONE] >= params[P_MAX_HANDS]:
        s[STATUS] = TRUNCATED  # S26
        return EV_HAND_END | EV_TRUNCATED
    deal_hand(s, params, out_seat)  # S6: the domino-maker opens, else a new lot
    return EV_HAND_END


@nb.njit(cache=True, inline="always")
def _lowest_hand(s, params):
    """Seat with the fewest pips; ``-1`` when seats of different sides tie for it (S4a variant)."""
    n = params[P_PLAYERS]
    fewest = 1 << 30
    for seat in range(n):
        fewest = min(fewest, pip_count(s[HAND + seat]))
    best = -1
    for seat in range(n):
        if pip_count(s[HAND + seat]) == fewest:
            if best < 0:
                best = seat
            elif side_of(params, seat) != side_of(params, best):
                return -1
    return best


@nb.njit(cache=True, inline="always")
def _all_fives_settlement(s, params, seat):
    """S4a variant: ``seat``'s side scores the other sides' rounded pips (``DEDUCT`` holds them);
    returns whether that wins the match (S25)."""
    if seat < 0:
        return False
    side = side_of(params, seat)
    points = 0
    for other in range(params[P_PLAYERS]):
        if side_of(params, other) != side:
            points += s[DEDUCT + other]
    s[SETTLED_SIDE] = side
    s[SETTLED_POINTS] = points
    s[SCORE + side] += points
    if points > 0 and s[SCORE + side] >= params[P_TARGET]:
        s[STATUS] = WON
        s[WINNER] = side
        return True
    return False


@nb.njit(cache=True, inline="always")
def _blocked(s, params):
    """S21 decision: block as soon as the boneyard is empty and nobody can place."""
    return not can_draw(s, params) and not _anyone_can_play(s, params)


@nb.njit(cache=True)
def apply_action(s, params, action):
    """Apply a legal ``action`` for the seat to act; returns ``EV_*`` flags. Legality is the caller's."""
    n = params[P_PLAYERS]
    cur = s[CUR]
    events = 0
    if action == DRAW:  # S19: one tile at a time
        known = s[VOIDS + cur] | open_pips(s)
        tile = s[BONE + s[BONE_HEAD]]
        s[BONE_HEAD] += 1
        s[HAND + cur] |= 1 << tile
        if playable_mask(s, 1 << tile):
            # S20: it is the only tile that fits, so it is placed next; until then the seat may
            # hold any pip, and afterwards it again lacks what it lacked before the draw
            s[VOIDS_HELD] = known
            s[VOIDS + cur] = 0
        else:
            s[VOIDS + cur] = open_pips(s)  # the unseen new tile may carry older voids
            if _blocked(s, params):
                events = EV_BLOCKED | _settle(s, params, np.int64(BLOCKED), np.int64(-1))
    elif action == PASS:  # S21
        s[VOIDS + cur] |= open_pips(s)
        s[CUR] = seat_after(cur, 1, n)
    else:
        credit = lay_tile(s, action)
        if s[VOIDS_HELD] >= 0:
            s[VOIDS + cur] = s[VOIDS_HELD]
            s[VOIDS_HELD] = -1
        side = side_of(params, cur)
        s[SCORE + side] += credit
        if s[SCORE + side] >= params[P_TARGET]:  # S25: the match ends at once
            s[STATUS] = WON
            s[WINNER] = side
            events = EV_WON
        elif s[HAND + cur] == 0:  # S22: domino
            events = _settle(s, params, np.int64(DOMINO), np.int64(cur))
        else:
            s[CUR] = seat_after(cur, 1, n)  # S7
            if _blocked(s, params):
                events = EV_BLOCKED | _settle(s, params, np.int64(BLOCKED), np.int64(-1))
    s[STEPS] += 1
    if s[STATUS] == LIVE and params[P_MAX_STEPS] > 0 and s[STEPS] >= params[P_MAX_STEPS]:
        s[STATUS] = TRUNCATED  # S26
        events |= EV_TRUNCATED
    return events
