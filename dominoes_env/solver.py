"""Exact perfect-information solver for a game of block dominoes (``sniff_twelve.search.solver``):
alpha-beta with a transposition table over the rules' own state row.

The value of a position is the seat to act's OpenSpiel return at the end (D12), its side playing
to raise it and the other side to lower it; every hand is seen (the referee's row).

>>> from dominoes_env import Game
>>> solution = solve(Game(num_players=4, seed=1))
>>> solution.exact, solution.value == max(solution.action_values.values())
(True, True)
"""

from __future__ import annotations

import numba as nb
import numpy as np

from dominoes_env import kernels as K
from dominoes_env.game import Game
from dominoes_env.spec import DominoesSpec
from sniff_twelve.core.tiles import pip_count
from sniff_twelve.search.solver import fold, game_solver, listed


class DominoesSolverHooks(DominoesSpec):
    """Block dominoes' rules for the shared search (``sniff_twelve.search.solver``)."""

    MAX_CHILDREN = 14  # seven tiles, each on at most two pips (D6)
    MAX_DEPTH = K.NUM_TILES  # every action places a tile

    @nb.njit(cache=True)
    def legal_actions(s, params, mask, out):
        K.legal_mask_into(s, params, mask)
        return listed(mask, out)

    @nb.njit(cache=True)
    def ends(s, params, events):
        return s[K.STATUS] != K.LIVE

    @nb.njit(cache=True)
    def score_difference(s, params, root):
        """The root's return once the game is over (D12), else 0."""
        return 0 if s[K.STATUS] == K.LIVE else K.seat_return(s, params, root)

    @nb.njit(cache=True)
    def maximizes(s, params, root):
        return s[K.CUR] % 2 == root % 2

    @nb.njit(cache=True)
    def bound(s, params):
        """No return exceeds the pips left in all hands."""
        total = 0
        for seat in range(params[K.P_PLAYERS]):
            total += pip_count(s[K.HAND + seat])
        return total

    @nb.njit(cache=True)
    def key(s, params):
        """Every hand, the open ends and the seat to act."""
        h1, h2 = fold(np.uint64(params[K.P_PLAYERS]), np.uint64(s[K.CUR]), (s[K.ENDS] + 1) * 8 + s[K.ENDS + 1] + 1)
        for seat in range(params[K.P_PLAYERS]):
            h1, h2 = fold(h1, h2, s[K.HAND + seat])
        return h1, h2


HOOKS = DominoesSolverHooks()
solve = game_solver(HOOKS, Game)
