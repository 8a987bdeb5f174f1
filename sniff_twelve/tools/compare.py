"""Is A better than B? A sequential probability ratio test on the paired margin, as fishtest runs
its SPRT on paired games.

``compare`` plays A against B on duplicate deals (each deal from both sides, the arena's
scheduler and players), in batches. After each batch it takes the deals' paired margins — A's
margin a hand, averaged over the two seatings of a deal (``arena.paired_margins``; with
``estimator="aivat"`` the AIVAT margin, ``sniff_twelve.tools.evaluation``) — and the
log-likelihood ratio of H1 "the mean is ``delta``" against H0 "it is 0" under a normal model
with the variance estimated from the data (the generalised SPRT):

    LLR = n · δ · (x̄ − δ/2) / s²

It stops at Wald's bounds: ``LLR ≥ log((1 − β)/α)`` → ``"better"``, ``LLR ≤ log(β/(1 − α))`` →
``"not better"``; ``max_deals`` played without either → ``"undecided"``. ``α`` bounds the rate
of "better" when A is no better than B, ``β`` that of "not better" when A is ``delta`` better
(approximately: the variance is estimated, and the test looks only after each batch).

``replicate`` runs the whole test ``N`` times, run ``i`` on seed ``seed + i`` (deal seeds
``(seed + i)·1000003 + d``: no deal is played twice while ``max_deals`` < 1000003), so run ``i``
is the run ``--seed seed+i`` plays alone and the same command gives the same JSON. ``combine``
joins the runs: the verdict all of them give (``"better"``, ``"not better"`` or ``"undecided"``),
else ``"not separated"`` — the runs disagree, so A is not shown apart from B and the pair counts
as level within the pooled interval; it is never ``"better"``. The pooled margin is the
hand-weighted mean of the runs' margins, its 95% interval that of all the runs' paired values
together. A sequential test stops when its values happen to have run to one side, so each run's
margin is biased toward the side it stopped on (stopping bias), and so is the pooled figure: it
describes the runs, it is not an unbiased estimate, and only the verdicts carry the test's error
rates.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_twelve.tools import arena
from sniff_twelve.tools.exits import EXIT_FAILURE, EXIT_INTERRUPTED, fail
from sniff_twelve.tools.flags import add_estimator, add_game_options, add_two_sided_players, add_workers, whole

if TYPE_CHECKING:
    import multiprocessing.pool

    from sniff_twelve.core.agent import Agent
    from sniff_twelve.core.seats import Table
    from sniff_twelve.core.spec import GameSpec

#: deals before the first look (the variance estimate needs some), then per batch
FIRST_BATCH, BATCH = 16, 16


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the log-likelihood ratio: ``(log(β/(1−α)), log((1−β)/α))``."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def llr(values: Sequence[float], delta: float) -> float:
    """The log-likelihood ratio of mean ``delta`` against mean 0 for ``values``, normal with the
    sample variance (``±inf`` when the values do not vary; 0 with fewer than two)."""
    x = np.asarray(values, dtype=float)
    if len(x) < 2:
        return 0.0
    mean, var = float(x.mean()), float(x.var(ddof=1))
    if var <= 1e-12:
        return 0.0 if mean == delta / 2 else math.copysign(math.inf, mean - delta / 2)
    return len(x) * delta * (mean - delta / 2) / var


def decide(values: Sequence[float], delta: float, alpha: float, beta: float) -> str | None:
    """``"better"``, ``"not better"``, or ``None`` (play on) for the paired values so far."""
    lower, upper = bounds(alpha, beta)
    ratio = llr(values, delta)
    return "better" if ratio >= upper else "not better" if ratio <= lower else None


def sequential(
    values: Sequence[float],
    delta: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_deals: int | None = None,
    first: int = FIRST_BATCH,
    batch: int = BATCH,
) -> tuple[str, int]:
    """The test on a stream of paired values, looked at after ``first`` and then every ``batch``:
    ``(verdict, deals used)`` — ``"undecided"`` when ``max_deals`` (default: all) pass first."""
    limit = len(values) if max_deals is None else min(max_deals, len(values))
    n = min(first, limit)
    while True:
        verdict = decide(values[:n], delta, alpha, beta)
        if verdict is not None:
            return verdict, n
        if n >= limit:
            return "undecided", n
        n = min(n + batch, limit)


def check(delta: float, alpha: float, beta: float, max_deals: int, workers: int = 1) -> None:
    """``ValueError`` naming the first setting that makes the test meaningless."""
    if not (math.isfinite(delta) and delta > 0):
        raise ValueError(f"delta must be a positive number of points a hand; got {delta}")
    for name, p in (("alpha", alpha), ("beta", beta)):
        if not 0 < p < 0.5:
            raise ValueError(f"{name} must be between 0 and 0.5; got {p}")
    if max_deals < 2:
        raise ValueError(f"max-deals must be at least 2; got {max_deals}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1; got {workers}")


def run(
    table: Table,
    a: str | Agent,
    b: str | Agent,
    delta: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_deals: int = 2000,
    seed: int = 0,
    workers: int = 1,
    progress: bool = True,
    address: str | None = None,
    estimator: str | None = None,
) -> dict[str, Any]:
    """Play ``a`` against ``b`` batch by batch until the test decides (module docstring); JSON-ready.
    ``a`` and ``b`` may be the same spec (self-play). The statistic is ``margin_aivat`` with
    ``estimator="aivat"``, else ``margin``; both are reported with their 95% intervals."""
    settings = {"delta": delta, "alpha": alpha, "beta": beta, "max_deals": max_deals, "workers": workers}
    return _runs(table, a, b, [seed], progress, address, estimator, settings)[0][0]


def replicate(
    table: Table,
    a: str | Agent,
    b: str | Agent,
    delta: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_deals: int = 2000,
    seed: int = 0,
    workers: int = 1,
    progress: bool = True,
    address: str | None = None,
    estimator: str | None = None,
    replicates: int = 2,
) -> dict[str, Any]:
    """``run`` ``replicates`` times on the same worker processes, run ``i`` on seed ``seed + i``,
    joined by ``combine`` (module docstring); JSON-ready: ``run``'s settings, ``replicate``, and the
    combined ``verdict``, ``deals``, ``hands``, ``partial``, ``runs`` and pooled margins. A stop
    request ends it with the run it cut short (``partial``)."""
    if replicates < 1:
        raise ValueError(f"replicate must be at least 1; got {replicates}")
    settings = {"delta": delta, "alpha": alpha, "beta": beta, "max_deals": max_deals, "workers": workers}
    played = _runs(table, a, b, range(seed, seed + replicates), progress, address, estimator, settings)
    runs, values = [result for result, _ in played], [paired for _, paired in played]
    head = {k: v for k, v in runs[0].items() if k != "llr"}  # the settings, in ``run``'s order
    return {**head, "seed": seed, "replicate": replicates, **combine(runs, values)}


#: what each of the ``runs`` keeps of its run's result (``replicate``); the rest is common to all
RUN_KEYS = (
    "seed",
    "verdict",
    "deals",
    "hands",
    "llr",
    "partial",
    *(k + s for k in arena.MARGINS for s in ("", "_ci95")),
)


def combine(runs: Sequence[dict[str, Any]], values: Sequence[dict[str, Sequence[float]]]) -> dict[str, Any]:
    """Join replicated runs (module docstring), from each run's result (at least ``verdict``,
    ``hands`` and ``margin``) and its paired values a deal per margin (``values[i]["margin"]``):
    ``verdict`` — the one every run gives, else ``"not separated"`` (never ``"better"`` unless all
    are) —, the total ``deals`` (paired values) and ``hands``, ``partial`` (any run), ``runs``,
    and per margin the hand-weighted mean of the runs' margins with the 95% half-width of the
    pooled values (descriptive: each run's margin carries its stopping bias)."""
    verdicts = {r["verdict"] for r in runs}
    combined: dict[str, Any] = {
        "verdict": verdicts.pop() if len(verdicts) == 1 else "not separated",
        "deals": sum(len(paired.get("margin", [])) for paired in values),
        "hands": sum(r["hands"] for r in runs),
        "partial": any(r.get("partial", False) for r in runs),
        "runs": [{k: r[k] for k in RUN_KEYS if k in r} for r in runs],
    }
    for key in arena.MARGINS:
        pooled = [v for paired in values for v in paired.get(key, [])]
        if key != "margin" and not pooled:
            continue
        weighted = [(r["hands"], r[key]) for r in runs if key in r and r["hands"] > 0]
        hands = sum(h for h, _ in weighted)
        mean = sum(h * m for h, m in weighted) / hands if hands else math.nan
        combined[key], combined[f"{key}_ci95"] = mean, arena.mean_ci(pooled)[1]
    return combined


def _runs(
    table: Table,
    a: str | Agent,
    b: str | Agent,
    seeds: Sequence[int],
    progress: bool,
    address: str | None,
    estimator: str | None,
    settings: dict[str, Any],
) -> list[tuple[dict[str, Any], dict[str, list[float]]]]:
    """One run of the test per seed, on one set of worker processes (``_run``'s results); a stop
    request ends it with the run it cut short."""
    names, objects = _entries(table, a, b, address=address, estimator=estimator, **settings)
    played = []
    with arena.game_processes(settings["workers"] if address is None else 1) as processes:
        for seed in seeds:
            played.append(_run(table, names, objects, processes, seed, progress, address, estimator, **settings))
            if played[-1][0]["partial"]:
                break
    return played


def _entries(
    table: Table,
    a: str | Agent,
    b: str | Agent,
    *,
    delta: float,
    alpha: float,
    beta: float,
    max_deals: int,
    workers: int,
    address: str | None,
    estimator: str | None,
) -> tuple[list[str], dict[str, Agent]]:
    """Check the settings and the table (``ValueError``), and name the two entries (``arena.name_entries``)."""
    check(delta, alpha, beta, max_deals, workers)
    arena.check_estimator(table, estimator)
    if not table.two_sided:
        raise ValueError(f"compare needs two sides; {table.package} with {table.num_players} players has none")
    names, objects = arena.name_entries([a, b], workers, address)
    arena.check_entries(table, names, objects)
    return names, objects


def _run(
    table: Table,
    names: list[str],
    objects: dict[str, Agent],
    processes: multiprocessing.pool.Pool | None,
    seed: int,
    progress: bool,
    address: str | None,
    estimator: str | None,
    *,
    delta: float,
    alpha: float,
    beta: float,
    max_deals: int,
    workers: int,
) -> tuple[dict[str, Any], dict[str, list[float]]]:
    """One run of the test on ``processes`` (``run``): its result, and its paired values a deal per margin."""
    scheduled = arena.schedule(table, names, max_deals, seed)
    per_deal = 2  # both sides of every deal, in deal order
    key = "margin_aivat" if estimator else "margin"
    slotted: list[tuple[arena.Slot, dict[str, Any]]] = []
    verdict, deals, ratio, partial = "undecided", 0, 0.0, False
    while deals < max_deals:
        step = FIRST_BATCH if deals == 0 else BATCH
        chunk = scheduled[deals * per_deal : min(deals + step, max_deals) * per_deal]
        tasks = [dataclasses.replace(task, objects=objects, estimator=estimator) for _, task in chunk]
        results = arena.play_tasks(tasks, workers, progress, address, processes)  # a stop request cuts it short
        slotted += list(zip([slot for slot, _ in chunk], results, strict=False))
        if len(results) < len(tasks):
            partial = True
            break
        deals = min(deals + step, max_deals)
        values = arena.paired_margins(slotted, key)[((0, 1), 0)]
        ratio = llr(values, delta)
        decided = decide(values, delta, alpha, beta)
        if decided is not None:
            verdict = decided
            break
    paired = {k: arena.paired_margins(slotted, k).get(((0, 1), 0), []) for k in arena.MARGINS}
    lower, upper = bounds(alpha, beta)
    result = {
        "game": table.package,
        "num_players": table.num_players,
        "options": table.options,
        "a": names[0],
        "b": names[1],
        "delta": delta,
        "alpha": alpha,
        "beta": beta,
        "seed": seed,
        "estimator": estimator,
        "statistic": key,
        "verdict": verdict,
        "deals": len(paired["margin"]),
        "hands": int(sum(r["hands"] for _, r in slotted)),
        "llr": ratio,
        "bounds": [lower, upper],
        "partial": partial,
    }
    for k, values in paired.items():
        if k == "margin" or values:
            mean, half = arena.mean_ci(values)
            result[k], result[f"{k}_ci95"] = mean, half
    return result, paired


def add_parser(parser: argparse.ArgumentParser, spec: GameSpec, default_players: int) -> None:
    """Add the ``compare`` command to a game's parser (``sniff_twelve.tools.cli``), at its two-sided tables."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    cmd = sub.add_parser(
        "compare",
        help="sequential test: is A better than B by DELTA points a hand?",
        description="Play A against B on duplicate deals in batches until a sequential probability ratio test of "
        "'A's margin over B is 0' against 'it is DELTA' decides: better, not better, or undecided at --max-deals. "
        "With --replicate N: N runs, run i on seed SEED+i; the combined verdict is the one every run gives, else "
        "'not separated' (never better unless every run says better), beside the pooled margin.",
    )
    cmd.add_argument("a", help="agent spec A")
    cmd.add_argument("b", help="agent spec B (may be A: self-play)")
    add_two_sided_players(cmd, spec, default_players)
    cmd.add_argument("--delta", type=float, default=2.0, help="H1: A's margin over B, points a hand (default 2)")
    cmd.add_argument("--alpha", type=float, default=0.05, help="the false 'better' rate (default 0.05)")
    cmd.add_argument("--beta", type=float, default=0.05, help="the false 'not better' rate at DELTA (default 0.05)")
    cmd.add_argument("--max-deals", type=int, default=2000, help="deals before 'undecided' (default 2000)")
    cmd.add_argument("--seed", type=int, default=0, help="seed of the deals and the agents")
    cmd.add_argument(
        "--replicate",
        type=whole(1),
        metavar="N",
        help="run the test N times, run i on seed SEED+i; the combined verdict is the one every run gives, else "
        "'not separated' (the runs disagree: never better, the pair is level within the pooled interval); the "
        "pooled margin is the hand-weighted mean of the runs' margins, descriptive only (a run's stopping biases "
        "its margin)",
    )
    add_workers(cmd)
    add_estimator(cmd)
    cmd.add_argument("--json", type=Path, help="write the verdict and the margins as JSON")
    cmd.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_game_options(cmd, spec.options)


def text(result: dict[str, Any]) -> str:
    """The verdict and the margins, one line each."""
    lines = [
        f"{result['a']} against {result['b']} ({result['game']}, {result['num_players']} players): "
        f"{result['verdict'].upper()} (H1: +{result['delta']:g} points a hand, α {result['alpha']:g}, "
        f"β {result['beta']:g}) after {result['deals']} deals, {result['hands']} hands",
        f"margin a hand: {result['margin']:+.2f} ± {result['margin_ci95']:.2f}",
    ]
    if "margin_aivat" in result:
        lines.append(f"AIVAT margin a hand: {result['margin_aivat']:+.2f} ± {result['margin_aivat_ci95']:.2f}")
    lines.append(f"LLR {result['llr']:.2f} (bounds {result['bounds'][0]:.2f}, {result['bounds'][1]:.2f})")
    return "\n".join(lines)


def replicated_text(result: dict[str, Any]) -> str:
    """Each run's verdict and margin, one line each, then the combined verdict and the pooled margin."""
    lines = [
        f"{result['a']} against {result['b']} ({result['game']}, {result['num_players']} players), "
        f"{len(result['runs'])} of {result['replicate']} runs (H1: +{result['delta']:g} points a hand, "
        f"α {result['alpha']:g}, β {result['beta']:g}):"
    ]
    for r in result["runs"]:
        line = f"  seed {r['seed']}: {r['verdict']} after {r['hands']} hands, margin {r['margin']:+.2f}"
        aivat = f", AIVAT {r['margin_aivat']:+.2f} ± {r['margin_aivat_ci95']:.2f}" if "margin_aivat" in r else ""
        lines.append(f"{line} ± {r['margin_ci95']:.2f}{aivat}")
    lines.append(
        f"combined: {result['verdict'].upper()} after {result['hands']} hands, pooled margin "
        f"{result['margin']:+.2f} ± {result['margin_ci95']:.2f} (descriptive: each run's stopping biases its margin)"
    )
    if "margin_aivat" in result:
        lines.append(f"pooled AIVAT margin: {result['margin_aivat']:+.2f} ± {result['margin_aivat_ci95']:.2f}")
    return "\n".join(lines)


def main(args: argparse.Namespace, table: Table) -> int:
    """The ``compare`` command: check the settings (``error: …``, exit 2), play (``--replicate``: N
    runs), print, write JSON."""
    settings = {
        "seed": args.seed,
        "workers": args.workers,
        "progress": not args.no_progress,
        "address": args.address,
        "estimator": args.estimator,
    }
    try:
        check(args.delta, args.alpha, args.beta, args.max_deals, args.workers)
        test = (table, args.a, args.b, args.delta, args.alpha, args.beta, args.max_deals)
        if args.replicate is None:
            result = run(*test, **settings)
        else:
            result = replicate(*test, **settings, replicates=args.replicate)
    except arena.AgentFailedError as err:
        fail(err, EXIT_FAILURE)
    except ValueError as err:
        fail(err)
    print(text(result) if args.replicate is None else replicated_text(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    if result["partial"]:
        print("interrupted: the verdict above is on the deals played so far", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0
