"""What partners tell each other: ``python -m benchmarks.signalling [--deals N] [--partners X …]``.

Sniff with 4 players (S1), one hand per deal (``episode="hand"``), for each partner agent ``X``:

- **bits**: ``X`` in every seat; at every decision with a choice, the binary log-loss of "this
  unseen tile is in my partner's hand" (``sniff_twelve.tools.reveal.partner_loss``) under the
  rules alone and under beliefs that model the other seats as ``X`` (exact, ε 0.3; and the
  shipped network, which learned ``ppo``): the **bits about its partner's hand** a seat's beliefs
  gain from the play, per decision, and late in the hand (16 actions or more into it).
- **value**: one seat searches — every legal move scored by rollouts on ``--iterations`` worlds,
  ``belief``'s search — and the other three seats play ``X`` (``--opponent`` seats another agent
  on the other side). The searcher's worlds: ``rules`` (the rules alone), ``beliefs`` (every
  other seat modelled as ``X``, ``belief:N:X``), ``tracked`` (the same beliefs carried through
  the deal by a ``BeliefTracker`` of ``--particles``, when given), ``learned`` (the shipped
  network, for ``X = ppo``) and ``open`` (it sees its partner's hand: the referee's, a reference
  in no registry; ``benchmarks.information``'s worlds). Each deal is played from both sides;
  points a hand of the searcher's side over the other's, every variant on the same deals, and the
  share of the open partnership's value (``open − rules``) that the beliefs recover, ``(beliefs −
  rules) / (open − rules)``, with paired intervals.
- **cross-play**: the searcher models the others as ``Y`` while its partner plays ``X``: the
  zero-shot gap, in points a hand, is the matched search's (``Y = X``) minus the mismatched one's.

Each run adds its partners' rows (and its cross-play rows) to ``signalling.json`` in ``--out``
(default ``benchmarks/results``), each row with the run that made it; ``docs/signalling.md`` reads it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

import sniff_env
from sniff_env.agents import make_agent
from sniff_twelve.agents.belief import BeliefAgent
from sniff_twelve.beliefs import infer
from sniff_twelve.beliefs.kernels import world_values
from sniff_twelve.core.rng import stream_state
from sniff_twelve.tools.arena import mean_ci
from sniff_twelve.tools.belief_training import self_play
from sniff_twelve.tools.reveal import partner_loss, truth_of

from .information import partner_world

RESULTS = Path(__file__).parent / "results" / "signalling.json"
PARTNERS = ("ppo", "heuristic", "greedy")
EPSILON = 0.3  # the belief agent's softening (docs/beliefs.md)
LATE = 16  # actions into the hand from which a decision counts as late


class OpenPartnerAgent(BeliefAgent):
    """``belief``'s rollout search on worlds that hold its partner's true hand (the opponents'
    tiles and the boneyard dealt again, known voids kept): a reference that reads the referee's
    state, never registered."""

    name = "open"
    game_spec = sniff_env.Game.spec

    def __init__(self, iterations: int) -> None:
        super().__init__(iterations, model="none")

    def act(self, game: Any) -> int:
        legal = np.array(game.legal_actions(), dtype=np.int64)
        if legal.size == 1:
            return int(legal[0])
        rng = np.array(stream_state(int(self._seeds.integers(1 << 62))), dtype=np.int32)
        states = np.stack([partner_world(game, rng).state_array for _ in range(self.iterations)])
        values = np.zeros(legal.size)
        world_values(game.spec, states, game._params, game.current_player, legal, self._rng, self.greedy_rate, values)
        return int(legal[np.argmax(values)])


def searcher(variant: str, model: str, iterations: int, particles: int | None = None) -> Any:
    """The searching seat of a ``value`` or ``cross-play`` row; ``tracked``: the ``beliefs`` search
    with its beliefs carried by a ``BeliefTracker`` of ``particles``."""
    if variant == "open":
        return OpenPartnerAgent(iterations)
    worlds = {"rules": "none", "beliefs": model, "tracked": model, "learned": "learned"}[variant]
    carried = {"particles": particles} if variant == "tracked" else {}
    return make_agent(f"belief:{iterations}:{worlds}", epsilon=EPSILON, seed=0, **carried)


def play_deal(job: tuple[int, str, str, str, str, int, int | None]) -> float:
    """Points a hand of the searcher's side over the other's, averaged over the deal played
    with the searcher in seat 0 and in seat 1 (its partner two seats on, the opponents between)."""
    seed, variant, model, partner, opponent, iterations, particles = job
    points = []
    for first in (0, 1):
        game = sniff_env.Game(num_players=4, seed=seed, episode="hand")
        lineup = {first: searcher(variant, model, iterations, particles), first + 2: make_agent(partner)}
        lineup |= {s: make_agent(opponent) for s in range(4) if s not in lineup}
        for seat, agent in lineup.items():
            agent.reset(seed * 8 + seat)
        while not game.is_terminal():
            game.apply(lineup[game.current_player].act(game))
        points.append(game.scores[first % 2] - game.scores[1 - first % 2])
    return float(np.mean(points))


def paired(a: list[float], b: list[float]) -> dict[str, float]:
    """Mean of ``a − b`` over the same deals, with its 95% interval."""
    mean, half = mean_ci([x - y for x, y in zip(a, b, strict=True)])
    return {"mean": mean, "ci95": half}


def bits(partner: str, hands: int, seed: int, worlds: int = 256) -> dict[str, Any]:
    """Bits about the partner's hand per decision, ``partner`` in every seat (module docstring),
    each belief from ``worlds`` weighted worlds."""
    kinds: dict[str, dict[str, Any]] = {"rules": {}, "beliefs": {"model": make_agent(partner), "epsilon": EPSILON}}
    if partner == "ppo":
        kinds["learned"] = {"learned": "shipped"}
    losses: dict[str, list[float]] = {k: [] for k in kinds}
    late: list[bool] = []
    for game in self_play(sniff_env.Game, 4, partner, seed, hands, episode="hand"):
        view, me = game.seat_view(), game.current_player
        late.append(len(view.past) >= LATE)
        for name, options in kinds.items():
            believed = infer(view, worlds=worlds, seed=len(late), **options)
            column = believed.places.index((me + 2) % 4)
            losses[name].append(partner_loss(believed.marginals, truth_of(game, me, believed.items), column))
    out: dict[str, Any] = {"hands": hands, "decisions": len(late), "worlds": worlds}
    is_late = np.array(late)
    for name in kinds:
        if name == "rules":
            continue
        gained = np.array(losses["rules"]) - np.array(losses[name])
        mean, half = mean_ci(gained.tolist())
        late_mean, late_half = mean_ci(gained[is_late].tolist())
        out[name] = {"bits": mean, "ci95": half, "late_bits": late_mean, "late_ci95": late_half}
    out["rules_bits"] = float(np.mean(losses["rules"]))
    return out


def run_jobs(jobs: list[tuple], workers: int) -> list[float]:
    if workers == 1:
        return [play_deal(job) for job in jobs]
    with get_context("spawn").Pool(workers) as pool:
        return pool.map(play_deal, jobs, chunksize=4)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.signalling", description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=600, help="deals per row of value and cross-play (default 600)")
    parser.add_argument("--hands", type=int, default=40, help="hands per partner for the bits (default 40)")
    parser.add_argument(
        "--partners", nargs="+", default=list(PARTNERS), help="partner agent specs (default: %(default)s)"
    )
    parser.add_argument(
        "--models", nargs="+", help="the models cross-play assumes for each partner (default: the partners)"
    )
    parser.add_argument("--opponent", help="the other side's agent (default: the partner's, as the model assumes)")
    parser.add_argument("--iterations", type=int, default=256, help="worlds per move of the searcher (default 256)")
    parser.add_argument("--worlds", type=int, default=256, help="weighted worlds per belief for the bits (default 256)")
    parser.add_argument(
        "--particles", type=int, help="also a row of the beliefs carried by a tracker of this many particles"
    )
    parser.add_argument("--seed", type=int, default=60_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=RESULTS.parent, help="where signalling.json goes")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 deals, 2 hands, 8 worlds")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.hands, args.iterations = 2, 2, 8
    start = time.perf_counter()
    deals = range(args.seed, args.seed + args.deals)
    path = args.out / RESULTS.name
    result: dict[str, Any] = json.loads(path.read_text()) if path.is_file() else {}
    result.setdefault("partners", {})
    result.setdefault("cross_play", {})
    command = " ".join(["python -m benchmarks.signalling", *(argv if argv is not None else sys.argv[1:])])
    run = {"date": time.strftime("%Y-%m-%d"), "command": command}
    run |= {k: getattr(args, k) for k in ("deals", "hands", "opponent", "iterations", "worlds", "particles", "seed")}
    for partner in args.partners:
        row: dict[str, Any] = {"bits": bits(partner, args.hands, args.seed, args.worlds)}
        variants = ["rules", "beliefs", *(["tracked"] if args.particles else []), "open"]
        variants += ["learned"] if partner == "ppo" else []
        opponent = args.opponent or partner
        for variant in variants:
            jobs = [(d, variant, partner, partner, opponent, args.iterations, args.particles) for d in deals]
            row[variant] = run_jobs(jobs, args.workers)
        value = {v: dict(zip(("mean", "ci95"), mean_ci(row[v]), strict=True)) for v in variants}
        value["open_value"] = paired(row["open"], row["rules"])
        for variant in ("beliefs", "tracked", "learned"):
            if variant in row:
                value[f"{variant}_gain"] = paired(row[variant], row["rules"])
                gap = value["open_value"]["mean"]
                value[f"{variant}_recovered"] = value[f"{variant}_gain"]["mean"] / gap if gap else None
        points = {v: row[v] for v in variants}
        result["partners"][partner] = {"run": run, "bits": row["bits"], "value": value, "points": points}
        print(json.dumps({partner: {"bits": row["bits"], "value": value}}, indent=1), flush=True)
    for partner in args.partners:
        matched = result["partners"][partner]["points"]["beliefs"]
        for model in args.models or args.partners:
            if model == partner:
                continue
            jobs = [(d, "beliefs", model, partner, args.opponent or partner, args.iterations, None) for d in deals]
            name = f"partner {partner}, modelled as {model}"
            result["cross_play"][name] = {"run": run, "gap": paired(matched, run_jobs(jobs, args.workers))}
            print(f"{name}: {result['cross_play'][name]['gap']}", flush=True)
    run["seconds"] = round(time.perf_counter() - start)
    args.out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
