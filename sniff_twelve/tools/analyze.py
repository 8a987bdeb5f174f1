"""Grade play from records with the perfect-information solvers (``analyze``), as bridge studies
grade it with a double-dummy solver.

Every *decision* (a position where the seat to act had more than one legal action) of every
record is graded twice, in points of the solver's value (``sniff_twelve.search.solver``: the side's points
minus the other side's, to the end of the hand or game):

- *hindsight loss*: the solver's value of the best action minus that of the action played, in the
  true deal (bridge's double-dummy error) — what the move cost against perfect knowledge;
- *expected loss*: over ``worlds`` worlds sampled from what the seat knew then
  (``SeatView.sample``), the best mean value minus the played action's mean value — what it cost
  against the best choice a perfect-information Monte Carlo player (``pimc``) would make from the
  same information. Both are ≥ 0; expected loss is 0 when the move is that player's choice.

A deal's *par* is the solver's value of its first position (perfect play on all sides), from
side 0's point of view with two sides and from the first player's otherwise; its *result* is what
the deal's play really gave, in the same units (``score_difference``), so ``result - par`` is what
the play won or lost against perfect play and the share of the results' variance that par
explains (``par_r2``) is how much of the outcome the deal decided. A decision whose
solve needs more than ``max_nodes`` nodes is counted as *unsolved* and left out of the means
(whole "12" games from the deal are beyond an exact solve; their late decisions are graded).

Records: ``Game.to_record()`` JSON, ``arena --records`` JSON Lines and ``serve --records`` files;
the agent of each seat is read from the record's ``agents`` (arena and web records; the human of
a web record is ``human``), else the seat is named ``seat N``.

Numbers count from 1, as ``replay --game N`` does: the records in the order read (``record``), the
hands of a record (``deal``: a Sniff record is a whole match, a "12" record one deal), a record's
decisions (``decision``) and its moves (``move``: every action, forced ones included). The words
are those of ``docs/quickstart.md`` ("Records, hands and decisions").
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_twelve.batch.threads import check_threads
from sniff_twelve.core.options import check_int
from sniff_twelve.core.records import parse_record, replay_steps, split_records
from sniff_twelve.search.worlds import resolve_threads, thread_imap, world_values
from sniff_twelve.tools.arena import mean_ci
from sniff_twelve.tools.cluster import map_on_ray
from sniff_twelve.tools.interrupt import StopRequest

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.search.solver import Solution

Solve = Callable[..., Any]


@dataclass
class Decision:
    """One graded decision (its numbers count from 1)."""

    record: int  # the record's number, in the order read
    decision: int  # the decision's number in its record
    move: int  # the action's number in the record, every action counted
    seat: int
    agent: str
    action: int
    best: list[int]
    hindsight_loss: int | None  # None: unsolved within the budget
    expected_loss: float | None
    position: str = field(repr=False, default="")


def read_records(paths: Iterable[Path], game_cls: type[BaseGame]) -> list[dict[str, Any]]:
    """Every record in ``paths`` (files, or folders of ``*.json`` / ``*.jsonl``), checked against
    ``game_cls`` (a record of the other game raises ``ValueError`` naming the file)."""
    records = []
    for path in paths:
        files = sorted(p for p in path.iterdir() if p.suffix in (".json", ".jsonl")) if path.is_dir() else [path]
        for file in files:
            for k, text in enumerate(split_records(file.read_text())):
                try:
                    records.append(parse_record(json.loads(text), game_cls))
                except ValueError as error:
                    raise ValueError(f"{file} (record {k + 1}): {error}") from None
    if not records:
        raise ValueError("no records found")
    return records


def seat_agents(record: dict[str, Any], num_players: int) -> list[str]:
    """The agent of every seat, as the record names it."""
    named = record.get("agents") or {}
    human = record.get("human_seat")
    return ["human" if seat == human else str(named.get(str(seat), f"seat {seat}")) for seat in range(num_players)]


def _side(game: BaseGame, seat: int) -> int:
    return game.side_of(seat) if hasattr(game, "side_of") else seat


def par_seat(game: BaseGame) -> int:
    """The seat whose point of view a deal's par and result take: seat 0 (side 0) with two
    sides, else the deal's first player."""
    return 0 if len(game.scores) == 2 else game.current_player


def score_difference(game: BaseGame, seat: int) -> int:
    """``seat``'s side's score minus every other side's: the solvers' units (their values are
    its change to the end of the hand or game)."""
    scores = game.scores
    return 2 * scores[_side(game, seat)] - sum(scores)


def par_of(game: BaseGame, solution: Solution) -> int | None:
    """The deal's value under perfect play, from ``par_seat``'s point of view, given ``solution``
    (the solve of its first position, ``game``); ``None`` if unsolved."""
    if not solution.exact:
        return None
    same = _side(game, game.current_player) == _side(game, par_seat(game))
    return solution.value if same else -solution.value


def grade(
    game: BaseGame,
    action: int,
    solve: Solve,
    worlds: int,
    max_nodes: int,
    seed: int,
    truth: Solution | None = None,
    threads: int | None = 1,
) -> tuple[list[int], int | None, float | None]:
    """``(best actions, hindsight loss, expected loss)`` of playing ``action`` in ``game``
    (``truth``: the solve of ``game`` itself with ``action`` among its ``moves``, if already made).
    Each search values exactly only what the grade needs: in the true deal the best actions and
    ``action`` (``solve(moves=...)``); over the worlds ``action`` and the action with the best mean,
    found as ``pimc`` finds it (``sniff_twelve.search.worlds``, with the solver's rules,
    ``solve.hooks``). The worlds are solved on ``threads`` threads; a world over ``max_nodes``
    leaves the expected loss ungraded (``None``)."""
    if truth is None:
        truth = solve(game, moves=[action], max_nodes=max_nodes)
    if not truth.exact:
        return [], None, None
    hindsight = truth.value - truth.action_values[action]
    view, hooks = game.seat_view(past=False), solve.hooks
    rows = np.stack([view.sample(seed + k).state_array for k in range(worlds)])
    wanted = np.zeros(hooks.MAX_ACTIONS, dtype=np.bool_)
    wanted[action] = True
    legal = game.legal_actions()
    found = world_values(
        hooks, game._params, game.current_player, legal, lambda count: rows, worlds, worlds, max_nodes, wanted,
        refine=True, threads=resolve_threads(threads),
    )  # fmt: skip
    if found.worlds < worlds:
        return truth.best, hindsight, None
    first = found.ranked_first(legal)
    return truth.best, hindsight, float(found.totals[first] - found.totals[action]) / worlds


@dataclass(frozen=True)
class Grading:
    """How decisions are graded: the game, its solver, how its deals are numbered, the budget."""

    game_cls: type[BaseGame]
    solve: Solve
    deal_index: Callable[[BaseGame], int]
    worlds: int
    max_nodes: int
    seed: int
    threads: int | None = None  # the threads decisions are graded on at once (None: numba's count)


@dataclass
class _Step:
    """A position of a record to solve: a decision to grade, a deal's first position (its par), or both."""

    move: int  # the action's index in the record
    position: BaseGame  # a copy
    action: int
    par: int | None  # the index of the deal's par it gives, at a deal's first position
    decides: bool
    seed: int  # its worlds' seed (a decision's)


def _steps(grading: Grading, r: int, record: dict[str, Any], first: int) -> tuple[list[_Step], list[dict], list[str]]:
    """Replay record ``r``: the positions to solve, the deals' pars (each with its result, its par
    still ``None``) and the seats' agents. Decision ``k`` of the record seeds its worlds from its place
    among all the records' decisions (``first``: those before it), so a record is graded alike
    wherever it is graded."""
    steps: list[_Step] = []
    pars: list[dict[str, Any]] = []
    agents: list[str] = []
    deal, start, decisions = -1, 0, 0
    for move, (position, action) in enumerate(replay_steps(record, grading.game_cls)):
        if deal >= 0 and (action is None or grading.deal_index(position) != deal):
            pars[-1]["result"] = score_difference(position, pars[-1]["seat"]) - start
        if action is None:
            break
        agents = agents or seat_agents(record, position.num_players)
        opens = grading.deal_index(position) != deal
        if opens:
            deal, seat = grading.deal_index(position), par_seat(position)
            start = score_difference(position, seat)
            pars.append({"record": r + 1, "deal": deal + 1, "seat": seat, "par": None})
        decides = len(position.legal_actions()) > 1
        if opens or decides:
            seed = grading.seed * 1_000_003 + (first + decisions) * 997
            steps.append(_Step(move, position.clone(), action, len(pars) - 1 if opens else None, decides, seed))
            decisions += decides
    return steps, pars, agents


def grade_record(
    grading: Grading,
    r: int,
    record: dict[str, Any],
    first: int,
    stopped: Callable[[], bool] = lambda: False,
    graded: Callable[[], None] = lambda: None,
) -> tuple[list[Decision], list[dict[str, Any]], bool]:
    """Record ``r``'s decisions and deals' pars, and whether ``stopped()`` cut it short (``r``
    counts from 0, the results from 1; ``first``: the decisions of the records before it, counted
    from 0). Decisions are graded on ``grading.threads`` threads at once, each on one; a deal's first
    position is solved once, for its par and its grade."""
    steps, pars, agents = _steps(grading, r, record, first)
    solve, max_nodes = grading.solve, grading.max_nodes

    def solve_step(step: _Step) -> tuple[Solution | None, tuple | None]:
        truth = None if step.par is None else solve(step.position, moves=[step.action], max_nodes=max_nodes)
        if not step.decides:
            return truth, None
        return truth, grade(step.position, step.action, solve, grading.worlds, max_nodes, step.seed, truth)

    decisions: list[Decision] = []
    solved_pars = 0
    graded_steps = thread_imap(resolve_threads(grading.threads))(solve_step, steps)
    for step, (truth, grades) in zip(steps, graded_steps, strict=True):
        if step.par is not None:
            pars[step.par]["par"], solved_pars = par_of(step.position, truth), step.par + 1
        if grades is not None:
            best, hindsight, expected = grades
            seat = step.position.current_player
            position_text = str(step.position) if hindsight else ""
            number = len(decisions) + 1
            decisions.append(
                Decision(r + 1, number, step.move + 1, seat, agents[seat], step.action, best, hindsight, expected,
                         position_text)
            )  # fmt: skip
            graded()
        if stopped():
            return decisions, pars[:solved_pars], True
    return decisions, pars, False


def _grade_records(grading: Grading, jobs: list[tuple[int, dict[str, Any], int]]) -> list[tuple[list, list]]:
    """``grade_record`` for each ``(r, record, first)`` of a chunk (what one Ray task does)."""
    return [grade_record(grading, r, record, first)[:2] for r, record, first in jobs]


def analyze(
    records: list[dict[str, Any]],
    game_cls: type[BaseGame],
    solve: Solve,
    deal_index: Callable[[BaseGame], int],
    worlds: int = 8,
    max_nodes: int = 2_000_000,
    seed: int = 0,
    progress: bool = True,
    address: str | None = None,
    threads: int | None = None,
) -> dict[str, Any]:
    """Grade every decision of ``records`` (module docstring) with the game's ``solve``
    (``sniff_env.solver.solve``: it solves the true deals, and its ``hooks`` value the worlds);
    JSON-ready. ``deal_index(game)`` numbers the deals of a record from 0 (Sniff: the hands played;
    "12": 0); the result numbers them from 1, as it does records, decisions and moves. Decisions
    are graded on ``threads`` threads at once (``None``: numba's thread count), with the same
    results for every count. With ``address`` the records are graded on that Ray cluster
    (``sniff_twelve.tools.cluster``), with the same results. Ctrl-C stops (at the next decision
    here, the next record on a cluster) and returns what was graded, marked ``partial``."""
    grading = Grading(
        game_cls,
        solve,
        deal_index,
        check_int("worlds", worlds, 1, 10_000),
        check_int("max_nodes", max_nodes, 1, 1 << 62),
        seed,
        check_threads(threads),
    )
    counts = [
        sum(action is not None and len(game.legal_actions()) > 1 for game, action in replay_steps(record, game_cls))
        for record in records
    ]  # every record replays and is checked before the first solve
    firsts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(int).tolist() if records else []
    decisions: list[Decision] = []
    pars: list[dict[str, Any]] = []
    bar = _progress(sum(counts), progress)
    partial = False
    with StopRequest() as stop:
        if address is None:
            for r, record in enumerate(records):
                graded, deal_pars, partial = grade_record(
                    grading, r, record, firsts[r], lambda: bool(stop), lambda: bar.update(1)
                )
                decisions += graded
                pars += deal_pars
                if partial:
                    break
        else:
            jobs = [[(r, record, firsts[r])] for r, record in enumerate(records)]
            done = lambda batch: bar.update(sum(len(graded) for graded, _ in batch))  # noqa: E731
            results = map_on_ray(functools.partial(_grade_records, grading), jobs, address, done, lambda: bool(stop))
            for graded, deal_pars in results:
                decisions += graded
                pars += deal_pars
            partial = len(results) < len(records)
    bar.close()
    return summarize(decisions, pars, game_cls, grading.worlds, grading.max_nodes, partial, len(records))


def summarize(
    decisions: list[Decision],
    pars: list[dict[str, Any]],
    game_cls: type[BaseGame],
    worlds: int,
    max_nodes: int,
    partial: bool,
    num_records: int,
) -> dict[str, Any]:
    """Per agent: decisions, mean losses with 95% intervals, the share of optimal decisions
    (hindsight loss 0) and the five costliest decisions."""
    namer = game_cls(seed=0)
    agents: dict[str, Any] = {}
    for name in dict.fromkeys(d.agent for d in decisions):
        mine = [d for d in decisions if d.agent == name]
        solved = [d for d in mine if d.hindsight_loss is not None]
        expected = [d.expected_loss for d in mine if d.expected_loss is not None]
        hindsight, hindsight_ci = mean_ci(d.hindsight_loss for d in solved)
        exp, exp_ci = mean_ci(expected)
        costliest = sorted(solved, key=lambda d: -d.hindsight_loss)[:5]
        agents[name] = {
            "decisions": len(solved),
            "unsolved": len(mine) - len(solved),
            "hindsight_loss": hindsight,
            "hindsight_loss_ci95": hindsight_ci,
            "expected_loss": exp,
            "expected_loss_ci95": exp_ci,
            "optimal_share": float(np.mean([d.hindsight_loss == 0 for d in solved])) if solved else float("nan"),
            "costliest": [
                {
                    "record": d.record,
                    "decision": d.decision,
                    "move": d.move,
                    "seat": d.seat,
                    "played": namer.action_name(d.action),
                    "best": [namer.action_name(a) for a in d.best],
                    "hindsight_loss": d.hindsight_loss,
                    "position": d.position,
                }
                for d in costliest
                if d.hindsight_loss
            ],
        }
    return {
        "game": game_cls.record_name,
        "records": num_records,
        "worlds": worlds,
        "max_nodes": max_nodes,
        "partial": partial,
        "agents": agents,
        "deals": pars,
        "par_r2": par_r2(pars),
    }


def par_r2(deals: list[dict[str, Any]]) -> float | None:
    """The share of the variance of the deals' results that their par explains (the squared
    correlation), over the deals with both; ``None`` with fewer than three or no spread."""
    pairs = np.array([(d["par"], d["result"]) for d in deals if d["par"] is not None and "result" in d], dtype=float)
    if len(pairs) < 3 or pairs[:, 0].std() == 0 or pairs[:, 1].std() == 0:
        return None
    return float(np.corrcoef(pairs[:, 0], pairs[:, 1])[0, 1] ** 2)


def table(result: dict[str, Any]) -> str:
    """The per-agent summary as a text table."""
    lines = [
        f"{'agent':<22} {'decisions':>9} {'hindsight loss':>18} {'expected loss':>18} {'optimal':>8} {'unsolved':>8}"
    ]
    for name, row in sorted(result["agents"].items(), key=lambda item: item[1]["hindsight_loss"]):
        lines.append(
            f"{name:<22} {row['decisions']:>9} {row['hindsight_loss']:>9.2f} ± {row['hindsight_loss_ci95']:<6.2f}"
            f" {row['expected_loss']:>9.2f} ± {row['expected_loss_ci95']:<6.2f} {row['optimal_share']:>8.1%}"
            f" {row['unsolved']:>8}"
        )
    pars = [d["par"] for d in result["deals"] if d["par"] is not None]
    if pars:
        line = f"deals: {len(result['deals'])}, par (side 0) mean {np.mean(pars):+.1f}, sd {np.std(pars):.1f}"
        if result.get("par_r2") is not None:
            line += f"; par explains {result['par_r2']:.0%} of the variance of the deals' results"
        lines.append(line)
    return "\n".join(lines)


def plot(result: dict[str, Any], path: Path) -> None:
    """Mean hindsight and expected loss per agent with their 95% intervals, as a PNG."""
    from sniff_twelve.core.optional import pyplot

    plt = pyplot("analyze --plot", "bench")
    names = sorted(result["agents"], key=lambda n: result["agents"][n]["hindsight_loss"])
    rows = [result["agents"][n] for n in names]
    x = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(max(5, 1.3 * len(names)), 3.6))
    for offset, key, label in ((-0.2, "hindsight_loss", "hindsight"), (0.2, "expected_loss", "expected")):
        ax.bar(x + offset, [r[key] for r in rows], 0.4, yerr=[r[f"{key}_ci95"] for r in rows], capsize=3, label=label)
    ax.set_xticks(x, names, rotation=20)
    ax.set_ylabel("points lost per decision")
    ax.set_title(f"{result['game']}: loss per decision against the solver ({result['worlds']} worlds)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _progress(total: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, desc="decisions", unit="decision", leave=False, disable=not enabled)
