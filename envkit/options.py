"""Option checking shared by both games: a bad option is a clear ``ValueError``, never a guess."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def check_choice(name: str, value: Any, choices: Iterable[Any]) -> Any:
    """Return ``value`` if it is one of ``choices``, else raise naming them."""
    choices = tuple(choices)
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
    return value


def check_int(name: str, value: Any, low: int, high: int | None = None) -> int:
    """Return ``value`` as an int in ``[low, high]``, else raise saying what is allowed."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise ValueError(f"{name} must be an integer; got {value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        span = f">= {low}" if high is None else f"between {low} and {high}"
        raise ValueError(f"{name} must be {span}; got {value}")
    return value


def check_optional_limit(name: str, value: Any) -> int:
    """A truncation limit: ``None`` (no limit) or a positive integer; returns 0 for no limit."""
    return 0 if value is None else check_int(name, value, 1)
