"""Exact perfect-information solver for a Sniff hand (``sniff_twelve.search.solver``): alpha-beta with a
transposition table over the rules' own state row.

The value of a position is what the seat to act's side gains minus what the other side gains
(2 players, 4 players in partnerships, S1) from the position to the end of the hand: placement
credits (S17) and the end-of-hand settlement (S23–S24, or the All Fives variant's credit, S4a).
Draws follow the true boneyard order (S19, S20). A credit that reaches the match target ends the
match at once (S25): the value then counts that credit and nothing after it (no settlement).
With 3 players (no two sides) the value follows the paranoid rule: the seat to act's points minus
the two others' together, both others playing to minimise it.

>>> from sniff_env import Game
>>> game = Game(num_players=4, seed=1)
>>> solution = solve(game)
>>> solution.exact, solution.value == max(solution.action_values.values())
(True, True)
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_env import kernels as K
from sniff_env.game import Game
from sniff_env.spec import SniffSpec
from sniff_twelve.core.bits import popcount
from sniff_twelve.search.solver import fold, game_solver

MAX_CREDIT = 35  # S17: four scored ends count at most 12 + 10 + 8 + 6 (three end doubles and a 6)


@nb.njit(cache=True)
def _points_left(s, params):
    """A bound on the points any side can still make this hand: the tiles still to be placed at
    ``MAX_CREDIT`` each, plus their pips rounded up (a settlement, S23–S24 or S4a)."""
    tiles = 0
    for seat in range(params[K.P_PLAYERS]):
        tiles |= s[K.HAND + seat]
    for i in range(s[K.BONE_HEAD], s[K.BONE_LEN]):
        tiles |= 1 << s[K.BONE + i]
    return MAX_CREDIT * popcount(tiles) + K.pip_count(tiles) + 3 * params[K.P_PLAYERS]


@nb.njit(cache=True, inline="always")
def _end_key(s, k):
    """What the rest of the hand reads of arm ``k``'s end: the pip it offers (``-1``: none), whether
    its tile is a double (scored twice, S10) and whether it is the Sniff (S12–S14). Which tile it
    is otherwise, and which of its halves was matched, decide nothing more."""
    tile = s[K.END_TILE + k]
    if s[K.END_PIP + k] < 0:
        return 0
    return ((s[K.END_PIP + k] + 1) * 2 + K.is_double(tile)) * 2 + (tile == s[K.SNIFF])


class SniffSolverHooks(SniffSpec):
    """Sniff's rules for the shared search (``sniff_twelve.search.solver``)."""

    MAX_CHILDREN = 28  # four free spots, seven tiles carry each pip (S9)
    MAX_DEPTH = 120  # the longest hand is 117 actions (4 players: every tile drawn and placed)

    @nb.njit(cache=True)
    def legal_actions(s, params, mask, out):
        return K.legal_actions_into(s, params, out)

    @nb.njit(cache=True)
    def ends(s, params, events):
        """The hand is over (S22, settled), the match won (S25) or truncated (S26)."""
        return events & (K.EV_HAND_END | K.EV_WON | K.EV_TRUNCATED) != 0

    @nb.njit(cache=True)
    def score_difference(s, params, root):
        """The root's side's score minus the other side's (2, 4 players) or minus both other
        seats' (3 players, paranoid)."""
        n = params[K.P_PLAYERS]
        mine = K.side_of(params, root)
        sides = 2 if n == 4 else n
        diff = 0
        for side in range(sides):
            diff += s[K.SCORE + side] if side == mine else -s[K.SCORE + side]
        return diff

    @nb.njit(cache=True)
    def maximizes(s, params, root):
        return K.side_of(params, s[K.CUR]) == K.side_of(params, root)

    @nb.njit(cache=True)
    def bound(s, params):
        return _points_left(s, params)  # every credit goes to one side, every deduction to one seat

    def search_params(self, params: np.ndarray) -> np.ndarray:
        """The search stops at the hand's end (``ends``), so it settles the hand there as a hand
        episode does, without dealing the next one (S5): the same values, no shuffle at each leaf."""
        params = params.copy()
        params[K.P_HAND_EPISODE] = 1
        return params

    @nb.njit(cache=True)
    def key(s, params):
        """Everything the rest of the hand depends on: the hands, the boneyard head (its order is
        fixed), the seat to act, the free ends and the Sniff; a side's distance to the target only
        while it could still reach it this hand (S25), and the steps left when truncation is on."""
        n = params[K.P_PLAYERS]
        h1, h2 = fold(np.uint64(n), np.uint64(s[K.CUR]), s[K.BONE_HEAD] * 8 + s[K.CUR])
        for seat in range(n):
            h1, h2 = fold(h1, h2, s[K.HAND + seat])
        for k in (0, 2):  # the two line arms are interchangeable, and so are the two side arms
            a = _end_key(s, k)
            b = _end_key(s, k + 1)
            h1, h2 = fold(h1, h2, min(a, b) * 64 + max(a, b))
        h1, h2 = fold(h1, h2, (s[K.SNIFF] + 1) * 2 + s[K.SIDE_ARMS_OPEN])
        reach = _points_left(s, params)
        for side in range(2 if n == 4 else n):
            distance = params[K.P_TARGET] - s[K.SCORE + side]
            h1, h2 = fold(h1, h2, max(distance, 0) if distance <= reach else 0)
        if params[K.P_MAX_STEPS] > 0:
            h1, h2 = fold(h1, h2, s[K.STEPS])
        return h1, h2


HOOKS = SniffSolverHooks()
solve = game_solver(HOOKS, Game)
