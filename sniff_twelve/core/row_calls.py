"""The kernels of a step on one state row (``Game.apply``, the AEC env), entered directly.

Numba types every argument of a jitted call in Python before it runs, about 0.2 µs an array: with
five kernels a step, more than their work. ``row_calls(spec)`` looks up (or loads from numba's
cache, or compiles) each of them once per game for the only argument types these layers pass —
the ``int32`` state and options rows, an ``int64`` action, seat or mode, ``bool`` masks,
``float32`` observations, ``float64`` rewards, the same machine code a typed call would run —
and keeps its entry point. An entry point does not check what it is given, so only the layers
that own those arrays call it.
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


class RowCalls(NamedTuple):
    """A game's kernels of a step, as entry points: ``legal_mask_into(s, params, mask)``,
    ``apply_action(s, params, a)``, ``write_observation(s, params, seat, obs)``, ``snapshot(s,
    out)`` and ``write_rewards(s, params, before, mode, out)`` (``sniff_twelve.core.spec``)."""

    legal_mask_into: Callable[..., None]
    apply_action: Callable[..., int]
    write_observation: Callable[..., None]
    snapshot: Callable[..., None]
    write_rewards: Callable[..., int]


def entry_point(function: Dispatcher, *example_args: object) -> Callable[..., object]:
    """``function`` compiled for the types of ``example_args``: its machine code's entry, called
    with no typing of the arguments."""
    return function.compile(tuple(nb.typeof(arg) for arg in example_args))


@functools.cache
def row_calls(spec: GameSpec) -> RowCalls:
    """``spec``'s ``RowCalls``, made once per game and process."""
    row, params, number = np.zeros(spec.ROW_SIZE, np.int32), np.zeros(spec.PARAMS_SIZE, np.int32), 0
    before = np.zeros(spec.SNAPSHOT_SIZE, np.int32)
    return RowCalls(
        legal_mask_into=entry_point(spec.legal_mask_into, row, params, np.zeros(1, np.bool_)),
        apply_action=entry_point(spec.apply_action, row, params, number),
        write_observation=entry_point(spec.write_observation, row, params, number, np.zeros(1, np.float32)),
        snapshot=entry_point(spec.snapshot, row, before),
        write_rewards=entry_point(spec.write_rewards, row, params, before, number, np.zeros(1, np.float64)),
    )
