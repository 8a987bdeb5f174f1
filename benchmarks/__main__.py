"""``python -m benchmarks [--quick] [--out DIR]``: measure, print a table with ratios, write JSON + PNG."""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

from benchmarks import aec, anchors, ours, same_game, solvers, startup
from sniff_twelve.core.optional import MissingExtraError, pyplot
from sniff_twelve.tools.exits import EXIT_INTERRUPTED
from sniff_twelve.tools.interrupt import StopRequest

# (figure, what it is compared with) → name of the ratio
RATIOS = {
    # the same game on both sides (benchmarks.same_game): block dominoes as OpenSpiel plays it
    "dominoes VectorGame / OpenSpiel python_team_dominoes (same game, 4 players)": (
        "dominoes.vector4",
        "openspiel.dominoes4",
    ),
    "dominoes VectorGame / OpenSpiel python_block_dominoes (same game, 2 players)": (
        "dominoes.vector2",
        "openspiel.dominoes2",
    ),
    "dominoes kernel playouts / OpenSpiel python_team_dominoes (same game, 4 players)": (
        "dominoes.kernel_playouts4",
        "openspiel.dominoes4",
    ),
    "dominoes AEC raw / OpenSpiel python_team_dominoes (same game, 4 players)": (
        "dominoes.aec_raw4",
        "openspiel.dominoes4",
    ),
    "dominoes AEC raw / OpenSpiel python_block_dominoes (same game, 2 players)": (
        "dominoes.aec_raw2",
        "openspiel.dominoes2",
    ),
    "sniff VectorGame / OpenSpiel python_team_dominoes": ("sniff.vector_best", "openspiel.python_team_dominoes"),
    "sniff kernel playouts / OpenSpiel python_team_dominoes": (
        "sniff.kernel_playouts",
        "openspiel.python_team_dominoes",
    ),
    "sniff AEC wrapped / PettingZoo connect_four_v3 wrapped": (
        "sniff.aec_wrapped",
        "pettingzoo.connect_four_v3_wrapped",
    ),
    "twelve AEC wrapped / PettingZoo connect_four_v3 wrapped": (
        "twelve.aec_wrapped",
        "pettingzoo.connect_four_v3_wrapped",
    ),
    "sniff AEC wrapped / connect_four_v3 wrapped, PettingZoo docs loop": (
        "sniff.aec_wrapped_docs_loop",
        "pettingzoo.connect_four_v3_wrapped_docs_loop",
    ),
    "twelve AEC wrapped / connect_four_v3 wrapped, PettingZoo docs loop": (
        "twelve.aec_wrapped_docs_loop",
        "pettingzoo.connect_four_v3_wrapped_docs_loop",
    ),
    "sniff Game.apply / OpenSpiel python_team_dominoes": ("sniff.game_apply", "openspiel.python_team_dominoes"),
    "twelve VectorGame / OpenSpiel C++ crazy_eights": ("twelve.vector_best", "openspiel.crazy_eights_cpp"),
    "twelve kernel playouts / OpenSpiel C++ crazy_eights": ("twelve.kernel_playouts", "openspiel.crazy_eights_cpp"),
    "sniff vector_env[4096] / single_agent_env (learner steps, greedy)": (
        "sniff.vector_env[4096]",
        "sniff.single_agent_env",
    ),
    "twelve vector_env[4096] / single_agent_env (learner steps, greedy)": (
        "twelve.vector_env[4096]",
        "twelve.single_agent_env",
    ),
}
# issue targets: figure → (comparison, bound, unit)
TARGETS = {
    "dominoes VectorGame / OpenSpiel python_team_dominoes (same game, 4 players)": (">=", 1000.0),
    "dominoes AEC raw / OpenSpiel python_team_dominoes (same game, 4 players)": (">=", 10.0),
    "sniff.vector_best": (">=", 5e6),
    "sniff.kernel_playouts": (">=", 10e6),
    "twelve.vector_best": (">=", 10e6),
    "sniff.aec_raw": (">=", 60e3),
    "twelve.aec_raw": (">=", 60e3),
    "sniff AEC wrapped / PettingZoo connect_four_v3 wrapped": (">=", 3.0),
    "twelve AEC wrapped / PettingZoo connect_four_v3 wrapped": (">=", 3.0),
    "sniff.vector_env[4096]": (">=", 500e3),
    "sniff vector_env[4096] / single_agent_env (learner steps, greedy)": (">=", 100.0),
    "twelve vector_env[4096] / single_agent_env (learner steps, greedy)": (">=", 100.0),
    "sniff.warm_start_s": ("<=", 2.0),
    "twelve.warm_start_s": ("<=", 2.0),
    "solver.sniff4.median_ms": ("<=", 10.0),
}


def machine() -> dict[str, object]:
    import numba
    import numpy

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "numba_threads": numba.get_num_threads(),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "date": time.strftime("%Y-%m-%d"),
    }


def _progress(items, desc):
    try:
        from tqdm import tqdm
    except ImportError:
        return items
    return tqdm(items, desc=desc, leave=False, file=sys.stderr)


def run(quick: bool) -> dict[str, object]:
    figures: dict[str, float | None] = {}
    aec_seconds = 0.3 if quick else 2.0
    jobs = [
        *ours.measurements(quick),
        *anchors.measurements(quick),
        ("same_game", lambda: same_game.figures(aec_seconds)),
        ("aec", lambda: aec.figures(aec_seconds)),
        ("solvers", lambda: solvers.figures(quick)),
    ]
    with StopRequest() as stop:  # Ctrl-C / SIGTERM: keep the figures measured so far
        for name, measure in _progress(jobs, "benchmarks"):
            value = measure()
            if isinstance(value, dict):  # figures measured together (interleaved windows)
                figures.update(value)
            else:
                figures[name] = value
            if stop:
                break
    for game in ours.GAMES:
        vector = [v for k, v in figures.items() if k.startswith(f"{game}.vector[") and v]
        figures[f"{game}.vector_best"] = max(vector) if vector else None
        if not stop:
            figures[f"{game}.cold_start_s"], figures[f"{game}.warm_start_s"] = startup.start_times(
                ours.GAMES[game]["import"]
            )
    ratios = {
        name: (figures[a] / figures[b] if figures.get(a) and figures.get(b) else None)
        for name, (a, b) in RATIOS.items()
    }
    targets = {}
    for name, (op, bound) in TARGETS.items():
        value = figures.get(name, ratios.get(name))
        met = None if value is None else (value >= bound if op == ">=" else value <= bound)
        targets[name] = {"value": value, "target": f"{op} {bound:g}", "met": met}
    result = {"machine": machine(), "quick": quick, "figures": figures, "ratios": ratios, "targets": targets}
    return {**result, "interrupted": stop.signal} if stop else result


def _fmt(value: float | None, unit: str = "") -> str:
    if value is None:
        return "n/a (install the bench extra)"
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "x":
        return f"{value:,.1f}x"
    if unit == "ms":
        return f"{value:,.1f} ms"
    if unit == "share":
        return f"{value:.0%}"
    return f"{value:,.0f}"


def table(result: dict[str, object]) -> str:
    m = result["machine"]
    lines = [
        f"machine: {m['cpu']}, {m['cores']} cores, numba {m['numba']} ({m['numba_threads']} threads), "
        f"Python {m['python']}, {m['date']}" + (" [quick]" if result["quick"] else ""),
        "",
        "| figure | steps/s (or time) |",
        "|---|---:|",
    ]
    for name, value in result["figures"].items():
        unit = "s" if name.endswith("_s") else "ms" if name.endswith("_ms") else "share" if "share" in name else ""
        lines.append(f"| {name} | {_fmt(value, unit)} |")
    lines += ["", "| ratio | value |", "|---|---:|"]
    lines += [f"| {name} | {_fmt(v, 'x')} |" for name, v in result["ratios"].items()]
    lines += ["", "| target | value | met |", "|---|---:|---|"]
    for name, t in result["targets"].items():
        unit = "s" if name.endswith("_s") else "ms" if name.endswith("_ms") else "x" if "/" in name else ""
        met = "n/a" if t["met"] is None else ("yes" if t["met"] else "**no**")
        lines.append(f"| {name} {t['target']} | {_fmt(t['value'], unit)} | {met} |")
    return "\n".join(lines)


def plot(result: dict[str, object], path: Path) -> bool:
    """Steps/s against batch size for both ``VectorGame`` s, anchors as horizontal lines."""
    try:
        plt = pyplot("the benchmark plot", "bench")
    except MissingExtraError as missing:
        print(f"note: no plot — {missing}", file=sys.stderr)
        return False
    fig, ax = plt.subplots(figsize=(8, 5))
    figures = result["figures"]
    for game, style in (("sniff", "o-"), ("twelve", "s-")):
        points = sorted((int(k.split("[")[1][:-1]), v) for k, v in figures.items() if k.startswith(f"{game}.vector["))
        ax.plot([p[0] for p in points], [p[1] for p in points], style, label=f"{game} VectorGame (obs + masks)")
    for name, color in (
        ("sniff.kernel_playouts", "C0"),
        ("twelve.kernel_playouts", "C1"),
        ("openspiel.crazy_eights_cpp", "C2"),
        ("openspiel.python_team_dominoes", "C3"),
        ("pettingzoo.connect_four_v3_wrapped", "C4"),
        ("sniff.aec_raw", "C5"),
    ):
        if figures.get(name):
            ax.axhline(figures[name], color=color, linestyle="--", linewidth=1, label=name)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("batch size (games per call)")
    ax.set_ylabel("steps / s")
    ax.set_title(f"Throughput on {result['machine']['cores']} cores")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short runs, three batch sizes (under a minute)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"), help="where JSON and PNG go")
    args = parser.parse_args(argv)
    result = run(args.quick)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "latest.json").write_text(json.dumps(result, indent=2))
    print(table(result))
    if result.get("interrupted"):
        print(f"\ninterrupted: {args.out / 'latest.json'} holds the figures measured so far", file=sys.stderr)
        raise SystemExit(EXIT_INTERRUPTED)
    if plot(result, args.out / "throughput.png"):
        print(f"\nwrote {args.out / 'latest.json'} and {args.out / 'throughput.png'}")


if __name__ == "__main__":
    main()
