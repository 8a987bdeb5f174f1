"""The README's Python examples run as printed, and print what their comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_quick_tour_runs_and_prints_what_it_says():
    assert len(BLOCKS) >= 2
    tour = BLOCKS[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(tour, "README quick tour", "exec"), {})
    claimed = re.search(r"print\(.*\)  # (\[.*?\] \S+ \S+):", tour).group(1)
    assert out.getvalue().strip() == claimed


def test_vector_example_runs():
    namespace: dict = {}
    exec(compile(BLOCKS[1], "README VectorGame example", "exec"), namespace)
    assert namespace["obs"].shape == (4096, 135)
