"""Fixtures of the tools' tests."""

from __future__ import annotations

import pytest

from sniff_twelve.tools import arena


@pytest.fixture
def pool_starts(monkeypatch) -> list:
    """The worker pools the arena starts from here on, one entry each (its arguments)."""
    started = []
    real = arena.get_context

    class Counted:
        def __init__(self, method: str) -> None:
            self.context = real(method)

        def Pool(self, *args, **kwargs):  # noqa: N802 (multiprocessing's name)
            started.append(args)
            return self.context.Pool(*args, **kwargs)

    monkeypatch.setattr(arena, "get_context", Counted)
    return started
