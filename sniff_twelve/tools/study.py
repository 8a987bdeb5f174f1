"""The ``study`` command: run a human-partner study in the browser, export its data, analyse it.

- ``study run STUDY.toml --records DIR`` serves the study (``sniff_twelve.web.study``: the file;
  ``sniff_twelve.web.participants``: each participant's way through) until Ctrl-C.
- ``study export DIR --out FILE`` writes the data (``sniff_twelve.web.study_data``) as CSV, or as
  Parquet for a ``.parquet`` name (pyarrow), and every finished hand's record beside it,
  ``FILE``'s stem + ``.records.jsonl``, which ``analyze``, ``replay`` and the evaluation tools
  read (the participant's seat is ``human``; a ``study`` key says whose hand it was).
- ``study analyze DIR [--json FILE]`` (``analyze_study``): per condition the participant side's
  margin a hand with its 95% interval, the hands and the participants; for every pair of
  conditions the paired margin (the same participant, the same deal, one condition less the
  other) with its 95% interval and the verdict of ``compare``'s sequential test on those paired
  values; the questionnaire means per condition; and reference lines — the same deals played
  with an agent in the participant's seat (``greedy`` and the ladder's top agent at the table).
"""

from __future__ import annotations

import argparse
import itertools
import json
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sniff_twelve.core.optional import MissingExtraError, optional_import
from sniff_twelve.tools import arena, compare, roster
from sniff_twelve.tools.exits import fail
from sniff_twelve.tools.flags import whole
from sniff_twelve.web.study_data import COLUMNS, csv_text, hand_margin, study_rows
from sniff_twelve.web.study_file import StudyError, load_study

if TYPE_CHECKING:
    from sniff_twelve.core.spec import GameSpec
    from sniff_twelve.web.study import Study
    from sniff_twelve.web.table import WebGame

#: the agent every analysis plays in the participant's seat, beside the ladder's top
BASELINE = "greedy"


def add_parser(parser: argparse.ArgumentParser, spec: GameSpec) -> None:
    """Add ``study run|export|analyze`` to a game's parser (``sniff_twelve.tools.cli``)."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    study = sub.add_parser(
        "study",
        help="run a human-partner study in the browser, export its data, analyse it (web extra)",
        description="Human-partner studies: a study file (TOML) declares the table (players and options), the "
        "participant's seat, the "
        "conditions (partner and opponents), the duplicate deal set, the hands per block, the consent text, the "
        "questions and the completion code (docs: study).",
    )
    commands = study.add_subparsers(dest="study_command", required=True)
    run = commands.add_parser("run", help="serve the study until Ctrl-C")
    run.add_argument("file", type=Path, help="the study file (TOML)")
    run.add_argument("--records", type=Path, required=True, help="folder of the study's data (one study a folder)")
    run.add_argument("--host", default="127.0.0.1", help="address to listen on (default: this machine only)")
    run.add_argument("--port", type=whole(1, 65535), default=8000, help="port")
    run.add_argument("--admin-token", help="the admin page's token (default: a random one, printed at start)")
    run.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another host name the server answers to (repeatable)",
    )
    run.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        help="addresses of a reverse proxy whose X-Forwarded-For/-Proto to trust (default: none)",
    )
    export = commands.add_parser("export", help="write the data: every decision, the answers, the records")
    export.add_argument("dir", type=Path, help="the study's --records folder")
    export.add_argument("--out", type=Path, required=True, help="FILE.csv, or FILE.parquet (needs pyarrow)")
    analyze = commands.add_parser("analyze", help="margins per condition, paired by deal, and the sequential test")
    analyze.add_argument("dir", type=Path, help="the study's --records folder")
    analyze.add_argument("--json", type=Path, help="write the analysis as JSON")
    analyze.add_argument(
        "--reference",
        nargs="*",
        metavar="AGENT",
        help=f"agents played in the participant's seat on the same deals (default: {BASELINE} and the ladder's top)",
    )
    analyze.add_argument("--delta", type=float, default=2.0, help="the sequential test's H1: points a hand")
    analyze.add_argument("--alpha", type=float, default=0.05, help="the test's false 'better' rate")
    analyze.add_argument("--beta", type=float, default=0.05, help="the test's false 'not better' rate at DELTA")


def main(args: argparse.Namespace, web: WebGame) -> int:
    """The ``study`` command: one ``error:`` line for a bad study file, folder or setting."""
    try:
        if args.study_command == "run":
            return run(args, web)
        if args.study_command == "export":
            export(args.dir, args.out, web)
            return 0
        compare.check(args.delta, args.alpha, args.beta, max_deals=2)
        given = args.reference  # None: greedy and the ladder's top
        result = analyze_study(args.dir, web, given, args.delta, args.alpha, args.beta, top=given is None)
    except (StudyError, ValueError, OSError, MissingExtraError) as error:
        fail(error)
    print(text(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


def run(args: argparse.Namespace, web: WebGame) -> int:
    """``study run``: check the file (and the web extra), then serve until Ctrl-C."""
    study = load_study(args.file, web)
    try:  # the web extra: one line saying what to install without it
        for module in ("starlette", "uvicorn"):
            optional_import(module, "web", "study run")
        from sniff_twelve.web.server import serve_study
    except MissingExtraError as error:
        fail(error)
    from sniff_twelve.web.store import DamagedStoreError, UnwritableError

    token = args.admin_token or secrets.token_urlsafe(16)
    try:
        serve_study(web, study, args.host, args.port, args.records, token, args.allowed_host, args.forwarded_allow_ips)
    except (DamagedStoreError, UnwritableError) as error:
        fail(error)
    return 0


# --- export ---------------------------------------------------------------------------------------------
#: the Parquet type of each column that is not text
NUMBERS = {"participant", "block", "hand", "deal", "seed", "step", "seat", "action", "think_ms"}


def export(folder: Path, out: Path, web: WebGame) -> tuple[Path, Path]:
    """Write the data of the study in ``folder`` to ``out`` (CSV, or Parquet for ``.parquet``) and
    its records to ``out``'s stem + ``.records.jsonl``; both paths."""
    study, rows, records = study_rows(folder, web)
    out = Path(out)
    if out.suffix == ".parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as parquet
        except ImportError:
            raise ValueError(f"--out {out}: Parquet needs pyarrow (pip install pyarrow); or write a .csv") from None
        fields = [(c, pa.int64() if c in NUMBERS else pa.float64() if c == "margin" else pa.string()) for c in COLUMNS]
        texts = [{c: (str(v) if v is not None and c == "answer" else v) for c, v in row.items()} for row in rows]
        parquet.write_table(pa.Table.from_pylist(texts, schema=pa.schema(fields)), out)
    elif out.suffix == ".csv":
        out.write_text(csv_text(rows), encoding="utf-8")
    else:
        raise ValueError(f"--out {out}: name a .csv or a .parquet file")
    jsonl = out.with_name(out.stem + ".records.jsonl")
    jsonl.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    decisions = sum(row["kind"] == "decision" for row in rows)
    print(
        f"study {study.id}: {decisions} decisions, {len(records)} hands, answers and all -> {out}; records -> {jsonl}"
    )
    return out, jsonl


# --- analysis ---------------------------------------------------------------------------------------------
def ladder_top(web: WebGame, players: int) -> str | None:
    """The agent with the best score on the game's newest ladder at ``players`` seats (``None``: none)."""
    table = roster.ladder(web.game_cls.spec)["tables"].get(str(players), {})
    return max(table, key=lambda name: table[name]["score"]) if table else None


def reference_margins(study: Study, web: WebGame, agent: str, condition: str) -> list[float]:
    """The participant side's margin on each hand of a block of ``condition`` with ``agent`` in the
    participant's seat: the same deals, the same agents at the other seats, seeded as in the study."""
    margins = []
    chosen = study.condition(condition)
    for hand in range(study.hands_per_block):
        deal = study.deal_of_hand(hand)
        game = study.new_game(web.game_cls, deal)
        agents, _ = study.agents(web, chosen, deal)
        agents[study.seat] = web.make_agent(agent)
        agents[study.seat].check_table(study.players)
        agents[study.seat].reset(study.deal_seed(deal) * 1000 + study.seat)
        while not game.is_terminal():
            game.apply(agents[game.current_player].act(game))
        margins.append(hand_margin(study, game)[1])
    return margins


def _interval(values: list[float]) -> dict[str, Any]:
    mean, half = arena.mean_ci(values)
    return {"margin": _finite(mean), "margin_ci95": _finite(half), "hands": len(values)}


def _finite(x: float) -> float | None:
    """JSON has no NaN or infinity: ``None`` for them."""
    return x if x == x and abs(x) != float("inf") else None


def analyze_study(
    folder: Path,
    web: WebGame,
    references: list[str] | None = None,
    delta: float = 2.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    top: bool = True,
) -> dict[str, Any]:
    """The analysis of the study in ``folder`` (module docstring), JSON-ready: ``conditions`` (per
    condition ``margin``, ``margin_ci95``, ``hands``, ``participants``, ``questions``), ``paired``
    (per pair ``"A vs B"``: ``a``, ``b``, ``margin``, ``margin_ci95``, ``pairs``, ``llr``,
    ``verdict``) and ``reference`` (per agent, per condition: ``margin``, ``margin_ci95``,
    ``hands``). ``references``: the agents of the reference lines (default ``greedy``), and with
    ``top`` the ladder's top agent at the table too."""
    study, rows, _ = study_rows(folder, web)
    hands = [row for row in rows if row["kind"] == "hand" and row["condition"] != "tutorial"]
    answers = [row for row in rows if row["kind"] == "answer"]
    names = [c.name for c in study.conditions]
    margin = {(r["participant"], r["condition"], r["hand"]): r["margin"] for r in hands}
    conditions = {}
    for name in names:
        values = [r["margin"] for r in hands if r["condition"] == name]
        questions = {}
        for q in study.questions:
            given = [r["answer"] for r in answers if r["condition"] == name and r["question"] == q.id]
            if q.scale == "1-7":
                questions[q.id] = {"mean": _finite(sum(given) / len(given)) if given else None, "n": len(given)}
            else:
                questions[q.id] = {"answered": sum(bool(str(a).strip()) for a in given), "n": len(given)}
        conditions[name] = {
            **_interval(values),
            "participants": len({r["participant"] for r in hands if r["condition"] == name}),
            "questions": questions,
        }
    paired = {}
    for a, b in itertools.combinations(names, 2):
        values = [
            margin[(p, a, k)] - margin[(p, b, k)]
            for (p, c, k) in sorted(margin, key=str)
            if c == a and (p, b, k) in margin
        ]
        verdict, used = compare.sequential(values, delta, alpha, beta) if values else ("undecided", 0)
        mean, half = arena.mean_ci(values)
        paired[f"{a} vs {b}"] = {
            "a": a,
            "b": b,
            "margin": _finite(mean),
            "margin_ci95": _finite(half),
            "pairs": len(values),
            "llr": _finite(compare.llr(values, delta)),
            "verdict": verdict,
            "deals_used": used,
        }
    agents = list(dict.fromkeys([*(references if references is not None else [BASELINE])]))
    best = ladder_top(web, study.players) if top else None
    if best is not None and best not in agents:
        agents.append(best)
    reference = {
        agent: {name: _interval(reference_margins(study, web, agent, name)) for name in names} for agent in agents
    }
    return {
        "study": study.id,
        "game": study.game,
        "players": study.players,
        "seat": study.seat,
        "participants": len({r["participant"] for r in hands}),
        "test": {"delta": delta, "alpha": alpha, "beta": beta, "bounds": list(compare.bounds(alpha, beta))},
        "conditions": conditions,
        "paired": paired,
        "reference": reference,
        "ladder_top": best,
    }


def text(result: dict[str, Any]) -> str:
    """The analysis, a line per condition, pair and reference."""

    def shown(row: dict[str, Any]) -> str:
        if row["margin"] is None:
            return "n/a"
        half = "n/a" if row["margin_ci95"] is None else f"{row['margin_ci95']:.2f}"
        return f"{row['margin']:+.2f} ± {half}"

    lines = [f"study {result['study']} ({result['game']}, {result['players']} players, seat {result['seat']}):"]
    for name, row in result["conditions"].items():
        means = ", ".join(f"{q} {v['mean']:.2f}" for q, v in row["questions"].items() if v.get("mean") is not None)
        lines.append(
            f"  {name}: margin a hand {shown(row)} over {row['hands']} hands, {row['participants']} participants"
            + (f"; questions: {means}" if means else "")
        )
    for pair, row in result["paired"].items():
        lines.append(f"  {pair}: paired margin {shown(row)} over {row['pairs']} pairs: {row['verdict']}")
    for agent, rows in result["reference"].items():
        lines.append(f"  reference {agent}: " + ", ".join(f"{name} {shown(row)}" for name, row in rows.items()))
    return "\n".join(lines)
