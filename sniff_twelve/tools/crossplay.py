"""Cross-play of partners: how well do agents that never trained together play as a partnership?

Every ordered pair of agents ``(i, j)`` sits as partners — ``i`` on the first seat of its side
(seat 0), ``j`` on the second (seat 2) — against one fixed pair of opponents ``x+x``, on the same
duplicate deals (each deal played from both sides, by ``sniff_twelve.tools.arena``'s scheduler and players).
The result is a score matrix (row: the first seat's agent, column: its partner; 1 win, 0 loss,
½ truncation) with 95% intervals over deals. Its diagonal is self-play, the rest cross-play; the
*zero-shot-coordination gap* is the diagonal mean minus the off-diagonal mean, with a 95% interval
paired by deal (every cell plays the same deals, so the cards cancel out of the difference).

A table needs two sides of two seats (4-player Sniff); others raise ``ValueError`` saying so.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_twelve.agents.spec import partners
from sniff_twelve.core.optional import MissingExtraError, pyplot
from sniff_twelve.tools import arena
from sniff_twelve.tools.exits import EXIT_FAILURE, EXIT_INTERRUPTED, fail
from sniff_twelve.tools.flags import COUNT, SEED, add_estimator, add_game_options, add_outputs, add_workers
from sniff_twelve.tools.report import partial_note, publish

if TYPE_CHECKING:
    from sniff_twelve.core.agent import Agent
    from sniff_twelve.core.options import GameOption
    from sniff_twelve.core.seats import Table


def check(
    table: Table, agents: Sequence[str], opponents: str, deals: int, objects: dict[str, Agent] | None = None
) -> None:
    """``ValueError`` with a one-line message for anything that would make the run meaningless,
    before any game: a table without two-seat partnerships, fewer than two or repeated agents, an
    unknown agent spec, fewer than one deal."""
    if not table.two_sided or any(len(seats) != 2 for seats in table.sides):
        raise ValueError(
            f"crossplay needs a 4-player partnership table (seats 0+2 against 1+3); "
            f"{table.package} with {table.num_players} players has no partnerships"
        )
    if len(agents) < 2:
        raise ValueError(f"crossplay needs at least two agents; got {list(agents)}")
    if len(set(agents)) != len(agents):
        raise ValueError(f"agents must differ; got {list(agents)}")
    for agent_spec in [*agents, opponents]:
        if len(partners(agent_spec)) > 1 and agent_spec not in (objects or {}):
            raise ValueError(f"{agent_spec!r}: crossplay forms the partnerships itself; give single agent specs")
    if deals < 1:
        raise ValueError(f"deals must be at least 1; got {deals}")
    arena.check_entries(table, [*agents, opponents], objects)


def schedule(
    table: Table, agents: Sequence[str], opponents: str, deals: int, seed: int
) -> list[tuple[arena.Slot, arena.GameTask]]:
    """The arena's schedule of the partnerships ``a+b`` (entry ``i * len(agents) + j`` for agents
    ``i`` and ``j``) each against ``opponents+opponents`` (the last entry), deal by deal — so an
    interrupted run has every cell on its first deals and the gap stays paired."""
    k = len(agents)
    entries = [f"{agents[i]}+{agents[j]}" for i in range(k) for j in range(k)] + [f"{opponents}+{opponents}"]
    matchups = [(p, k * k) for p in range(k * k)]
    scheduled = arena.schedule(table, entries, deals, seed, matchups=matchups)
    return sorted(scheduled, key=lambda slotted: slotted[1].seed)  # stable: cell order within a deal


def run(
    table: Table,
    agents: Sequence[str | Agent],
    opponents: str | Agent,
    deals: int,
    seed: int = 0,
    workers: int = 1,
    progress: bool = True,
    address: str | None = None,
    estimator: str | None = None,
) -> dict[str, Any]:
    """Play every ordered pair of ``agents`` as partners against ``opponents+opponents`` on ``deals``
    duplicate deals and summarise (see ``summarize``); an interrupted run (Ctrl-C, SIGTERM)
    summarises the games played so far, marked ``"partial"``. Agents are specs or ``Agent``
    objects (``arena.name_entries``); ``address`` runs the games on a Ray cluster
    (``arena.play_tasks``), with the same results; ``estimator="aivat"`` adds the AIVAT margins
    (``sniff_twelve.tools.evaluation``). JSON-ready."""
    arena.check_estimator(table, estimator)
    if len({a if isinstance(a, str) else id(a) for a in agents}) != len(agents):
        raise ValueError(f"agents must differ; got {list(agents)}")
    names, objects = arena.name_entries([*agents, opponents], workers, address)
    agents, opponents = names[:-1], names[-1]
    check(table, agents, opponents, deals, objects)
    scheduled = schedule(table, agents, opponents, deals, seed)
    tasks = [dataclasses.replace(task, objects=objects, estimator=estimator) for _, task in scheduled]
    results = arena.play_tasks(tasks, workers, progress, address)
    summary = summarize(agents, [(slot, result) for (slot, _), result in zip(scheduled, results, strict=False)])
    return {
        "game": table.package,
        "num_players": table.num_players,
        "options": table.options,
        "agents": agents,
        "opponents": opponents,
        "deals": deals,
        "seed": seed,
        "partial": len(results) < len(scheduled),
        "games_played": len(results),
        "games_scheduled": len(scheduled),
        **summary,
    }


def summarize(agents: Sequence[str], slotted: list[tuple[arena.Slot, dict[str, Any]]]) -> dict[str, Any]:
    """The matrix (``None`` for a cell without games), its 95% half-widths and deal counts; the
    self-play (diagonal) and cross-play (off-diagonal) means and their difference, the ``gap``;
    ``margin`` and ``margin_ci95`` (``margin_aivat`` … when measured): the same shape, the
    partnership's margin a hand (``arena.paired_margins``).
    The means' and the gap's intervals are over deals, paired: per deal, the mean of the diagonal
    cells minus the mean of the others (deals where every cell was played)."""
    k = len(agents)
    # per cell and deal seed: the partnership's outcomes (one per side it played the deal from)
    outcomes: dict[tuple[int, int], dict[int, list[float]]] = {}
    for slot, result in slotted:
        pair = slot.matchup[0]
        seats = [seat for seat, entry in enumerate(slot.entry_of_seat) if entry == pair]
        score = float(np.mean([result["outcome"][seat] for seat in seats]))
        outcomes.setdefault(divmod(pair, k), {}).setdefault(result["seed"], []).append(score)
    per_deal = {cell: {seed: float(np.mean(v)) for seed, v in deals.items()} for cell, deals in outcomes.items()}
    matrix: list[list[float | None]] = [[None] * k for _ in range(k)]
    ci95: list[list[float | None]] = [[None] * k for _ in range(k)]
    counts = [[0] * k for _ in range(k)]
    for (i, j), deals in per_deal.items():
        mean, half = arena.mean_ci(deals.values())
        matrix[i][j], ci95[i][j], counts[i][j] = mean, _finite(half), len(deals)
    diagonal = [matrix[i][i] for i in range(k) if matrix[i][i] is not None]
    off = [matrix[i][j] for i in range(k) for j in range(k) if i != j and matrix[i][j] is not None]
    self_play = float(np.mean(diagonal)) if diagonal else None
    cross_play = float(np.mean(off)) if off else None
    gap = self_play - cross_play if self_play is not None and cross_play is not None else None
    cells = [(i, j) for i in range(k) for j in range(k)]
    complete = sorted(set.intersection(*(set(per_deal.get(cell, {})) for cell in cells)))
    by_deal = {
        "self": [np.mean([per_deal[(i, i)][d] for i in range(k)]) for d in complete],
        "cross": [np.mean([per_deal[(i, j)][d] for i, j in cells if i != j]) for d in complete],
    }
    gaps = [s - c for s, c in zip(by_deal["self"], by_deal["cross"], strict=True)]
    margins = {}
    for key in arena.MARGINS:
        paired = arena.paired_margins(slotted, key)
        if key == "margin" or paired:
            means = [[None] * k for _ in range(k)]
            halves = [[None] * k for _ in range(k)]
            for (matchup, e), values in paired.items():
                if e == matchup[0]:
                    i, j = divmod(e, k)
                    mean, half = arena.mean_ci(values)
                    means[i][j], halves[i][j] = mean, _finite(half)
            margins[key], margins[f"{key}_ci95"] = means, halves
    return {
        "matrix": matrix,
        "ci95": ci95,
        **margins,
        "cell_deals": counts,
        "self_play_mean": self_play,
        "self_play_ci95": _finite(arena.mean_ci(by_deal["self"])[1]) if complete else None,
        "cross_play_mean": cross_play,
        "cross_play_ci95": _finite(arena.mean_ci(by_deal["cross"])[1]) if complete else None,
        "gap": gap,
        "gap_ci95": _finite(arena.mean_ci(gaps)[1]) if complete else None,
        "paired_deals": len(complete),
    }


def _finite(x: float) -> float | None:
    """JSON has no NaN or infinity: an interval from a single deal is ``None`` (unknown)."""
    return float(x) if math.isfinite(x) else None


def _pm(mean: float | None, half: float | None) -> str:
    if mean is None:
        return "—"
    return f"{mean:.3f} ± {half:.3f}" if half is not None else f"{mean:.3f} ± n/a"


def table_text(result: dict[str, Any]) -> str:
    """The matrix as a Markdown table (row: seat 0's agent, column: its partner), then the
    self-play and cross-play means and the gap."""
    agents = result["agents"]
    opp = result["opponents"]
    lines = [
        f"{result['game']} cross-play against {opp}+{opp}, {result['deals']} duplicate deals per pair, "
        f"seed {result['seed']}{partial_note(result)}",
        "",
        "score of the partnership (row: seat 0's agent, column: its partner in seat 2) ± 95% CI",
        "",
        "| seat 0 \\ partner | " + " | ".join(agents) + " |",
        "|---|" + "---:|" * len(agents),
    ]
    for i, agent in enumerate(agents):
        cells = [_pm(result["matrix"][i][j], result["ci95"][i][j]) for j in range(len(agents))]
        lines.append(f"| {agent} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"self-play (diagonal) mean:      {_pm(result['self_play_mean'], result['self_play_ci95'])}",
        f"cross-play (off-diagonal) mean: {_pm(result['cross_play_mean'], result['cross_play_ci95'])}",
        f"zero-shot-coordination gap:     {_pm(result['gap'], result['gap_ci95'])}"
        f"  (self-play − cross-play, paired over {result['paired_deals']} deals)",
    ]
    return "\n".join(lines)


def heatmap(result: dict[str, Any], path: Path) -> None:
    """The matrix as an annotated heatmap PNG (needs matplotlib: the bench or train extra)."""
    plt = pyplot("crossplay --plot", "bench")
    agents = result["agents"]
    k = len(agents)
    values = np.array([[np.nan if v is None else v for v in row] for row in result["matrix"]], dtype=float)
    fig, ax = plt.subplots(figsize=(1.3 * k + 2.5, 1.1 * k + 1.8))
    image = ax.imshow(values, cmap="RdYlGn", vmin=0, vmax=1)
    for i in range(k):
        for j in range(k):
            text = _pm(result["matrix"][i][j], result["ci95"][i][j]).replace(" ± ", "\n± ")
            ax.text(j, i, text, ha="center", va="center", fontsize=8, fontweight="bold" if i == j else "normal")
    ax.set_xticks(range(k), agents)
    ax.set_yticks(range(k), agents)
    ax.set_xlabel("partner (seat 2)")
    ax.set_ylabel("seat 0")
    fig.colorbar(image, ax=ax, label="score against the opponents (1 = always wins)")
    gap = result["gap"]
    gap_text = "" if gap is None else f"; gap {_pm(gap, result['gap_ci95'])}"
    ax.set_title(
        f"cross-play vs {result['opponents']}+{result['opponents']}, {result['deals']} deals{gap_text}"
        + (" (partial)" if result.get("partial") else ""),
        fontsize=9,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# --- the command line ---------------------------------------------------------------------------


def add_parser(
    parser: argparse.ArgumentParser, players: Sequence[int], default_players: int, options: Sequence[GameOption] = ()
) -> None:
    """Add the ``crossplay`` command to a game's parser (one made by ``sniff_twelve.tools.cli.build_parser``),
    with a flag for each of the game's ``options`` (``SPEC.options``)."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    cmd = sub.add_parser(
        "crossplay",
        help="cross-play of partners: every ordered pair of agents as partners against fixed opponents",
        description="Every ordered pair of --agents as partners (seat 0 and seat 2) against --opponents "
        "in both other seats, on duplicate deals: the score matrix and the zero-shot-coordination gap.",
    )
    cmd.add_argument("--agents", nargs="+", required=True, help="agent specs (at least two, all different)")
    cmd.add_argument("--opponents", default="greedy", help="the agent in both opponents' seats (default greedy)")
    cmd.add_argument("--deals", type=COUNT, default=50, help="deals per pair (each played from both sides)")
    cmd.add_argument("--players", type=int, choices=list(players), default=default_players, help="seats")
    cmd.add_argument("--seed", type=SEED, default=0, help="seed of the deals and the agents")
    add_workers(cmd)
    add_outputs(cmd, json_help="write the results as JSON", plot_help="save a heatmap PNG of the matrix")
    add_game_options(cmd, options)
    add_estimator(cmd)


def main(args: argparse.Namespace, table: Table) -> int:
    """The ``crossplay`` command: check everything (one-line ``error: …``, exit 2, before any
    game), play, print the matrix, write JSON / PNG; an interrupted run writes what it has, marked
    partial, and exits 130."""
    try:
        check(table, args.agents, args.opponents, args.deals)
        if args.plot:
            pyplot("crossplay --plot", "bench")
    except (ValueError, MissingExtraError) as err:
        fail(err)
    try:
        result = run(
            table,
            args.agents,
            args.opponents,
            args.deals,
            seed=args.seed,
            workers=args.workers,
            progress=not args.no_progress,
            address=args.address,
            estimator=args.estimator,
        )
    except arena.AgentFailedError as err:
        fail(err, EXIT_FAILURE)
    except (ValueError, MissingExtraError) as err:  # an --address with no cluster there
        fail(err)
    publish(args, result, table_text(result), heatmap)
    if result["partial"]:
        print(
            f"interrupted: the matrix above covers the {result['games_played']} of {result['games_scheduled']} "
            "games played; what was asked for is written (marked partial). Run the command again for all.",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    return 0
