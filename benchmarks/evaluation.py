"""How much the AIVAT margin saves: ``python -m benchmarks.evaluation GAME PLAYERS A B [--deals N]
[--seed S] [--max-nodes N] [--orders K] [--workers W] [--OPTION VALUE …] [--json FILE]``.

Plays ``A`` against ``B`` on duplicate deals (both seatings, ``sniff_twelve.tools.arena``), then
corrects every game (``sniff_twelve.tools.evaluation.aivat_margins``) and prints, over the deals'
paired values: the raw and the corrected mean margin a hand with their 95% intervals, whether
they agree, and the variance reduction (paired raw variance ÷ paired corrected variance, the
factor fewer deals for the same interval), with the seconds spent.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from sniff_env.spec import SPEC as SNIFF
from sniff_twelve.tools import arena, evaluation
from sniff_twelve.tools.cli import given_options
from twelve_env.spec import SPEC as TWELVE

GAMES = {"sniff": SNIFF, "twelve": TWELVE}


def _corrected(job: tuple) -> list[float]:
    table, record, max_nodes, orders = job
    hands = max(1, len(record["hand_points"]))
    return [m / hands for m in evaluation.aivat_margins(table, record, max_nodes=max_nodes, orders=orders)]


def measure(
    table: arena.Table, a: str, b: str, deals: int, seed: int, max_nodes: int, orders: int, workers: int
) -> dict:
    """Play ``a`` against ``b`` on ``deals`` duplicate deals, correct every game in ``workers``
    processes, and compare the paired raw and AIVAT margins (the module docstring)."""
    start = time.perf_counter()
    result = arena.run(table, [a, b], deals, seed, workers, progress=False, records=True)
    played = time.perf_counter() - start
    games = result["games"]
    jobs = [(table, {**g["record"], "hand_points": g["hand_points"]}, max_nodes, orders) for g in games]
    with get_context("spawn").Pool(workers) as pool:
        corrected = pool.map(_corrected, jobs, chunksize=1)
    for game, margins in zip(games, corrected, strict=True):
        game["margin_aivat"] = margins
    slots = [slot for slot, _ in arena.schedule(table, [a, b], deals, seed)]
    paired = {
        key: arena.paired_margins(list(zip(slots, games, strict=True)), key)[((0, 1), 0)] for key in arena.MARGINS
    }
    raw, cor = np.array(paired["margin"]), np.array(paired["margin_aivat"])
    (rm, rh), (cm, ch) = arena.mean_ci(raw), arena.mean_ci(cor)
    diff_m, diff_h = arena.mean_ci(raw - cor)
    return {
        **pair_fields(table, a, b, deals, seed),
        "hands": int(sum(g["hands"] for g in games)),
        "max_nodes": max_nodes,
        "orders": orders,
        "margin": rm,
        "margin_ci95": rh,
        "margin_aivat": cm,
        "margin_aivat_ci95": ch,
        "difference": diff_m,
        "difference_ci95": diff_h,
        "agree": abs(diff_m) <= diff_h,
        "variance_reduction": float(raw.var(ddof=1) / cor.var(ddof=1)),
        "seconds_play": played,
        "seconds_aivat": time.perf_counter() - start - played,
    }


def pair_command(
    prog: str,
    description: str | None,
    argv: list[str] | None,
    own: Callable[[argparse.ArgumentParser], None] = lambda parser: None,
) -> tuple[argparse.Namespace, arena.Table]:
    """The command line of a benchmark of one pair (this one, ``benchmarks.luck``): ``GAME PLAYERS
    A B [--deals N] [--seed S] [--workers W] [--json FILE]``, the flags ``own`` adds, and the
    game's options (``--OPTION VALUE``). Returns the arguments and the table they set."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("players", type=int)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", type=Path)
    own(parser)
    known, rest = parser.parse_known_args(argv)
    spec = GAMES[known.game]
    options_parser = argparse.ArgumentParser()
    for flags, kwargs in (option.argument() for option in spec.options):
        options_parser.add_argument(*flags, **kwargs)
    options = given_options(options_parser.parse_args(rest), spec.options)
    return known, arena.Table.of(spec, known.players, **options)


def pair_fields(table: arena.Table, a: str, b: str, deals: int, seed: int) -> dict:
    """What a pair benchmark's JSON opens with: the table, the pair, the deals and the seed."""
    return {
        "game": table.package,
        "num_players": table.num_players,
        "options": table.options,
        "a": a,
        "b": b,
        "deals": deals,
        "seed": seed,
    }


def report(out: dict, path: Path | None) -> None:
    """Print ``out`` as one JSON line, and write it to ``path`` when given."""
    print(json.dumps(out))
    if path:
        path.write_text(json.dumps(out, indent=1))


def _aivat_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-nodes", type=int, default=evaluation.MAX_NODES)
    parser.add_argument("--orders", type=int, default=evaluation.ORDERS)


def main(argv: list[str] | None = None) -> None:
    args, table = pair_command("python -m benchmarks.evaluation", __doc__, argv, _aivat_flags)
    report(measure(table, args.a, args.b, args.deals, args.seed, args.max_nodes, args.orders, args.workers), args.json)


if __name__ == "__main__":
    main()
