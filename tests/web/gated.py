"""An agent for the web tests that holds its moves until a test lets them go (``Gated.gate``)."""

from __future__ import annotations

import threading

import numpy as np

from sniff_twelve.core.agent import Agent


class Gate:
    """The first ``hold`` moves that reach the gate wait there for ``release``; later moves pass at
    once, as a game rebuilt from disk replays its agents' moves. ``most`` is the most moves
    waiting at once."""

    def __init__(self, hold: int = 1) -> None:
        self.release = threading.Event()
        self.hold, self.held, self.inside, self.most = hold, 0, 0, 0
        self._changed = threading.Condition()

    def wait(self) -> None:
        with self._changed:
            if self.held == self.hold:
                return
            self.held += 1
            self.inside += 1
            self.most = max(self.most, self.inside)
            self._changed.notify_all()
        self.release.wait(30)
        with self._changed:
            self.inside -= 1

    def until_inside(self, count: int) -> None:
        """Wait (at most 30 s) until ``count`` moves wait at the gate."""
        with self._changed:
            assert self._changed.wait_for(lambda: self.inside >= count, 30), "the moves never reached the gate"


class Gated(Agent):
    """Plays the first legal move; while ``Gated.gate`` is set, its moves wait at it first."""

    name = "gated"
    gate: Gate | None = None

    def choose(self, view) -> int:
        if Gated.gate is not None:
            Gated.gate.wait()
        return int(np.flatnonzero(view.legal_mask())[0])
