"""The compiled searches release the GIL: another Python thread keeps running while one solves."""

from __future__ import annotations

import threading
import time

import sniff_env
from sniff_env.solver import solve


def test_a_thread_runs_while_another_solves():
    """A 4-player deal whose full solve takes about 5M nodes (seed 21): while it is solved on one
    thread, a ticker on this one keeps sleeping 1 ms at a time. A search holding the GIL starves
    it for the whole solve (a tick or two at most)."""
    game = sniff_env.Game(num_players=4, seed=21)
    solve(sniff_env.Game(num_players=4, seed=0))  # compiled before it is timed
    done = threading.Event()
    result = {}

    def work():
        start = time.perf_counter()
        result["solution"] = solve(game)
        result["seconds"] = time.perf_counter() - start
        done.set()

    worker = threading.Thread(target=work)
    ticks = 0
    worker.start()
    while not done.is_set():
        time.sleep(0.001)
        ticks += 1
    worker.join()
    assert result["solution"].nodes > 1_000_000
    assert ticks >= 20 + result["seconds"] * 50, (ticks, result["seconds"])  # a tick per 20 ms at least
