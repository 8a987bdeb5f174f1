"""Exact perfect-information solver for a game of "12" (``sniff_twelve.search.solver``): alpha-beta with a
transposition table over the rules' own state row.

The value of a position is the change, from the position to the end of the game (T12–T14), of
the seat to act's T15 score (captured cards minus cards in hand) minus the other seat's, with 2
players. With 3 to 7 players (no two sides) the value follows the paranoid rule: the seat to act's
score minus the sum of all the others', every other seat playing to minimise it. The stock is
drawn in its true order (T9, T11); the extra-turn variant (T10) is followed when it is on.

>>> from twelve_env import Game
>>> game = Game(num_players=2, seed=1, deal={"hands": [[0, 10], [11, 2]], "stock": [4, 5], "face_up": 1})
>>> solution = solve(game)
>>> solution.value, solution.action_values, solution.pv
(0, {0: -4, 10: 0}, [10, 2, 4, 5])
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_twelve.search.solver import fold, game_solver, listed
from twelve_env import kernels as K
from twelve_env.cards import MAX_RANKS
from twelve_env.game import Game
from twelve_env.spec import TwelveSpec


@nb.njit(cache=True)
def _score(s, seat):
    """T15: captured cards minus cards in hand."""
    return s[K.CAPTURED + seat] - K.hand_size(s, seat)


class TwelveSolverHooks(TwelveSpec):
    """ "12"'s rules for the shared search (``sniff_twelve.search.solver``)."""

    MAX_CHILDREN = MAX_RANKS  # one action per rank held (T7)
    MAX_DEPTH = 52  # every action plays a card
    HIGHER_FIRST = True  # the higher card first among those that gain alike: a quarter fewer nodes

    @nb.njit(cache=True)
    def legal_actions(s, params, mask, out):
        K.legal_mask_into(s, params, mask)
        return listed(mask, out)

    @nb.njit(cache=True)
    def ends(s, params, events):
        return s[K.STATUS] != K.LIVE

    @nb.njit(cache=True)
    def score_difference(s, params, root):
        """The root's T15 score minus the other seats' (one other seat with 2 players)."""
        diff = 0
        for seat in range(params[K.P_PLAYERS]):
            diff += _score(s, seat) if seat == root else -_score(s, seat)
        return diff

    @nb.njit(cache=True)
    def maximizes(s, params, root):
        return s[K.CUR] == root

    @nb.njit(cache=True)
    def bound(s, params):
        """Each card left (hand, stock, pile) moves a seat's score at most 3 times: drawn, played, captured."""
        cards = s[K.STOCK_LEN] - s[K.STOCK_HEAD] + s[K.PILE_LEN]
        for seat in range(params[K.P_PLAYERS]):
            cards += K.hand_size(s, seat)
        return 3 * cards

    @nb.njit(cache=True)
    def key(s, params):
        """Everything the rest of the game depends on: every hand's ranks, the top card and the
        size of the pile, the stock head (its order is fixed), the seat to act and the last round."""
        top = s[K.PILE + s[K.PILE_LEN] - 1] if s[K.PILE_LEN] > 0 else MAX_RANKS
        h1, h2 = fold(np.uint64(params[K.P_PLAYERS]), np.uint64(s[K.CUR]), s[K.STOCK_HEAD])
        h1, h2 = fold(h1, h2, ((s[K.PILE_LEN] * 16 + top) * 8 + s[K.CUR]) * 16 + s[K.LAST_ROUND] + 1)
        for seat in range(params[K.P_PLAYERS]):
            packed = 0
            for r in range(MAX_RANKS):
                packed = packed * 5 + s[K.HAND + MAX_RANKS * seat + r]
            h1, h2 = fold(h1, h2, packed)
        return h1, h2


HOOKS = TwelveSolverHooks()
solve = game_solver(HOOKS, Game)
