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
same for every thread count. A thread that would wait idle for the others searches ahead what
``refine`` is likely to ask for next; such a guess is used only if it is asked for.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import numba as nb
import numpy as np

from sniff_twelve.search.solver import ABORTED, value_action, value_world, workspace

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


class _Searches:
    """The searches of one ``world_values`` call, by key: ``search(key, counters)`` runs one.

    ``results(keys, guess)`` returns the searches the ranking asks for. On more than one thread,
    ``threads`` workers take the asked searches one after another, and a worker that finds none
    left to start while some still run starts the search ``guess()`` names first among those not
    yet started: one the ranking is likely to ask for next. A guess's result is kept and used only
    if the ranking asks for it, so the ranking, the worlds kept and the nodes counted are those of
    one thread. A worker goes from one search to the next by itself, and the caller wakes once,
    when all it asked for has ended. ``close`` stops the guesses nobody asked for."""

    def __init__(self, threads: int, search: Callable[[tuple, np.ndarray], tuple]) -> None:
        self.threads, self.search = threads, search
        self.done: dict[tuple, tuple] = {}  # the searches ended, by key
        self.running: dict[tuple, np.ndarray] = {}  # the searches running, by key: their counters
        self.todo: deque[tuple] = deque()  # asked, not started
        self.asked: list[tuple] = []
        self.guess: Callable[[], Iterable[tuple]] = tuple
        self.workers = 0
        self.failed: BaseException | None = None  # what a search raised
        self.changed = threading.Condition(threading.RLock())

    def results(self, keys: list[tuple], guess: Callable[[], Iterable[tuple]]) -> list[tuple]:
        if self.threads == 1:
            return [self.search(key, np.zeros(3, dtype=np.int64)) for key in keys]
        with self.changed:
            new = [key for key in keys if self._unstarted(key)]
            if new:
                self._stop(set(keys))  # the guesses that missed give their threads to what is asked
            self.todo.extend(new)
            self.asked, self.guess = keys, guess
            while self.workers < self.threads and not self._answered():
                self.workers += 1
                thread_pool(self.threads).submit(self._work)
            self.changed.wait_for(lambda: self._answered() or self.failed is not None)
            if self.failed is not None:
                raise self.failed
            return [self.done[key] for key in keys]

    def _unstarted(self, key: tuple) -> bool:
        return key not in self.done and key not in self.running

    def _answered(self) -> bool:
        return all(key in self.done for key in self.asked)

    def _next(self) -> tuple | None:
        """The search a worker starts next: an asked one, else a guess while what is asked runs."""
        if self.todo:
            return self.todo.popleft()
        if self._answered():
            return None
        return next((key for key in self.guess() if self._unstarted(key)), None)

    def _work(self) -> None:
        """A worker: start searches (``_next``) until none is left, then end (counted off at once,
        so that ``results`` tops the workers up when it asks for more)."""
        try:
            while True:
                with self.changed:
                    key = self._next()
                    if key is None:
                        self.workers -= 1
                        return
                    self.running[key] = counters = np.zeros(3, dtype=np.int64)
                found = self.search(key, counters)
                with self.changed:
                    if self.running.get(key) is counters:  # not stopped
                        del self.running[key]
                        self.done[key] = found
                        if self._answered():
                            self.changed.notify_all()
        except BaseException as error:  # raised to the caller waiting in ``results``
            with self.changed:
                self.failed, self.workers = error, self.workers - 1
                self.changed.notify_all()

    def ended(self, key: tuple) -> tuple | None:
        """The result of ``key``'s search if it has ended, else ``None``."""
        return self.done.get(key)

    def _stop(self, keep: set[tuple]) -> None:
        """Stop (and forget) every search running or not started whose key is not in ``keep``."""
        with self.changed:
            for key in [key for key in self.running if key not in keep]:
                self.running.pop(key)[ABORTED] = 1
            self.todo = deque(key for key in self.todo if key in keep)

    def close(self) -> None:
        self._stop(set())


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
    draw pile to that many cards (``g.shorten``). On more than one thread the idle ones make exact,
    ahead of time, the action likeliest to be refined next (``_Searches``)."""
    size, params = hooks.MAX_ACTIONS, hooks.search_params(params)
    drawn_worlds: list[np.ndarray] = []

    def search(key: tuple, counters: np.ndarray) -> tuple:
        ws = workspace(hooks)
        tables, gen = ws.sized(max_nodes), ws.next_generation()
        world = drawn_worlds[key[0]]
        if len(key) == 2:
            return value_action(hooks, params, world, seat, key[1], max_nodes, tables, gen, counters)
        v, solved, upper = np.zeros(size, np.int64), np.zeros(size, np.bool_), np.zeros(size, np.int64)
        searched, fitted = value_world(hooks, params, world, seat, max_nodes, tables, gen, v, solved, upper, wanted)
        return np.where(solved, v, upper), solved, int(searched), bool(fitted)

    searches = _Searches(threads, search)
    kept: list[int] = []  # the worlds solved within the budget, by their index in ``drawn_worlds``
    values: list[np.ndarray] = []
    known: list[np.ndarray] = []
    nodes = 0

    def leading() -> Iterator[tuple]:
        """While the worlds are solved: the action leading in those already done, in each of them."""
        ended = {i: searches.ended((i,)) for i in range(len(drawn_worlds))}
        solved = {i: found for i, found in ended.items() if found is not None and found[3]}  # within the budget
        if solved:
            lead = legal[int(np.argmax(sum(found[0] for found in solved.values())[legal]))]
            yield from ((i, lead) for i, found in solved.items() if not found[1][lead])

    guesses = leading if refine else tuple  # without ``refine`` nothing is asked after the worlds
    try:
        while len(kept) < worlds and len(drawn_worlds) < limit:
            batch = rows(min(worlds - len(kept), limit - len(drawn_worlds)))
            first = len(drawn_worlds)
            for world in batch:
                drawn_worlds.append(world.copy())
                if horizon > 0:
                    hooks.shorten(drawn_worlds[-1], horizon)
            keys = [(i,) for i in range(first, len(drawn_worlds))]
            for (i,), (v, solved, searched, fitted) in zip(keys, searches.results(keys, guesses), strict=True):
                nodes += searched
                if fitted:
                    kept.append(i)
                    values.append(v)
                    known.append(solved)
        table, exact = np.array(values).reshape(-1, size), np.array(known).reshape(-1, size)
        if refine:
            table, exact, kept, nodes = _refine(legal, kept, table, exact, searches, nodes)
    finally:
        searches.close()
    return WorldValues(table.sum(axis=0), exact.all(axis=0) & (len(kept) > 0), len(kept), nodes)


def _refine(legal, kept, table, exact, searches, nodes):
    """Make exact the legal action with the highest sum until its sum is exact (``world_values``);
    a world whose exact value needs more than ``max_nodes`` nodes is dropped. The guesses: the
    next two, one of which leads next if the refined action's sum falls below theirs."""
    while kept:
        sums = table[:, legal].sum(axis=0)
        order = np.argsort(-sums, kind="stable")
        first = legal[order[0]]
        missing = [k for k in range(len(kept)) if not exact[k, first]]
        if not missing:
            break
        guesses = [(kept[k], legal[j]) for j in order[1:3] for k in range(len(kept)) if not exact[k, legal[j]]]
        asked = [(kept[k], first) for k in missing]
        dropped = []
        for k, (value, searched, fitted) in zip(missing, searches.results(asked, lambda g=guesses: g), strict=True):
            nodes += int(searched)
            if fitted:
                table[k, first], exact[k, first] = value, True
            else:
                dropped.append(k)
        if dropped:
            keep = [k for k in range(len(kept)) if k not in dropped]
            kept, table, exact = [kept[k] for k in keep], table[keep], exact[keep]
    return table, exact, kept, nodes
