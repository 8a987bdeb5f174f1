"""Arena throughput on Ray: ``python -m benchmarks.cluster [--deals N] [--agents A B] [--cpus 1 2]``.

Plays one arena (4-player Sniff, duplicate deals) with local processes and on a local Ray
cluster of each ``--cpus`` size (``ray.init(num_cpus=…)``, started by this script and stopped
after), checks that every run gives the same games, and prints games per second and per worker
— and, from the measured per-worker rate, what a cluster of ``--project`` workers would give
if it scaled as well. Ray binds to the machine's network interface: run it where that is fine,
or inside ``unshare -n`` (see ``tests/loopback.py``).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import time

from sniff_env.agents import arena_table
from sniff_twelve.tools import arena


def timed(run) -> tuple[float, list]:
    start = time.perf_counter()
    games = run()["games"]
    return time.perf_counter() - start, games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cluster", description=__doc__)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--agents", nargs="+", default=["rollout:64", "heuristic"])
    parser.add_argument("--cpus", type=int, nargs="+", default=[1, 2], help="Ray cluster sizes to time")
    parser.add_argument("--project", type=int, default=32, help="workers of the cluster to project to")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    import ray

    os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a throwaway local cluster
    table = arena_table(4)
    common = {"deals": args.deals, "seed": args.seed, "progress": False}
    rows = []
    seconds, reference = timed(lambda: arena.run(table, args.agents, workers=1, **common))
    rows.append(("local, 1 process", 1, len(reference) / seconds))
    for cpus in args.cpus:
        ray.init(
            address="local", num_cpus=cpus, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False
        )
        try:
            arena.run(table, args.agents, deals=1, seed=args.seed, progress=False, address="auto")  # warm the workers
            seconds, games = timed(lambda: arena.run(table, args.agents, address="auto", **common))
        finally:
            ray.shutdown()
        if games != reference:
            raise SystemExit(f"the Ray run with {cpus} CPUs gave other games than the local run")
        rows.append((f"Ray, {cpus} worker{'s' * (cpus > 1)}", cpus, len(games) / seconds))
    print(f"arena: {' vs '.join(args.agents)}, 4-player Sniff, {len(reference)} games (same games everywhere)\n")
    print("| run | workers | games/s | games/s per worker |\n|---|---:|---:|---:|")
    for name, workers, rate in rows:
        print(f"| {name} | {workers} | {rate:.2f} | {rate / workers:.2f} |")
    per_worker = rows[-1][2] / rows[-1][1]
    print(f"\n{args.project} workers at the last run's per-worker rate: {args.project * per_worker:.0f} games/s")
    print(json.dumps({"rows": rows, "projected": args.project * per_worker}))


if __name__ == "__main__":
    main()
