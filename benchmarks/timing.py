"""Timing helpers: run a step function until a time budget is spent, return steps per second."""

from __future__ import annotations

import time
from collections.abc import Callable


def rate(chunk: Callable[[], int], seconds: float, warmup: int = 1, repeats: int = 3) -> float:
    """Steps per second of ``chunk`` (which returns the steps it did): the best of ``repeats``
    windows of ``seconds / repeats`` each, as ``timeit`` takes the best run — on a shared VM the
    slower windows measure the neighbours, not the code."""
    for _ in range(warmup):
        chunk()
    best = 0.0
    for _ in range(repeats):
        steps = 0
        start = time.perf_counter()
        while True:
            steps += chunk()
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / repeats:
                break
        best = max(best, steps / elapsed)
    return best


def aec_random_loop(env, seed: int, steps: int) -> Callable[[], int]:
    """The standard masked random AEC loop (``np.flatnonzero(mask)``), as a resumable chunk."""
    import random

    import numpy as np

    rng = random.Random(seed)
    env.reset(seed=seed)
    state = {"it": iter(env.agent_iter())}

    def chunk() -> int:
        done = 0
        while done < steps:
            agent = next(state["it"], None)
            if agent is None:
                env.reset()
                state["it"] = iter(env.agent_iter())
                continue
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
            env.step(action)
            done += 1
        return done

    return chunk
