"""The value of information: ``python -m benchmarks.information [--deals N] [--worlds K] [--seed S]``.

A measurement, not an agent: the informed players here read the referee's state, which no agent
may (``sniff_twelve.core.agent``), so they live in this study and in no registry.

- **Sniff, 4 players** (S1), one hand per deal (``episode="hand"``), duplicate deals: both seats of
  side A decide with more knowledge than ``pimc:K``, side B plays ``pimc:K``; then the sides swap.
  Reported: A's points per hand over B's (S17–S24) with a 95% interval, for
  ``partner`` (each seat of A also sees its partner's hand: its worlds deal only the opponents'
  tiles, known voids kept) and ``all`` (A sees every hand: the true deal solved, perfect play
  by A's lights).
- **"12", 2 players** (T15), whole games, duplicate deals: the skill ceiling, a player that sees
  everything (the true game solved with the stock cut to ``pimc``'s horizon) against ``greedy``:
  T15 score difference per game and share of games won.

Writes ``benchmarks/results/information.json``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

import sniff_env
import twelve_env
from sniff_env import kernels as SK
from sniff_env.agents import make_agent as sniff_agent
from sniff_env.solver import solve as solve_sniff
from sniff_env.tiles import NUM_TILES
from sniff_env.view import determinize
from sniff_twelve.core.rng import stream_state
from sniff_twelve.tools.arena import mean_ci
from twelve_env.agents import TwelvePimcAgent
from twelve_env.agents import make_agent as twelve_agent
from twelve_env.solver import HOOKS as TWELVE_HOOKS
from twelve_env.solver import solve as solve_twelve

WORLD_BUDGET = 500_000  # nodes per world, as pimc's default
TRUTH_BUDGET = 5_000_000


def best_of(values: dict[int, float]) -> int:
    """The top action, ties to the lowest id (as ``pimc``)."""
    return max(values, key=lambda a: (values[a], -a))


def partner_world(game: sniff_env.Game, rng: np.ndarray) -> sniff_env.Game:
    """A world for the seat to act that also knows its partner's hand: the compiled resampler
    (``sniff_env.view.determinize``: hand sizes and known voids kept, S19, S21) run as if the seat
    held its partner's tiles too, so only the opponents' tiles and the boneyard are dealt again.
    ``rng`` is a random stream (``sniff_twelve.core.rng.stream_state``)."""
    s, me = game.state_array, game.current_player
    partner = (me + 2) % 4
    known = s.copy()
    known[SK.HAND + me] |= known[SK.HAND + partner]
    known[SK.HAND + partner] = 0  # no room: dealt nothing
    world = np.empty_like(known)
    determinize(known, game._params, me, world, rng, np.empty(NUM_TILES, dtype=np.int32))
    world[SK.HAND + me], world[SK.HAND + partner] = s[SK.HAND + me], s[SK.HAND + partner]
    return sniff_env.Game.from_state(world, game._params)


def partner_choice(game: sniff_env.Game, worlds: int, rng: np.ndarray) -> int:
    """``pimc`` over worlds that know the partner's hand (a world over the budget is dropped)."""
    totals: dict[int, float] = dict.fromkeys(game.legal_actions(), 0.0)
    solved = 0
    for _ in range(2 * worlds):
        if solved == worlds:
            break
        solution = solve_sniff(partner_world(game, rng), max_nodes=WORLD_BUDGET)
        if solution.exact:
            solved += 1
            for a, v in solution.action_values.items():
                totals[a] += v
    return best_of(totals) if solved else sniff_agent("greedy").act(game)


def sniff_hand(seed: int, informed_side: int, knowledge: str, worlds: int) -> int:
    """Side 0's points minus side 1's over one 4-player hand in which ``informed_side`` has
    ``knowledge`` and the other side plays ``pimc:worlds``."""
    game = sniff_env.Game(num_players=4, seed=seed, episode="hand")
    plain = sniff_agent(f"pimc:{worlds}", seed=seed)
    rng = np.array(stream_state(seed), dtype=np.int32)
    while not game.is_terminal():
        legal = game.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        elif game.current_player % 2 != informed_side:
            action = plain.act(game)
        elif knowledge == "all":
            truth = solve_sniff(game, max_nodes=TRUTH_BUDGET)
            action = best_of(truth.action_values) if truth.exact else plain.act(game)
        else:
            action = partner_choice(game, worlds, rng)
        game.apply(action)
    return game.scores[0] - game.scores[1]


def twelve_game(seed: int, seer: int) -> int:
    """Seat 0's T15 score minus seat 1's over a 2-player game of "12" in which ``seer`` sees
    everything and the other seat plays ``greedy``."""
    game = twelve_env.Game(num_players=2, seed=seed)
    greedy = twelve_agent("greedy")
    while not game.is_terminal():
        legal = game.legal_actions()
        if len(legal) > 1 and game.current_player == seer:
            s = game.state_array.copy()
            TWELVE_HOOKS.shorten(s, TwelvePimcAgent.horizon)
            truth = solve_twelve(twelve_env.Game.from_state(s, game._params), max_nodes=TRUTH_BUDGET)
            action = best_of(truth.action_values) if truth.exact else greedy.act(game)
        else:
            action = legal[0] if len(legal) == 1 else greedy.act(game)
        game.apply(action)
    return game.scores[0] - game.scores[1]


def summary(samples: list[float]) -> dict[str, float]:
    mean, ci = mean_ci(samples)
    return {"mean": mean, "ci95": ci, "deals": len(samples)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.information", description=__doc__)
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals per measurement")
    parser.add_argument("--worlds", type=int, default=4, help="worlds per move of the pimc players")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args(argv)
    from tqdm import tqdm

    seeds = [args.seed * 100_003 + d for d in range(args.deals)]
    results: dict[str, dict] = {}
    for knowledge in ("partner", "all"):
        gains = [
            (sniff_hand(s, 0, knowledge, args.worlds) - sniff_hand(s, 1, knowledge, args.worlds)) / 2
            for s in tqdm(seeds, desc=f"sniff 4p, {knowledge}")
        ]
        results[f"sniff4.{knowledge}.points_per_hand"] = summary(gains)
    pairs = [(twelve_game(s, 0), -twelve_game(s, 1)) for s in tqdm(seeds, desc='"12" 2p, sees all')]
    margins = [(a + b) / 2 for a, b in pairs]  # the seer's margin, both seats of the deal
    wins = [(np.sign(a) + np.sign(b) + 2) / 4 for a, b in pairs]  # won 1, tied 0.5, lost 0
    results["twelve2.all_vs_greedy.points_per_game"] = summary(margins)
    results["twelve2.all_vs_greedy.win_share"] = summary(wins)
    for name, row in results.items():
        print(f"{name:45s} {row['mean']:+8.2f} ± {row['ci95']:.2f}  ({row['deals']} deals)")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "information.json").write_text(
        json.dumps({"args": vars(args) | {"out": str(args.out)}, **results}, indent=1)
    )


if __name__ == "__main__":
    main()
