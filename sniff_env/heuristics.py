"""Sniff's rules of thumb and the rollouts built on them: placement credits, the ``greedy`` and
``heuristic`` policies, the action features, and the paired rollouts the ``rollout`` agent runs on
re-dealt worlds (``sniff_twelve.search.rollouts``).

Every function here takes a seat's view (``sniff_env.view.write_view``), not the referee's state:
the agents, ``Game.action_features`` and ``VectorGame`` pass views, so nothing here can depend on
a hidden tile (a rollout's world is a view re-dealt by ``sniff_env.view.resample``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_env import kernels as K
from sniff_env.tiles import DRAW, NUM_ACTIONS, NUM_TILES, PIP_TILES, TILE_HIGH, TILE_LOW
from sniff_env.view import SEARCH_RNG, unseen_tiles
from sniff_twelve.core.bits import lowest_bit
from sniff_twelve.core.rng import below, pick_legal
from sniff_twelve.core.seats import seat_after


@nb.njit(cache=True)
def credit_after(s, params, action, scratch):
    """Credit the seat to act would get for the placement ``action`` (S17), computed on ``scratch``."""
    scratch[:] = s
    return K.lay_tile(scratch, action)


@nb.njit(cache=True)
def greedy_action(s, params):
    """Highest immediate credit; ties go to the heaviest tile, then the lowest action id."""
    return _greedy(s, params, np.empty_like(s))


@nb.njit(cache=True)
def _greedy(s, params, scratch):
    """``greedy_action`` of the live position ``s``, trying each placement on ``scratch``."""
    best, best_key = -1, -1
    fits = K.fitting(s, s[K.HAND + s[K.CUR]]) if s[K.STATUS] == K.LIVE else (0, 0, 0, 0)
    for k in range(4):  # the tiles that fit each arm (S9), as legal_mask_into lists them
        cand = fits[k]
        while cand:
            tile = lowest_bit(cand)
            cand &= cand - 1
            a = tile * 4 + k
            key = credit_after(s, params, a, scratch) * 64 + TILE_LOW[tile] + TILE_HIGH[tile]
            if key > best_key or (key == best_key and a < best):
                best, best_key = a, key
    if best >= 0:
        return best
    return K.stuck_action(s, params)  # no tile fits: S19, S21


@nb.njit(cache=True)
def _reply_candidates(s, params, me, seat):
    """Tiles ``seat`` may hold as far as ``me`` can tell: unseen by ``me``, no known void of ``seat``."""
    candidates = unseen_tiles(s, params, me)
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
                best = max(best, K.lay_tile(scratch, t * 4 + k))
    return best


@nb.njit(cache=True)
def surely_ends_hand(after, params, me, unseen):
    """Whether ``me``'s placement, laid on ``after`` (``K.lay_tile``), ends the hand whatever the
    hidden tiles: it was ``me``'s last tile (domino, S22), its credit reaches the target (S25), or
    the hand is blocked for certain (S21): nothing can be drawn and no tile that ``me`` holds or
    has not seen (``unseen``) fits a free spot. This is the public counterpart of "ends the hand":
    equal to it by default, where a block leaves no tile unseen outside the hands; with tiles left
    undrawn (S4a) a block may also come from fitting tiles lying undrawn, which no seat can know."""
    side = K.side_of(params, me)
    if after[K.HAND + me] == 0 or after[K.SCORE + side] + after[K.CREDIT] >= params[K.P_TARGET]:
        return True
    return not K.can_draw(after, params) and K.playable_mask(after, after[K.HAND + me] | unseen) == 0


ACTION_FEATURES = ("credit", "threat", "ends_hand")
NUM_FEATURES = len(ACTION_FEATURES)


@nb.njit(cache=True)
def action_features(s, params, out):
    """``out[a]`` for every legal placement ``a`` of the seat to act, 0 for DRAW, PASS and illegal
    actions: its credit (S17); the most the next seat could then credit at once with a tile it
    may hold (unseen by the seat to act, not a known void: the look-ahead ``heuristic`` uses);
    1 if it surely ends the hand or wins the match (``surely_ends_hand``). ``s`` is the acting
    seat's view."""
    n = params[K.P_PLAYERS]
    me = np.int64(s[K.CUR])
    nxt = seat_after(me, 1, n)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    K.legal_mask_into(s, params, mask)
    after = np.empty_like(s)
    scratch = np.empty_like(s)
    unseen = unseen_tiles(s, params, me)
    candidates = _reply_candidates(s, params, me, nxt)
    out[:NUM_ACTIONS] = 0.0
    for a in range(DRAW):
        if not mask[a]:
            continue
        after[:] = s
        out[a, 0] = K.lay_tile(after, a)
        if surely_ends_hand(after, params, me, unseen):
            out[a, 2] = 1.0
        else:
            out[a, 1] = _threat(after, params, nxt, candidates, scratch)


@nb.njit(cache=True)
def heuristic_action(s, params):
    """Greedy's credit, minus what the next opponent could then score at once (unseen tiles it
    is not known to lack), plus blocking: open pips the opponents lack count for, pips the
    partner lacks against; a placement that surely ends the hand comes first; the heaviest tile
    breaks ties. ``s`` is the acting seat's view."""
    n = params[K.P_PLAYERS]
    me = np.int64(s[K.CUR])
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    K.legal_mask_into(s, params, mask)
    features = np.empty((NUM_ACTIONS, NUM_FEATURES))
    action_features(s, params, features)
    after = np.empty_like(s)
    best, best_value = -1, -1e9
    for a in range(DRAW):
        if not mask[a]:
            continue
        credit, threat, ends_hand = features[a, 0], features[a, 1], features[a, 2]
        if ends_hand:
            value = 1000.0 + credit  # wins the match or goes out
        else:
            value = credit - 0.7 * threat
            after[:] = s
            K.lay_tile(after, a)
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
    return K.stuck_action(s, params)  # no tile fits: S19, S21


@nb.njit(cache=True)
def rollout(d, params, me, first, mask, rng, greedy_rate):
    """Apply ``first`` to ``d``, then play to the end of the hand (or match): each move greedy
    with probability ``greedy_rate`` (per mille), else random. Returns my side's point gain minus
    the best other side's over that stretch, with ±500 for winning or losing the match."""
    n = params[K.P_PLAYERS]
    sides = 2 if n == 4 else n
    scratch = np.empty_like(d)
    start = np.empty(4, dtype=np.int64)
    for side in range(sides):
        start[side] = d[K.SCORE + side]
    hand = d[K.HANDS_DONE]
    K.apply_action(d, params, first)
    while d[K.STATUS] == K.LIVE and d[K.HANDS_DONE] == hand:
        K.legal_mask_into(d, params, mask)
        if below(rng, SEARCH_RNG, 1000) < greedy_rate:
            a = _greedy(d, params, scratch)
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
