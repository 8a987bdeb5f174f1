"""Timing helpers: run a step function until a time budget is spent, return steps per second; an
agent's time per decision on shared positions.

``python -m benchmarks.timing [--game G] [--players N] [--agents SPEC …] [--threads T …]``: the
searches' time per decision on each number of threads (their ``threads=``), on the same positions
of the game (``decision_positions``), and the speed-up over the first count. With ``--occupancy``
(searches over solved worlds: ``pimc``): where a decision's time goes on each count, the share of
it with no world search running, one, two, … (``search_spans``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from sniff_env.spec import SPEC as SNIFF
from sniff_twelve.core.seats import Table
from sniff_twelve.tools.flags import COUNT, CommandParser, plain
from twelve_env.spec import SPEC as TWELVE

if TYPE_CHECKING:
    from sniff_twelve.core.agent import Agent

#: positions an entry's time per decision is the mean over
TIMED_POSITIONS = 100


def window(chunk: Callable[[], int], seconds: float) -> float:
    """Steps per second of ``chunk`` (which returns the steps it did), run until ``seconds`` pass."""
    steps = 0
    start = time.perf_counter()
    while True:
        steps += chunk()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def rate(chunk: Callable[[], int], seconds: float, warmup: int = 1, repeats: int = 3) -> float:
    """Steps per second of ``chunk``: the best of ``repeats`` windows of ``seconds / repeats``
    each, as ``timeit`` takes the best run — on a shared VM the slower windows measure the
    neighbours, not the code."""
    for _ in range(warmup):
        chunk()
    return max(window(chunk, seconds / repeats) for _ in range(repeats))


def interleaved_rates(chunks: dict[str, Callable[[], int]], seconds: float, repeats: int = 3) -> dict[str, float]:
    """``rate`` for several chunks whose ratios matter: their windows take turns (a, b, c, a, b,
    c, …), so a neighbour's load on a shared machine falls on all of them alike, not on whichever
    happened to run during it. ``seconds`` is each chunk's budget."""
    for chunk in chunks.values():
        chunk()
    best = dict.fromkeys(chunks, 0.0)
    for _ in range(repeats):
        for name, chunk in chunks.items():
            best[name] = max(best[name], window(chunk, seconds / repeats))
    return best


def aec_random_loop(env, seed: int, steps: int, sampler: str = "numpy") -> Callable[[], int]:
    """The masked random AEC loop, as a resumable chunk. ``sampler="numpy"`` picks the action
    among ``mask.nonzero()[0]`` (a lean loop: the figure is the env's cost; ``np.flatnonzero``
    would add its Python wrapper's 1 µs a step); ``"space"`` with
    ``env.action_space(agent).sample(mask)``, the loop of PettingZoo's AEC documentation, whose
    gymnasium sampling costs more than a fast env's step."""
    import random

    rng = random.Random(seed)
    env.reset(seed=seed)
    for i, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed + i)
    state = {"it": iter(env.agent_iter())}

    def chunk() -> int:
        done = 0
        while done < steps:
            agent = next(state["it"], None)
            if agent is None:
                env.reset()
                state["it"] = iter(env.agent_iter())
                continue
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            elif sampler == "space":
                action = env.action_space(agent).sample(obs["action_mask"])
            else:
                legal = obs["action_mask"].nonzero()[0]
                action = int(legal[rng.randrange(len(legal))])
            env.step(action)
            done += 1
        return done

    return chunk


def decision_positions(make_game: Callable[[int], Any], greedy: Agent, count: int, seed: int = 5) -> list:
    """``count`` positions with a choice, a few from each of the games ``make_game(seed)`` played
    by ``greedy`` (the shared positions that time per decision is measured on)."""
    rng, out = random.Random(seed), []
    for deal in range(100 * count):
        game, taken = make_game(50_000 + deal), 0
        while not game.is_terminal() and taken < max(1, count // 10):
            if len(game.legal_actions()) > 1 and rng.random() < 0.2:
                out.append(game.clone())
                taken += 1
                if len(out) == count:
                    return out
            game.apply(greedy.act(game))
    return out


def ms_per_decision(agent: Agent, positions: list) -> float:
    """Mean milliseconds ``agent`` takes to choose over ``positions`` (compiled first; on the agent's
    threads, numba's thread count unless it was given ``threads``)."""
    agent.reset(1)
    agent.act(positions[0])
    start = time.perf_counter()
    for game in positions:
        agent.act(game)
    return (time.perf_counter() - start) / len(positions) * 1e3


def table_positions(table: Table, count: int = TIMED_POSITIONS) -> list:
    """``decision_positions`` of ``table``'s game: the positions its entries are timed on."""
    game_cls = table.spec.part("game")
    return decision_positions(
        lambda seed: game_cls(num_players=table.num_players, seed=seed, **table.options),
        table.spec.part("agents").make_agent("greedy"),
        count,
    )


def times_per_decision(table: Table, entries: list[str]) -> dict[str, float]:
    """Every entry's mean milliseconds per decision on the same ``TIMED_POSITIONS`` positions of
    ``table``'s game."""
    positions, make_agent = table_positions(table), table.spec.part("agents").make_agent
    return {entry: ms_per_decision(make_agent(entry), positions) for entry in entries}


#: the game → its spec, and the searches whose threads ``main`` times by default
GAMES = {"sniff": SNIFF, "twelve": TWELVE}
SEARCHES = {"sniff": ["rollout:1024", "guided", "belief"], "twelve": ["rollout:1024", "belief"]}
PLAYERS = {"sniff": 4, "twelve": 2}


def thread_times(
    table: Table, entries: list[str], threads: list[int], count: int = TIMED_POSITIONS, repeats: int = 1
) -> dict[str, dict[int, float]]:
    """Every entry's mean milliseconds per decision on the same ``count`` positions of ``table``'s
    game for each of ``threads`` (the agent's ``threads=``): the best of ``repeats`` passes, the
    entries and counts taking turns, so a neighbour's load falls on all of them alike."""
    positions, make_agent = table_positions(table, count), table.spec.part("agents").make_agent
    agents = {}
    for entry in entries:
        for t in threads:
            try:
                agents[entry, t] = make_agent(entry, threads=t)
            except TypeError:
                raise ValueError(f"{entry} takes no threads=") from None
    best = {entry: dict.fromkeys(threads, math.inf) for entry in entries}
    for _ in range(repeats):
        for (entry, t), agent in agents.items():
            best[entry][t] = min(best[entry][t], ms_per_decision(agent, positions))
    return best


@contextmanager
def search_spans() -> Iterator[list[tuple[float, float]]]:
    """While inside: the ``(start, end)`` (``time.perf_counter``) of every compiled search of a
    world or of one action in it that ``sniff_twelve.search.worlds`` runs, on any thread (its
    ``value_world`` and ``value_action`` wrapped, put back on the way out)."""
    from sniff_twelve.search import worlds

    spans: list[tuple[float, float]] = []
    kernels = worlds.value_world, worlds.value_action

    def timed(kernel: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            start = time.perf_counter()
            try:
                return kernel(*args)
            finally:
                spans.append((start, time.perf_counter()))

        return run

    worlds.value_world, worlds.value_action = map(timed, kernels)
    try:
        yield spans
    finally:
        worlds.value_world, worlds.value_action = kernels


def occupancy(spans: list[tuple[float, float]], start: float, end: float, threads: int) -> list[float]:
    """Seconds of ``[start, end]`` during which 0, 1, …, ``threads`` of ``spans`` were running
    (the last count also takes any time more ran)."""
    edges = sorted([(a, 1) for a, b in spans] + [(b, -1) for a, b in spans])
    seconds, running, last = [0.0] * (threads + 1), 0, start
    for at, step in edges:
        at = min(max(at, start), end)
        seconds[min(running, threads)] += at - last
        running, last = running + step, at
    seconds[min(running, threads)] += end - last
    return seconds


def search_occupancy(table: Table, entry: str, threads: list[int], count: int = TIMED_POSITIONS) -> dict:
    """``entry``'s mean milliseconds per decision on ``count`` positions of ``table``'s game for each
    of ``threads``, and how they split by the world searches running (``occupancy``, summed over
    the decisions). ``ValueError`` for an entry that runs no such search."""
    positions, make_agent = table_positions(table, count), table.spec.part("agents").make_agent
    found = {}
    for t in threads:
        agent = make_agent(entry, threads=t)
        agent.reset(1)
        agent.act(positions[0])
        split, elapsed = [0.0] * (t + 1), 0.0
        with search_spans() as spans:
            for game in positions:
                spans.clear()
                start = time.perf_counter()
                agent.act(game)
                end = time.perf_counter()
                split = [a + b for a, b in zip(split, occupancy(spans, start, end, t), strict=True)]
                elapsed += end - start
        if sum(split[1:]) == 0:
            raise ValueError(f"{entry} solves no worlds (--occupancy times pimc's searches)")
        found[t] = (elapsed / count * 1e3, [part / elapsed for part in split])
    return found


def main(argv: list[str] | None = None) -> None:
    parser = CommandParser(prog="python -m benchmarks.timing", description=plain(__doc__))
    parser.add_argument("--game", choices=list(GAMES), default="sniff", help="the game")
    parser.add_argument("--players", type=COUNT, help="players at the table (default: the ladder's, 4 or 2)")
    parser.add_argument("--agents", nargs="+", metavar="SPEC", help="searches taking threads= (default: the game's)")
    parser.add_argument("--threads", nargs="+", type=COUNT, default=[1, 2], help="thread counts")
    parser.add_argument("--positions", type=COUNT, default=TIMED_POSITIONS, help="positions timed")
    parser.add_argument("--repeats", type=COUNT, default=3, help="passes; each time is the best one's")
    parser.add_argument("--occupancy", action="store_true", help="the share of a decision with 0, 1, … worlds searched")
    args = parser.parse_args(argv)
    entries, spec = args.agents or SEARCHES[args.game], GAMES[args.game]
    if args.players is not None and args.players not in spec.players:
        parser.error(f"--players: {spec.title} is played by {', '.join(map(str, spec.players))}; got {args.players}")
    try:
        table = Table.of(spec, args.players or PLAYERS[args.game])
        if args.occupancy:
            print_occupancy({entry: search_occupancy(table, entry, args.threads, args.positions) for entry in entries})
            return
        times = thread_times(table, entries, args.threads, args.positions, args.repeats)
    except ValueError as error:
        parser.error(str(error))
    first, more = args.threads[0], args.threads[1:]
    header = [
        "agent",
        *(f"{t} thread{'s' * (t > 1)}, ms" for t in args.threads),
        *(f"speed-up {t}/{first}" for t in more),
    ]
    print("| " + " | ".join(header) + " |")
    print("|---|" + "---:|" * (len(header) - 1))
    for entry, row in times.items():
        cells = [f"`{entry}`", *(f"{row[t]:.1f}" for t in args.threads), *(f"{row[first] / row[t]:.2f}×" for t in more)]
        print("| " + " | ".join(cells) + " |")


def print_occupancy(found: dict[str, dict]) -> None:
    """``search_occupancy``'s figures of each entry, a row per thread count."""
    most = max(t for rows in found.values() for t in rows)
    print("| agent | threads | ms | " + " | ".join(f"{k} running" for k in range(most + 1)) + " |")
    print("|---|---:|---:|" + "---:|" * (most + 1))
    for entry, rows in found.items():
        for t, (ms, shares) in rows.items():
            cells = [f"{share:.0%}" for share in shares] + [""] * (most - t)
            print(f"| `{entry}` | {t} | {ms:.1f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
