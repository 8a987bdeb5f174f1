"""The perfect-information solvers (``sniff_twelve.search.solver``): time and nodes to solve whole deals.

Every figure solves fresh deals from their first position (every legal action valued, as
``analyze`` and ``pimc`` need), one core, the table warm; a deal's time is the least of
``REPEATS`` solves (the same nodes each time: only the host's load varies):

- ``solver.sniff{2,4}.median_ms`` / ``p99_ms``: a whole Sniff hand from the deal; ``nodes_per_s``;
  ``solved_share``: the share solved within ``BUDGET`` nodes (the rest count at the budget's time);
- ``solver.sniff{2,4}_moves.median_ms`` / ``p99_ms``: the same deals solved as grading one decision
  needs (``solve(moves=[a])``, ``a`` one legal opening drawn at random: the best and ``a`` exact);
- ``solver.twelve2.solved_share``: whole 2-player "12" games from the deal solved within ``BUDGET``;
  ``solver.twelve2_stock20.median_ms``: the same games once 20 stock cards are left.
"""

from __future__ import annotations

import random
import time

import numpy as np

BUDGET = 20_000_000
SNIFF_DEALS = {2: 100, 4: 200}
REPEATS = 3


def _positions(game: str, players: int, count: int, stock: int | None = None) -> list:
    import sniff_env
    import twelve_env

    out = []
    for seed in range(count):
        if game == "sniff":
            out.append(sniff_env.Game(num_players=players, seed=10_000 + seed))
            continue
        g = twelve_env.Game(num_players=players, seed=10_000 + seed)
        rng = random.Random(seed)
        while stock is not None and g.stock_size > stock:
            after = g.clone()
            after.apply(rng.choice(g.legal_actions()))
            if after.is_terminal():
                break
            g = after
        out.append(g)
    return out


def _solve_all(solve, positions: list, budget: int, one_move: bool = False) -> dict[str, float]:
    times, nodes, solved = [], [], []
    rng = random.Random(0)
    for game in positions:
        moves = [rng.choice(game.legal_actions())] if one_move else None
        least = float("inf")
        for _ in range(REPEATS):
            start = time.perf_counter()
            result = solve(game, moves=moves, max_nodes=budget)
            least = min(least, time.perf_counter() - start)
        times.append(least)
        nodes.append(result.nodes)
        solved.append(result.exact)
    t = np.array(times)
    return {
        "median_ms": float(np.median(t) * 1e3),
        "p99_ms": float(np.percentile(t, 99) * 1e3),
        "nodes_per_s": float(np.sum(nodes) / np.sum(t)),
        "solved_share": float(np.mean(solved)),
    }


def names() -> list[str]:
    """The figure names ``figures`` reports."""
    out = [f"solver.sniff{n}.{k}" for n in SNIFF_DEALS for k in ("median_ms", "p99_ms", "nodes_per_s", "solved_share")]
    out += [f"solver.sniff{n}_moves.{k}" for n in SNIFF_DEALS for k in ("median_ms", "p99_ms")]
    return [*out, "solver.twelve2.solved_share", "solver.twelve2_stock20.median_ms"]


def figures(quick: bool) -> dict[str, float]:
    from sniff_env.solver import solve as solve_sniff
    from twelve_env.solver import solve as solve_twelve

    scale = 10 if quick else 1
    budget = BUDGET // scale
    solve_sniff(_positions("sniff", 4, 1)[0])  # compile outside the timings
    out: dict[str, float] = {}
    for n, count in SNIFF_DEALS.items():
        positions = _positions("sniff", n, count // scale)
        for key, value in _solve_all(solve_sniff, positions, budget).items():
            out[f"solver.sniff{n}.{key}"] = value
        graded = _solve_all(solve_sniff, positions, budget, one_move=True)
        for key in ("median_ms", "p99_ms"):
            out[f"solver.sniff{n}_moves.{key}"] = graded[key]
    deals = 4 if quick else 20
    out["solver.twelve2.solved_share"] = _solve_all(solve_twelve, _positions("twelve", 2, deals), budget // 10)[
        "solved_share"
    ]
    out["solver.twelve2_stock20.median_ms"] = _solve_all(
        solve_twelve, _positions("twelve", 2, 100 // scale, stock=20), budget
    )["median_ms"]
    return out
