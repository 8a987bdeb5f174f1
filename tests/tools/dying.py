"""An agent for the cluster tests: it plays as ``greedy`` does, except that the first of its
decisions anywhere while the file ``MARKER`` is absent creates the file and kills the process it
runs in, as a worker that dies mid-run would (``py:tests.tools.dying:DiesOnce:MARKER``)."""

from __future__ import annotations

import os
from pathlib import Path

from sniff_env.agents import make_agent
from sniff_twelve.core.agent import Agent


class DiesOnce(Agent):
    name = "dies-once"

    def __init__(self, marker: str) -> None:
        self.marker = Path(marker)
        self.greedy = make_agent("greedy")

    def choose(self, view) -> int:
        try:
            with self.marker.open("x"):  # only one process ever creates it
                pass
        except FileExistsError:
            return self.greedy.choose(view)
        os._exit(1)
