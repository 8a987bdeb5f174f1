"""Results as text, JSON and PNG (matplotlib, optional): ``publish`` for every command, the
arena's results as text (``arena_text``: markdown tables) and as a plot (``arena_plot``)."""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sniff_twelve.core.optional import pyplot


def publish(
    args: argparse.Namespace, result: dict[str, Any], text: str, plot: Callable[[dict[str, Any], Path], None] | None
) -> None:
    """Print ``text``; write ``result`` to ``--json`` and ``plot(result, path)`` to ``--plot``
    where asked (``sniff_twelve.tools.flags.add_outputs``; a ``plot`` of ``None`` draws nothing)."""
    print(text)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    if args.plot and plot is not None:
        plot(result, args.plot)


def partial_note(result: dict[str, Any]) -> str:
    """`` — PARTIAL: n of m games`` for a run that was interrupted, else nothing."""
    if not result.get("partial"):
        return ""
    return f" — PARTIAL: {result['games_played']} of {result['games_scheduled']} games"


def arena_text(result: dict[str, Any]) -> str:
    """Entries by Elo: score (1 win, 0 loss) ± 95% CI over deals, points per hand, Elo; then the
    match-ups with the deal's share of their outcome variance, and the first opener's advantage."""
    finished = result.get("games_finished", 1) > 0
    aivat_head = " | AIVAT margin ± 95% CI" if any("margin_aivat" in row for row in result["entries"]) else ""

    def score(row: dict[str, Any]) -> str:
        return _pm(row["score"], row["ci95"], 3) if finished else "no match finished"

    lines = [
        f"{result['game']} with {result['num_players']} players, {result['deals']} deals per match-up, "
        f"seed {result['seed']}{partial_note(result)}",
        "",
        f"| entry | score ± 95% CI | margin/hand ± 95% CI{aivat_head} | points/hand ± 95% CI | "
        "Elo (Bradley–Terry) | deals |",
        "|---|---:|---:|" + "---:|" * bool(aivat_head) + "---:|---:|---:|",
    ]
    for row in sorted(result["entries"], key=lambda r: -r["elo"]):
        lines.append(
            f"| {row['entry']} | {score(row)} | {_margins(row)} | "
            f"{_pm(row['points_per_hand'], row['points_ci95'], 1)} | {row['elo']:.0f} | {row['deals']} |"
        )
    lines += [
        "",
        f"| entry | against | score ± 95% CI | margin/hand ± 95% CI{aivat_head} | deal share | deals |",
        "|---|---|---:|---:|" + "---:|" * bool(aivat_head) + "---:|---:|",
    ]
    for row in result["matchups"]:
        lines.append(
            f"| {row['entry']} | {', '.join(row['against'])} | {score(row)} | {_margins(row)} | "
            f"{_share(row.get('deal_share'))} | {row['deals']} |"
        )
    lines += [
        "",
        "margin: the side's points minus the other side's (\"12\": the seat's score minus the others' mean), "
        "a hand, paired by deal" + (" — no match finished: the scores say nothing" if not finished else ""),
        f"first opener's score (0.5 = no advantage): {_pm(result['opener_score'], result['opener_ci95'], 3)}",
        "deal share: how much of a match-up's outcome variance the deal explains (what every replay of a "
        "deal shares; the rest is the agents' play): 1 = the cards decide, 0 = they explain nothing "
        "(sniff_twelve.tools.arena.luck_skill)",
    ]
    return "\n".join(lines)


def _pm(mean: float, half: float, digits: int, sign: bool = False) -> str:
    """``mean ± half`` (``sign``: with its sign); ``± n/a`` where the interval is undefined (one
    deal: ``arena.mean_ci``)."""
    shown = f"{mean:+.{digits}f}" if sign else f"{mean:.{digits}f}"
    return f"{shown} ± " + (f"{half:.{digits}f}" if math.isfinite(half) else "n/a")


def _margins(row: dict[str, Any]) -> str:
    """The raw margin ± its interval, and the AIVAT one when measured, as table cells."""
    cells = [_pm(row["margin"], row["margin_ci95"], 2, sign=True)]
    if "margin_aivat" in row:
        cells.append(_pm(row["margin_aivat"], row["margin_aivat_ci95"], 2, sign=True))
    return " | ".join(cells)


def _share(value: float | None) -> str:
    return "–" if value is None or value != value else f"{value:.2f}"


def arena_plot(result: dict[str, Any], path: Path) -> None:
    """Scores with 95% CI bars, entries ordered by Elo (needs matplotlib: the bench or train extra)."""
    plt = pyplot("arena --plot", "bench")

    rows = sorted(result["entries"], key=lambda r: r["elo"])
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(rows) + 1.5))
    ax.barh(
        [r["entry"] for r in rows],
        [r["score"] for r in rows],
        xerr=[r["ci95"] for r in rows],
        color="tab:blue",
        alpha=0.8,
        capsize=4,
    )
    for i, r in enumerate(rows):
        ax.text(0.01, i, f"Elo {r['elo']:.0f}", va="center", color="white", fontsize=8)
    ax.axvline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_xlim(0, 1)
    ax.set_xlabel("score against the field (1 = always wins), 95% CI")
    ax.set_title(f"{result['game']}, {result['num_players']} players, {result['deals']} duplicate deals")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
