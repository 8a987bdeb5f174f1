"""Flat layouts declared once: an ordered list of ``(name, width, meaning)``, offsets computed.

A state row or an observation vector is a run of named fields. Declare it once; the offsets
(module constants the kernels read, so numba folds them as before), the ``(name, offset, size)``
fields of an observer and the documentation tables all come from that one declaration.

A width is a number, or a multiple of one symbol plus a number (``"R"``, ``"6R"``, ``"4R+17"``:
``R`` the ranks of a deck) for layouts whose size depends on an option; ``bind`` gives the
concrete layout.

>>> OBS = Layout(("hand", 28, "my tiles"), ("scores", 4, "scores of relative seats 0–3"))
>>> OBS.offsets(), OBS.size
((0, 28), 32)
>>> print(OBS.markdown())
| offset | size | field | meaning |
|---:|---:|---|---|
| 0 | 28 | `hand` | my tiles |
| 28 | 4 | `scores` | scores of relative seats 0–3 |
>>> CARDS = Layout(("hand", "R", "cards held per rank"), ("stock_size", 1, "cards left"))
>>> CARDS.bind(R=11).fields()
(('hand', 0, 11), ('stock_size', 11, 1))
>>> CARDS.linear("stock_size")  # offset = 1 * R + 0
(1, 0)
>>> Layout(("observation", "4R+17", "what the seat sees"), ("hands", "6R", "the others")).rows()[1][0]
'4R+17'
>>> low, high = OBS.bounds({"hand": (0, 1), "scores": (-2, [1, 1, 3, 3])})
>>> high.tolist()[26:]
[1.0, 1.0, 1.0, 1.0, 3.0, 3.0]
>>> print(with_tables("Observation: {OBS}", OBS=OBS).splitlines()[3])
0       28    hand    my tiles
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

Width = int | str
_SYMBOLIC = re.compile(r"^(\d*)([A-Za-z])(?:\+(\d+))?$")
_INLINE_CODE, _MARKDOWN_CODE = re.compile(r"``(.+?)``"), r"`\1`"


@dataclass(frozen=True)
class Field:
    name: str
    width: Width
    meaning: str


def _parse(width: Width) -> tuple[int, int, str | None]:
    """``(a, b, symbol)`` with ``width = a * symbol + b``; ``ValueError`` unless it is positive."""
    if isinstance(width, int) and not isinstance(width, bool) and width > 0:
        return 0, width, None
    match = _SYMBOLIC.match(width) if isinstance(width, str) else None
    if match is None or match.group(1) == "0":
        raise ValueError(f"a width is a positive number or a multiple of one symbol plus a number; got {width!r}")
    return int(match.group(1) or 1), int(match.group(3) or 0), match.group(2)


def _width(width: Width, value: int) -> int:
    a, b, _ = _parse(width)
    return a * value + b


def _term(coefficient: int, constant: int, symbol: str | None) -> str:
    """``3R+1``-style text of ``coefficient * symbol + constant``."""
    if not coefficient:
        return str(constant)
    head = symbol if coefficient == 1 else f"{coefficient}{symbol}"
    return head if not constant else f"{head}+{constant}"


class Layout:
    """Named fields laid end to end (see the module docstring); ``ValueError`` for a repeated
    name, a width that is neither a positive number nor a symbol, or two different symbols."""

    def __init__(self, *fields: tuple[str, Width, str]) -> None:
        self._fields = tuple(Field(*f) for f in fields)
        names = [f.name for f in self._fields]
        if len(set(names)) != len(names):
            raise ValueError(f"a layout names each field once; got {names}")
        terms = [_parse(f.width) for f in self._fields]
        symbols = {symbol for _, _, symbol in terms if symbol}
        if len(symbols) > 1:
            raise ValueError(f"a layout's widths share one symbol; got {', '.join(sorted(symbols))}")
        self.symbol = symbols.pop() if symbols else None
        self._linear: dict[str, tuple[int, int]] = {}
        coefficient = constant = 0
        for f, (a, b, _) in zip(self._fields, terms, strict=True):
            self._linear[f.name] = (coefficient, constant)
            coefficient, constant = coefficient + a, constant + b
        self._end = (coefficient, constant)

    # --- concrete layouts ---------------------------------------------------------------------
    def _concrete(self) -> None:
        if self.symbol is not None:
            raise ValueError(f"this layout's widths depend on {self.symbol}: bind({self.symbol}=…) first")

    @property
    def size(self) -> int:
        """The total width (concrete layouts)."""
        self._concrete()
        return self._end[1]

    def offset(self, name: str) -> int:
        """Where field ``name`` starts (concrete layouts)."""
        self._concrete()
        return self._linear[self._check(name)][1]

    def offsets(self) -> tuple[int, ...]:
        """Every field's offset, in declaration order (for ``A, B, C = LAYOUT.offsets()``)."""
        return tuple(self.offset(f.name) for f in self._fields)

    def names(self) -> tuple[str, ...]:
        """The fields' names, in declaration order."""
        return tuple(f.name for f in self._fields)

    def fields(self) -> tuple[tuple[str, int, int], ...]:
        """``(name, offset, size)`` of every field (concrete layouts)."""
        self._concrete()
        return tuple((f.name, self._linear[f.name][1], _width(f.width, 0)) for f in self._fields)

    def bounds(self, limits: dict[str, tuple[Any, Any]]) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` ``float32`` arrays over the whole layout (concrete layouts) from each
        field's ``(low, high)`` — a number for every entry of the field, or one per entry; a
        ``Box``'s bounds. ``ValueError`` unless ``limits`` names every field once."""
        if set(limits) != set(self.names()):
            raise ValueError(f"limits name every field; missing {sorted(set(self.names()) - set(limits))}")
        low, high = np.empty(self.size, np.float32), np.empty(self.size, np.float32)
        for name, offset, size in self.fields():
            low[offset : offset + size], high[offset : offset + size] = limits[name]
        return low, high

    # --- symbolic layouts ---------------------------------------------------------------------
    def bind(self, **symbol: int) -> Layout:
        """The concrete layout with the symbol's value, e.g. ``bind(R=13)``."""
        if self.symbol is None or set(symbol) != {self.symbol}:
            raise ValueError(f"bind takes the layout's symbol ({self.symbol}); got {', '.join(symbol) or 'none'}")
        value = symbol[self.symbol]
        return Layout(*((f.name, _width(f.width, value), f.meaning) for f in self._fields))

    def linear(self, name: str) -> tuple[int, int]:
        """``(a, b)`` with ``offset(name) = a * symbol + b``: what a kernel reads when the symbol is
        known only at run time."""
        return self._linear[self._check(name)]

    def end(self) -> tuple[int, int]:
        """``(a, b)``: the total width is ``a * symbol + b``."""
        return self._end

    # --- documentation ------------------------------------------------------------------------
    HEADER = ("offset", "size", "field", "meaning")

    def rows(self) -> list[tuple[str, str, str, str]]:
        """``(offset, size, field, meaning)`` as text, one per field (``3R+1``-style when symbolic)."""
        return [(_term(*self._linear[f.name], self.symbol), str(f.width), f.name, f.meaning) for f in self._fields]

    def markdown(self) -> str:
        """The documentation table in Markdown (``code`` in the meanings as Markdown code)."""
        lines = [f"| {' | '.join(self.HEADER)} |", "|---:|---:|---|---|"]
        lines += [f"| {o} | {s} | `{n}` | {_INLINE_CODE.sub(_MARKDOWN_CODE, m)} |" for o, s, n, m in self.rows()]
        return "\n".join(lines)

    def rst(self) -> str:
        """The documentation table as a reStructuredText simple table (module docstrings)."""
        table = [self.HEADER, *self.rows()]
        widths = [max(len(row[i]) for row in table) for i in range(4)]
        rule = "  ".join("=" * w for w in widths)
        lines = ["  ".join(f"{cell:<{w}}" for cell, w in zip(row, widths, strict=True)).rstrip() for row in table]
        return "\n".join([rule, lines[0], rule, *lines[1:], rule])

    def _check(self, name: str) -> str:
        if name not in self._linear:
            raise ValueError(f"no field {name!r}; fields: {', '.join(self._linear)}")
        return name

    def __repr__(self) -> str:
        return f"Layout({', '.join(f'{f.name}:{f.width}' for f in self._fields)})"


def with_tables(doc: str | None, **layouts: Layout) -> str | None:
    """A module docstring with each ``{NAME}`` in it replaced by ``layouts[NAME]``'s table
    (``Layout.rst``), so the table is never written out by hand: ``__doc__ = with_tables(__doc__,
    STATE=STATE)`` below the declaration (``None`` stays ``None``: ``python -OO``)."""
    return None if doc is None else doc.format(**{name: layout.rst() for name, layout in layouts.items()})
