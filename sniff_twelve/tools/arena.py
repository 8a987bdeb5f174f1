"""Arena shared by both games: round robins on shared (duplicate) deals, with statistics.

Two-sided tables (2 players, or 4-player Sniff partnerships) play *duplicate*: every pairing of
entries plays each deal twice, once from each side, so the cards cancel out of the comparison.
An entry is an agent spec, or ``"a+b"`` for a mixed partnership (``a`` on the first seat of its
side, ``b`` on the second: ``sniff_twelve.agents.spec.partners``). Tables where every seat plays
for itself rotate each line-up of entries through all seats on the same deal.

Every game is reproducible from the arena seed; ``workers`` spreads games over processes. Besides
the scores, each match-up reports how much of its outcome variance the deal explains
(``luck_skill``): luck against skill, from the replays of every deal.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import itertools
import math
import multiprocessing
import multiprocessing.pool
import pickle
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

import numpy as np

from sniff_twelve.agents.builtin import game_agents
from sniff_twelve.agents.spec import partners
from sniff_twelve.core.agent import Agent
from sniff_twelve.core.options import ArgumentTypeError, check_int
from sniff_twelve.core.seats import Table  # noqa: TC001 (arena.Table, where its callers found it first)
from sniff_twelve.tools.cluster import map_on_ray
from sniff_twelve.tools.interrupt import StopRequest, ignore_interrupts


class AgentFailedError(ValueError):
    """An agent raised, or chose an illegal action, during an arena game: the run stops and the
    message names the agent, its seat, the move and the game's seed (the game itself is left as
    it was before that move: an illegal action is refused)."""


class ShortLineupError(ValueError):
    """A free-for-all table with fewer entries than seats: no line-up fills it."""


@dataclass(frozen=True)
class GameTask:
    table: Table
    seating: tuple[str, ...]  # the agent spec of each seat
    seed: int
    record: bool = False
    #: agents given as objects, by the name that stands for them in ``seating`` (copied per game)
    objects: dict[str, Agent] = field(default_factory=dict)
    #: ``"aivat"``: also the variance-reduced margin (``sniff_twelve.tools.evaluation``)
    estimator: str | None = None
    #: the seed of the agents' random streams, ``None`` for the deal's own (``seed``)
    agent_seed: int | None = None


def play(task: GameTask) -> dict[str, Any]:
    """Play one game: ``{"outcome": [0..1 per seat], "points": [...], "hands", "opener", "seating",
    "seed", "finished", "hand_points", "margin"}`` and, if the task asks, its ``"record"``
    (``Game.to_record()``) and ``"margin_aivat"``. ``finished``: the game ended by its rules, not
    cut short; ``hand_points[k][seat]``: the points ``seat`` (its side) made in hand ``k``;
    ``margin[seat]``: ``seat_margins`` of the points, a hand."""
    spec = task.table.spec
    agents_module = game_agents(spec)
    agents = []
    for seat, name in enumerate(task.seating):
        agent = copy.deepcopy(task.objects[name]) if name in task.objects else agents_module.make_agent(name)
        agent.reset((task.seed if task.agent_seed is None else task.agent_seed) * 31 + seat)
        agents.append(agent)
    game = spec.part("game")(num_players=task.table.num_players, seed=task.seed, **task.table.options)
    outcome = spec.part("outcome")
    opener = game.current_player
    hand_points, before = [], outcome(game)["points"]
    while not game.is_terminal():
        seat = game.current_player
        hand = game.state_array[spec.HANDS] if spec.HANDS >= 0 else 0
        try:
            game.apply(agents[seat].act(game))
        except Exception as error:  # an agent from outside may fail in any way: name it, stop the run
            raise AgentFailedError(
                f"agent {task.seating[seat]!r} at seat {seat} failed on move {len(game.history) + 1} of the game "
                f"with seed {task.seed}: {type(error).__name__}: {error}"
            ) from None
        if spec.HANDS >= 0 and game.state_array[spec.HANDS] != hand:
            now = outcome(game)["points"]
            hand_points.append([float(b - a) for a, b in zip(before, now, strict=True)])
            before = now
    result = {**outcome(game), "opener": opener, "seating": list(task.seating), "seed": task.seed}
    if len(hand_points) < result["hands"]:  # the hand the game ended in
        hand_points.append([float(b - a) for a, b in zip(before, result["points"], strict=True)])
    hands = max(result["hands"], 1)
    totals = np.sum(hand_points, axis=0) if hand_points else np.zeros(game.num_players)
    result["finished"] = not game.is_truncated()
    result["hand_points"] = hand_points
    result["margin"] = [m / hands for m in seat_margins(task.table, totals)]
    record = None
    if task.record or task.estimator:
        record = {**game.to_record(), "agents": {str(seat): name for seat, name in enumerate(task.seating)}}
    if task.estimator:
        from sniff_twelve.tools.evaluation import aivat_margins  # here: it imports this module

        result["margin_aivat"] = [m / hands for m in aivat_margins(task.table, record, task.objects)]
    if task.record:
        result["record"] = record
    return result


def seat_margins(table: Table, points: Sequence[float]) -> list[float]:
    """Each seat's margin (``Table.margins``)."""
    return table.margins(points)


#: a Ray run splits its games into at most this many tasks (a dead worker costs one task's games)
CLUSTER_CHUNKS = 256


def play_all(tasks: list[GameTask]) -> list[dict[str, Any]]:
    """``play`` every task of a chunk (what one worker does per request)."""
    return [play(task) for task in tasks]


def _entry_seats(table: Table, entry: str, side: int) -> dict[int, str]:
    names = partners(entry)
    seats = table.sides[side]
    if len(names) not in (1, len(seats)):
        raise ValueError(f"entry {entry!r} names {len(names)} agents for a side of {len(seats)} seats")
    return {seat: names[i % len(names)] for i, seat in enumerate(seats)}


@dataclass(frozen=True)
class Slot:
    """Where a scheduled game belongs: its match-up of entries and which entry holds each seat."""

    matchup: tuple[int, ...]
    entry_of_seat: tuple[int, ...]


def schedule(
    table: Table,
    entries: Sequence[str],
    deals: int,
    seed: int,
    matchups: Sequence[tuple[int, ...]] | None = None,
) -> list[tuple[Slot, GameTask]]:
    """Every game of the round robin; deal ``d`` has the same seed in every match-up, and is
    played from both sides (two-sided) or in every rotation of the line-up. ``matchups`` (indices
    into ``entries``) plays only those match-ups instead of every combination (cross-play)."""
    n = table.num_players
    deal_seeds = [seed * 1_000_003 + d for d in range(deals)]
    if matchups is not None:
        matchups = [tuple(m) for m in matchups]
    elif table.two_sided:
        matchups = list(itertools.combinations(range(len(entries)), 2))
    else:
        matchups = list(itertools.combinations(range(len(entries)), n)) if len(entries) >= n else []
        if not matchups:
            raise ShortLineupError(f"a {n}-player table needs at least {n} entries")
    tasks = []
    for matchup in matchups:
        for deal_seed in deal_seeds:
            if table.two_sided:
                arrangements = [matchup, matchup[::-1]]
            else:
                arrangements = [tuple(matchup[(s + shift) % n] for s in range(n)) for shift in range(n)]
            for arrangement in arrangements:
                if table.two_sided:
                    names = {
                        **_entry_seats(table, entries[arrangement[0]], 0),
                        **_entry_seats(table, entries[arrangement[1]], 1),
                    }
                    owner = {seat: arrangement[side] for side, seats in enumerate(table.sides) for seat in seats}
                    seating = tuple(names[s] for s in range(n))
                    entry_of_seat = tuple(owner[s] for s in range(n))
                else:
                    seating = tuple(entries[e] for e in arrangement)
                    entry_of_seat = arrangement
                tasks.append((Slot(matchup, entry_of_seat), GameTask(table, seating, deal_seed)))
    return tasks


def name_entries(
    entries: Sequence[str | Agent], workers: int = 1, address: str | None = None
) -> tuple[list[str], dict[str, Agent]]:
    """Entries as names: a spec string stays itself, an ``Agent`` object is named after its
    ``name`` (``#2``, ``#3`` … when taken) and returned in the second value, to be copied into
    every game. With worker processes or a Ray cluster (``address``) an object must pickle; else
    a ``ValueError`` suggests naming it by import path (``py:``) instead."""
    names: list[str] = []
    objects: dict[str, Agent] = {}
    taken = {name for entry in entries if isinstance(entry, str) for name in partners(entry)}
    for entry in entries:
        if isinstance(entry, str):
            names.append(entry)
            continue
        if not isinstance(entry, Agent):
            raise ArgumentTypeError(f"an entry is an agent spec (a string) or an Agent; got {entry!r}")
        base = str(getattr(entry, "name", type(entry).__name__)).replace("+", "-")
        name, k = base, 1
        while name in taken:
            k += 1
            name = f"{base}#{k}"
        taken.add(name)
        names.append(name)
        objects[name] = entry
        if workers > 1 or address is not None:
            try:
                pickle.dumps(entry)
            except Exception as error:  # anything pickle may raise for an object it cannot take
                raise ValueError(
                    f"agent {name!r} cannot be sent to worker processes ({type(error).__name__}: {error}); "
                    "play it with workers=1, or give it as py:package.module:Name"
                ) from None
    return names, objects


def mean_ci(values: Iterable[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal confidence interval (infinite for one value, NaN
    for none)."""
    x = np.asarray(list(values), dtype=float)
    if len(x) == 0:
        return float("nan"), float("nan")
    half = 1.96 * x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else float("inf")
    return float(x.mean()), float(half)


def bradley_terry(wins: np.ndarray, iterations: int = 300) -> np.ndarray:
    """Elo-scale ratings (mean 1500) from ``wins[i, j]`` = score of ``i`` against ``j``.

    Minorization–maximization fit of the Bradley–Terry model, with half a win and half a loss
    against a reference player of strength 1 for every entry, so unbeaten entries stay finite.
    """
    k = wins.shape[0]
    games = wins + wins.T
    strength = np.ones(k)
    for _ in range(iterations):
        pair = games / (strength[:, None] + strength[None, :])
        np.fill_diagonal(pair, 0.0)
        strength = (wins.sum(axis=1) + 0.5) / (pair.sum(axis=1) + 1.0 / (strength + 1.0))
    elo = 400 * np.log10(strength)
    return elo - elo.mean() + 1500


def luck_skill(outcomes: np.ndarray) -> dict[str, float]:
    """How much of a match-up's outcome variance the deal explains: a one-way random-effects
    ANOVA over deals, the replays of each deal as replicates.

    ``outcomes[d, k, s]`` is the outcome (0..1) of *seat* ``s`` in the ``k``-th replay of deal ``d``
    (two replays with the sides swapped on two-sided tables, ``n`` rotations of the line-up
    otherwise). The outcome belongs to the seat, not to an entry, because the deal does: seat
    ``s`` holds the same cards in every replay while the agents change places. If the deal decided
    everything, seat ``s`` would fare the same in every replay (all the variance lies between
    deals); if the agents did, its outcome would follow whoever sits there and every deal would
    average out alike (all the variance lies within deals). With ``a`` deals of ``n`` replays,
    ``ȳ_d`` a deal's mean and ``ȳ`` the grand mean, for each seat:

        MSB = n · Σ_d (ȳ_d − ȳ)² / (a − 1)              between deals
        MSW = Σ_d Σ_k (y_dk − ȳ_d)² / (a · (n − 1))      within deals
        σ²_deal = max(0, (MSB − MSW) / n),   σ²_within = MSW
        deal share = σ²_deal / (σ²_deal + σ²_within)  =  ICC(1), clamped to [0, 1]

    (the ANOVA estimators of the balanced one-way random model: Searle, Casella & McCulloch,
    *Variance Components*, 1992, ch. 3; the ratio is Shrout & Fleiss's ICC(1,1), 1979).
    ``MSB`` and ``MSW`` are averaged over the seats first; on two-sided tables every seat gives
    the same values (a side's outcome is 1 minus the other's). ``σ²_deal`` is what the replays
    of a deal share: the cards, the stock or boneyard order, the opener. ``σ²_within`` is the
    rest: the agents' edge, how their play interacts with the deal, and their own random choices.
    Duplicate scoring
    cancels ``σ²_deal`` from an entry's score, so a high share means the deal, not the policy,
    settles most games. Pure noise has an expected share of about 0 (the raw between-deal share
    of the sum of squares would read ½ with two replays); ``nan`` with fewer than two complete
    deals or no variance at all. Returns ``deal_share``, ``deal_variance`` (σ²_deal),
    ``within_variance`` (σ²_within) and the ``deals`` used."""
    y = np.asarray(outcomes, dtype=float)
    a, n = (y.shape[0], y.shape[1]) if y.ndim == 3 else (0, 0)
    if a < 2 or n < 2:
        return {"deal_share": math.nan, "deal_variance": math.nan, "within_variance": math.nan, "deals": a}
    deal_means = y.mean(axis=1)  # [a, seats]
    msb = n * ((deal_means - deal_means.mean(axis=0)) ** 2).sum(axis=0) / (a - 1)
    msw = ((y - deal_means[:, None, :]) ** 2).sum(axis=(0, 1)) / (a * (n - 1))
    msb, msw = float(msb.mean()), float(msw.mean())
    deal_var = max(0.0, (msb - msw) / n)
    total = deal_var + msw
    share = deal_var / total if total > 1e-15 else math.nan
    return {"deal_share": share, "deal_variance": deal_var, "within_variance": msw, "deals": a}


def summarize(entries: Sequence[str], slotted: list[tuple[Slot, dict[str, Any]]]) -> dict[str, Any]:
    """Scores (1 win, 0 loss, ties and shared places in between) with 95% CIs over deals, per
    match-up and per entry; points per hand; the first opener's score; Bradley–Terry Elo; per
    match-up the share of the outcome variance the deal explains (``luck_skill``: ``deal_share``,
    ``deal_variance``, ``within_variance``, over its complete deals)."""
    k = len(entries)
    wins = np.zeros((k, k))
    by_deal: dict[tuple[tuple[int, ...], int], dict[int, list[float]]] = {}
    replays: dict[tuple[int, ...], dict[int, list[list[float]]]] = {}
    points: dict[int, list[float]] = {i: [] for i in range(k)}
    opener = []
    for slot, r in slotted:
        outcome: dict[int, list[float]] = {}
        for seat, e in enumerate(slot.entry_of_seat):
            outcome.setdefault(e, []).append(r["outcome"][seat])
            points[e].append(r["points"][seat] / max(r["hands"], 1))
        mean_outcome = {e: float(np.mean(v)) for e, v in outcome.items()}
        deal = by_deal.setdefault((slot.matchup, r["seed"]), {})
        for e, o in mean_outcome.items():
            deal.setdefault(e, []).append(o)
        for e, f in itertools.permutations(mean_outcome, 2):
            wins[e, f] += 1.0 if mean_outcome[e] > mean_outcome[f] else 0.5 if mean_outcome[e] == mean_outcome[f] else 0
        opener.append(r["outcome"][r["opener"]])
        replays.setdefault(slot.matchup, {}).setdefault(r["seed"], []).append([float(o) for o in r["outcome"]])
    per_entry: dict[int, list[float]] = {i: [] for i in range(k)}
    per_matchup: dict[tuple[tuple[int, ...], int], list[float]] = {}
    for (matchup, _), deal in by_deal.items():
        for e, outcomes in deal.items():
            per_entry[e].append(float(np.mean(outcomes)))
            per_matchup.setdefault((matchup, e), []).append(float(np.mean(outcomes)))
    margins = {key: paired_margins(slotted, key) for key in MARGINS}
    ratings = bradley_terry(wins)
    rows = []
    for i in range(k):
        score, half = mean_ci(per_entry[i])
        pts, pts_half = mean_ci(points[i])
        rows.append(
            {
                "entry": entries[i],
                "score": score,
                "ci95": half,
                "points_per_hand": pts,
                "points_ci95": pts_half,
                "elo": float(ratings[i]),
                "deals": len(per_entry[i]),
                **margin_fields(
                    margins, lambda deals, i=i: [m for (_, e), per in deals.items() if e == i for m in per]
                ),
            }
        )
    luck = {}
    for matchup, deals in replays.items():  # complete deals only (an interrupted run may cut one short)
        n = max(len(games) for games in deals.values())
        luck[matchup] = luck_skill(np.array([games for games in deals.values() if len(games) == n]))
    matchup_rows = []
    for (matchup, e), scores in per_matchup.items():
        mean, half = mean_ci(scores)
        decomposition = luck[matchup]
        matchup_rows.append(
            {
                "entry": entries[e],
                "against": [entries[f] for f in matchup if f != e],
                "deals": len(scores),
                "score": mean,
                "ci95": half,
                "deal_share": decomposition["deal_share"],
                "deal_variance": decomposition["deal_variance"],
                "within_variance": decomposition["within_variance"],
                **margin_fields(margins, lambda deals, key=(matchup, e): deals.get(key, [])),
            }
        )
    opener_score, opener_half = mean_ci(opener)
    finished = sum(bool(r.get("finished", True)) for _, r in slotted)
    return {
        "entries": rows,
        "matchups": matchup_rows,
        "opener_score": opener_score,
        "opener_ci95": opener_half,
        "games_finished": finished,
    }


#: the per-game margins ``play`` reports (``"margin_aivat"`` only with the estimator)
MARGINS = ("margin", "margin_aivat")


def paired_margins(
    slotted: Sequence[tuple[Slot, dict[str, Any]]], key: str = "margin"
) -> dict[tuple[tuple[int, ...], int], list[float]]:
    """Per match-up and entry, one margin a deal: the mean, over the replays of the deal (both
    sides, every rotation), of the entry's per-seat ``key`` (a hand) — the paired statistic whose
    spread over deals gives the interval. Empty when the games carry no ``key``."""
    by_deal: dict[tuple[tuple[int, ...], int, int], list[float]] = {}
    for slot, r in slotted:
        if key not in r:
            continue
        for seat, e in enumerate(slot.entry_of_seat):
            by_deal.setdefault((slot.matchup, e, r["seed"]), []).append(r[key][seat])
    paired: dict[tuple[tuple[int, ...], int], list[float]] = {}
    for (matchup, e, _), values in by_deal.items():
        paired.setdefault((matchup, e), []).append(float(np.mean(values)))
    return paired


def margin_fields(margins: dict[str, dict[tuple[tuple[int, ...], int], list[float]]], select: Any) -> dict[str, float]:
    """``margin``, ``margin_ci95`` (and ``margin_aivat``, ``margin_aivat_ci95`` when measured) over
    the deal-level values ``select(paired)`` picks."""
    fields = {}
    for key, paired in margins.items():
        values = select(paired)
        if key == "margin" or values:
            fields[key], fields[f"{key}_ci95"] = mean_ci(values)
    return fields


def run(
    table: Table,
    entries: Sequence[str | Agent],
    deals: int,
    seed: int = 0,
    workers: int = 1,
    progress: bool = True,
    records: bool = False,
    address: str | None = None,
    estimator: str | None = None,
    processes: multiprocessing.pool.Pool | None = None,
) -> dict[str, Any]:
    """Play the whole round robin and summarise it (see ``summarize``); results are JSON-ready.
    ``entries`` are agent specs or ``Agent`` objects (``name_entries``). With ``records`` every
    game in ``results["games"]`` carries its replayable ``"record"``; with ``address`` the games
    run on that Ray cluster (``play_tasks``) and with ``processes`` on worker processes kept from
    ``game_processes`` (runs one after another start them once), with the same results;
    ``estimator="aivat"`` adds the variance-reduced margins (``sniff_twelve.tools.evaluation``).
    ``deals`` and ``workers`` are at least 1 and ``seed`` at least 0, else ``ValueError``; with one
    deal the intervals are undefined (infinite half-widths, which ``report.arena_text`` prints as
    n/a)."""
    deals, workers = check_int("deals", deals, 1), check_int("workers", workers, 1)
    seed = check_int("seed", seed, 0)
    check_estimator(table, estimator)
    if len(entries) < 2:
        raise ValueError("an arena needs at least two entries")
    if len({e if isinstance(e, str) else id(e) for e in entries}) != len(entries):
        raise ValueError(f"entries must differ; got {list(entries)}")
    entries, objects = name_entries(entries, workers, address)
    check_entries(table, entries, objects)
    scheduled = schedule(table, entries, deals, seed)
    slots = [slot for slot, _ in scheduled]
    tasks = [dataclasses.replace(task, record=records, objects=objects, estimator=estimator) for _, task in scheduled]
    results = play_tasks(tasks, workers, progress, address, processes)
    summary = summarize(entries, list(zip(slots, results, strict=False)))
    return {
        "game": table.package,
        "num_players": table.num_players,
        "options": table.options,
        "deals": deals,
        "seed": seed,
        #: an interrupted run (Ctrl-C, SIGTERM) summarises the games played so far
        "partial": len(results) < len(tasks),
        "games_played": len(results),
        "games_scheduled": len(tasks),
        **summary,
        "games": results,
    }


#: the names ``estimator`` takes (``sniff_twelve.tools.evaluation``)
ESTIMATORS = ("aivat",)


def check_estimator(table: Table, estimator: str | None) -> None:
    """``ValueError`` for an unknown estimator, or AIVAT at a table without two sides."""
    if estimator is None:
        return
    if estimator not in ESTIMATORS:
        raise ValueError(f"estimator must be one of {', '.join(ESTIMATORS)}; got {estimator!r}")
    if not table.two_sided:
        raise ValueError(
            f"the aivat estimator needs two sides (a zero-sum margin); {table.package} with "
            f"{table.num_players} players has none"
        )


def check_entries(table: Table, entries: Iterable[str], objects: dict[str, Agent] | None = None) -> None:
    """``ValueError`` (before any game) for an unknown agent spec, or one that cannot play at ``table``."""
    agents_module = game_agents(table.spec)
    objects = objects or {}
    for entry in entries:
        for name in [entry] if entry in objects else partners(entry):
            agent = objects[name] if name in objects else agents_module.make_agent(name)
            agent.check_table(table.num_players)


@contextlib.contextmanager
def game_processes(workers: int) -> Iterator[multiprocessing.pool.Pool | None]:
    """``workers`` processes kept for several ``play_tasks`` or ``run`` calls (``compare``'s
    batches, a benchmark's arenas), so they start and load the compiled kernels once; ``None`` for
    one worker (games in this process)."""
    if workers <= 1:
        yield None
        return
    with get_context("spawn").Pool(workers, initializer=ignore_interrupts) as pool:
        yield pool


def play_tasks(
    tasks: Sequence[GameTask],
    workers: int = 1,
    progress: bool = True,
    address: str | None = None,
    processes: multiprocessing.pool.Pool | None = None,
) -> list[dict[str, Any]]:
    """``play`` the tasks in order, in ``workers`` processes (``processes``: ones kept from
    ``game_processes``) — or, with ``address``, on that Ray cluster (``sniff_twelve.tools.cluster``)
    — with a progress bar. The results do not depend on where the games ran. A stop request
    (Ctrl-C, SIGTERM) ends the run early: the results are then those of the first games only, so
    ``len(results) < len(tasks)`` marks a partial run."""
    tasks = list(tasks)
    bar = _progress(len(tasks), progress)
    results = []
    with StopRequest() as stop:
        if address is not None:
            size = max(1, len(tasks) // CLUSTER_CHUNKS)
            chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
            results = map_on_ray(play_all, chunks, address, lambda batch: bar.update(len(batch)), lambda: bool(stop))
        elif workers > 1:
            size = max(1, len(tasks) // (workers * 8))
            chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
            with game_processes(workers) if processes is None else contextlib.nullcontext(processes) as pool:
                played = pool.imap(play_all, chunks)
                while not stop:  # poll, so a stop request does not wait for the games in flight
                    try:
                        batch = played.next(timeout=0.2)
                    except multiprocessing.TimeoutError:
                        continue
                    except StopIteration:
                        break
                    results += batch
                    bar.update(len(batch))
        else:
            for t in tasks:
                results.append(play(t))
                bar.update()
                if stop:
                    break
    bar.close()
    return results


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, enabled: bool):
    if not enabled:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:
        return _NoBar()
    return tqdm(total=total, desc="games", unit="game", leave=False)
