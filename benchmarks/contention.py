"""Batched self-play beside another busy process: ``python -m benchmarks.contention [--envs N]``.

Steps per second of ``VectorGame[4096]`` (Sniff 4 players, "12" 3 players; ``step`` on
``sample_actions()``) and of Sniff's ``vector_env[4096]`` (4 players, ``greedy`` opponents and
partner; the learner's first legal action), each with numba's thread setting (``default``) and
with ``threads=1``: on a quiet machine, beside a pure-Python spin loop, and beside a one-thread
torch matrix-product loop, each load in its own subprocess. Ratios are to the quiet ``default``
rate of the same case; figures are medians of ``--repeats`` runs, cases and settings taking turns.
The loads are stopped by their process id when the runs end, Ctrl-C included.

Each way numba's OpenMP threads can wait (``--waits``: the library's short spin, libgomp's own
default, passive sleep; ``WAITS``) is measured in a process of its own, one after the other in
the same run, since libgomp reads it once per process.

Writes ``benchmarks/results/contention.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numba

import sniff_env
import twelve_env
from benchmarks.timing import window

RESULTS = Path(__file__).parent / "results" / "contention.json"
#: the other process, by name: its program (it prints a line once it is busy)
LOADS = {
    "spin": "print(flush=True)\nwhile True: pass",
    "torch": (
        "import torch\ntorch.set_num_threads(1)\na = torch.randn(512, 512)\nprint(flush=True)\nwhile True: a @ a"
    ),
}
#: the ``threads=`` option measured, by name
SETTINGS = {"default": None, "threads=1": 1}
#: how numba's OpenMP threads wait, by name: what a run's environment sets
WAITS = {
    "library": {},  # spin SPIN_COUNT turns, then sleep (sniff_twelve.batch.threads.start_threads)
    "openmp": {"GOMP_SPINCOUNT": "300000"},  # libgomp's own default when nothing is set
    "passive": {"OMP_WAIT_POLICY": "passive"},  # sleep at once
}
ROOT = Path(__file__).resolve().parents[1]


def _vector_game(game: Any, players: int) -> Callable[[int, int | None], Callable[[], int]]:
    def make(num_envs: int, threads: int | None) -> Callable[[], int]:
        vg = game.VectorGame(num_envs, num_players=players, seed=0, threads=threads)

        def chunk() -> int:
            vg.step(vg.sample_actions())
            return num_envs

        return chunk

    return make


def _sniff_vector_env(num_envs: int, threads: int | None) -> Callable[[], int]:
    venv = sniff_env.vector_env(num_envs, num_players=4, opponents="greedy", seed=0, threads=threads)
    venv.reset()

    def chunk() -> int:
        venv.step(venv.action_masks().argmax(axis=1))
        return num_envs

    return chunk


#: case name → (num_envs, threads) → one step of all rows, returning the rows stepped
#: (a ``benchmarks.timing`` chunk)
CASES = {
    "sniff VectorGame 4p": _vector_game(sniff_env, 4),
    "twelve VectorGame 3p": _vector_game(twelve_env, 3),
    "sniff vector_env 4p": _sniff_vector_env,
}


@contextlib.contextmanager
def busy(load: str) -> Iterator[None]:
    """Run the ``LOADS[load]`` program (nothing for ``quiet``) while inside; stopped by its id."""
    if load == "quiet":
        yield
        return
    process = subprocess.Popen([sys.executable, "-c", LOADS[load]], stdout=subprocess.PIPE, text=True)
    try:
        process.stdout.readline()  # busy from here on
        time.sleep(0.2)
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGTERM)
        process.wait()
        process.stdout.close()


def measure(
    num_envs: int = 4096, seconds: float = 1.0, repeats: int = 5, loads: tuple[str, ...] = ("quiet", *LOADS)
) -> dict[str, Any]:
    """Median steps per second of every case and setting under every load, and the ratios to the
    quiet ``default`` rate of the same case (``quiet`` is always measured)."""
    loads = ("quiet", *(load for load in loads if load != "quiet"))
    steps = {
        (case, name): make(num_envs, threads) for case, make in CASES.items() for name, threads in SETTINGS.items()
    }
    for step in steps.values():
        window(step, seconds / 10)  # compiled and warm
    rates: dict[str, dict[str, dict[str, float]]] = {case: {name: {} for name in SETTINGS} for case in CASES}
    for load in loads:
        runs: dict[tuple[str, str], list[float]] = {key: [] for key in steps}
        with busy(load):
            for _ in range(repeats):
                for key, step in steps.items():
                    runs[key].append(window(step, seconds))
        for (case, name), values in runs.items():
            rates[case][name][load] = statistics.median(values)
    ratios = {
        case: {
            name: {load: by_load[load] / rates[case]["default"]["quiet"] for load in loads[1:]}
            for name, by_load in settings.items()
        }
        for case, settings in rates.items()
    }
    return {
        "date": datetime.date.today().isoformat(),
        "num_envs": num_envs,
        "seconds": seconds,
        "repeats": repeats,
        "cpus": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "threading_layer": numba.threading_layer(),
        "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"),
        "gomp_spincount": os.environ.get("GOMP_SPINCOUNT"),
        "load_average": os.getloadavg(),
        "loads": list(loads),
        "steps_per_second": rates,
        "ratio_to_quiet_default": ratios,
    }


def measure_waits(waits: tuple[str, ...], num_envs: int, seconds: float, repeats: int, loads: tuple[str, ...]) -> dict:
    """``measure`` in a fresh process for each of ``waits`` (names of ``WAITS``), one after the
    other: ``{"date": …, "waits": {name: measure's results}}``."""
    runs = {}
    for wait in waits:
        env = {key: value for key, value in os.environ.items() if key not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
        env.update(WAITS[wait])
        code = (
            "import json; from benchmarks.contention import measure; "
            f"print(json.dumps(measure({num_envs}, {seconds}, {repeats}, {tuple(loads)!r})))"
        )
        done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"the {wait!r} run failed:\n{done.stderr}")
        runs[wait] = json.loads(done.stdout.splitlines()[-1])
    return {"date": datetime.date.today().isoformat(), "waits": runs}


def table(results: dict[str, Any]) -> str:
    """The results as a text table: rates in millions of steps per second, then the ratios."""
    lines = []
    for wait, run in results["waits"].items():
        loads = run["loads"]
        if not lines:
            head = f"{'wait':8s} {'case':22s} {'setting':10s}" + "".join(f"{load:>9s}" for load in loads)
            lines.append(head + "".join(f"{load + '/q':>9s}" for load in loads[1:]))
        for case, settings in run["steps_per_second"].items():
            for name, by_load in settings.items():
                ratios = run["ratio_to_quiet_default"][case][name]
                line = f"{wait:8s} {case:22s} {name:10s}" + "".join(f"{by_load[load] / 1e6:8.2f}M" for load in loads)
                lines.append(line + "".join(f"{ratios[load]:9.2f}" for load in loads[1:]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.contention", description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=4096, help="rows per batch (default: 4096)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run (default: 1)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure, median taken (default: 5)")
    parser.add_argument("--loads", nargs="+", choices=("quiet", *LOADS), default=("quiet", *LOADS))
    parser.add_argument(
        "--waits", nargs="+", choices=tuple(WAITS), default=("library", "openmp"), help="how OpenMP threads wait"
    )
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"the JSON written (default: {RESULTS})")
    args = parser.parse_args(argv)
    results = measure_waits(tuple(args.waits), args.envs, args.seconds, args.repeats, tuple(args.loads))
    print(table(results))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
