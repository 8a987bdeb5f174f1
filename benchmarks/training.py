"""Time to skill: ``python -m benchmarks.training [--quick] [--recipes …] [--deals N] [--search N] [--out DIR]``.

Runs each documented training recipe — the two ``examples/selfplay_ppo.py`` recipes and the
``examples/expert_iteration.py`` one — for its training-time budget on this machine, keeps the
policy at set marks of training time (``--save-at``; in-run evaluations are not counted, and are
switched off but for the last), then plays each snapshot in the arena against ``greedy``,
``heuristic`` and the shipped ``ppo`` on duplicate deals no training saw (seed 30000; training
deals come from their own streams, evaluations in the runs use seeds 10000+ and 20000): the raw
policy, and the same policy inside search (``guided:N:SNAPSHOT``, ``--search N``) with its
time per decision on shared positions (one core, ``benchmarks.timing``). Prints the table (score
± 95% CI), the targets, and writes ``training.json`` and ``training.png`` (score against minutes)
to ``--out``.

Needs the ``train`` extra. On 2 cores the full run takes about 50 minutes (10 minutes of each
self-play recipe, 20 of expert iteration, and the arenas); ``--quick`` runs seconds-long budgets
as a smoke test. Ctrl-C / SIGTERM stops the current run, keeps what was measured (marked partial)
and exits with status 130.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from multiprocessing.pool import Pool
from pathlib import Path

from benchmarks.timing import times_per_decision
from sniff_env.agents import arena_table
from sniff_twelve.batch.mlp import MlpPolicy
from sniff_twelve.core.optional import MissingExtraError, optional_import, pyplot
from sniff_twelve.tools import arena
from sniff_twelve.tools.exits import EXIT_INTERRUPTED, fail
from sniff_twelve.tools.interrupt import StopRequest

ROOT = Path(__file__).resolve().parents[1]
EVAL_SEED = 30_000


@dataclass(frozen=True)
class Example:
    """A training script in ``examples/`` and how this benchmark runs it."""

    script: str
    run_flags: tuple[str, ...]  #: on top of every recipe: no in-run evaluations but a small last one
    experience: str  #: the checkpoint metadata a snapshot's experience is counted in
    takes_threads: bool  #: whether it takes ``--threads`` (torch threads of the learner)


SELFPLAY = Example(
    "selfplay_ppo.py",
    ("--eval-every", "1000000", "--eval-deals", "4", "--final-deals", "4", "--quiet"),
    "env_steps",
    takes_threads=True,
)
EXPERT_ITERATION = Example(
    "expert_iteration.py", ("--eval-every", "1000000", "--eval-deals", "4"), "labels", takes_threads=False
)


@dataclass(frozen=True)
class Recipe:
    """A documented training command (docs/training.md), less the flags this benchmark sets."""

    players: int
    example: Example
    args: tuple[str, ...]
    marks: tuple[float, ...]  #: minutes of training a snapshot is kept at; the last is the budget
    quick_args: tuple[str, ...] = ()  #: what ``--quick`` adds, to make its steps seconds long


SELFPLAY_MARKS = (2.0, 5.0, 10.0)
RECIPES = {
    "sniff2": Recipe(2, SELFPLAY, ("--players", "2"), SELFPLAY_MARKS),
    "sniff4": Recipe(
        4,
        SELFPLAY,
        ("--players", "4", "--lr", "1e-3", "--pool-agents", "greedy", "heuristic", "--pool-rate", "0.5"),
        SELFPLAY_MARKS,
    ),
    "exit4": Recipe(
        4,
        EXPERT_ITERATION,
        ("--players", "4", "--games", "128", "--label-share", "1", "--iterations", "256"),
        (5.0, 10.0, 20.0),
        quick_args=("--games", "2", "--iterations", "4", "--workers", "1"),
    ),
}
OPPONENTS = ("greedy", "heuristic", "ppo")
QUICK_MARKS = (0.05, 0.1, 0.2)
#: the targets: (recipe, minutes, opponent) → the lowest score, or ``"interval"``: its 95% interval above 0.5
TARGETS: dict[tuple[str, float, str], float | str] = {
    ("sniff4", 10.0, "greedy"): 0.75,
    ("sniff4", 10.0, "heuristic"): 0.65,
    ("exit4", 20.0, "greedy"): 0.75,
    ("exit4", 20.0, "heuristic"): 0.65,
    ("exit4", 20.0, "ppo"): "interval",
}


def train(recipe: str, marks: tuple[float, ...], out: Path, args: argparse.Namespace, stop: StopRequest) -> bool:
    """Run the recipe for ``max(marks)`` minutes of training; ``False`` when a signal stopped it."""
    spec = RECIPES[recipe]
    command = [sys.executable, str(ROOT / "examples" / spec.example.script), *spec.args]
    command += ["--minutes", f"{max(marks):g}", "--save-at", *(f"{m:g}" for m in marks), "--seed", str(args.seed)]
    command += [*spec.example.run_flags, "--out", str(out)]
    if spec.example.takes_threads:
        command += ["--threads", str(args.threads)]
    if args.quick:
        command += spec.quick_args
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    while child.poll() is None:
        if stop:
            child.terminate()
            child.wait()
            return False
        time.sleep(0.5)
    if child.returncode != 0:
        raise RuntimeError(f"{recipe}: {spec.example.script} failed:\n{child.stderr.read()[-2000:]}")
    return True


def scores(players: int, entry: str, deals: int, workers: int, processes: Pool | None = None) -> dict:
    """Score (± 95% CI) of ``entry`` against each of ``OPPONENTS`` on the evaluation deals (on
    ``processes``, ``arena.game_processes``' workers, when given)."""
    out = {}
    for opponent in OPPONENTS:
        table, lineup = arena_table(players), [entry, opponent]
        result = arena.run(table, lineup, deals, EVAL_SEED, workers, progress=False, processes=processes)
        row = result["entries"][0]
        out[opponent] = {"score": row["score"], "ci95": row["ci95"]}
    return out


def measure(
    recipe: str, checkpoint: Path, minutes: float, args: argparse.Namespace, deals: int, processes: Pool | None
) -> dict:
    """One snapshot: its experience, its raw scores, and its scores and time per decision in search."""
    spec, meta = RECIPES[recipe], MlpPolicy.load(checkpoint).meta
    players, counted = spec.players, spec.example.experience
    point = {"minutes": minutes, counted: meta[counted]}
    point["scores"] = scores(players, f"ppo:{checkpoint}", deals, args.workers, processes)
    search = f"guided:{args.search}:{checkpoint}"
    ms = times_per_decision(arena_table(players), [search])[search]
    point["in_search"] = {"ms_per_decision": ms, "scores": scores(players, search, deals, args.workers, processes)}
    return point


def experience(point: dict) -> str:
    """``3.1M steps``, ``0.94M labels``, ``4,210 labels``."""
    unit, count = ("labels", point["labels"]) if "labels" in point else ("steps", point["env_steps"])
    return f"{count / 1e6:.{1 if count >= 1e6 else 2}f}M {unit}" if count >= 100_000 else f"{count:,} {unit}"


def table(result: dict) -> str:
    def cells(scores: dict) -> str:
        return " | ".join(f"{scores[o]['score']:.3f} ± {scores[o]['ci95']:.3f}" for o in OPPONENTS)

    search = f"guided:{result['search']}"
    lines = ["| recipe | minutes of training | experience | " + " | ".join(f"vs {o}" for o in OPPONENTS)]
    lines[0] += f" | {search}: ms per decision | " + " | ".join(f"in search vs {o}" for o in OPPONENTS) + " |"
    lines.append("|---|---:|---:|" + "---:|" * (2 * len(OPPONENTS) + 1))
    for recipe, points in result["recipes"].items():
        for p in points:
            inside = p["in_search"]
            lines.append(
                f"| {recipe} | {p['minutes']:g} | {experience(p)} | {cells(p['scores'])} "
                f"| {inside['ms_per_decision']:.2f} | {cells(inside['scores'])} |"
            )
    if result["targets"]:
        lines += ["", "| target (raw policy) | value | met |", "|---|---:|---|"]
        for name, t in result["targets"].items():
            lines.append(f"| {name} | {t['value']:.3f} ± {t['ci95']:.3f} | {'yes' if t['met'] else '**no**'} |")
    return "\n".join(lines)


def targets(result: dict) -> dict:
    """Each target whose snapshot was measured: its value and whether it is met."""
    out = {}
    for (recipe, minutes, opponent), bound in TARGETS.items():
        point = next((p for p in result["recipes"].get(recipe, []) if p["minutes"] == minutes), None)
        if point is None:
            continue
        score = point["scores"][opponent]
        if bound == "interval":
            name = f"{recipe} vs {opponent} after {minutes:g} min: 95% interval above 0.5"
            met = score["score"] - score["ci95"] > 0.5
        else:
            name = f"{recipe} vs {opponent} after {minutes:g} min >= {bound}"
            met = score["score"] >= bound
        out[name] = {**score, "value": score["score"], "met": met}
    return out


def plot(result: dict, path: Path) -> None:
    plt = pyplot("the time-to-skill plot", "train")
    fig, axes = plt.subplots(1, len(OPPONENTS), figsize=(4.5 * len(OPPONENTS), 3.8), sharey=True)
    colours = dict(zip(result["recipes"], plt.rcParams["axes.prop_cycle"].by_key()["color"], strict=False))
    for ax, opponent in zip(axes, OPPONENTS, strict=True):
        for recipe, points in result["recipes"].items():
            minutes = [p["minutes"] for p in points]
            raw = [p["scores"] for p in points]
            inside = [p["in_search"]["scores"] for p in points]
            search = f"{recipe} in guided:{result['search']}"
            for rows, style, label in ((raw, "-", f"{recipe}, raw"), (inside, "--", search)):
                ax.errorbar(
                    minutes,
                    [r[opponent]["score"] for r in rows],
                    yerr=[r[opponent]["ci95"] for r in rows],
                    marker="o",
                    capsize=3,
                    linestyle=style,
                    color=colours[recipe],
                    label=label,
                )
        ax.axhline(0.5, color="grey", linestyle=":", linewidth=1)
        ax.set(title=f"vs {opponent}", xlabel="minutes of training", ylim=(0, 1))
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("arena score (95% CI)")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.training", description=__doc__)
    parser.add_argument("--recipes", nargs="+", choices=list(RECIPES), default=list(RECIPES))
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals per evaluation")
    parser.add_argument("--search", type=int, default=256, help="N of guided:N, the policy inside search")
    parser.add_argument("--quick", action="store_true", help="seconds-long budgets and 4 deals (a smoke test)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the training runs")
    parser.add_argument("--threads", type=int, default=1, help="torch threads of the self-play runs (the recipes: 1)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes playing the arenas")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args(argv)
    try:  # what the training runs import, checked before any of them starts
        optional_import("torch", "train", "python -m benchmarks.training")
    except MissingExtraError as missing:
        fail(missing)
    deals = 4 if args.quick else args.deals
    if deals < 1 or args.search < 1:
        fail(f"--deals and --search must be at least 1; got {deals} and {args.search}")
    args.out.mkdir(parents=True, exist_ok=True)
    result: dict = {"quick": args.quick, "deals": deals, "eval_seed": EVAL_SEED, "threads": args.threads}
    result |= {"search": args.search, "recipes": {}, "targets": {}}
    with StopRequest() as stop, contextlib.ExitStack() as kept:
        processes = None  # the arenas' worker processes, started once
        for recipe in args.recipes:
            marks = QUICK_MARKS if args.quick else RECIPES[recipe].marks
            run_dir = args.out / "training_runs" / recipe
            print(f"{recipe}: training {max(marks):g} minutes …", file=sys.stderr, flush=True)
            if not train(recipe, marks, run_dir, args, stop):
                break
            if processes is None:  # after the first training, so that their start takes none of its time
                processes = kept.enter_context(arena.game_processes(args.workers))
            points = [measure(recipe, run_dir / f"at_{m:g}min.npz", m, args, deals, processes) for m in marks]
            result["recipes"][recipe] = points
    if not args.quick:
        result["targets"] = targets(result)
    if stop:
        result["partial"] = stop.signal
    (args.out / "training.json").write_text(json.dumps(result, indent=1))
    print(table(result))
    if stop:
        print(f"interrupted ({stop.signal}): {args.out / 'training.json'} holds the recipes finished so far")
        raise SystemExit(EXIT_INTERRUPTED)
    try:
        plot(result, args.out / "training.png")
    except MissingExtraError as missing:
        print(f"note: no training.png — {missing}")
    return result


if __name__ == "__main__":
    main()
