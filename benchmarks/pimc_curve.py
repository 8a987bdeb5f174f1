"""``pimc`` against a reference agent at its time per move: ``python -m benchmarks.pimc_curve``.

For each ``pimc:K`` (``--worlds``, default 1 2 4 8): its mean time per decision on the same
positions as the reference (4-player Sniff, decisions with a choice from ``greedy`` matches,
``benchmarks.timing.decision_positions``; one core), and its score against the reference
(``rollout:1024`` by default) over duplicate deals of full matches (``sniff_twelve.tools.arena``).
Prints the curve, writes ``benchmarks/results/pimc_curve.json`` and, with ``--plot FILE``, a PNG
of score against time.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import sniff_env
from benchmarks.timing import decision_positions, ms_per_decision
from sniff_env.agents import arena_table, make_agent
from sniff_twelve.tools import arena


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.pimc_curve", description=__doc__)
    parser.add_argument("--worlds", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--reference", default="rollout:1024")
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals per point")
    parser.add_argument("--positions", type=int, default=300, help="positions timed per agent")
    parser.add_argument("--seed", type=int, default=90210)
    parser.add_argument("--target", type=int, help="match target (default: the rules', S3)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    parser.add_argument("--plot", type=Path, help="save the curve as a PNG")
    args = parser.parse_args(argv)
    positions = decision_positions(
        lambda seed: sniff_env.Game(num_players=4, seed=seed), make_agent("greedy"), args.positions
    )
    reference_ms = ms_per_decision(make_agent(args.reference), positions)
    table = arena_table(4) if args.target is None else arena_table(4, target=args.target)
    rows = []
    for k in args.worlds:
        spec = f"pimc:{k}"
        ms = ms_per_decision(make_agent(spec), positions)
        result = arena.run(table, [spec, args.reference], args.deals, seed=args.seed, workers=args.workers)
        row = next(r for r in result["entries"] if r["entry"] == spec)
        rows.append({"agent": spec, "ms_per_decision": ms, "score": row["score"], "ci95": row["ci95"]})
        print(
            f"{spec:8s} {ms:7.1f} ms/decision ({ms / reference_ms:4.1f}x)  score {row['score']:.3f} ± {row['ci95']:.3f}"
        )
    curve = {"reference": args.reference, "reference_ms": reference_ms, "deals": args.deals, "seed": args.seed}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "pimc_curve.json").write_text(json.dumps({**curve, "points": rows}, indent=1))
    if args.plot:
        plot(curve, rows, args.plot)


def plot(curve: dict, rows: list[dict], path: Path) -> None:
    """Score against ``reference`` over time per decision, with 95% intervals."""
    from sniff_twelve.core.optional import pyplot

    plt = pyplot("benchmarks.pimc_curve --plot", "bench")
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    x = [r["ms_per_decision"] for r in rows]
    ax.errorbar(x, [r["score"] for r in rows], yerr=[r["ci95"] for r in rows], marker="o", capsize=3)
    for r in rows:
        ax.annotate(r["agent"], (r["ms_per_decision"], r["score"]), textcoords="offset points", xytext=(6, -10))
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.axvline(curve["reference_ms"], color="grey", lw=0.8, ls=":", label=f"{curve['reference']}'s time")
    ax.set_xscale("log")
    ax.set_xlabel("ms per decision (one core)")
    ax.set_ylabel(f"score against {curve['reference']}")
    ax.set_ylim(0, 1)
    ax.set_title(f"4-player Sniff: pimc against {curve['reference']} ({curve['deals']} duplicate deals)")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
