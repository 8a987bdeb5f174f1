"""How much of a margin's variance is the agents' own randomness: ``python -m benchmarks.luck GAME
PLAYERS A B [--deals N] [--seed S] [--workers W] [--OPTION VALUE …] [--json FILE]``.

Plays ``A`` against ``B`` on duplicate deals (both seatings, paired as ``compare`` pairs them)
twice: the same deals — every hand and the whole pile in its order — with the agents on other
random streams the second time (``arena.GameTask.agent_seed``). Over the deals' paired margins (a
hand) it prints:

- ``variance``: the paired margin's variance, what ``compare``'s interval is made of;
- ``agents_variance``: half the mean squared difference between a deal's two plays — the variance
  left when the deal and the pile are fixed: the agents' own random choices and where they lead;
- ``agents_share``: their ratio, with a 95% bootstrap interval over the deals.

AIVAT (``sniff_twelve.tools.evaluation``) corrects what chance does and what agents of known
policy do. An agent whose choices are random but not known (a search on its own random stream)
gets no correction, so about ``1 / agents_share`` is the most such an estimator can save against
it: a pair of deterministic agents has a share of 0, and nothing but chance left to correct.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from benchmarks.evaluation import pair_command, pair_fields, report
from sniff_twelve.tools import arena

#: the second play's agents draw from ``AGENT_STREAMS + deal seed``: streams no deal's play uses
AGENT_STREAMS = 10**12
BOOTSTRAP = 2000


def decompose(first: np.ndarray, second: np.ndarray, seed: int = 0) -> dict[str, float]:
    """``first[d]``, ``second[d]``: deal ``d``'s paired margin in the two plays. Returns the paired
    margin's variance (over both plays), the agents' part (half the mean squared difference of
    a deal's two plays) and its share, with a 95% bootstrap interval over the deals."""
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    if first.shape != second.shape or first.size < 2:
        raise ValueError("two plays of the same deals, at least two, are needed")

    def share(index: np.ndarray) -> tuple[float, float]:
        variance = np.concatenate([first[index], second[index]]).var(ddof=1)
        agents = np.mean((first[index] - second[index]) ** 2) / 2
        return float(variance), float(agents)

    variance, agents = share(np.arange(first.size))
    rng = np.random.default_rng(seed)
    draws = [share(rng.integers(0, first.size, first.size)) for _ in range(BOOTSTRAP)]
    shares = [a / v for v, a in draws if v > 0]
    low, high = np.percentile(shares, [2.5, 97.5]) if shares else (np.nan, np.nan)
    return {
        "variance": variance,
        "agents_variance": agents,
        "agents_share": agents / variance if variance > 0 else float("nan"),
        "agents_share_low": float(low),
        "agents_share_high": float(high),
    }


def measure(table: arena.Table, a: str, b: str, deals: int, seed: int, workers: int) -> dict:
    """Play ``a`` against ``b`` on ``deals`` duplicate deals twice, the agents on other streams the
    second time, and split the paired margin's variance (the module docstring)."""
    start = time.perf_counter()
    scheduled = arena.schedule(table, [a, b], deals, seed)
    slots = [slot for slot, _ in scheduled]
    plays = []
    with arena.game_processes(workers) as processes:
        for streams in (None, AGENT_STREAMS):
            tasks = [
                task if streams is None else dataclasses.replace(task, agent_seed=streams + task.seed)
                for _, task in scheduled
            ]
            games = arena.play_tasks(tasks, workers, progress=False, processes=processes)
            plays.append(np.array(arena.paired_margins(list(zip(slots, games, strict=True)))[((0, 1), 0)]))
    (m1, h1), (m2, h2) = arena.mean_ci(plays[0]), arena.mean_ci(plays[1])
    return {
        **pair_fields(table, a, b, deals, seed),
        "margin": m1,
        "margin_ci95": h1,
        "margin_again": m2,
        "margin_again_ci95": h2,
        **decompose(plays[0], plays[1], seed),
        "seconds": time.perf_counter() - start,
    }


def main(argv: list[str] | None = None) -> None:
    args, table = pair_command("python -m benchmarks.luck", __doc__, argv)
    report(measure(table, args.a, args.b, args.deals, args.seed, args.workers), args.json)


if __name__ == "__main__":
    main()
