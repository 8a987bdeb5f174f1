"""Time to skill: ``python -m benchmarks.training [--quick] [--recipes …] [--deals N] [--out DIR]``.

Runs each documented ``examples/selfplay_ppo.py`` recipe for a fixed training-time budget on this
machine, keeps the policy after 2, 5 and 10 minutes of training (``--save-at``; the in-run
evaluations are not counted, and are switched off but for the last), then plays each snapshot
in the arena against ``greedy``, ``heuristic`` and the shipped ``ppo`` on duplicate deals no
training saw (seed 30000; training deals come from its own streams, its evaluations use seeds
10000+ and 20000). Prints the table (score ± 95% CI), the targets, and writes
``training.json`` and ``training.png`` (score against minutes) to ``--out``.

Needs the ``train`` extra. On 2 cores the full run takes about 25 minutes (two 10-minute runs and
their arenas); ``--quick`` runs seconds-long budgets as a smoke test. Ctrl-C / SIGTERM stops the
current run, keeps what was measured (marked partial) and exits with status 130.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from sniff_env.agents import arena_table
from sniff_twelve.batch.mlp import MlpPolicy
from sniff_twelve.core.optional import MissingExtraError, optional_import, pyplot
from sniff_twelve.tools import arena
from sniff_twelve.tools.exits import EXIT_INTERRUPTED, fail
from sniff_twelve.tools.interrupt import StopRequest

ROOT = Path(__file__).resolve().parents[1]
EVAL_SEED = 30_000
#: the recipes of docs/training.md (Self-play PPO), by name: (players, selfplay_ppo.py arguments)
RECIPES = {
    "sniff2": (2, ["--players", "2"]),
    "sniff4": (4, ["--players", "4", "--lr", "1e-3", "--pool-agents", "greedy", "heuristic", "--pool-rate", "0.5"]),
}
OPPONENTS = ("greedy", "heuristic", "ppo")
MARKS = (2.0, 5.0, 10.0)
QUICK_MARKS = (0.05, 0.1, 0.2)
#: the targets: (recipe, minutes, opponent) → lowest score
TARGETS = {("sniff4", 10.0, "greedy"): 0.75, ("sniff4", 10.0, "heuristic"): 0.65}


def train(recipe: str, marks: tuple[float, ...], out: Path, seed: int, threads: int, stop: StopRequest) -> bool:
    """Run the recipe for ``max(marks)`` minutes of training; ``False`` when a signal stopped it."""
    recipe_args = RECIPES[recipe][1]
    command = [sys.executable, str(ROOT / "examples" / "selfplay_ppo.py"), *recipe_args]
    command += ["--minutes", f"{max(marks):g}", "--save-at", *(f"{m:g}" for m in marks), "--threads", str(threads)]
    command += ["--eval-every", "1000000", "--eval-deals", "4", "--final-deals", "4", "--seed", str(seed)]
    command += ["--out", str(out), "--quiet"]
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    while child.poll() is None:
        if stop:
            child.terminate()
            child.wait()
            return False
        time.sleep(0.5)
    if child.returncode != 0:
        raise RuntimeError(f"{recipe}: selfplay_ppo.py failed:\n{child.stderr.read()[-2000:]}")
    return True


def evaluate(recipe: str, checkpoint: Path, deals: int) -> dict:
    """Score (± 95% CI) of ``checkpoint`` against each of ``OPPONENTS`` on the evaluation deals."""
    players = RECIPES[recipe][0]
    scores = {}
    for opponent in OPPONENTS:
        result = arena.run(arena_table(players), [f"ppo:{checkpoint}", opponent], deals, seed=EVAL_SEED, progress=False)
        row = result["entries"][0]
        scores[opponent] = {"score": row["score"], "ci95": row["ci95"]}
    return scores


def table(result: dict) -> str:
    lines = ["| recipe | minutes of training | env steps | " + " | ".join(f"vs {o}" for o in OPPONENTS) + " |"]
    lines.append("|---|---:|---:|" + "---:|" * len(OPPONENTS))
    for recipe, points in result["recipes"].items():
        for p in points:
            cells = " | ".join(f"{p['scores'][o]['score']:.3f} ± {p['scores'][o]['ci95']:.3f}" for o in OPPONENTS)
            lines.append(f"| {recipe} | {p['minutes']:g} | {p['env_steps']:,} | {cells} |")
    if result["targets"]:
        lines += ["", "| target | value | met |", "|---|---:|---|"]
        for name, t in result["targets"].items():
            lines.append(f"| {name} | {t['value']:.3f} ± {t['ci95']:.3f} | {'yes' if t['met'] else '**no**'} |")
    return "\n".join(lines)


def plot(result: dict, path: Path) -> None:
    plt = pyplot("the time-to-skill plot", "train")
    fig, axes = plt.subplots(1, len(OPPONENTS), figsize=(4 * len(OPPONENTS), 3.5), sharey=True)
    for ax, opponent in zip(axes, OPPONENTS, strict=True):
        for recipe, points in result["recipes"].items():
            minutes = [p["minutes"] for p in points]
            scores = [p["scores"][opponent]["score"] for p in points]
            errors = [p["scores"][opponent]["ci95"] for p in points]
            ax.errorbar(minutes, scores, yerr=errors, marker="o", capsize=3, label=recipe)
        ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
        ax.set(title=f"vs {opponent}", xlabel="minutes of training", ylim=(0, 1))
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("arena score (95% CI)")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.training", description=__doc__)
    parser.add_argument("--recipes", nargs="+", choices=sorted(RECIPES), default=sorted(RECIPES))
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals per evaluation")
    parser.add_argument("--quick", action="store_true", help="seconds-long budgets and 4 deals (a smoke test)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the training runs")
    parser.add_argument("--threads", type=int, default=1, help="torch threads of the training runs (the recipes: 1)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args(argv)
    try:  # what the training runs import, checked before any of them starts
        optional_import("torch", "train", "python -m benchmarks.training")
    except MissingExtraError as missing:
        fail(missing)
    marks, deals = (QUICK_MARKS, 4) if args.quick else (MARKS, args.deals)
    if deals < 1:
        fail(f"--deals must be at least 1; got {deals}")
    args.out.mkdir(parents=True, exist_ok=True)
    result: dict = {"quick": args.quick, "deals": deals, "eval_seed": EVAL_SEED, "threads": args.threads}
    result |= {"recipes": {}, "targets": {}}
    with StopRequest() as stop:
        for recipe in args.recipes:
            run_dir = args.out / "training_runs" / recipe
            print(f"{recipe}: training {max(marks):g} minutes …", file=sys.stderr, flush=True)
            if not train(recipe, marks, run_dir, args.seed, args.threads, stop):
                break
            points = []
            for minutes in marks:
                checkpoint = run_dir / f"at_{minutes:g}min.npz"
                steps = MlpPolicy.load(checkpoint).meta["env_steps"]
                points.append({"minutes": minutes, "env_steps": steps, "scores": evaluate(recipe, checkpoint, deals)})
            result["recipes"][recipe] = points
    for (recipe, minutes, opponent), bound in TARGETS.items():
        point = next((p for p in result["recipes"].get(recipe, []) if p["minutes"] == minutes), None)
        if point is not None and not args.quick:
            score = point["scores"][opponent]
            name = f"{recipe} vs {opponent} after {minutes:g} min >= {bound}"
            result["targets"][name] = {**score, "value": score["score"], "met": score["score"] >= bound}
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
