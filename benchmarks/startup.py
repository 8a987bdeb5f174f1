"""Warm and cold start: import + ``env.reset`` + first step, in a fresh interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

_SCRIPT = """
import time
t = time.perf_counter()
import {module}
env = {module}.env()
env.reset(seed=0)
obs, *_ = env.last()
env.step(int(obs["action_mask"].nonzero()[0][0]))
print(time.perf_counter() - t)
"""


def _run(module: str, cache_dir: str) -> float:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT.format(module=module)], env=env, check=True, capture_output=True, text=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def start_times(module: str) -> tuple[float, float]:
    """``(cold, warm)`` seconds: cold compiles into an empty numba cache, warm reuses it."""
    with tempfile.TemporaryDirectory() as cache:
        cold = _run(module, cache)
        warm = _run(module, cache)
    return cold, warm
