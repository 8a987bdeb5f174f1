"""Long runs stop cleanly: Ctrl-C or SIGTERM asks the run to stop at its next safe point, where it
saves what it has and says how to go on. A second Ctrl-C stops at once.

>>> with StopRequest() as stop:
...     for step in range(3):
...         if stop:
...             break
>>> bool(stop), stop.signal
(False, None)
"""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any


class StopRequest:
    """A context manager that turns SIGINT / SIGTERM into a flag the loop polls (``if stop:``);
    outside the main thread it installs nothing (the flag then stays false)."""

    def __init__(self) -> None:
        self.signal: str | None = None
        self._previous: dict[int, Any] = {}
        self._outer: StopRequest | None = None  # an enclosing run (a training loop around an arena)

    def __bool__(self) -> bool:
        return self.signal is not None

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.signal is not None and signum == signal.SIGINT:
            raise KeyboardInterrupt  # asked twice: stop now
        request: StopRequest | None = self
        while request is not None:  # the enclosing runs stop too
            request.signal = request.signal or signal.Signals(signum).name
            request = request._outer

    def __enter__(self) -> StopRequest:
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGINT, signal.SIGTERM):
                self._previous[signum] = signal.signal(signum, self._handle)
            outer = getattr(self._previous[signal.SIGTERM], "__self__", None)
            self._outer = outer if isinstance(outer, StopRequest) else None
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()


def ignore_interrupts() -> None:
    """For worker processes: leave Ctrl-C to the parent, which stops the pool cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
