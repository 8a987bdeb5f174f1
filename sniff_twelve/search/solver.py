"""Exact perfect-information search shared by both games: alpha-beta over the game's state row.

A solver reads the referee's row — every hand, the boneyard or stock in order — so it is an
analysis tool (grading play, the par of a deal, the worlds of ``pimc``), never an agent's input:
``pimc`` hands it worlds it sampled from a seat's view, not the true deal.

The search is one compiled function for both games; a game hands in a subclass of its
``GameSpec`` (``sniff_twelve.core.spec``: ``apply_action``, ``legal_mask_into``, ``resample``,
``CUR``, ``ROW_SIZE``, ``MAX_ACTIONS``) that adds its solver rules:

- ``MAX_CHILDREN`` (most legal actions in any position), ``MAX_DEPTH`` (most actions before the
  search ends);
- ``legal_actions(s, params, mask, out)``: the legal actions in increasing order into ``out``,
  returning how many (``mask``: a scratch legal mask; ``listed`` reads one);
- ``ends(s, params, events)``: whether the search stops after the action that returned ``events``
  (Sniff: the hand is over or the match won; "12": the game is over);
- ``score_difference(s, params, root)``: the root's score minus the other side's (two sides) or
  minus the sum of every other seat's (the paranoid rule, more than two sides);
- ``maximizes(s, params, root)``: whether the seat to act plays for the root's side;
- ``key(s, params)``: two 64-bit hash words of everything the rest of the search depends on;
- ``bound(s, params)``: a number no value of the rest can exceed in size (the node budget's bounds);
- ``search_params(params)``: the options row the search runs with (``GameSpec``'s default:
  ``params`` itself; Sniff's settles a hand without dealing the next, where its search stops);
- ``HIGHER_FIRST``: among actions that gain alike, search the higher id first (``GameSpec``'s
  default: the lower; "12"'s higher card first takes a quarter fewer nodes, ``docs/solvers.md``).

``GameSpec.shorten(world, cards)`` cuts a world's draw pile (its ``POOL`` slots) to ``cards``
(``pimc``'s horizon).

Values are points *from here*: the change of ``score_difference`` from the position to the end,
so a position's value does not depend on the points already made and transpositions share one
table entry. Seats of the root's side maximise, the others minimise. The table is kept between
calls and made stale by a generation number, so a call does not clear it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numba as nb
import numpy as np

from sniff_twelve.core.options import check_int
from sniff_twelve.core.rng import GOLDEN, mix64
from sniff_twelve.core.view import SeatView

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.core.spec import GameSpec

INF = 1 << 30
EXACT, LOWER, UPPER = 0, 1, 2
TABLE_BITS = 20  # 1M entries of 32 bytes: a whole 4-player Sniff hand stores about 50k
#: the table's first 64k entries (2 MB) stay in the processor's cache: the deep nodes of a search
#: (``SHALLOW`` choices below its root or more), the bulk of its nodes, are kept there; the few
#: shallow ones, whose entries save the largest subtrees, in the rest of the table
CACHED_ROWS, SHALLOW = 1 << 16, 8
_ODD = np.uint64(0xD6E8FEB86659FD93)
# counters: nodes searched, budget exhausted, table hits
NODES, ABORTED, HITS = 0, 1, 2
# fields of a search frame (one per depth)
F_ALPHA, F_BETA, F_ALPHA0, F_BETA0, F_BEST, F_MOVE, F_COUNT, F_NEXT, F_MAX, F_SLOT, F_CHILD, F_OFFSET = range(12)
FRAME_SIZE = 12


@dataclass
class Solution:
    """What ``solve`` found (values in points from here, see ``sniff_twelve.search.solver``).

    ``value``: the exact minimax value when ``exact``; else the best value proved so far (a lower
    bound, ``lower``); ``upper``: an upper bound (equal to ``value`` when exact). ``action_values``:
    the exact value of every legal action, or with ``solve(moves=...)`` of the best ones and the
    listed ones (when not exact, only the actions solved before the budget ran out);
    ``action_bounds``: for each legal action left out of ``action_values`` by ``moves``, a value it
    cannot exceed (below ``value``). ``best``: the actions with the top value. ``pv``: the principal
    variation, every action (forced ones included) to the end under optimal play on all sides."""

    value: int
    action_values: dict[int, int]
    best: list[int]
    nodes: int
    exact: bool
    lower: int
    upper: int
    pv: list[int] = field(default_factory=list)
    action_bounds: dict[int, int] = field(default_factory=dict)


class Workspace:
    """The transposition table and the per-depth rows a game's searches reuse (``tables``)."""

    def __init__(self, hooks: GameSpec, table_bits: int = TABLE_BITS) -> None:
        size, depth, width = 1 << table_bits, hooks.MAX_DEPTH + 1, hooks.MAX_CHILDREN
        self.tables = (
            np.zeros((size, 4), dtype=np.uint64),  # key words, value, generation-move-flag: one cache line
            np.empty((depth, width, hooks.ROW_SIZE), dtype=np.int32),  # the children's rows
            np.empty((depth, width, 3), dtype=np.int32),  # their action, gain, whether the search ends
            np.empty((depth, hooks.MAX_ACTIONS), dtype=np.bool_),  # legal masks (row 0: the root's)
            np.empty((depth, width), dtype=np.int64),  # search order
            np.empty((depth, hooks.ROW_SIZE), dtype=np.int32),  # the rows forced moves lead to
            np.empty((depth, FRAME_SIZE), dtype=np.int64),  # the search frames
            np.empty((depth, 2), dtype=np.uint64),  # their key words
            np.empty(hooks.MAX_ACTIONS, dtype=np.bool_),  # a legal mask
        )
        self.generation = 0

    def sized(self, max_nodes: int) -> tuple:
        """``tables`` for a search of at most ``max_nodes`` nodes (0: no budget): the transposition
        table cut to a power of two near an eighth of the budget, from ``CACHED_ROWS`` up to the
        whole (a search stores at most one entry per node it expands, and most of a hand's nodes
        are forced moves, which it never stores). The size depends on the budget alone, so a
        search takes the same nodes on every thread."""
        table = self.tables[0]
        rows = table.shape[0] if max_nodes <= 0 else max(CACHED_ROWS, 1 << (max_nodes // 8).bit_length())
        return (table[: min(rows, table.shape[0])], *self.tables[1:])

    def next_generation(self, count: int = 1) -> int:
        """Reserve ``count`` fresh table generations (older entries go stale); returns the first."""
        if self.generation + count >= 1 << 30:
            self.tables[0][:, 3] = 0
            self.generation = 0
        self.generation += count
        return self.generation - count + 1


@nb.njit(cache=True)
def listed(mask, out):
    """The actions set in the legal ``mask``, in increasing order, into ``out``; returns how many
    (a game's ``legal_actions`` when it has no list of its own)."""
    count = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            out[count] = a
            count += 1
    return count


@nb.njit(cache=True, inline="always")
def _legal_count(g, params, s, mask, depth, moves):
    """The legal actions of ``s`` in ``moves[depth, :, 0]`` (``mask`` is scratch); returns how many."""
    return g.legal_actions(s, params, mask, moves[depth, :, 0])


@nb.njit(cache=True, inline="always")
def _expand(g, params, s, depth, count, root, kids, moves):
    """Apply each of the ``count`` actions ``_legal_count`` listed at ``depth`` into the children's
    rows there, with its gain (change of the score difference) and whether the search ends
    there. (The hot loops index the work arrays with scalars: an array view costs reference
    counting.)"""
    base = g.score_difference(s, params, root)
    for i in range(count):
        kid = kids[depth, i]
        for k in range(s.shape[0]):  # (a slice copy may allocate)
            kid[k] = s[k]
        events = g.apply_action(kid, params, np.int64(moves[depth, i, 0]))  # int64, as Game passes it
        moves[depth, i, 1] = g.score_difference(kid, params, root) - base
        moves[depth, i, 2] = 1 if g.ends(kid, params, events) else 0


@nb.njit(cache=True, inline="always")
def _order(g, moves, depth, count, first, maximize, order):
    """Search order in ``order[depth]``: the table's move first, then by gain (best for the seat
    to act first), then by id (the lower first, the higher with ``g.HIGHER_FIRST``)."""
    for i in range(count):  # listed in increasing order; the sort below is stable
        order[depth, i] = count - 1 - i if g.HIGHER_FIRST else i
    for i in range(1, count):  # insertion sort, at most MAX_CHILDREN items
        j = i
        while j > 0:
            a, b = order[depth, j - 1], order[depth, j]
            ka = 1 if moves[depth, a, 0] == first else 0
            kb = 1 if moves[depth, b, 0] == first else 0
            ga, gb = moves[depth, a, 1], moves[depth, b, 1]
            if not maximize:
                ga, gb = -ga, -gb
            if kb > ka or (kb == ka and gb > ga):
                order[depth, j - 1], order[depth, j] = b, a
                j -= 1
            else:
                break


_VALUE_OFFSET = 1 << 31  # values are stored as unsigned words


@nb.njit(cache=True, inline="always")
def _probe(table, gen, h1, h2, slot, alpha, beta):
    """``(settled, value, alpha, beta, move)`` from the table entry of a node, if it has one."""
    entry = table[slot, 3]
    if table[slot, 0] == h1 and table[slot, 1] == h2 and np.int64(entry >> np.uint64(16)) == gen:
        v = np.int64(table[slot, 2]) - _VALUE_OFFSET
        flag = np.int64(entry & np.uint64(3))
        move = np.int64((entry >> np.uint64(2)) & np.uint64(16383)) - 1
        if flag == EXACT:
            return True, v, alpha, beta, move
        if flag == LOWER:
            alpha = max(alpha, v)
        else:
            beta = min(beta, v)
        return alpha >= beta, v, alpha, beta, move
    return False, 0, alpha, beta, -1


@nb.njit(cache=True, inline="always")
def _slot(h1, depth, size):
    """The table entry of a node of key word ``h1`` at ``depth``: among the ``CACHED_ROWS`` first
    for a deep node or a table no larger, else among the others (``size``: a power of two)."""
    if size <= CACHED_ROWS or depth >= SHALLOW:
        return np.int64(h1 & np.uint64(min(size, CACHED_ROWS) - 1))
    return np.int64((h1 & np.uint64(size - 1)) | np.uint64(CACHED_ROWS))


@nb.njit(cache=True, inline="always")
def _store(table, slot, h1, h2, value, move, flag, gen):
    table[slot, 0], table[slot, 1] = h1, h2
    table[slot, 2] = np.uint64(value + _VALUE_OFFSET)
    table[slot, 3] = (np.uint64(gen) << np.uint64(16)) | np.uint64((move + 1) * 4 + flag)


@nb.njit(cache=True, inline="always")
def _open(g, params, s, depth, alpha, beta, root, table, kids, moves, order, forced, mask, gen, counters,
          max_nodes, frames, hashes):  # fmt: skip
    """Enter the node ``s`` at ``depth``: ``(True, value)`` when the table, the budget or the end
    settles it at once, else ``(False, 0)`` with its frame and children ready. A run of forced
    moves (one legal action: draws, passes, a lone placement) is played through first, so the
    frame is that of the next real choice, ``F_OFFSET`` the points made on the way."""
    offset = 0
    row = s
    while True:
        counters[NODES] += 1
        if max_nodes > 0 and counters[NODES] > max_nodes:
            counters[ABORTED] = 1
            return True, 0
        count = _legal_count(g, params, row, mask, depth, moves)
        if count > 1:
            break
        # forced: played through here, so the table never holds it (no key, no probe)
        played = forced[depth]
        for k in range(row.shape[0]):
            played[k] = row[k]
        base = g.score_difference(played, params, root)
        events = g.apply_action(played, params, np.int64(moves[depth, 0, 0]))
        offset += g.score_difference(played, params, root) - base
        if g.ends(played, params, events):
            return True, offset
        row = played
    h1, h2 = g.key(row, params)
    slot = _slot(h1, depth, table.shape[0])
    settled, v, lo, hi, first = _probe(table, gen, h1, h2, slot, alpha - offset, beta - offset)
    if settled:
        counters[HITS] += 1
        return True, offset + v
    _expand(g, params, row, depth, count, root, kids, moves)
    maximize = g.maximizes(row, params, root)
    _order(g, moves, depth, count, first, maximize, order)
    frames[depth, F_ALPHA], frames[depth, F_BETA], frames[depth, F_ALPHA0], frames[depth, F_BETA0] = lo, hi, lo, hi
    frames[depth, F_BEST] = -INF if maximize else INF
    frames[depth, F_MOVE], frames[depth, F_COUNT], frames[depth, F_NEXT] = -1, count, 0
    frames[depth, F_MAX], frames[depth, F_SLOT], frames[depth, F_OFFSET] = maximize, slot, offset
    hashes[depth, 0], hashes[depth, 1] = h1, h2
    return False, 0


@nb.njit(cache=True, inline="always")
def _take(frames, d, v, move):
    """Fold a child's value ``v`` into the frame at depth ``d`` (alpha-beta, fail-soft)."""
    if frames[d, F_MAX]:
        if v > frames[d, F_BEST]:
            frames[d, F_BEST], frames[d, F_MOVE] = v, move
        frames[d, F_ALPHA] = max(frames[d, F_ALPHA], frames[d, F_BEST])
    else:
        if v < frames[d, F_BEST]:
            frames[d, F_BEST], frames[d, F_MOVE] = v, move
        frames[d, F_BETA] = min(frames[d, F_BETA], frames[d, F_BEST])
    if frames[d, F_ALPHA] >= frames[d, F_BETA]:
        frames[d, F_NEXT] = frames[d, F_COUNT]  # cut-off


@nb.njit(cache=True, _nrt=False)
def _search(g, params, s, depth, alpha, beta, root, w, gen, counters, max_nodes):
    """Fail-soft alpha-beta value of ``s`` (points from here, the root's point of view), with
    an explicit stack of frames from ``depth`` down (numba does not cache recursive functions).
    Compiled without reference counting: it allocates nothing, and the counts cost a fifth of
    the time."""
    table, kids, moves, order, forced, frames, hashes, mask = w[0], w[1], w[2], w[4], w[5], w[6], w[7], w[8]
    done, value = _open(
        g, params, s, depth, alpha, beta, root, table, kids, moves, order, forced, mask, gen, counters,
        max_nodes, frames, hashes,
    )  # fmt: skip
    if done:
        return value
    d = depth
    while True:
        if frames[d, F_NEXT] < frames[d, F_COUNT]:
            i = order[d, frames[d, F_NEXT]]
            frames[d, F_NEXT] += 1
            gain = moves[d, i, 1]
            if moves[d, i, 2]:
                _take(frames, d, gain, moves[d, i, 0])
                continue
            frames[d, F_CHILD] = i
            done, value = _open(
                g, params, kids[d, i], d + 1, frames[d, F_ALPHA] - gain, frames[d, F_BETA] - gain, root,
                table, kids, moves, order, forced, mask, gen, counters, max_nodes, frames, hashes,
            )  # fmt: skip
            if counters[ABORTED]:
                return 0
            if done:
                _take(frames, d, gain + value, moves[d, i, 0])
            else:
                d += 1
            continue
        best = frames[d, F_BEST]
        flag = UPPER if best <= frames[d, F_ALPHA0] else (LOWER if best >= frames[d, F_BETA0] else EXACT)
        _store(table, frames[d, F_SLOT], hashes[d, 0], hashes[d, 1], best, frames[d, F_MOVE], flag, gen)
        value = frames[d, F_OFFSET] + best
        if d == depth:
            return value
        d -= 1
        i = frames[d, F_CHILD]
        _take(frames, d, moves[d, i, 1] + value, moves[d, i, 0])


@nb.njit(cache=True, inline="always")
def _mtd(g, params, s, depth, root, w, gen, counters, max_nodes, guess):
    """The exact value of ``s`` at ``depth`` by null-window searches closing in on it from ``guess``
    (MTD(f))."""
    lower, upper, v = -INF, INF, guess
    while lower < upper:
        beta = v + 1 if v == lower else v
        v = _search(g, params, s, depth, beta - 1, beta, root, w, gen, counters, max_nodes)
        if counters[ABORTED]:
            return 0
        if v < beta:
            upper = v
        else:
            lower = v
    return v


@nb.njit(cache=True, inline="always")
def _table_move(g, params, s, table, gen):
    """The move the table holds for the root ``s`` (``-1``: none, its entry overwritten)."""
    h1, h2 = g.key(s, params)
    return _probe(table, gen, h1, h2, _slot(h1, 0, table.shape[0]), -INF, INF)[4]


@nb.njit(cache=True, inline="always")
def _best_first(g, params, s, root, w, gen, counters, max_nodes, wanted):
    """``(first, guess)`` for ``_root_values``: when a legal action of ``s`` needs only a bound,
    the position's own value (MTD(f) over the whole position) and its table move, a best action,
    so that it is valued first and every other is tested against the best value itself; else
    ``(-1, 0)`` (every action valued exactly: finding the best first did not pay there)."""
    moves = w[2]
    count = _legal_count(g, params, s, w[3][0], 0, moves)
    bounded = 0  # the legal actions only bounded
    for i in range(count):
        bounded += not wanted[moves[0, i, 0]]
    if count < 2 or bounded == 0:
        return -1, 0
    value = _mtd(g, params, s, 0, root, w, gen, counters, max_nodes, 0)
    return _table_move(g, params, s, w[0], gen), value


@nb.njit(cache=True)
def _root_values(g, params, s, root, w, gen, counters, max_nodes, values, solved, upper, wanted, first, guess):
    """Value the legal actions of ``s``, ``first`` first (``-1``: none), then the likeliest best
    (what they earn at once): exactly (a full window each, MTD(f), the first from ``guess``) every
    action set in ``wanted`` and the first one searched; any other only as far as it takes to tell
    whether it reaches the best value so far (one null-window test: if it does, it is valued
    exactly too, else ``upper[a]`` holds a bound its value cannot exceed). So the best value and
    every action that reaches it are always exact. Stops when the budget runs out (``solved``
    marks the exact values). Returns the count of legal actions."""
    solved[:] = False
    kids, moves, order = w[1], w[2], w[4]
    mask = w[3][0]
    count = _legal_count(g, params, s, mask, 0, moves)
    _expand(g, params, s, 0, count, root, kids, moves)
    _order(g, moves, 0, count, first, True, order)
    best = -INF
    for j in range(count):
        i = order[0, j]
        a, gain = moves[0, i, 0], moves[0, i, 1]
        v = gain
        if not moves[0, i, 2]:
            if wanted[a] or best == -INF:
                v += _mtd(g, params, kids[0, i], 1, root, w, gen, counters, max_nodes, guess - gain)
            else:
                need = best - gain  # what the rest after action a must be worth to reach the best
                reached = _search(g, params, kids[0, i], 1, need - 1, need, root, w, gen, counters, max_nodes)
                if counters[ABORTED]:
                    break
                if reached < need:
                    upper[a] = gain + reached
                    continue
                v += _mtd(g, params, kids[0, i], 1, root, w, gen, counters, max_nodes, reached)
        if counters[ABORTED]:
            break
        guess = v
        best = max(best, v)
        values[a] = v
        solved[a] = True
    return count


@nb.njit(cache=True, inline="always")
def _principal_variation(g, params, s, root, w, gen, counters, values, solved, pv):
    """From the solved root, follow at every step a child whose value equals its parent's: one
    null-window test a child (no child of a maximising node is worth more than it, none of a
    minimising node less, so reaching the parent's value is equalling it)."""
    target = -INF
    for a in range(g.MAX_ACTIONS):
        if solved[a] and values[a] > target:
            target = values[a]
    row = s.copy()
    kids, moves = w[1], w[2]
    unbounded = np.int64(0)  # no budget, typed as solve_row's: one compiled copy of the search
    for step in range(pv.shape[0]):
        count = _legal_count(g, params, row, w[3][0], 0, moves)
        _expand(g, params, row, 0, count, root, kids, moves)
        maximize = g.maximizes(row, params, root)
        chosen = 0
        for i in range(count if count > 1 else 0):
            need = target - moves[0, i, 1]  # what the rest after child i must be worth
            if moves[0, i, 2]:
                reached = need == 0
            elif maximize:
                reached = _search(g, params, kids[0, i], 1, need - 1, need, root, w, gen, counters, unbounded) >= need
            else:
                reached = _search(g, params, kids[0, i], 1, need, need + 1, root, w, gen, counters, unbounded) <= need
            if reached:
                chosen = i
                break
        pv[step] = moves[0, chosen, 0]
        target -= moves[0, chosen, 1]
        row[:] = kids[0, chosen]
        if moves[0, chosen, 2]:
            return


@nb.njit(cache=True, nogil=True)
def solve_row(g, params, s, w, gen, max_nodes, values, solved, upper, wanted, pv):
    """Solve the position ``s`` for its seat to act (``_root_values``: the best actions and those
    set in ``wanted`` exactly, the others at least bounded by ``upper``, a best action first when
    some are only bounded, ``_best_first``; ``solved[a]`` set for the exact values found within
    ``max_nodes``, 0 = no budget), ``pv`` the principal variation (``-1`` after its end). Returns
    ``(nodes, aborted, hits)``. (``value_world`` does without ``_best_first``: it made ``pimc``
    no faster, ``docs/solvers.md``.)"""
    counters = np.zeros(3, dtype=np.int64)
    root = np.int64(s[g.CUR])  # int64, as pimc passes its seat: one compiled copy of the search
    pv[:] = -1
    solved[:] = False
    first, guess = _best_first(g, params, s, root, w, gen, counters, max_nodes, wanted)
    if not counters[ABORTED]:
        _root_values(g, params, s, root, w, gen, counters, max_nodes, values, solved, upper, wanted, first, guess)
    if not counters[ABORTED]:
        _principal_variation(g, params, s, root, w, gen, counters, values, solved, pv)
    return counters[NODES], counters[ABORTED], counters[HITS]


@nb.njit(cache=True, nogil=True)
def value_world(g, params, world, seat, max_nodes, w, gen, values, solved, upper, wanted):
    """``_root_values`` of ``world`` for ``seat`` (a world of ``pimc`` or ``analyze``): returns the
    nodes searched and whether the search fitted ``max_nodes`` (0 = no budget)."""
    counters = np.zeros(3, dtype=np.int64)
    _root_values(g, params, world, seat, w, gen, counters, max_nodes, values, solved, upper, wanted, -1, 0)
    return counters[NODES], counters[ABORTED] == 0


@nb.njit(cache=True, nogil=True)
def value_action(g, params, world, seat, action, max_nodes, w, gen, counters):
    """The exact value of the legal ``action`` in ``world`` for ``seat``: returns ``(value, nodes,
    fitted)`` (``fitted`` false when ``max_nodes`` cut the search). ``counters`` (int64[3], zeros)
    is the search's: another thread that sets its ``ABORTED`` stops the search (not fitted)."""
    kids, moves = w[1], w[2]
    count = _legal_count(g, params, world, w[3][0], 0, moves)
    _expand(g, params, world, 0, count, seat, kids, moves)
    value = 0
    for i in range(count):
        if moves[0, i, 0] == action:
            value = moves[0, i, 1]
            if not moves[0, i, 2]:
                value += _mtd(g, params, kids[0, i], 1, seat, w, gen, counters, max_nodes, 0)
    return value, counters[NODES], counters[ABORTED] == 0


@nb.njit(cache=True, nogil=True)
def draw_worlds(view, params, g, seat, rng, worlds):
    """Fill the rows of ``worlds`` with worlds sampled from ``seat``'s view (``g.resample``), in
    order from ``rng``. ``view`` comes first so that ``SeatView.run`` can call it."""
    for k in range(worlds.shape[0]):
        g.resample(view, params, seat, worlds[k], rng)


@nb.njit(cache=True, inline="always")
def fold(h1, h2, x):
    """Mix the non-negative integer ``x`` into both key words (two independent splitmix chains)."""
    v = np.uint64(x)
    return mix64(h1 + v * GOLDEN + np.uint64(0x632BE59BD9B4E019)), mix64(
        (h2 ^ v) * _ODD + np.uint64(0x8CB92BA72F3D8DD7)
    )


_LOCAL = threading.local()


def workspace(hooks: GameSpec) -> Workspace:
    """The calling thread's ``Workspace`` for a game's hooks (made at its first use there): the
    kernels release the GIL, so threads search at once, each in its own tables."""
    tables = _LOCAL.__dict__.setdefault("workspaces", {})
    cls = type(hooks)
    if cls not in tables:
        tables[cls] = Workspace(hooks)
    return tables[cls]


def checked_game(game: object, game_cls: type) -> BaseGame:
    """``game`` if it is a ``game_cls``; ``TypeError`` otherwise — a seat view above all, since
    it hides what a solver reads."""
    if isinstance(game, SeatView):
        raise TypeError(
            "a solver reads every hand and the whole draw order; a seat view hides them. Solve the "
            f"referee's {game_cls.__module__}.Game, or sample a world with view.sample()"
        )
    if not isinstance(game, game_cls):
        raise TypeError(f"solve takes a {game_cls.__module__}.Game; got {type(game).__name__}")
    return game


def check_budget(max_nodes: int | None) -> int:
    """``max_nodes`` as the kernels take it (0 = no budget); ``ValueError`` when it is ≤ 0."""
    return 0 if max_nodes is None else check_int("max_nodes", max_nodes, 1, 1 << 62)


def wanted_mask(game: BaseGame, size: int, moves: Iterable[int] | None) -> np.ndarray:
    """The actions ``solve`` must value exactly, as a mask of ``size``: every one for ``moves=None``,
    else the listed ones; ``ValueError`` naming the legal actions for one that is not legal."""
    if moves is None:
        return np.ones(size, dtype=np.bool_)
    legal = game.legal_actions()
    listed = [int(a) for a in moves]
    wrong = [a for a in listed if a not in legal]
    if wrong:
        raise ValueError(f"moves must be legal actions of the position; {wrong} are not (legal: {legal})")
    mask = np.zeros(size, dtype=np.bool_)
    mask[listed] = True
    return mask


def solve_game(
    game: BaseGame, hooks: GameSpec, ws: Workspace, max_nodes: int | None, moves: Iterable[int] | None = None
) -> Solution:
    """``solve`` for a game whose class checks are done (``game_solver``)."""
    budget = check_budget(max_nodes)
    if game.is_terminal():
        raise ValueError("cannot solve a finished game: it has no seat to act")
    wanted = wanted_mask(game, hooks.MAX_ACTIONS, moves)
    s = game._state.copy()
    values = np.zeros(hooks.MAX_ACTIONS, dtype=np.int64)
    upper = np.zeros(hooks.MAX_ACTIONS, dtype=np.int64)
    solved = np.zeros(hooks.MAX_ACTIONS, dtype=np.bool_)
    pv = np.empty(hooks.MAX_DEPTH + 1, dtype=np.int64)
    tables, gen = ws.sized(budget), ws.next_generation()
    params = hooks.search_params(game._params)
    nodes, aborted, _ = solve_row(hooks, params, s, tables, gen, budget, values, solved, upper, wanted, pv)
    action_values = {int(a): int(values[a]) for a in np.flatnonzero(solved)}
    bound = int(hooks.bound(s, game._params))
    if aborted:
        lower = max(action_values.values(), default=-bound)
        best = [a for a, v in action_values.items() if v == lower] if action_values else []
        return Solution(lower, action_values, best, int(nodes), False, lower, bound)
    value = max(action_values.values())
    best = [a for a, v in action_values.items() if v == value]
    bounds = {int(a): int(upper[a]) for a in game.legal_actions() if a not in action_values}
    pv_list = [int(a) for a in pv if a >= 0]
    return Solution(value, action_values, best, int(nodes), True, value, value, pv_list, bounds)


def game_solver(hooks: GameSpec, game_cls: type[BaseGame]) -> Callable[..., Solution]:
    """The ``solve`` of one game (``sniff_env.solver.solve``, ``twelve_env.solver.solve``): ``hooks``
    its solver rules, ``game_cls`` its ``Game``; the game's solver module says what a value counts."""

    def solve(game: BaseGame, *, moves: Iterable[int] | None = None, max_nodes: int | None = None) -> Solution:
        """Solve the rest of ``game`` exactly (its solver module's docstring says what the value counts).

        Args:
            game: a live ``Game`` of the game (the referee's state: every hand, the draw pile in order).
            moves: the legal actions whose values are wanted (``None``: every one). ``value`` and
                ``best`` stay exact; the other actions are only shown to fall short of the best
                (``action_bounds``), which is what grading one decision needs and far cheaper when
                a bad move would take long to value exactly.
            max_nodes: stop after this many nodes; the result then has ``exact=False`` and bounds.

        Raises ``TypeError`` for anything but the game's ``Game`` (a seat view above all),
        ``ValueError`` for a finished game, an illegal listed move or a budget below 1.

        The release of the GIL lets threads solve at once (each in its own tables).
        """
        return solve_game(checked_game(game, game_cls), hooks, workspace(hooks), max_nodes, moves)

    solve.hooks = hooks  # the rules it searches with (``analyze`` values its worlds with them)
    return solve
