"""Cold and warm starts of every entry point a newcomer meets: ``python -m benchmarks.startup``.

Each entry point runs in a fresh interpreter, cold into an empty numba cache (it compiles what it
runs), then warm from the cache that run left; figures are the whole process's wall time, the
interpreter's start included. ``serve`` is timed to its open port (the warming-up page) and to its
start page being ready, and then stopped by its process group (``web_load.stop``). ``--kernels
ENTRY`` lists what a cold run of ``ENTRY`` compiles, kernel by kernel, from numba's own compile
events (the time of a kernel excludes the kernels it compiles on the way). Writes
``benchmarks/results/startup.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.web_load import free_port, stop

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "startup.json"

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


def quick_tour() -> str:
    """The README's quick tour: its Python blocks, run one after the other."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quick tour", 1)[1].split("\n## ", 1)[0]
    return "\n".join(re.findall(r"```python\n(.*?)```", section, re.S))


#: entry point → the program it runs (``python`` arguments)
ENTRY_POINTS: dict[str, list[str]] = {
    "python -m sniff_env": ["-m", "sniff_env"],
    "python -m twelve_env": ["-m", "twelve_env"],
    "README quick tour": ["-c", "QUICK_TOUR"],  # filled in at run time
    "python -m sniff_env serve": ["-m", "sniff_env", "serve"],
}

_KERNELS = """
import json, runpy, sys, time
from numba.core import event

log = []
class Spans(event.Listener):
    def on_start(self, ev):
        log.append(("start", ev.data["dispatcher"].py_func, time.perf_counter()))
    def on_end(self, ev):
        log.append(("end", ev.data["dispatcher"].py_func, time.perf_counter()))

event.register("numba:compile", Spans())
sys.argv = {argv!r}
try:
    {run}
except SystemExit:
    pass
stack, own = [], {{}}
for kind, func, t in log:
    if kind == "start":
        stack.append([func, t, 0.0])
        continue
    func, start, children = stack.pop()
    name = func.__module__ + "." + func.__qualname__
    own[name] = own.get(name, 0.0) + (t - start) - children
    if stack:
        stack[-1][2] += t - start
with open({out!r}, "w") as f:
    json.dump(own, f)
"""


def _program(entry: str) -> list[str]:
    args = ENTRY_POINTS[entry]
    return ["-c", quick_tour()] if args == ["-c", "QUICK_TOUR"] else args


def _env(cache_dir: str) -> dict[str, str]:
    return {**os.environ, "NUMBA_CACHE_DIR": cache_dir, "PYTHONPATH": str(ROOT)}


def _answers(url: str) -> int | None:
    try:
        with urllib.request.urlopen(url, timeout=1) as reply:
            return reply.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


@contextlib.contextmanager
def _server(cache_dir: str, port: int) -> Iterator[subprocess.Popen]:
    records = Path(cache_dir) / "records"
    args = [sys.executable, *_program("python -m sniff_env serve"), "--port", str(port), "--records", str(records)]
    process = subprocess.Popen(
        args, env=_env(cache_dir), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        yield process
    finally:
        stop(process)


def time_serve(cache_dir: str) -> dict[str, float]:
    """Seconds from the start of ``serve`` to its open port and to its API answering 200."""
    port = free_port()
    start = time.perf_counter()
    opened = None
    with _server(cache_dir, port) as process:
        while time.perf_counter() - start < 300:
            if process.poll() is not None:
                raise RuntimeError(f"serve exited with {process.returncode}")
            if opened is None and _answers(f"http://127.0.0.1:{port}/") == 200:
                opened = time.perf_counter() - start
            if opened is not None and _answers(f"http://127.0.0.1:{port}/api/config") == 200:
                return {"port_open_s": opened, "ready_s": time.perf_counter() - start}
            time.sleep(0.02)
    raise RuntimeError("serve was not ready within 300 s")


def time_entry(entry: str, cache_dir: str) -> dict[str, float]:
    """Wall seconds of one run of ``entry`` (for ``serve``: its open port and its ready page)."""
    if entry.endswith(" serve"):
        return time_serve(cache_dir)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, *_program(entry)], env=_env(cache_dir), check=True, stdout=subprocess.DEVNULL, cwd=ROOT
    )
    return {"s": time.perf_counter() - start}


def measure(entries: tuple[str, ...]) -> dict[str, Any]:
    """Cold (an empty numba cache) then warm (that cache) timings of each of ``entries``."""
    figures = {}
    for entry in entries:
        with tempfile.TemporaryDirectory() as cache:
            figures[entry] = {"cold": time_entry(entry, cache), "warm": time_entry(entry, cache)}
    return {"date": datetime.date.today().isoformat(), "cpus": os.cpu_count(), "entry_points": figures}


def kernels(entry: str) -> dict[str, float]:
    """Seconds a cold run of ``entry`` spends compiling each kernel (its own time, without the
    kernels it compiles on the way), largest first."""
    program = _program(entry)
    if program[0] == "-m":
        argv, run = [program[1], *program[2:]], f"runpy.run_module({program[1]!r}, run_name='__main__')"
    else:
        argv, run = ["-c"], f"exec(compile({program[1]!r}, '<entry>', 'exec'))"
    with tempfile.TemporaryDirectory() as cache:
        out = Path(cache) / "kernels.json"
        code = _KERNELS.format(argv=argv, run=run, out=str(out))
        subprocess.run([sys.executable, "-c", code], env=_env(cache), check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
        own = json.loads(out.read_text())
    return dict(sorted(own.items(), key=lambda item: -item[1]))


def start_times(module: str) -> tuple[float, float]:
    """``(cold, warm)`` seconds of import + ``env.reset`` + first step, measured inside the
    interpreter: cold compiles into an empty numba cache, warm reuses it (``python -m benchmarks``)."""

    def run(cache: str) -> float:
        out = subprocess.run(
            [sys.executable, "-c", _SCRIPT.format(module=module)],
            env=_env(cache),
            check=True,
            capture_output=True,
            text=True,
        )
        return float(out.stdout.strip().splitlines()[-1])

    with tempfile.TemporaryDirectory() as cache:
        cold = run(cache)
        warm = run(cache)
    return cold, warm


def table(results: dict[str, Any]) -> str:
    """Cold and warm seconds of each entry point."""
    lines = [f"{'entry point':36s} {'cold':>8s} {'warm':>8s}"]
    for entry, runs in results["entry_points"].items():
        for what in runs["cold"]:
            label = entry if what == "s" else f"{entry} ({what[:-2].replace('_', ' ')})"
            lines.append(f"{label:36s} {runs['cold'][what]:7.2f}s {runs['warm'][what]:7.2f}s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup", description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", nargs="+", choices=tuple(ENTRY_POINTS), default=tuple(ENTRY_POINTS))
    parser.add_argument("--kernels", choices=tuple(ENTRY_POINTS), help="what a cold run of this entry point compiles")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"the JSON written (default: {RESULTS})")
    args = parser.parse_args(argv)
    results = measure(tuple(args.entries))
    print(table(results))
    if args.kernels:
        compiled = kernels(args.kernels)
        results["kernels"] = {"entry_point": args.kernels, "seconds": compiled}
        print(f"\nwhat a cold `{args.kernels}` compiles ({sum(compiled.values()):.2f} s in all):")
        for name, seconds in list(compiled.items())[:15]:
            print(f"  {seconds:6.2f}s  {name}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
