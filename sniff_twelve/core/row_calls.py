"""The compiled calls of a step on one state row (``Game.apply``, the AEC env), entered directly.

Numba types every argument of a jitted call in Python before it runs; a ``GameHooks`` argument
costs about 3 µs that way, an array about 0.2 µs: more than the work of a step. ``row_calls(spec)``
compiles (or loads from numba's cache) each call here once per game, for the only argument types
these layers pass — the ``int32`` state and options rows, an ``int64`` action or seat, ``bool``
masks of ``spec.MAX_ACTIONS`` or fewer, ``float32`` observations, ``float64`` rewards — and keeps
its entry point with the game's hooks bound. An entry point does not check what it is given, so
only the layers that own those arrays call it.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, NamedTuple

import numba as nb
import numpy as np

if TYPE_CHECKING:
    from collections.abc import Callable

    from numba.core.dispatcher import Dispatcher

    from sniff_twelve.core.spec import GameSpec

#: what ``checked_apply`` returns for an action the position does not allow
ILLEGAL = -1


@nb.njit(cache=True)
def checked_apply(g, s, params, a, mask):
    """Write the legal moves into ``mask``; apply ``a`` if it is one of them and return the game's
    events (``apply_action``, never negative), else return ``ILLEGAL`` with ``s`` untouched."""
    g.legal_mask_into(s, params, mask)
    if a < 0 or a >= mask.shape[0] or not mask[a]:
        return ILLEGAL
    return g.apply_action(s, params, a)


@nb.njit(cache=True)
def observe(g, s, params, seat, obs, mask):
    """``seat``'s observation into ``obs``; its legal moves into ``mask`` when it is to act, else
    no move."""
    g.write_observation(s, params, seat, obs)
    if seat == s[g.CUR]:
        g.legal_mask_into(s, params, mask)
    else:
        mask[:] = False


class RowCalls(NamedTuple):
    """A game's step calls on one row, its hooks bound: ``apply(s, params, a, mask)``
    (``checked_apply``), ``observe(s, params, seat, obs, mask)``, and its kernels ``snapshot(s,
    out)`` and ``write_rewards(s, params, before, mode, out)``."""

    apply: Callable[..., int]
    observe: Callable[..., None]
    snapshot: Callable[..., None]
    write_rewards: Callable[..., int]


def entry_point(function: Dispatcher, *example_args: object) -> Callable[..., object]:
    """``function`` compiled for the types of ``example_args``: its machine code's entry, called
    with no typing of the arguments."""
    return function.compile(tuple(nb.typeof(arg) for arg in example_args))


@functools.cache
def row_calls(spec: GameSpec) -> RowCalls:
    """``spec``'s ``RowCalls``, made once per game and process."""
    row, params = np.zeros(spec.ROW_SIZE, np.int32), np.zeros(spec.PARAMS_SIZE, np.int32)
    mask, seat = np.zeros(spec.MAX_ACTIONS, np.bool_), np.int64(0)
    before, rewards = np.zeros(spec.SNAPSHOT_SIZE, np.int32), np.zeros(1, np.float64)
    return RowCalls(
        apply=functools.partial(entry_point(checked_apply, spec, row, params, seat, mask), spec),
        observe=functools.partial(entry_point(observe, spec, row, params, seat, np.zeros(1, np.float32), mask), spec),
        snapshot=entry_point(spec.snapshot, row, before),
        write_rewards=entry_point(spec.write_rewards, row, params, before, seat, rewards),
    )
