"""Compiled look-ahead for the Sniff agents: placement credits, the heuristic's evaluation, and a
determinized Monte-Carlo search (paired rollouts on sampled deals) that runs in the kernels.

Nothing here reads another seat's hidden tiles: determinizations re-deal every tile the acting
seat cannot see — the other hands (sizes known) and the boneyard — respecting known voids.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from envkit.rng import below, pick_legal, shuffle
from sniff_env import kernels as K
from sniff_env.tiles import DRAW, NUM_ACTIONS, NUM_TILES, PASS, PIP_TILES, TILE_HIGH, TILE_LOW

# scratch RNG slots of a search: a 2-word stream, like the games'
SEARCH_RNG = 0


@nb.njit(cache=True)
def credit_after(s, params, action, scratch):
    """Credit the seat to act would get for ``action`` (S17), computed on ``scratch``."""
    scratch[:] = s
    K.apply_action(scratch, params, action)
    return scratch[K.CREDIT] if action < DRAW else 0


@nb.njit(cache=True)
def greedy_action(s, params):
    """Highest immediate credit; ties go to the heaviest tile, then the lowest action id."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    K.legal_mask_into(s, params, mask)
    return _greedy(s, params, mask, np.empty_like(s))


@nb.njit(cache=True)
def _greedy(s, params, mask, scratch):
    best, best_key = -1, -1
    for a in range(DRAW):
        if mask[a]:
            tile = a // 4
            key = credit_after(s, params, a, scratch) * 64 + TILE_LOW[tile] + TILE_HIGH[tile]
            if key > best_key:
                best, best_key = a, key
    if best >= 0:
        return best
    return DRAW if mask[DRAW] else PASS


@nb.njit(cache=True)
def _unseen(s, params, me):
    """Tiles ``me`` cannot see: the other hands and the boneyard."""
    hidden = 0
    for seat in range(params[K.P_PLAYERS]):
        if seat != me:
            hidden |= s[K.HAND + seat]
    for i in range(s[K.BONE_HEAD], s[K.BONE_LEN]):
        hidden |= 1 << s[K.BONE + i]
    return hidden


@nb.njit(cache=True)
def _reply_candidates(s, params, me, seat):
    """Tiles ``seat`` may hold as far as ``me`` can tell: unseen by ``me``, no known void of ``seat``."""
    candidates = _unseen(s, params, me)
    for p in range(7):
        if (s[K.VOIDS + seat] >> p) & 1:
            candidates &= ~PIP_TILES[p]
    return candidates


@nb.njit(cache=True)
def _threat(s, params, seat, candidates, scratch):
    """Most ``seat`` could credit with one placement of a tile from ``candidates`` (bit mask)."""
    best = 0
    for t in range(NUM_TILES):
        if not (candidates >> t) & 1:
            continue
        for k in range(4):
            pip = s[K.END_PIP + k]
            if pip >= 0 and (TILE_LOW[t] == pip or TILE_HIGH[t] == pip):
                scratch[:] = s
                scratch[K.HAND + seat] |= 1 << t
                scratch[K.CUR] = seat
                K.apply_action(scratch, params, t * 4 + k)
                best = max(best, scratch[K.CREDIT])
    return best


ACTION_FEATURES = ("credit", "threat", "ends_hand")


@nb.njit(cache=True)
def action_features(s, params, out):
    """``out[a]`` for every legal placement ``a`` of the seat to act, 0 for DRAW, PASS and illegal
    actions: its credit (S17); the most the next seat could then credit at once with a tile it
    may hold (unseen by the seat to act, not a known void: the look-ahead ``heuristic`` uses);
    1 if it ends the hand or wins the match (S22, S25). Reads only what the seat to act may see."""
    n = params[K.P_PLAYERS]
    me = s[K.CUR]
    nxt = (me + 1) % n
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    K.legal_mask_into(s, params, mask)
    after = np.empty_like(s)
    scratch = np.empty_like(s)
    candidates = _reply_candidates(s, params, me, nxt)
    out[:NUM_ACTIONS] = 0.0
    for a in range(DRAW):
        if not mask[a]:
            continue
        after[:] = s
        K.apply_action(after, params, a)
        out[a, 0] = after[K.CREDIT]
        if after[K.STATUS] != K.LIVE or after[K.HANDS_DONE] != s[K.HANDS_DONE]:
            out[a, 2] = 1.0
        else:
            out[a, 1] = _threat(after, params, nxt, candidates, scratch)


@nb.njit(cache=True)
def heuristic_action(s, params):
    """Greedy's credit, minus what the next opponent could then score at once (unseen tiles it
    is not known to lack), plus blocking: open pips the opponents lack count for, pips the
    partner lacks against; the heaviest tile breaks ties."""
    n = params[K.P_PLAYERS]
    me = s[K.CUR]
    nxt = (me + 1) % n
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    K.legal_mask_into(s, params, mask)
    scratch = np.empty_like(s)
    after = np.empty_like(s)
    nxt_candidates = _reply_candidates(s, params, me, nxt)
    best, best_value = -1, -1e9
    for a in range(DRAW):
        if not mask[a]:
            continue
        after[:] = s
        K.apply_action(after, params, a)
        if after[K.STATUS] != K.LIVE or after[K.HANDS_DONE] != s[K.HANDS_DONE]:
            value = 1000.0 + after[K.CREDIT]  # wins the match or goes out
        else:
            value = float(after[K.CREDIT]) - 0.7 * _threat(after, params, nxt, nxt_candidates, scratch)
            pips = K.open_pips(after)
            for p in range(7):
                if not (pips >> p) & 1:
                    continue
                for seat in range(n):
                    if seat != me and (s[K.VOIDS + seat] >> p) & 1:
                        same_side = K.side_of(params, seat) == K.side_of(params, me)
                        value += -2.0 if same_side else 2.0
        tile = a // 4
        value += 0.2 * (TILE_LOW[tile] + TILE_HIGH[tile])
        if value > best_value:
            best, best_value = a, value
    if best >= 0:
        return best
    return DRAW if mask[DRAW] else PASS


@nb.njit(cache=True)
def determinize(s, params, me, d, rng, tiles):
    """Copy ``s`` into ``d`` with every tile hidden from ``me`` dealt again at random: other hands
    keep their sizes and get no tile with a pip they are known to lack; the rest, shuffled, is the
    boneyard. Each tile goes to a place with probability proportional to the room left there.
    Falls back to ignoring voids if 50 tries cannot honour them."""
    n = params[K.P_PLAYERS]
    d[:] = s
    hidden = _unseen(s, params, me)
    count = 0
    for t in range(NUM_TILES):
        if (hidden >> t) & 1:
            tiles[count] = t
            count += 1
    room = np.zeros(4, dtype=np.int64)
    for attempt in range(51):
        shuffle(rng, SEARCH_RNG, tiles, count)
        for seat in range(n):
            room[seat] = 0 if seat == me else K.tile_count(s[K.HAND + seat])
            if seat != me:
                d[K.HAND + seat] = 0
        bone_left = s[K.BONE_LEN] - s[K.BONE_HEAD]
        ok = True
        for j in range(count):
            t = tiles[j]
            pips = (1 << TILE_LOW[t]) | (1 << TILE_HIGH[t])
            total = bone_left
            for seat in range(n):
                if attempt == 50 or not s[K.VOIDS + seat] & pips:
                    total += room[seat]
            if total == 0:
                ok = False
                break
            r = below(rng, SEARCH_RNG, total)
            for seat in range(n):
                if attempt == 50 or not s[K.VOIDS + seat] & pips:
                    if r < room[seat]:
                        d[K.HAND + seat] |= 1 << t
                        room[seat] -= 1
                        break
                    r -= room[seat]
            else:
                bone_left -= 1
                d[K.BONE + s[K.BONE_LEN] - 1 - bone_left] = t  # boneyard slots in shuffled order
        if ok:
            return


@nb.njit(cache=True)
def rollout(d, params, me, first, mask, scratch, rng, greedy_rate):
    """Apply ``first`` to ``d``, then play to the end of the hand (or match): each move greedy
    with probability ``greedy_rate`` (per mille), else random. Returns my side's point gain minus
    the best other side's over that stretch, with ±500 for winning or losing the match."""
    n = params[K.P_PLAYERS]
    sides = 2 if n == 4 else n
    start = np.empty(4, dtype=np.int64)
    for side in range(sides):
        start[side] = d[K.SCORE + side]
    hand = d[K.HANDS_DONE]
    K.apply_action(d, params, first)
    while d[K.STATUS] == K.LIVE and d[K.HANDS_DONE] == hand:
        K.legal_mask_into(d, params, mask)
        if below(rng, SEARCH_RNG, 1000) < greedy_rate:
            a = _greedy(d, params, mask, scratch)
        else:
            a = pick_legal(mask, rng, SEARCH_RNG)
        K.apply_action(d, params, a)
    mine = K.side_of(params, me)
    best_other = -1e9
    for side in range(sides):
        if side != mine:
            best_other = max(best_other, d[K.SCORE + side] - start[side])
    value = (d[K.SCORE + mine] - start[mine]) - best_other
    if d[K.STATUS] == K.WON:
        value += 500.0 if d[K.WINNER] == mine else -500.0
    return value


@nb.njit(cache=True)
def pimc_action(s, params, iterations, rng, greedy_rate):
    """Determinized Monte-Carlo search: each iteration samples one determinization and one
    rollout stream, and scores every legal action on both (paired comparisons, so the luck of
    the deal cancels between actions). Returns the action with the best mean."""
    me = s[K.CUR]
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    K.legal_mask_into(s, params, mask)
    actions = np.flatnonzero(mask)
    if actions.shape[0] == 1:
        return actions[0]
    values = np.zeros(actions.shape[0])
    d = np.empty_like(s)
    trial = np.empty_like(s)
    scratch = np.empty_like(s)
    tiles = np.empty(NUM_TILES, dtype=np.int32)
    stream = np.empty(2, dtype=np.int32)
    for _ in range(iterations):
        determinize(s, params, me, d, rng, tiles)
        hi, lo = below(rng, SEARCH_RNG, 1 << 31), below(rng, SEARCH_RNG, 1 << 31)
        for i in range(actions.shape[0]):
            trial[:] = d
            stream[0], stream[1] = hi, lo
            values[i] += rollout(trial, params, me, actions[i], mask, scratch, stream, greedy_rate)
    return actions[np.argmax(values)]
