"""Compiled rules of block dominoes as OpenSpiel plays them (docs/dominoes_rules.md, D1–D12).

One game is one ``int32`` row (``STATE``); the options row holds the table size only. Hands are
28-bit tile masks (``sniff_twelve.core.tiles``). Actions are OpenSpiel's own ids of one player
(D6): for every tile in set order, its lead (on an empty table), then its placement against an
open end showing its low pip, then (not a double) its high pip. OpenSpiel's id is ``seat *
NUM_ACTIONS + action``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_twelve.core.bits import lowest_bit, popcount
from sniff_twelve.core.layout import Layout
from sniff_twelve.core.rewards import LIVE as EPISODE_LIVE
from sniff_twelve.core.rewards import TERMINATED
from sniff_twelve.core.rng import below, pick_legal, shuffle
from sniff_twelve.core.tiles import BYTE_BITS, NUM_TILES, PIP_TILES, TILE_HIGH, TILE_LOW, TILES, pip_count, write_tiles

HAND_SIZE, MAX_PLAYERS, UNDEALT = 7, 4, NUM_TILES - 2 * 7  # D3: 2 players leave 14 tiles undealt
#: ``ACTION_TILE[a]``, ``ACTION_PIP[a]``: the tile of action ``a`` and the pip of the end it goes
#: against (``-1``: the lead), in OpenSpiel's order (D6)
_PAIRS = [(t, p) for t, (lo, hi) in enumerate(TILES) for p in (-1, lo, hi)[: 2 if lo == hi else 3]]
ACTION_TILE = np.array([t for t, _ in _PAIRS], dtype=np.int32)
ACTION_PIP = np.array([p for _, p in _PAIRS], dtype=np.int32)
FIRST_ACTION = np.array([_PAIRS.index((t, -1)) for t in range(NUM_TILES)], dtype=np.int32)
NUM_ACTIONS = len(_PAIRS)  # 77
P_PLAYERS, PARAMS_SIZE = 0, 1
LIVE, OVER = 0, 1
SEARCH_RNG = 0

STATE = Layout(
    ("rng", 2, "the game's own splitmix64 stream (the deal)"),
    ("status", 1, "``LIVE`` or ``OVER``"),
    ("cur", 1, "seat to act"),
    ("steps", 1, "tiles placed so far"),
    ("ends", 2, "the pips of the two open ends (``-1`` before the lead)"),
    ("hand", MAX_PLAYERS, "each seat's tiles, a 28-bit mask"),
    ("played", 1, "the tiles on the table, a mask"),
    ("voids", MAX_PLAYERS, "pips each seat is publicly known to lack (it was skipped with them open), 7 bits"),
    ("log", NUM_TILES, "OpenSpiel's id of every placement in order (``seat * NUM_ACTIONS + action``)"),
    ("undealt", UNDEALT, "the tiles left undealt with 2 players (never drawn, D3)"),
    ("undealt_head", 1, "always 0: no tile is ever drawn from them"),
    ("undealt_len", 1, "how many (14 or 0)"),
)
RNG, STATUS, CUR, STEPS, ENDS, HAND, PLAYED, VOIDS, LOG, BONE, BONE_HEAD, BONE_LEN = STATE.offsets()
STATE_SIZE = STATE.size

OBS = Layout(
    ("seat", MAX_PLAYERS, "my seat, one-hot"),
    ("hand", NUM_TILES, "my tiles"),
    ("table", NUM_TILES, "the tiles placed"),
    ("ends", 14, "the lower open end's pip one-hot, then the higher's (all 0 before the lead)"),
    ("hand_sizes", MAX_PLAYERS - 1, "hand sizes of relative seats 1–3"),
    ("voids", 7 * (MAX_PLAYERS - 1), "pips relative seats 1–3 are known to lack, 7 each"),
)
O_SEAT, O_HAND, O_TABLE, O_ENDS, O_SIZES, O_VOIDS = OBS.offsets()
OBS_SIZE = OBS.size
CRITIC_SIZE = OBS_SIZE + (MAX_PLAYERS - 1) * NUM_TILES  # + the other hands, relative seats 1–3
ACTION_FEATURES = ("pips",)


def observation_bounds(params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Flags are 0 or 1, hand sizes 0 … 7."""
    flag = (0, 1)
    return OBS.bounds({"seat": flag, "hand": flag, "table": flag, "ends": flag, "hand_sizes": (0, 7), "voids": flag})


# --- the rules -------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def new_game(s, params, rng_hi, rng_lo):
    """A deal from the game's stream (D3): the set shuffled, 7 tiles to each seat (2 players: in a
    row, the 14 left undealt in set order; 4 players: in turn); seat 0 leads (D4)."""
    n = params[P_PLAYERS]
    s[:] = 0
    s[RNG], s[RNG + 1] = rng_hi, rng_lo
    s[ENDS], s[ENDS + 1] = -1, -1
    tiles = s[LOG : LOG + NUM_TILES]  # the empty log is the shuffle's scratch
    for t in range(NUM_TILES):
        tiles[t] = t
    shuffle(s, RNG, tiles, NUM_TILES)
    rest = (1 << NUM_TILES) - 1
    for i in range(n * HAND_SIZE):
        s[HAND + (i // HAND_SIZE if n == 2 else i % n)] |= 1 << tiles[i]
        rest &= ~(1 << tiles[i])
    tiles[:] = 0
    while rest:  # never drawn: kept in set order
        s[BONE + s[BONE_LEN]] = lowest_bit(rest)
        s[BONE_LEN] += 1
        rest &= rest - 1


@nb.njit(cache=True, inline="always")
def playable(s, seat):
    """The tiles of ``seat`` that fit an open end (any tile before the lead, D5)."""
    if s[ENDS] < 0:
        return s[HAND + seat]
    return s[HAND + seat] & (PIP_TILES[s[ENDS]] | PIP_TILES[s[ENDS + 1]])


@nb.njit(cache=True)
def legal_mask_into(s, params, out):
    """The lead of any tile on an empty table; then each tile's placement against an open end
    showing one of its pips, once per pip (D5, D6)."""
    out[:] = False
    if s[STATUS] != LIVE:
        return
    tiles = playable(s, s[CUR])
    while tiles:
        t = lowest_bit(tiles)
        tiles &= tiles - 1
        a = FIRST_ACTION[t]
        if s[ENDS] < 0:
            out[a] = True
            continue
        lo, hi = TILE_LOW[t], TILE_HIGH[t]
        out[a + 1] = lo == s[ENDS] or lo == s[ENDS + 1]
        if lo != hi:
            out[a + 2] = hi == s[ENDS] or hi == s[ENDS + 1]


@nb.njit(cache=True)
def apply_action(s, params, a):
    """Place ``a``'s tile for the seat to act (legality is the caller's, D7); then the game ends
    if that hand is empty (D9), else the turn goes to the next seat in order that can place,
    skipping the others (D8), and the game ends when none can (D10). Returns 1 when it ends."""
    n, me, t, pip = params[P_PLAYERS], s[CUR], ACTION_TILE[a], ACTION_PIP[a]
    s[HAND + me] &= ~(1 << t)
    s[PLAYED] |= 1 << t
    s[LOG + s[STEPS]] = me * NUM_ACTIONS + a
    s[STEPS] += 1
    lo, hi = TILE_LOW[t], TILE_HIGH[t]
    if pip < 0:
        s[ENDS], s[ENDS + 1] = lo, hi
    else:
        end = ENDS if s[ENDS] == pip else ENDS + 1
        s[end] = hi if lo == pip else lo
    if s[HAND + me] == 0:
        s[STATUS] = OVER
        return 1
    for i in range(1, n + 1):
        seat = (me + i) % n
        if playable(s, seat):
            s[CUR] = seat
            return 0
        if seat != me:
            s[VOIDS + seat] |= (1 << s[ENDS]) | (1 << s[ENDS + 1])
    s[STATUS] = OVER
    return 1


@nb.njit(cache=True)
def seat_return(s, params, seat):
    """OpenSpiel's return of ``seat`` (D11, D12): each side counts the pips left in its hands; the
    side with fewer wins the other side's pips, which that side loses; equal pips are a tie at 0."""
    mine = theirs = 0
    for other in range(params[P_PLAYERS]):
        if other % 2 == seat % 2:
            mine += pip_count(s[HAND + other])
        else:
            theirs += pip_count(s[HAND + other])
    return 0 if mine == theirs else (theirs if mine < theirs else -mine)


@nb.njit(cache=True)
def write_returns(s, params, out):
    """``out[:n]``: every seat's return (``seat_return``)."""
    for seat in range(params[P_PLAYERS]):
        out[seat] = seat_return(s, params, seat)


# --- rewards -----------------------------------------------------------------------------------------------
SNAPSHOT_SIZE = 1
POINTS, WIN = 0, 1


@nb.njit(cache=True)
def snapshot(s, out):
    out[0] = s[STATUS]


@nb.njit(cache=True)
def write_rewards(s, params, before, mode, out):
    """Zero until the game ends, then OpenSpiel's returns (``POINTS``) or their signs (``WIN``)."""
    out[: params[P_PLAYERS]] = 0.0
    if s[STATUS] == OVER and before[0] == LIVE:
        write_returns(s, params, out)
        if mode == WIN:
            out[: params[P_PLAYERS]] = np.sign(out[: params[P_PLAYERS]])
    return TERMINATED if s[STATUS] == OVER else EPISODE_LIVE


# --- what a seat sees ----------------------------------------------------------------------------------------
@nb.njit(cache=True)
def write_observation(s, params, me, out):
    """``me``'s seat, hand, the tiles placed, the open ends (sorted, as OpenSpiel keeps them), the
    others' hand sizes and known voids: its own tiles and what the public history shows."""
    n = params[P_PLAYERS]
    out[:OBS_SIZE] = 0.0
    out[O_SEAT + me] = 1.0
    write_tiles(s[HAND + me], out, O_HAND)
    write_tiles(s[PLAYED], out, O_TABLE)
    if s[ENDS] >= 0:
        out[O_ENDS + min(s[ENDS], s[ENDS + 1])] = 1.0
        out[O_ENDS + 7 + max(s[ENDS], s[ENDS + 1])] = 1.0
    for rel in range(1, n):
        seat = (me + rel) % n
        out[O_SIZES + rel - 1] = popcount(s[HAND + seat])
        out[O_VOIDS + 7 * (rel - 1) : O_VOIDS + 7 * rel] = BYTE_BITS[s[VOIDS + seat], :7]


@nb.njit(cache=True)
def write_state(s, params, out):
    """The observation of the seat to act, then the other hands (relative seats 1–3)."""
    n, me = params[P_PLAYERS], s[CUR]
    write_observation(s, params, me, out)
    out[OBS_SIZE:CRITIC_SIZE] = 0.0
    for rel in range(1, n):
        write_tiles(s[HAND + (me + rel) % n], out, OBS_SIZE + (rel - 1) * NUM_TILES)


@nb.njit(cache=True)
def unseen(s, params, me):
    """The tiles ``me`` cannot see: the other hands and the undealt tiles, as a mask."""
    mask = 0
    for seat in range(params[P_PLAYERS]):
        if seat != me:
            mask |= s[HAND + seat]
    for i in range(s[BONE_LEN]):
        mask |= 1 << s[BONE + i]
    return mask


@nb.njit(cache=True)
def _deal_out(s, params, me, out, tiles):
    """``out``: ``s`` with ``tiles`` dealt in order to the other hands (their sizes kept), then the
    undealt slots."""
    j = 0
    for seat in range(params[P_PLAYERS]):
        if seat != me:
            out[HAND + seat] = 0
            for _ in range(popcount(s[HAND + seat])):
                out[HAND + seat] |= 1 << tiles[j]
                j += 1
    for i in range(s[BONE_LEN]):
        out[BONE + i] = tiles[j + i]


@nb.njit(cache=True)
def _unseen_list(s, params, me, tiles):
    mask, k = unseen(s, params, me), 0
    while mask:
        tiles[k] = lowest_bit(mask)
        mask &= mask - 1
        k += 1
    return k


@nb.njit(cache=True)
def write_view(s, params, seat, out):
    """``s`` as ``seat`` may know it: the tiles it cannot see dealt in ascending order, the stream zeroed."""
    out[:] = s
    out[RNG], out[RNG + 1] = 0, 0
    tiles = np.empty(NUM_TILES, dtype=np.int32)
    _unseen_list(s, params, seat, tiles)
    _deal_out(s, params, seat, out, tiles)


@nb.njit(cache=True)
def _honours_voids(s, params, out):
    for seat in range(params[P_PLAYERS]):
        for p in range(7):
            if (s[VOIDS + seat] >> p) & 1 and out[HAND + seat] & PIP_TILES[p]:
                return False
    return True


@nb.njit(cache=True)
def resample(view, params, seat, out, rng):
    """A full state ``seat`` cannot tell from ``view``: the tiles it cannot see shuffled and dealt
    again, each seat keeping its hand size and getting no pip it is known to lack (up to 50
    shuffles; then voids are ignored)."""
    out[:] = view
    tiles = np.empty(NUM_TILES, dtype=np.int32)
    k = _unseen_list(view, params, seat, tiles)
    for _ in range(50):
        shuffle(rng, SEARCH_RNG, tiles, k)
        _deal_out(view, params, seat, out, tiles)
        if _honours_voids(view, params, out):
            return


@nb.njit(cache=True)
def hidden_items(view, params, me, out):
    """``out[t]``: 1 when ``me`` cannot see tile ``t``."""
    mask = unseen(view, params, me)
    for t in range(NUM_TILES):
        out[t] = (mask >> t) & 1


@nb.njit(cache=True)
def held_items(s, params, seat, out):
    for t in range(NUM_TILES):
        out[t] = (s[HAND + seat] >> t) & 1


@nb.njit(cache=True)
def hand_size(s, params, seat):
    return popcount(s[HAND + seat])


@nb.njit(cache=True)
def shown_item(s, params, a):
    """Every action puts its tile face up."""
    return ACTION_TILE[a]


@nb.njit(cache=True)
def deal_hidden(view, params, me, holdings, pool, out):
    """``view`` with the other hands from ``holdings[i]`` (tile counts of the ``i``-th other seat)
    and the undealt tiles from ``pool``."""
    out[:] = view
    place = 0
    for seat in range(params[P_PLAYERS]):
        if seat != me:
            out[HAND + seat] = 0
            for t in range(NUM_TILES):
                if holdings[place, t]:
                    out[HAND + seat] |= 1 << t
            place += 1
    out[BONE : BONE + pool.shape[0]] = pool


@nb.njit(cache=True)
def allowed_items(view, params, me, out):
    """``out[i, t]``: whether the ``i``-th other seat may hold tile ``t``: no pip it is known to lack."""
    place = 0
    for seat in range(params[P_PLAYERS]):
        if seat != me:
            for t in range(NUM_TILES):
                out[place, t] = not (view[VOIDS + seat] >> TILE_LOW[t] | view[VOIDS + seat] >> TILE_HIGH[t]) & 1
            place += 1


# --- rules of thumb and rollouts ------------------------------------------------------------------------------
@nb.njit(cache=True)
def action_features(view, params, out):
    """``out[a, 0]``: the pips action ``a`` sheds (0 for illegal ones)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    legal_mask_into(view, params, mask)
    out[:NUM_ACTIONS] = 0.0
    for a in range(NUM_ACTIONS):
        if mask[a]:
            out[a, 0] = TILE_LOW[ACTION_TILE[a]] + TILE_HIGH[ACTION_TILE[a]]


@nb.njit(cache=True)
def _best(view, params, keep_weight):
    """The legal action of most pips shed plus ``keep_weight`` × (own tiles that fit the ends it
    leaves) and a double's bonus; the lowest id on ties."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    legal_mask_into(view, params, mask)
    me, trial = view[CUR], np.empty_like(view)
    best, best_value = -1, -1.0
    for a in range(NUM_ACTIONS):
        if not mask[a]:
            continue
        t = ACTION_TILE[a]
        value = float(TILE_LOW[t] + TILE_HIGH[t])
        if keep_weight:
            trial[:] = view
            apply_action(trial, params, a)
            trial[CUR] = me
            value += keep_weight * (popcount(playable(trial, me)) + 2 * (TILE_LOW[t] == TILE_HIGH[t]))
        if value > best_value:
            best, best_value = a, value
    return best


@nb.njit(cache=True)
def greedy_action(view, params):
    """Shed the most pips."""
    return _best(view, params, 0.0)


@nb.njit(cache=True)
def heuristic_action(view, params):
    """Shed doubles early and keep the most own tiles placeable, then the most pips."""
    return _best(view, params, 4.0)


@nb.njit(cache=True)
def rollout(d, params, me, first, mask, rng, greedy_rate):
    """``first`` applied to the full position ``d``, then the rest of the game (heuristic moves
    with probability ``greedy_rate`` per mille, else random) on ``rng``: ``me``'s return."""
    apply_action(d, params, first)
    while d[STATUS] == LIVE:
        if below(rng, SEARCH_RNG, 1000) < greedy_rate:
            a = heuristic_action(d, params)
        else:
            legal_mask_into(d, params, mask)
            a = pick_legal(mask, rng, SEARCH_RNG)
        apply_action(d, params, a)
    return float(seat_return(d, params, me))
