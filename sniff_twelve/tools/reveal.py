"""How much the play reveals (``beliefs`` command): the seat's beliefs scored against the deal.

At every decision of every record (a position where the seat to act had a choice), the seat's
beliefs (``sniff_twelve.beliefs.infer``) are scored by the **log-loss in bits** of where the
items it cannot see truly are: ``-Σ log2 P(unit at its true place)`` over the unseen tiles
(Sniff) or cards ("12", a card of rank ``r`` at place ``p`` with probability
``marginals[r, p] / hidden(r)``). It is scored twice — under the rules alone (``model=None``: every
consistent deal equally likely) and under ``--model`` (the other seats assumed to play as that
agent) — and the difference is the **bits revealed** by the other seats' choices. With four
players it is also scored **about the partner's hand** alone: the binary log-loss of "this unit
is in my partner's hand" over the unseen units.

Reported per agent (the agent whose beliefs these are: its partner, with four players, is what
it reads), per number of actions into the deal, and as a reliability table of the model's
probabilities (binned; expected calibration error, ECE) against how often they came true.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_twelve.agents.belief import LEARNED
from sniff_twelve.beliefs import infer
from sniff_twelve.core.agent import SOFTENING
from sniff_twelve.core.records import replay_steps
from sniff_twelve.tools.analyze import read_records, seat_agents
from sniff_twelve.tools.arena import mean_ci
from sniff_twelve.tools.exits import fail
from sniff_twelve.tools.flags import COUNT, RECORDS_HOLD_OPTIONS, SEED, add_outputs, add_records, fraction, plain
from sniff_twelve.tools.report import publish

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame

ABOUT = __doc__.split("\n\n")[1]  # the command's description
BINS = 10  # of the reliability table
PHASES = (0, 4, 8, 12, 16, 24, 32)  # actions into the deal: the start of each row of the curve


@dataclass
class Scored:
    """One decision's beliefs, scored: bits under the rules alone and under the model."""

    agent: str
    depth: int  # actions into the deal before it
    uniform: float
    model: float
    partner_uniform: float | None
    partner_model: float | None


def truth_of(game: BaseGame, me: int, items: list) -> np.ndarray:
    """``[items, places]``: how many units of each unseen item really are at each place (the
    other hands in seat order, then the boneyard or stock)."""
    places = [game.hand(s) for s in range(game.num_players) if s != me]
    pool = game.boneyard if hasattr(game, "boneyard") else game.stock
    return np.array([[place.count(item) for place in [*places, pool]] for item in items], dtype=float)


def log_loss(marginals: np.ndarray, truth: np.ndarray) -> float:
    """Bits: ``-Σ truth · log2(marginals / units)`` (each unit's probability of its true place)."""
    units = truth.sum(axis=1, keepdims=True)
    p = np.clip(marginals / units, 1e-12, 1.0)
    return float(-(truth * np.log2(p)).sum())


def partner_loss(marginals: np.ndarray, truth: np.ndarray, column: int) -> float:
    """Bits: binary log-loss of "this unit is in the partner's hand" over the unseen units."""
    units = truth.sum(axis=1)
    p = np.clip(marginals[:, column] / units, 1e-12, 1 - 1e-12)
    held = truth[:, column]
    return float(-(held * np.log2(p) + (units - held) * np.log2(1 - p)).sum())


#: weighted worlds per belief when none are asked: ``infer``'s 256 collapse under a sharp model and
#: show a quarter of what the play reveals (4-player Sniff, ``ppo`` at ε 0.05), 2,048 nine-tenths
#: of what 8,192 show (docs/beliefs.md, "Measured again with a converged posterior")
WORLDS = 2048


def measure(
    records: list[dict[str, Any]],
    game_cls: type[BaseGame],
    model: str,
    worlds: int = WORLDS,
    seed: int = 0,
    progress: bool = True,
    epsilon: float = SOFTENING,
    learned: str | None = None,
) -> dict[str, Any]:
    """Score every decision of ``records`` (module docstring) → the summary ``table`` prints;
    ``model`` is an agent spec of the game (``ValueError`` for an unknown one), mixed with
    ``epsilon`` of uniform play (``infer``'s ``epsilon``), or ``"learned"``: the belief network
    ``learned`` (a path; default the game's shipped one)."""
    if model == LEARNED:
        agent, learned = None, learned or "shipped"
    elif learned is not None:
        raise ValueError(f"--learned goes with --model {LEARNED}, not --model {model}")
    else:
        agent = game_cls.spec.part("agents").make_agent(model)
    scored: list[Scored] = []
    reliability = np.zeros((BINS, 3))  # weight, Σ predicted, Σ happened
    bar = _progress(sum(len(r["actions"]) for r in records), progress)
    for r, record in enumerate(records):
        agents: list[str] = []
        for game, action in replay_steps(record, game_cls):
            if action is None:
                break
            bar.update(1)
            if len(game.legal_actions()) < 2:
                continue
            me = game.current_player
            agents = agents or seat_agents(record, game.num_players)
            view = game.seat_view(me)
            uniform = infer(view, None, worlds=worlds, seed=seed + r)
            believed = infer(view, agent, worlds, seed + r, epsilon, learned)
            truth = truth_of(game, me, believed.items)
            partner = (me + 2) % 4 if game.num_players == 4 else None
            column = believed.places.index(partner) if partner is not None else None
            scored.append(
                Scored(
                    agents[me],
                    len(view.past),
                    log_loss(uniform.marginals, truth),
                    log_loss(believed.marginals, truth),
                    None if column is None else partner_loss(uniform.marginals, truth, column),
                    None if column is None else partner_loss(believed.marginals, truth, column),
                )
            )
            units = truth.sum(axis=1, keepdims=True)
            predicted = (believed.marginals / units).ravel()
            weight = np.repeat(units, truth.shape[1], axis=1).ravel()
            bins = np.minimum((predicted * BINS).astype(int), BINS - 1)
            np.add.at(reliability, bins, np.stack([weight, weight * predicted, truth.ravel()], axis=1))
    bar.close()
    return summary(scored, reliability, model, worlds, len(records)) | {"epsilon": epsilon}


def summary(scored: list[Scored], reliability: np.ndarray, model: str, worlds: int, records: int) -> dict[str, Any]:
    """Means with 95% intervals: overall, per agent, per phase of the deal; the reliability table."""

    def stats(rows: list[Scored]) -> dict[str, Any]:
        out = {"decisions": len(rows)}
        for name, key in (("uniform", "uniform"), ("model", "model")):
            out[f"bits_{name}"] = mean_ci(getattr(s, key) for s in rows)
        out["bits_revealed"] = mean_ci(s.uniform - s.model for s in rows)
        partner = [s for s in rows if s.partner_model is not None]
        if partner:
            out["partner_bits_revealed"] = mean_ci(s.partner_uniform - s.partner_model for s in partner)
            out["partner_bits_model"] = mean_ci(s.partner_model for s in partner)
        return out

    by_agent, by_phase = defaultdict(list), defaultdict(list)
    for s in scored:
        by_agent[s.agent].append(s)
        by_phase[max(p for p in PHASES if p <= s.depth)].append(s)
    weight, predicted, happened = reliability.T
    seen = weight > 0
    table = [
        {
            "bin": f"{b / BINS:.1f}–{(b + 1) / BINS:.1f}",
            "units": float(weight[b]),
            "predicted": float(predicted[b] / weight[b]),
            "happened": float(happened[b] / weight[b]),
        }
        for b in np.flatnonzero(seen)
    ]
    ece = float(np.abs(predicted[seen] - happened[seen]).sum() / weight.sum()) if seen.any() else float("nan")
    return {
        "model": model,
        "worlds": worlds,
        "records": records,
        "all": stats(scored),
        "agents": {agent: stats(rows) for agent, rows in sorted(by_agent.items())},
        "phases": {str(phase): stats(rows) for phase, rows in sorted(by_phase.items())},
        "reliability": table,
        "ece": ece,
    }


def _cell(pair: tuple[float, float]) -> str:
    return f"{pair[0]:.2f} ± {pair[1]:.2f}"


def table(result: dict[str, Any]) -> str:
    """The summary as Markdown tables (bits per decision, 95% intervals)."""
    lines = [
        f"beliefs under --model {result['model']} (ε {result['epsilon']}, {result['worlds']} worlds) against the "
        f"rules alone, {result['all']['decisions']} decisions of {result['records']} records; bits of log-loss per "
        "decision",
        "",
        "| agent (whose beliefs) | decisions | rules alone | model | bits revealed | about the partner |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, row in [("all", result["all"]), *result["agents"].items()]:
        partner = _cell(row["partner_bits_revealed"]) if "partner_bits_revealed" in row else "–"
        lines.append(
            f"| {name} | {row['decisions']} | {_cell(row['bits_uniform'])} | {_cell(row['bits_model'])} "
            f"| {_cell(row['bits_revealed'])} | {partner} |"
        )
    lines += [
        "",
        "| actions into the deal | decisions | rules alone | model | bits revealed |",
        "|---:|---:|---:|---:|---:|",
    ]
    for phase, row in result["phases"].items():
        lines.append(
            f"| {phase}+ | {row['decisions']} | {_cell(row['bits_uniform'])} | {_cell(row['bits_model'])} "
            f"| {_cell(row['bits_revealed'])} |"
        )
    lines += [
        "",
        f"calibration of the model's beliefs: ECE {result['ece']:.3f}",
        "",
        "| bin | units | predicted | happened |",
    ]
    lines.append("|---|---:|---:|---:|")
    lines += [
        f"| {b['bin']} | {b['units']:.0f} | {b['predicted']:.3f} | {b['happened']:.3f} |" for b in result["reliability"]
    ]
    return "\n".join(lines)


def plot(result: dict[str, Any], path: Path) -> None:
    """Bits of log-loss by phase of the deal (rules alone, model) and the reliability diagram."""
    from sniff_twelve.core.optional import pyplot

    plt = pyplot("beliefs --plot", "bench")
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    phases = [int(p) for p in result["phases"]]
    for key, label in (("bits_uniform", "rules alone"), ("bits_model", f"model {result['model']}")):
        mean = [result["phases"][str(p)][key][0] for p in phases]
        half = [result["phases"][str(p)][key][1] for p in phases]
        left.errorbar(phases, mean, yerr=half, marker="o", capsize=3, label=label)
    left.set(
        xlabel="actions into the deal", ylabel="bits of log-loss per decision", title="what the seat does not know"
    )
    left.legend()
    bins = result["reliability"]
    right.plot([0, 1], [0, 1], color="grey", linestyle=":")
    right.plot([b["predicted"] for b in bins], [b["happened"] for b in bins], marker="o")
    right.set(
        xlabel="predicted probability", ylabel="how often it was true", title=f"calibration (ECE {result['ece']:.3f})"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _progress(total: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, desc="positions", unit="position", leave=False, disable=not enabled)


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``beliefs`` command to a game's parser (``sniff_twelve.tools.cli.build_parser``)."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    cmd = sub.add_parser(
        "beliefs",
        help="how much the other seats' play reveals: beliefs scored against the deal in records",
        description=f"{plain(ABOUT)} {RECORDS_HOLD_OPTIONS}",
    )
    add_records(cmd)
    cmd.add_argument(
        "--model",
        required=True,
        help=f"the agent the other seats are assumed to play as, e.g. ppo; '{LEARNED}': a belief network's beliefs",
    )
    cmd.add_argument("--learned", help=f"the belief network --model {LEARNED} reads (default: the game's shipped one)")
    cmd.add_argument("--worlds", type=COUNT, default=WORLDS, help="weighted worlds per belief")
    cmd.add_argument(
        "--epsilon",
        type=fraction,
        default=SOFTENING,
        help="uniform play mixed into the model, 0–1: how far the players may stray from it",
    )
    cmd.add_argument("--seed", type=SEED, default=0, help="seed of the sampled worlds")
    add_outputs(
        cmd,
        json_help="write the summary as JSON",
        plot_help="save a PNG of the bits by phase and the reliability diagram (bench extra)",
    )


def main(args: argparse.Namespace, game_cls: type[BaseGame]) -> int:
    """The ``beliefs`` command: bad input is one ``error:`` line (exit 2) before any work."""
    from sniff_twelve.core.optional import MissingExtraError, pyplot

    try:
        if args.plot:
            pyplot("beliefs --plot", "bench")
        records = read_records(args.records, game_cls)
        result = measure(
            records, game_cls, args.model, args.worlds, args.seed, not args.no_progress, args.epsilon, args.learned
        )
    except (OSError, ValueError, NotImplementedError, MissingExtraError) as err:
        fail(err)
    publish(args, result, table(result), plot)
    return 0
