"""Seats around a table: the compiled kernels' seat arithmetic, the sides a game seats
(``Table``, what the arena and the game packages' ``arena_table`` build) and how a screen names
a seat (``who``)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numba as nb

if TYPE_CHECKING:
    from sniff_twelve.core.spec import GameSpec


@nb.njit(cache=True, inline="always")
def seat_after(seat, steps, n):
    """The seat ``steps`` places after ``seat`` at a table of ``n``: ``(seat + steps) % n`` for
    ``0 <= seat < n`` and ``0 <= steps <= n``, without the division a modulo costs (about 10 ns,
    more than the rest of a seat's observation entries).

    >>> seat_after(3, 1, 4), seat_after(1, 4 - 2, 4)
    (0, 3)
    """
    after = seat + steps
    return after - n if after >= n else after


@dataclass(frozen=True)
class Table:
    """A game's table: the game, its seats and options, and who sits together (its sides)."""

    spec: GameSpec  # the game: its ``Game``, agents and outcome (``GameSpec.part``)
    num_players: int
    options: dict[str, Any] = field(default_factory=dict)
    sides: tuple[tuple[int, ...], ...] | None = None  # seats of each side when two-sided

    @classmethod
    def of(cls, spec: GameSpec, num_players: int, **options: Any) -> Table:
        """The table of ``num_players`` of the game ``spec`` registers, its sides as the spec says."""
        return cls(spec, num_players, options, spec.sides(num_players))

    @property
    def package(self) -> str:
        """The game's package, as results name the game."""
        return self.spec.package

    @property
    def two_sided(self) -> bool:
        return self.sides is not None


@functools.cache
def seat_sides(spec: GameSpec, num_players: int) -> tuple[int, ...]:
    """The side of every seat at a table of ``num_players``, by ``spec.sides`` (every seat its own
    side without them), worked out once per table: ``BaseGame.side_of``'s lookup."""
    sides = spec.sides(num_players)
    if sides is None:
        return tuple(range(num_players))
    return tuple(next(k for k, side in enumerate(sides) if seat in side) for seat in range(num_players))


def who(seat: int, human: int) -> str:
    """How a screen names ``seat`` to the human at ``human``: ``you``, else ``seat N``."""
    return "you" if seat == human else f"seat {seat}"
