"""Beliefs, measured: ``python -m benchmarks.beliefs [speed|strength] [--deals N] [--seed S]``.

- **speed**: ``infer(view, model, worlds=256)`` on 4-player Sniff positions after 12 placements:
  median milliseconds per call and per world kept, for every model kind. One core: run it as
  ``OPENBLAS_NUM_THREADS=1 taskset -c 0 python -m benchmarks.beliefs speed`` (the sampler is
  single-threaded; the ``ppo`` model's matrix products would use every core).
- **strength**: the ``belief`` agent against the goal's opponents on fresh duplicate deals, beside
  its two controls on the same deals — the same search on worlds dealt by the rules alone
  (its ``MODEL`` set to ``none``) and on the true deal (``clairvoyant``, which reads the referee's state and so
  lives here, in no registry) — with every entry's milliseconds per decision on the same
  positions, and the share of the clairvoyant's gain over the rules alone that the beliefs close.

- **learned**: each shipped belief network (``sniff_twelve.beliefs.learned``) on fresh self-play of
  the agent it learned (seeds far from its training games): the log-loss in bits of the true
  deal per decision under the rules alone, under the exact posterior with that agent as the model
  (``infer(view, model)``, ε 0.05 and 0.3) and under the network, with the median milliseconds of
  each ``infer`` call on the same positions, each kind in a pass of its own (one core, as for
  **speed**).

- **tracker**: ``BeliefTracker`` against the converged posterior on self-play of the players' own
  model ("12" 3 players ``greedy``, Sniff 4 and 2 players ``ppo``): at every decision after
  ``--depth`` actions, the error of the beliefs about the true deal (Sniff: bits of log-loss;
  "12": the squared error of the marginals) under the rules alone, ``infer`` at its default 256
  worlds, the tracker with its defaults, the tracker with 16× its particles (``--reference``:
  another count) and ``infer`` with 8,192 worlds, each as its difference from the rules alone
  with a 95% interval (negative: closer to the deal); the share of the converged
  difference the defaults reach; the median ESS; and the median milliseconds of an update, by the
  clock and in the process's CPU time (one core, as for **speed**; on a shared machine the CPU
  time is the steadier). ``--no-converged`` leaves out the two converged columns.
- **defaults**: ``infer`` at its defaults and the beliefs ``belief`` plays on (128 worlds, ε 0.3),
  each beside the plain importance sampler (``min_ess=0``, the default before) and ``infer`` with up
  to 4× its worlds, on self-play of the players' own model at 7 tables (``DEFAULTS``): at
  ``--positions`` decisions once the game has made 8 actions, the error about the true deal minus
  the rules alone's, with its 95% interval, and the median CPU milliseconds of a call.
- **carried**: CPU milliseconds a decision of ``--entry`` in whole games against ``greedy``
  (``--game``, ``--players``, ``--games``), with its beliefs from ``infer`` and from trackers of
  each ``--carried`` size, whose updates through the deal are counted.

Writes ``benchmarks/results/beliefs.json``.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

import sniff_env
from sniff_env.agents import make_agent as sniff_agent
from sniff_twelve.agents.belief import BeliefAgent
from sniff_twelve.beliefs import infer
from sniff_twelve.beliefs.kernels import world_values
from sniff_twelve.beliefs.tracker import DEFAULT_PARTICLES, MOVES, BeliefTracker
from sniff_twelve.tools import arena
from sniff_twelve.tools.belief_training import self_play

from .timing import decision_positions, ms_per_decision

RESULTS = Path(__file__).parent / "results" / "beliefs.json"
MODELS = (None, "random", "greedy", "heuristic", "ppo")
#: the goals: (game, players, opponent, deals)
GOALS = (
    ("sniff_env", 4, "rollout:1024", 200),
    ("sniff_env", 4, "guided:640", 200),
    ("sniff_env", 2, "rollout:1024", 200),
    ("twelve_env", 2, "greedy", 300),
    ("twelve_env", 4, "greedy", 300),
)


class ClairvoyantAgent(BeliefAgent):
    """The ``belief`` search played on the true deal: every world is the referee's state. A
    control that sees what no seat may; never registered."""

    name = "clairvoyant"

    def __init__(self, iterations: int, package: str) -> None:
        self.game_spec = importlib.import_module(package).Game.spec  # whose rollout share it takes
        super().__init__(iterations)

    def act(self, game: Any) -> int:
        view = game.seat_view(past=False)
        legal = np.flatnonzero(view.legal_mask())
        if legal.size == 1:
            return int(legal[0])
        states = np.repeat(np.asarray(game.state_array)[None], self.iterations, axis=0)
        values = np.zeros(legal.size)
        world_values(
            view.spec, states, view.params, view.seat, legal.astype(np.int64), self._rng, self.greedy_rate, values
        )
        return int(legal[np.argmax(values)])


def game_and_agents(package: str) -> tuple[Any, Any]:
    """The game package's ``Game`` and its agents module (``make_agent``, ``arena_table``)."""
    game_cls = importlib.import_module(package).Game
    return game_cls, game_cls.spec.part("agents")


def twelve_placements(seed: int) -> sniff_env.Game:
    """A 4-player Sniff position after 12 placements of ``greedy`` play (the speed positions)."""
    game, greedy = sniff_env.Game(num_players=4, seed=seed), sniff_agent("greedy")
    while sum(a < sniff_env.DRAW for a in game.history) < 12:
        game.apply(greedy.act(game))
    return game


def speed(positions: int = 20, worlds: int = 256) -> dict[str, Any]:
    """Median ms per ``infer`` call (and per world kept) over ``positions`` positions, per model."""
    views = [twelve_placements(seed).seat_view() for seed in range(positions)]
    out: dict[str, Any] = {"positions": positions, "worlds": worlds, "models": {}}
    for name in MODELS:
        model = sniff_agent(name) if name else None
        infer(views[0], model, worlds=worlds)  # compiled first
        times, kept, ess = [], [], []
        for view in views:
            start = time.perf_counter()
            beliefs = infer(view, model, worlds=worlds)
            times.append((time.perf_counter() - start) * 1e3)
            kept.append(beliefs.worlds)
            ess.append(beliefs.ess)
        ms = statistics.median(times)
        out["models"][name or "none"] = {
            "ms": ms,
            "ms_per_world": ms / statistics.median(kept),
            "ess": statistics.median(ess),
        }
        row = out["models"][name or "none"]
        print(
            f"infer {name or 'none':9s} {ms:7.2f} ms  {row['ms_per_world'] * 1e3:6.1f} µs/world  ESS {row['ess']:6.1f}"
        )
    return out


#: the shipped belief networks: (game, players, the agent whose self-play they learned)
LEARNED = (("sniff_env", 4, "ppo"), ("sniff_env", 2, "ppo"), ("twelve_env", 2, "greedy"))


def learned_vs_exact(
    game: str, players: int, model: str, decisions: int, seed: int = 700_000, worlds: int = 256
) -> dict[str, Any]:
    """Bits of log-loss of the true deal and ms per ``infer`` call of the rules alone, the exact
    posterior (``model`` at ε 0.05 and 0.3) and the shipped network, each from ``worlds`` weighted
    worlds, on the first ``decisions`` decisions with a choice of ``model``'s self-play from
    ``seed``; each kind timed in a pass of its own over the same positions."""
    from sniff_twelve.tools.reveal import log_loss, truth_of

    game_cls, agents = game_and_agents(game)
    model_agent = agents.make_agent(model)
    kinds = {
        "rules": {"model": None},
        "exact ε=0.05": {"model": model_agent, "epsilon": 0.05},
        "exact ε=0.3": {"model": model_agent, "epsilon": 0.3},
        "learned": {"learned": "shipped"},
    }
    games = self_play(game_cls, players, model, seed)
    positions = [game.clone() for game in itertools.islice(games, decisions)]
    out: dict[str, Any] = {"game": game, "players": players, "model": model, "decisions": decisions, "seed": seed}
    out["worlds"] = worlds
    for name, options in kinds.items():
        bits, ms = [], []
        infer(positions[0].seat_view(), worlds=worlds, **options)  # compiled and loaded before the clock
        for k, position in enumerate(positions):
            view = position.seat_view()
            start = time.perf_counter()
            beliefs = infer(view, worlds=worlds, seed=k, **options)
            ms.append((time.perf_counter() - start) * 1e3)
            bits.append(log_loss(beliefs.marginals, truth_of(position, view.seat, beliefs.items)))
        mean, half = arena.mean_ci(bits)
        out[name] = {"bits": mean, "ci95": half, "ms": statistics.median(ms)}
        print(f"{game} {players}p {name:13s} {mean:7.3f} ± {half:.3f} bits  {out[name]['ms']:7.3f} ms", flush=True)
    exact = min(("exact ε=0.05", "exact ε=0.3"), key=lambda k: out[k]["bits"])
    out["best_exact"] = exact
    out["learned_over_exact"] = out["learned"]["bits"] / out[exact]["bits"]
    revealed, learned = out["rules"]["bits"] - out[exact]["bits"], out["rules"]["bits"] - out["learned"]["bits"]
    out["share_of_exact_bits_revealed"] = learned / revealed if revealed else None
    out["speedup"] = out[exact]["ms"] / out["learned"]["ms"]
    return out


def _one_against_all(job: tuple[str, int, Any, str, int]) -> list[float]:
    """One deal of an every-seat-for-itself table: ``entry`` in each seat in turn, ``opponent`` in
    the others; the entry's outcome (first 1, last 0, ties share) in each."""
    game, players, entry, opponent, seed = job
    game_cls, agents = game_and_agents(game)
    outcomes = []
    for seat in range(players):
        played = game_cls(num_players=players, seed=seed)
        lineup = [entry if s == seat else agents.make_agent(opponent) for s in range(players)]
        lineup[seat] = agents.make_agent(entry) if isinstance(entry, str) else entry
        for s, agent in enumerate(lineup):
            agent.reset(seed * 16 + s)
        while not played.is_terminal():
            player = lineup[played.current_player]
            played.apply(player.act(played))
        outcomes.append(game_cls.spec.part("outcome")(played)["outcome"][seat])
    return outcomes


def against_all(game: str, players: int, entry: Any, opponent: str, deals: int, seed: int) -> dict[str, float]:
    """``entry``'s mean outcome against ``opponent`` in every other seat, seats rotated on each
    deal (the arena's duplicate deals for a table of more than two sides)."""
    from multiprocessing import get_context

    jobs = [(game, players, entry, opponent, seed + d) for d in range(deals)]
    with get_context("spawn").Pool(2) as pool:
        per_deal = [float(np.mean(o)) for o in pool.map(_one_against_all, jobs)]
    mean, half = arena.mean_ci(per_deal)
    return {"score": mean, "ci95": half, "points_per_hand": float("nan")}


def strength(
    game: str, players: int, opponent: str, entry: str, deals: int, seed: int, only: list[str] | None = None
) -> dict[str, Any]:
    """``entry`` and its controls (those named in ``only``, if given: ``entry``, ``uniform``,
    ``clairvoyant``), each against ``opponent`` on the same duplicate deals."""

    game_cls, agents = game_and_agents(game)
    table = agents.arena_table(players)
    searcher = agents.make_agent(entry)
    uniform = type(searcher)(
        iterations=searcher.iterations,
        model="none",
        worlds=searcher.worlds,
        guide=searcher.guide,
        unguided_iterations=searcher.unguided_iterations,
    )
    clairvoyant = ClairvoyantAgent(searcher.unguided_iterations, game)
    controls = {entry: entry, "uniform": uniform, "clairvoyant": clairvoyant}
    controls = {name: spec for name, spec in controls.items() if only is None or name in only or spec in only}
    positions = decision_positions(lambda s: game_cls(num_players=players, seed=s), agents.make_agent("greedy"), 100)
    result: dict[str, Any] = {"game": game, "players": players, "opponent": opponent, "deals": deals, "seed": seed}
    result["ms_per_decision"] = {opponent: ms_per_decision(agents.make_agent(opponent), positions)}
    for name, spec in controls.items():
        agent = agents.make_agent(spec) if isinstance(spec, str) else spec
        if name != "clairvoyant":
            result["ms_per_decision"][name] = ms_per_decision(agent, positions)
        else:  # it reads the game, not the view
            agent.reset(1)
            start = time.perf_counter()
            for position in positions:
                agent.act(position)
            result["ms_per_decision"][name] = (time.perf_counter() - start) / len(positions) * 1e3
        if table.sides is None:  # every seat for itself: one seat against the rest
            row = against_all(game, players, spec, opponent, deals, seed)
        else:
            played = arena.run(table, [spec, opponent], deals, seed=seed, workers=2, progress=False)
            row = next(e for e in played["entries"] if e["entry"] != opponent)
        result[name] = {"score": row["score"], "ci95": row["ci95"], "points_per_hand": row["points_per_hand"]}
        print(f"{game} {players}p {name} ({spec}) vs {opponent}: {row['score']:.3f} ± {row['ci95']:.3f}", flush=True)
    return result


def gap_closed(result: dict[str, Any], entry: str) -> float | None:
    """The share of the clairvoyant's score over the rules-alone worlds that the beliefs win."""
    if not all(name in result for name in (entry, "uniform", "clairvoyant")):
        return None
    gain = result["clairvoyant"]["score"] - result["uniform"]["score"]
    return (result[entry]["score"] - result["uniform"]["score"]) / gain if gain else None


#: the tracker's tables: (game, players, the players' own model, ε the model is mixed with)
TRACKED = (
    ("twelve_env", 3, "greedy", 0.05),
    ("sniff_env", 4, "ppo", 0.05),
    ("sniff_env", 2, "ppo", 0.05),
    ("sniff_env", 4, "greedy", 0.05),
)


def tracking(argument: str) -> Any:
    """``py:benchmarks.beliefs:tracking:GAME:SPEC:PARTICLES``: the agent ``SPEC`` of the game package
    ``GAME`` with its beliefs carried by a ``BeliefTracker`` of ``PARTICLES`` (``belief`` and
    ``pimc:K:MODEL`` take ``particles=``), an entry for the arena's duplicate deals."""
    game, rest = argument.split(":", 1)
    spec, particles = rest.rsplit(":", 1)
    return game_and_agents(game)[1].make_agent(spec, particles=int(particles))


def plain(argument: str) -> Any:
    """``py:benchmarks.beliefs:plain:GAME:SPEC``: the agent ``SPEC`` of the game package ``GAME``
    with ``infer``'s plain importance sampler (``min_ess=0``, the default before the beliefs kept
    an effective sample size): the old default, to settle the new one against."""
    game, spec = argument.split(":", 1)
    return game_and_agents(game)[1].make_agent(spec, min_ess=0)


def carried_ms(game: str, players: int, entry: str, particles: int | None, games: int, seed: int) -> float:
    """The **carried** section: CPU milliseconds a decision of ``entry`` in seat 0, on one thread,
    over ``games`` whole games against ``greedy`` from deal ``seed`` on; with ``particles`` its
    beliefs are carried by a tracker, fed through each deal (its updates counted), else ``infer``."""
    game_cls, agents = game_and_agents(game)
    agent = agents.make_agent(entry, threads=1, **({} if particles is None else {"particles": particles}))
    others = agents.make_agent("greedy")
    spent, decisions = 0.0, 0
    for deal in range(seed, seed + games):
        play = game_cls(num_players=players, seed=deal)
        agent.reset(deal)
        while not play.is_terminal():
            if play.current_player == 0:
                start = time.process_time()
                action = agent.act(play)
                spent, decisions = spent + time.process_time() - start, decisions + 1
            else:
                action = others.act(play)
            play.apply(action)
    return 1e3 * spent / decisions


def _error(game: Any, me: int, beliefs: Any) -> float:
    """Sniff: bits of log-loss of the true deal; "12": the squared error of the marginals."""
    from sniff_twelve.tools.reveal import log_loss, truth_of

    truth = truth_of(game, me, beliefs.items)
    if hasattr(game, "boneyard"):
        return log_loss(beliefs.marginals, truth)
    return float(np.square(beliefs.marginals - truth).sum())


def tracked(
    game: str,
    players: int,
    model: str,
    epsilon: float,
    positions: int,
    seed: int,
    depth: int = 8,
    particles: int = DEFAULT_PARTICLES,
    converged: bool = True,
    reference: int | None = None,
    moves: int = MOVES,
) -> dict[str, Any]:
    """The **tracker** section for one table (module docstring): ``positions`` decisions of
    ``model``'s self-play from deal ``seed`` on, each seat's trackers updated at every one of its
    decisions. ``reference``: the converged tracker's particles (default 16× ``particles``; 0
    leaves it out, and ``infer`` at 8,192 worlds alone is the converged posterior); ``moves``: the
    measured tracker's Metropolis–Hastings moves (the converged one keeps the default)."""
    game_cls, agents = game_and_agents(game)
    model_agent = agents.make_agent(model)
    reference = 16 * particles if reference is None else reference
    named = "tracker 16×" if reference == 16 * particles else f"tracker {reference}"
    kinds = {"tracker": (particles, moves)} | ({named: (reference, MOVES)} if converged and reference else {})
    errors: dict[str, list[float]] = {
        k: [] for k in ("rules", "infer 256", *kinds, *(["infer 8192"] if converged else []))
    }
    ess, ms, cpu_ms, resampled = [], [], [], []
    g = seed
    while len(errors["rules"]) < positions:
        play = game_cls(num_players=players, seed=g)
        lineup = [agents.make_agent(model) for _ in range(players)]
        for s, agent in enumerate(lineup):
            agent.reset(g * 8 + s)
        trackers = {
            kind: [BeliefTracker(s, model_agent, n, g, epsilon, m) for s in range(players)]
            for kind, (n, m) in kinds.items()
        }
        while not play.is_terminal() and len(errors["rules"]) < positions:
            me = play.current_player
            if len(play.legal_actions()) > 1:
                view = play.seat_view(me)
                for kind, seats in trackers.items():
                    start, cpu = time.perf_counter(), time.process_time()
                    beliefs = seats[me].update(view)
                    if kind == "tracker":
                        ms.append((time.perf_counter() - start) * 1e3)
                        cpu_ms.append((time.process_time() - cpu) * 1e3)
                        ess.append(beliefs.ess / particles)
                        resampled.append(seats[me].resamplings)
                    if len(view.past) >= depth:
                        errors[kind].append(_error(play, me, beliefs))
                if len(view.past) >= depth:
                    errors["rules"].append(_error(play, me, infer(view, None, worlds=2048, seed=g)))
                    default = infer(view, model_agent, worlds=256, seed=g, epsilon=epsilon)
                    errors["infer 256"].append(_error(play, me, default))
                    if converged:
                        exact = infer(view, model_agent, worlds=8192, seed=g, epsilon=epsilon)
                        errors["infer 8192"].append(_error(play, me, exact))
            play.apply(lineup[me].act(play))
        g += 1
    rules = np.array(errors["rules"])
    out: dict[str, Any] = {
        "game": game, "players": players, "model": model, "epsilon": epsilon, "positions": positions,
        "seed": seed, "deals": g - seed, "depth": depth, "particles": particles, "reference": reference, "moves": moves,
        "rules": arena.mean_ci(rules), "ms_per_update": statistics.median(ms),
        "ms_per_update_mean": statistics.fmean(ms), "ess_share_median": statistics.median(ess),
        "cpu_ms_per_update": statistics.median(cpu_ms), "cpu_ms_per_update_mean": statistics.fmean(cpu_ms),
    }  # fmt: skip
    for kind in errors:
        if kind != "rules":
            out[kind] = arena.mean_ci(np.array(errors[kind]) - rules)
    if converged:
        best = min(out[kind][0] for kind in (named, "infer 8192") if kind in out)
        out["share_of_converged"] = out["tracker"][0] / best if best else None
    print(
        f"{game} {players}p {model}: rules {out['rules'][0]:.3f}; "
        + "; ".join(f"{k} {out[k][0]:+.3f} ± {out[k][1]:.3f}" for k in errors if k != "rules")
        + f"; share {out.get('share_of_converged')}; ESS/N {out['ess_share_median']:.2f}; "
        f"{out['ms_per_update']:.2f} ms (mean {out['ms_per_update_mean']:.2f}), CPU "
        f"{out['cpu_ms_per_update']:.2f} ms (mean {out['cpu_ms_per_update_mean']:.2f})",
        flush=True,
    )
    return out


#: the tables whose default beliefs are held to the rules alone: (game, players, the players' own model)
DEFAULTS = (
    ("twelve_env", 2, "greedy"),
    ("twelve_env", 3, "greedy"),
    ("twelve_env", 4, "greedy"),
    ("sniff_env", 2, "greedy"),
    ("sniff_env", 2, "ppo"),
    ("sniff_env", 4, "greedy"),
    ("sniff_env", 4, "ppo"),
)
#: the beliefs compared there: ``infer``'s keywords beside the model
BELIEFS = {
    "infer": {},
    "infer, plain": {"min_ess": 0},
    "infer, 4× worlds": {"max_worlds": 1024},
    "belief's": {"worlds": BeliefAgent.default_worlds, "epsilon": BeliefAgent.default_epsilon},
    "belief's, plain": {"worlds": BeliefAgent.default_worlds, "epsilon": BeliefAgent.default_epsilon, "min_ess": 0},
}


def defaults(game: str, players: int, model: str, positions: int, seed: int, depth: int = 8) -> dict[str, Any]:
    """The **defaults** section for one table: at ``positions`` decisions, once the game has made
    ``depth`` actions, of ``model``'s self-play from deal ``seed`` on, the error of each of
    ``BELIEFS`` about the true deal (``_error``) minus the rules alone's (``infer`` without a
    model, 2,048 worlds), with its 95% interval, and the median CPU milliseconds of its ``infer``
    call ("plain": ``min_ess=0``, the importance sampler without tempering; "4× worlds": up to
    1,024 worlds before it tempers)."""
    game_cls, agents = game_and_agents(game)
    model_agent = agents.make_agent(model)
    errors: dict[str, list[float]] = {k: [] for k in ("rules", *BELIEFS)}
    cpu: dict[str, list[float]] = {k: [] for k in BELIEFS}
    temperatures: list[float] = []
    deal, last = seed - 1, None  # the samplers' seed: the deal's
    for play in self_play(game_cls, players, model, seed):
        if len(errors["rules"]) == positions:
            break
        if play is not last:
            deal, last = deal + 1, play
        if len(play.history) < depth:
            continue
        me, view = play.current_player, play.seat_view()
        errors["rules"].append(_error(play, me, infer(view, None, worlds=2048, seed=deal)))
        for kind, options in BELIEFS.items():
            start = time.process_time()
            beliefs = infer(view, model_agent, seed=deal, **options)
            cpu[kind].append((time.process_time() - start) * 1e3)
            errors[kind].append(_error(play, me, beliefs))
            if kind == "infer":
                temperatures.append(beliefs.temperature)
    rules = np.array(errors["rules"])
    out: dict[str, Any] = {"game": game, "players": players, "model": model, "positions": positions, "seed": seed}
    out |= {"depth": depth, "rules": arena.mean_ci(rules)}
    out["tempered_share"] = float(np.mean(np.array(temperatures) < 1))
    for kind in BELIEFS:
        out[kind] = {
            "difference": arena.mean_ci(np.array(errors[kind]) - rules),
            "cpu_ms": statistics.median(cpu[kind]),
        }
    print(
        f"{game} {players}p {model}: rules {out['rules'][0]:.3f}; "
        + "; ".join(
            f"{k} {out[k]['difference'][0]:+.3f} ± {out[k]['difference'][1]:.3f} ({out[k]['cpu_ms']:.1f} ms)"
            for k in BELIEFS
        )
        + f"; tempered at {out['tempered_share']:.0%} of positions",
        flush=True,
    )
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.beliefs", description=__doc__.split("\n\n")[0])
    sections = ("speed", "strength", "learned", "tracker", "defaults", "carried", "all")
    parser.add_argument("section", nargs="?", choices=sections, default="all")
    parser.add_argument("--entry", default="belief", help="the agent spec measured (default: belief)")
    parser.add_argument("--deals", type=int, help="deals per match-up (default: each goal's)")
    parser.add_argument("--decisions", type=int, default=400, help="decisions per network in learned (default 400)")
    parser.add_argument("--worlds", type=int, default=256, help="weighted worlds per belief in learned (default 256)")
    parser.add_argument("--seed", type=int, default=40_000, help="seed of the fresh deals")
    parser.add_argument("--goals", nargs="+", type=int, help="which goals to play (indices into GOALS)")
    parser.add_argument("--positions", type=int, default=100, help="decisions per table in tracker (default 100)")
    parser.add_argument("--particles", type=int, default=DEFAULT_PARTICLES, help="the tracker's particles")
    parser.add_argument(
        "--carried", nargs="+", type=int, default=[0, DEFAULT_PARTICLES], help="carried: tracker sizes (0: none)"
    )
    parser.add_argument("--game", default="twelve_env", help="carried: the game package (default twelve_env)")
    parser.add_argument("--players", type=int, default=2, help="carried: players (default 2)")
    parser.add_argument("--games", type=int, default=30, help="carried: games (default 30)")
    parser.add_argument(
        "--reference", type=int, help="tracker: the converged tracker's particles (default 16× --particles; 0: none)"
    )
    parser.add_argument("--moves", type=int, default=MOVES, help="tracker: its moves after each resampling")
    parser.add_argument(
        "--tables", nargs="+", type=int, help="which tables (indices into TRACKED for tracker, DEFAULTS for defaults)"
    )
    parser.add_argument(
        "--no-converged", action="store_true", help="tracker: skip the converged posteriors (speed and defaults only)"
    )
    parser.add_argument(
        "--only", nargs="+", help="play only these of the entry and its controls (uniform, clairvoyant)"
    )
    args = parser.parse_args(argv)
    results: dict[str, Any] = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
    if args.section in ("speed", "all"):
        results["speed"] = speed()
    if args.section in ("tracker", "all"):
        results.setdefault("tracker", {})
        for index in args.tables if args.tables is not None else range(len(TRACKED)):
            game, players, model, epsilon = TRACKED[index]
            key = f"{game} {players}p {model}"
            results["tracker"][key] = tracked(
                game,
                players,
                model,
                epsilon,
                args.positions,
                args.seed,
                particles=args.particles,
                converged=not args.no_converged,
                reference=args.reference,
                moves=args.moves,
            )
    if args.section in ("defaults", "all"):
        results.setdefault("defaults", {})
        for index in args.tables if args.tables is not None else range(len(DEFAULTS)):
            game, players, model = DEFAULTS[index]
            results["defaults"][f"{game} {players}p {model}"] = defaults(
                game, players, model, args.positions, args.seed
            )
    if args.section in ("carried", "all"):
        results["carried"] = {
            f"{args.game} {args.players}p {args.entry}, " + (f"tracker {n}" if n else "no tracker"): carried_ms(
                args.game, args.players, args.entry, n or None, args.games, args.seed
            )
            for n in args.carried
        }
        print(json.dumps(results["carried"], indent=1))
    if args.section in ("learned", "all"):
        results["learned"] = {
            f"{g} {n}p": learned_vs_exact(g, n, m, args.decisions, worlds=args.worlds) for g, n, m in LEARNED
        }
    if args.section in ("strength", "all"):
        results.setdefault("strength", {})
        for index in args.goals if args.goals is not None else range(len(GOALS)):
            game, players, opponent, deals = GOALS[index]
            key = f"{game} {players}p vs {opponent}"
            played = strength(game, players, opponent, args.entry, args.deals or deals, args.seed, args.only)
            merged = results["strength"].setdefault(key, {})
            merged["ms_per_decision"] = merged.get("ms_per_decision", {}) | played.pop("ms_per_decision")
            merged.update(played)
            merged["share_of_clairvoyant_gap_closed"] = gap_closed(merged, args.entry)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
