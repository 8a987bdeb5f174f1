"""Seats around a table: the compiled kernels' seat arithmetic, the sides a game seats
(``Table``, what the arena and the game packages' ``arena_table`` build) and how a screen names
a seat (``who``)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
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

    def margins(self, points: Sequence[float]) -> list[float]:
        """Each seat's margin: its (side's) points minus the mean of the seats outside its side
        (two sides: the other side's points; "every seat for itself": the others' mean).

        >>> Table(None, 3).margins([6, 0, 3]), Table(None, 4, sides=((0, 2), (1, 3))).margins([5, 2, 5, 2])
        ([4.5, -4.5, 0.0], [3.0, -3.0, 3.0, -3.0])
        """
        n = self.num_players
        side_of = {seat: side for side in self.sides or tuple((seat,) for seat in range(n)) for seat in side}
        others = [[float(points[o]) for o in range(n) if o not in side_of[seat]] for seat in range(n)]
        return [float(points[seat]) - sum(other) / len(other) for seat, other in enumerate(others)]


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
