"""Compiled rules of block dominoes with the double-two set (see the package docstring).

One match is one ``int32`` row (``STATE``); its options row holds the number of players and the
target (``P_TARGET``).
Every function is ``numba.njit(cache=True)`` over these arrays, as in the library's own games:
the rules, the observation, the seat view and its resampler, the reward, the rules of thumb and
the rollouts.

Tiles are numbered ``0 … 5``: [0|0] [0|1] [0|2] [1|1] [1|2] [2|2]. Actions: ``2 * tile + end``
places a tile on the left (``end`` 0) or right (1) end of the line (the first tile goes "left"),
``DRAW`` takes the next boneyard tile, ``PASS`` passes.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_twelve.core.layout import Layout
from sniff_twelve.core.rewards import LIVE as EPISODE_LIVE
from sniff_twelve.core.rewards import TERMINATED, rank_rewards
from sniff_twelve.core.rng import below, pick_legal, shuffle

TILES, HAND_SIZE, MAX_PLAYERS = 6, 2, 3
LOW = np.array([0, 0, 0, 1, 1, 2], dtype=np.int64)
HIGH = np.array([0, 1, 2, 1, 2, 2], dtype=np.int64)
DRAW, PASS = 2 * TILES, 2 * TILES + 1
NUM_ACTIONS = 2 * TILES + 2
P_PLAYERS, P_TARGET, PARAMS_SIZE = 0, 1, 2
#: the most points one deal gives: 1 and every pip of the set (0+1+2+2+3+4)
DEAL_POINTS = 13
LIVE, OVER = 0, 1
SEARCH_RNG = 0

STATE = Layout(
    ("rng", 2, "the game's own splitmix64 stream (every deal's shuffle and first player)"),
    ("status", 1, "``LIVE`` or ``OVER``"),
    ("cur", 1, "seat to act"),
    ("steps", 1, "actions applied so far"),
    ("deals", 1, "deals finished so far"),
    ("bone_head", 1, "the next boneyard tile"),
    ("bone_len", 1, "tiles dealt to the boneyard"),
    ("line_len", 1, "tiles on the line"),
    ("hand", MAX_PLAYERS * TILES, "``HAND + 6 * s + t``: 1 when seat ``s`` holds tile ``t``"),
    ("boneyard", TILES, "the boneyard in drawing order"),
    ("line", 2 * TILES, "the line, left to right: the pips of each tile's left and right half"),
    ("points", MAX_PLAYERS, "each seat's points in the match"),
)
RNG, STATUS, CUR, STEPS, DEALS, BONE_HEAD, BONE_LEN, LINE_LEN, HAND, BONE, LINE, POINTS = STATE.offsets()
STATE_SIZE = STATE.size

OBS = Layout(
    ("hand", TILES, "my tiles"),
    ("line", TILES, "the tiles on the line"),
    ("ends", 6, "the left end's pips one-hot, then the right end's (all 0 before the first tile)"),
    ("hand_sizes", MAX_PLAYERS - 1, "hand sizes of relative seats 1–2"),
    ("boneyard_size", 1, "tiles left in the boneyard"),
    ("points", MAX_PLAYERS, "match points of relative seats 0–2"),
)
O_HAND, O_LINE, O_ENDS, O_SIZES, O_BONE, O_POINTS = OBS.offsets()
OBS_SIZE = OBS.size
CRITIC_SIZE = OBS_SIZE + (MAX_PLAYERS - 1) * TILES + TILES  # + the other hands, the boneyard's tiles
ACTION_FEATURES = ("pips",)


def observation_bounds(params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Flags are 0 or 1; a hand or the boneyard holds at most every tile; points stay below the
    target until the last deal, which gives at most ``DEAL_POINTS``."""
    flag, count, points = (0, 1), (0, TILES), (0, int(params[P_TARGET]) - 1 + DEAL_POINTS)
    limits = {"hand": flag, "line": flag, "ends": flag, "hand_sizes": count, "boneyard_size": count}
    return OBS.bounds({**limits, "points": points})


# --- the rules ---------------------------------------------------------------------------------------
@nb.njit(cache=True)
def held(s, seat):
    total = 0
    for t in range(TILES):
        total += s[HAND + TILES * seat + t]
    return total


@nb.njit(cache=True)
def pips(s, seat):
    total = 0
    for t in range(TILES):
        if s[HAND + TILES * seat + t]:
            total += LOW[t] + HIGH[t]
    return total


@nb.njit(cache=True)
def _fits(s, t, end):
    """Whether tile ``t`` may go on ``end`` (0 left, 1 right) of the line."""
    length = s[LINE_LEN]
    if length == 0:
        return end == 0
    pip = s[LINE] if end == 0 else s[LINE + 2 * length - 1]
    return LOW[t] == pip or HIGH[t] == pip


@nb.njit(cache=True)
def can_place(s, seat):
    for t in range(TILES):
        if s[HAND + TILES * seat + t] and (_fits(s, t, 0) or _fits(s, t, 1)):
            return True
    return False


@nb.njit(cache=True)
def legal_mask_into(s, params, out):
    """Any tile of the seat to act on an end it matches; else draw, or pass when the boneyard is empty."""
    out[:] = False
    if s[STATUS] != LIVE:
        return
    cur, placed = s[CUR], False
    for t in range(TILES):
        if s[HAND + TILES * cur + t]:
            for end in range(2):
                if _fits(s, t, end):
                    out[2 * t + end] = True
                    placed = True
    if not placed:
        out[DRAW if s[BONE_HEAD] < s[BONE_LEN] else PASS] = True


@nb.njit(cache=True)
def deal(s, params):
    """A new deal from the game's stream: shuffle, two tiles each, the rest to the boneyard, an
    empty line; the first player by lot. The points, the deals and the steps are kept."""
    n = params[P_PLAYERS]
    s[HAND : LINE + 2 * TILES] = 0
    s[BONE_HEAD], s[BONE_LEN], s[LINE_LEN] = 0, TILES - n * HAND_SIZE, 0
    tiles = np.arange(TILES).astype(np.int32)
    shuffle(s, RNG, tiles, TILES)
    for i in range(n * HAND_SIZE):
        s[HAND + TILES * (i // HAND_SIZE) + tiles[i]] = 1
    for i in range(TILES - n * HAND_SIZE):
        s[BONE + i] = tiles[n * HAND_SIZE + i]
    s[STATUS] = LIVE
    s[CUR] = below(s, RNG, n)


@nb.njit(cache=True)
def new_game(s, params, rng_hi, rng_lo):
    """A match at its first deal, every seat on 0 points."""
    s[:] = 0
    s[RNG] = rng_hi
    s[RNG + 1] = rng_lo
    deal(s, params)


@nb.njit(cache=True)
def _settle(s, params, out):
    """End the deal: its winners (``out``, or on a block every seat with the fewest pips) each
    score 1 plus the pips left in the hands of the seats that did not win it; the match is over
    once a seat has the target, else the next deal is dealt."""
    n = params[P_PLAYERS]
    left = np.empty(n, dtype=np.int64)
    for seat in range(n):
        left[seat] = pips(s, seat)
    won = left == left.min() if out < 0 else np.arange(n) == out
    for seat in range(n):
        s[POINTS + seat] += 1 + left[~won].sum() if won[seat] else 0
    s[DEALS] += 1
    for seat in range(n):
        if s[POINTS + seat] >= params[P_TARGET]:
            s[STATUS] = OVER
            return
    deal(s, params)


@nb.njit(cache=True)
def apply_action(s, params, a):
    """Apply ``a`` for the seat to act (legality is the caller's); returns 1 when the deal ends
    (then the match is over, or the next deal is dealt)."""
    n, cur = params[P_PLAYERS], s[CUR]
    s[STEPS] += 1
    if a == DRAW:
        s[HAND + TILES * cur + s[BONE + s[BONE_HEAD]]] = 1
        s[BONE_HEAD] += 1
    elif a != PASS:
        t, end, length = a // 2, a % 2, s[LINE_LEN]
        s[HAND + TILES * cur + t] = 0
        lo, hi = LOW[t], HIGH[t]
        if length == 0:
            s[LINE], s[LINE + 1] = lo, hi
        elif end == 0:
            left = s[LINE]
            for i in range(2 * length - 1, -1, -1):
                s[LINE + i + 2] = s[LINE + i]
            s[LINE], s[LINE + 1] = (lo, hi) if hi == left else (hi, lo)
        else:
            right = s[LINE + 2 * length - 1]
            at = LINE + 2 * length
            s[at], s[at + 1] = (lo, hi) if lo == right else (hi, lo)
        s[LINE_LEN] = length + 1
        if held(s, cur) == 0:
            _settle(s, params, cur)
            return 1
    if s[BONE_HEAD] >= s[BONE_LEN]:
        blocked = True
        for seat in range(n):
            blocked = blocked and not can_place(s, seat)
        if blocked:
            _settle(s, params, -1)
            return 1
    s[CUR] = (cur + 1) % n
    return 0


# --- what a seat sees ----------------------------------------------------------------------------------
@nb.njit(cache=True)
def _line_tile(a, b):
    lo, hi = min(a, b), max(a, b)
    return lo * 3 - lo * (lo - 1) // 2 + hi - lo  # [0|0]=0 … [2|2]=5


@nb.njit(cache=True)
def write_observation(s, params, me, out):
    n = params[P_PLAYERS]
    out[:OBS_SIZE] = 0.0
    for t in range(TILES):
        out[O_HAND + t] = s[HAND + TILES * me + t]
    length = s[LINE_LEN]
    for i in range(length):
        out[O_LINE + _line_tile(s[LINE + 2 * i], s[LINE + 2 * i + 1])] = 1.0
    if length:
        out[O_ENDS + s[LINE]] = 1.0
        out[O_ENDS + 3 + s[LINE + 2 * length - 1]] = 1.0
    for rel in range(1, n):
        out[O_SIZES + rel - 1] = held(s, (me + rel) % n)
    out[O_BONE] = s[BONE_LEN] - s[BONE_HEAD]
    for rel in range(n):
        out[O_POINTS + rel] = s[POINTS + (me + rel) % n]


@nb.njit(cache=True)
def write_state(s, params, out):
    """The observation of the seat to act, the other hands (relative seats 1–2), the boneyard's tiles."""
    n, me = params[P_PLAYERS], s[CUR]
    write_observation(s, params, me, out)
    out[OBS_SIZE:CRITIC_SIZE] = 0.0
    for rel in range(1, n):
        for t in range(TILES):
            out[OBS_SIZE + (rel - 1) * TILES + t] = s[HAND + TILES * ((me + rel) % n) + t]
    for i in range(s[BONE_HEAD], s[BONE_LEN]):
        out[CRITIC_SIZE - TILES + s[BONE + i]] = 1.0


@nb.njit(cache=True)
def hidden_items(view, params, me, out):
    """``out[t]``: 1 when ``me`` cannot see tile ``t`` (another hand or the boneyard)."""
    out[:] = 0
    for seat in range(params[P_PLAYERS]):
        if seat != me:
            for t in range(TILES):
                out[t] += view[HAND + TILES * seat + t]
    for i in range(view[BONE_HEAD], view[BONE_LEN]):
        out[view[BONE + i]] += 1


@nb.njit(cache=True)
def _deal(s, params, me, out, tiles):
    """Deal ``tiles`` in order to the other hands (their sizes kept), then the boneyard's slots left."""
    j = 0
    for seat in range(params[P_PLAYERS]):
        if seat != me:
            size = held(s, seat)
            out[HAND + TILES * seat : HAND + TILES * (seat + 1)] = 0
            for _ in range(size):
                out[HAND + TILES * seat + tiles[j]] = 1
                j += 1
    for i in range(s[BONE_HEAD], s[BONE_LEN]):
        out[BONE + i] = tiles[j]
        j += 1


@nb.njit(cache=True)
def _hidden_tiles(s, params, me, tiles):
    counts = np.zeros(TILES, dtype=np.int64)
    hidden_items(s, params, me, counts)
    k = 0
    for t in range(TILES):
        if counts[t]:
            tiles[k] = t
            k += 1
    return k


@nb.njit(cache=True)
def write_view(s, params, seat, out):
    """``s`` as ``seat`` may know it: the hidden tiles dealt in ascending order, the stream and
    the record of tiles already drawn zeroed."""
    out[:] = s
    out[RNG] = 0
    out[RNG + 1] = 0
    out[BONE : BONE + TILES] = 0
    tiles = np.empty(TILES, dtype=np.int32)
    _hidden_tiles(s, params, seat, tiles)
    _deal(s, params, seat, out, tiles)


@nb.njit(cache=True)
def resample(view, params, seat, out, rng):
    """A full state ``seat`` cannot tell from ``view``: the hidden tiles shuffled and dealt again.
    What draws and passes reveal (a seat that drew held nothing matching) is not used."""
    out[:] = view
    tiles = np.empty(TILES, dtype=np.int32)
    k = _hidden_tiles(view, params, seat, tiles)
    shuffle(rng, SEARCH_RNG, tiles, k)
    _deal(view, params, seat, out, tiles)


@nb.njit(cache=True)
def held_items(s, params, seat, out):
    for t in range(TILES):
        out[t] = s[HAND + TILES * seat + t]


@nb.njit(cache=True)
def hand_size(s, params, seat):
    return held(s, seat)


@nb.njit(cache=True)
def shown_item(s, params, a):
    """The tile a placement shows from the actor's hand; a draw or a pass shows none."""
    return a // 2 if a < DRAW else -1


@nb.njit(cache=True)
def deal_hidden(view, params, me, holdings, pool, out):
    out[:] = view
    place = 0
    for seat in range(params[P_PLAYERS]):
        if seat != me:
            for t in range(TILES):
                out[HAND + TILES * seat + t] = holdings[place, t]
            place += 1
    for i in range(pool.shape[0]):
        out[BONE + view[BONE_HEAD] + i] = pool[i]


@nb.njit(cache=True)
def allowed_items(view, params, me, out):
    """Any seat may hold any hidden tile (what draws and passes reveal is not used)."""
    out[:] = True


# --- rewards ---------------------------------------------------------------------------------------------
SNAPSHOT_SIZE = 1
WIN = 0


@nb.njit(cache=True)
def _places(s, params, out):
    """``out[:n]``: every seat's place by its points (+1 first, −1 last, ties share)."""
    n = params[P_PLAYERS]
    values = np.empty(n, dtype=np.float64)
    for seat in range(n):
        values[seat] = s[POINTS + seat]
    rank_rewards(values, n, out)


@nb.njit(cache=True)
def snapshot(s, out):
    out[0] = s[STATUS]


@nb.njit(cache=True)
def write_rewards(s, params, before, mode, out):
    """Zero until the match ends, then zero-sum by the points' places (+1 first, −1 last, ties share)."""
    n = params[P_PLAYERS]
    out[:n] = 0.0
    if s[STATUS] == OVER and before[0] == LIVE:
        _places(s, params, out)
    return TERMINATED if s[STATUS] == OVER else EPISODE_LIVE


# --- rules of thumb and rollouts -------------------------------------------------------------------------
@nb.njit(cache=True)
def action_features(view, params, out):
    """``out[a, 0]``: the pips a placement sheds from the hand (0 for draws, passes, illegal moves)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    legal_mask_into(view, params, mask)
    out[:NUM_ACTIONS] = 0.0
    for a in range(DRAW):
        if mask[a]:
            out[a, 0] = LOW[a // 2] + HIGH[a // 2]


@nb.njit(cache=True)
def _best(view, params, keep_weight):
    """The legal action of most ``keep_weight`` × (own tiles still placeable after it) + pips
    shed; the lowest id on ties; the draw or pass when nothing can be placed."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    legal_mask_into(view, params, mask)
    if mask[DRAW] or mask[PASS]:
        return DRAW if mask[DRAW] else PASS
    me, trial = view[CUR], np.empty_like(view)
    best, best_value = -1, -1.0
    for a in range(DRAW):
        if not mask[a]:
            continue
        value = float(LOW[a // 2] + HIGH[a // 2])
        if keep_weight:
            trial[:] = view
            if not apply_action(trial, params, a):  # a deal that ended leaves no tile to keep
                for t in range(TILES):
                    if trial[HAND + TILES * me + t] and (_fits(trial, t, 0) or _fits(trial, t, 1)):
                        value += keep_weight
        if value > best_value:
            best, best_value = a, value
    return best


@nb.njit(cache=True)
def greedy_action(view, params):
    """Shed the most pips."""
    return _best(view, params, 0)


@nb.njit(cache=True)
def heuristic_action(view, params):
    """Keep the most own tiles placeable, then shed the most pips."""
    return _best(view, params, 10)


@nb.njit(cache=True)
def rollout(d, params, me, first, mask, rng, greedy_rate):
    """``first`` applied to the full position ``d``, then the rest of its deal (heuristic moves
    with probability ``greedy_rate`` per mille, else random) on ``rng``: ``me``'s place by the
    points then (``write_rewards``' at the match's end)."""
    deal = d[DEALS]
    apply_action(d, params, first)
    while d[STATUS] == LIVE and d[DEALS] == deal:
        if below(rng, SEARCH_RNG, 1000) < greedy_rate:
            a = heuristic_action(d, params)
        else:
            legal_mask_into(d, params, mask)
            a = pick_legal(mask, rng, SEARCH_RNG)
        apply_action(d, params, a)
    out = np.zeros(params[P_PLAYERS], dtype=np.float64)
    _places(d, params, out)
    return out[me]
