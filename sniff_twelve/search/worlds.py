"""A seat's actions valued over worlds it cannot tell apart: the sums ``pimc`` and ``analyze`` rank.

Each world is a full position (sampled from the seat's view, or from its beliefs) solved by the
exact search (``sniff_twelve.search.solver``). Only what the ranking needs is valued exactly:

- every world values its best action and the ``wanted`` ones exactly, and bounds the rest from
  above (one null-window test each, ``value_world``);
- ``refine`` then makes exact, world by world, the action whose sum of values and bounds is the
  highest, until that action's sum is exact: no other action's true sum can then exceed it, so it
  is the action a search that valued everything would rank first (ties: the lowest id).

Worlds are spread over threads (the kernels release the GIL), each thread searching in its own
tables. A world's search starts on a fresh table generation, so its nodes, and so whether it fits
``max_nodes``, do not depend on which thread ran it or what ran there before: the result is the
same for every thread count.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import numba as nb
import numpy as np

from sniff_twelve.search.solver import value_action, value_world, workspace

if TYPE_CHECKING:
    from sniff_twelve.core.spec import GameSpec

_POOLS: dict[int, ThreadPoolExecutor] = {}
T = TypeVar("T")
S = TypeVar("S")


def thread_pool(threads: int) -> ThreadPoolExecutor:
    """The process's pool of ``threads`` search threads (made at first use)."""
    if threads not in _POOLS:
        _POOLS[threads] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="search")
    return _POOLS[threads]


def resolve_threads(threads: int | None) -> int:
    """``threads`` (``None``: numba's thread count, the library's convention)."""
    return nb.get_num_threads() if threads is None else threads


@dataclass
class WorldValues:
    """What ``world_values`` found: ``totals[a]`` the sum over the solved worlds of action ``a``'s
    value (exact where ``exact[a]``, else an upper bound), ``worlds`` how many were solved,
    ``nodes`` the nodes searched."""

    totals: np.ndarray
    exact: np.ndarray
    worlds: int
    nodes: int

    def ranked_first(self, legal: list[int]) -> int:
        """The legal action with the highest sum (ties: the lowest id)."""
        sums = self.totals[legal]
        return legal[int(np.argmax(sums))]


def thread_map(threads: int) -> Callable[[Callable[[int], T], Iterable[int]], list[T]]:
    """A ``map`` that runs its calls on ``threads`` threads (of ``thread_pool``) and returns their
    results in order: the compiled searches release the GIL, so the threads search at once."""

    def run(job: Callable[[int], T], items: Iterable[int]) -> list[T]:
        items = list(items)
        if threads == 1 or len(items) == 1:
            return [job(j) for j in items]
        return list(thread_pool(threads).map(job, items))

    return run


def thread_imap(threads: int) -> Callable[[Callable[[S], T], Iterable[S]], Iterator[T]]:
    """``thread_map``, lazily: every call is started at once (a long one holds up no thread) and the
    results come in order; the calls not yet started are cancelled when the consumer stops early."""

    def run(job: Callable[[S], T], items: Iterable[S]) -> Iterator[T]:
        if threads == 1:
            yield from map(job, items)
            return
        pending = deque(thread_pool(threads).submit(job, item) for item in items)
        try:
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()

    return run


def world_values(
    hooks: GameSpec,
    params: np.ndarray,
    seat: int,
    legal: list[int],
    rows: Callable[[int], np.ndarray],
    worlds: int,
    limit: int,
    max_nodes: int,
    wanted: np.ndarray,
    horizon: int = 0,
    refine: bool = False,
    threads: int = 1,
) -> WorldValues:
    """Value ``seat``'s ``legal`` actions over the first ``worlds`` worlds whose search fits ``max_nodes``.

    ``rows(k)`` gives the next ``k`` worlds (``[k, row]``, in the order they are drawn), ``limit``
    worlds at most in all; a world that needs more than ``max_nodes`` nodes is dropped (0: no
    budget). ``wanted`` marks the actions valued exactly in every world; with ``refine`` the
    action ranked first is made exact too (module docstring). ``horizon > 0`` cuts each world's
    draw pile to that many cards (``g.shorten``)."""
    size = hooks.MAX_ACTIONS
    kept: list[np.ndarray] = []
    values: list[np.ndarray] = []
    known: list[np.ndarray] = []
    nodes = drawn = 0
    while len(kept) < worlds and drawn < limit:
        batch = rows(min(worlds - len(kept), limit - drawn))
        drawn += len(batch)

        def solve(j: int, batch: np.ndarray = batch) -> tuple:
            world = batch[j].copy()
            if horizon > 0:
                hooks.shorten(world, horizon)
            ws = workspace(hooks)
            tables, gen = ws.sized(max_nodes), ws.next_generation()
            v, solved, upper = np.zeros(size, np.int64), np.zeros(size, np.bool_), np.zeros(size, np.int64)
            searched, fitted = value_world(hooks, params, world, seat, max_nodes, tables, gen, v, solved, upper, wanted)
            return world, np.where(solved, v, upper), solved, int(searched), bool(fitted)

        for world, v, solved, searched, fitted in thread_map(threads)(solve, range(len(batch))):
            nodes += searched
            if fitted:
                kept.append(world)
                values.append(v)
                known.append(solved)
    table, exact = np.array(values).reshape(-1, size), np.array(known).reshape(-1, size)
    if refine:
        table, exact, kept, nodes = _refine(hooks, params, seat, legal, kept, table, exact, max_nodes, threads, nodes)
    return WorldValues(table.sum(axis=0), exact.all(axis=0) & (len(kept) > 0), len(kept), nodes)


def _refine(hooks, params, seat, legal, kept, table, exact, max_nodes, threads, nodes):
    """Make exact the legal action with the highest sum until its sum is exact (``world_values``);
    a world whose exact value needs more than ``max_nodes`` nodes is dropped."""
    while kept:
        first = legal[int(np.argmax(table[:, legal].sum(axis=0)))]
        missing = [k for k in range(len(kept)) if not exact[k, first]]
        if not missing:
            break

        def solve(j: int, first: int = first, missing: list[int] = missing, kept: list = kept) -> tuple:
            ws = workspace(hooks)
            gen = ws.next_generation()
            return value_action(hooks, params, kept[missing[j]], seat, first, max_nodes, ws.sized(max_nodes), gen)

        dropped = []
        for k, (value, searched, fitted) in zip(missing, thread_map(threads)(solve, range(len(missing))), strict=True):
            nodes += int(searched)
            if fitted:
                table[k, first], exact[k, first] = value, True
            else:
                dropped.append(k)
        if dropped:
            keep = [k for k in range(len(kept)) if k not in dropped]
            kept, table, exact = [kept[k] for k in keep], table[keep], exact[keep]
    return table, exact, kept, nodes
