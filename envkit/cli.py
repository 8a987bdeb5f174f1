"""Command-line plumbing shared by ``python -m sniff_env`` and ``python -m twelve_env``."""

from __future__ import annotations

import argparse
import json
import os
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from envkit import arena, report
from envkit.arena import Table
from envkit.game import KernelGame


def build_parser(
    prog: str, description: str, players: Sequence[int], default_players: int, extra: Sequence[tuple[tuple, dict]] = ()
) -> argparse.ArgumentParser:
    """``prog [demo|arena] …``: the commands both games share (``demo`` is the default);
    ``extra`` holds ``(args, kwargs)`` of game options every command takes."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="watch one game between random players (the default)")
    arena = sub.add_parser("arena", help="round robin of agents on shared (duplicate) deals")
    for p in (parser, demo, arena):
        p.add_argument("--players", type=int, choices=list(players), default=default_players)
        p.add_argument("--seed", type=int, default=0, help="seed of the deals and the agents")
        for args, kwargs in extra:
            p.add_argument(*args, **kwargs)
    for p in (parser, demo):
        p.add_argument("--quiet", action="store_true", help="print only the tables, not every move")
    arena.add_argument(
        "--agents",
        nargs="+",
        default=["random", "greedy", "heuristic"],
        help="entries: agent names (random, greedy, heuristic, ismcts[:ITERATIONS]); 'a+b' is a mixed partnership",
    )
    arena.add_argument("--deals", type=int, default=50, help="deals per match-up (each played from both sides)")
    arena.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)")
    arena.add_argument("--json", type=Path, help="write the full results (every game) as JSON")
    arena.add_argument("--plot", type=Path, help="save a PNG of the scores with confidence intervals")
    arena.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def run_arena(args: argparse.Namespace, table: Table) -> dict:
    """The ``arena`` command: play, print the table, write JSON / PNG if asked."""
    result = arena.run(
        table, args.agents, args.deals, seed=args.seed, workers=args.workers, progress=not args.no_progress
    )
    print(report.arena_table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    if args.plot:
        report.arena_plot(result, args.plot)
    return result


def play_random(
    game: KernelGame, seed: int, narrate: Callable[[KernelGame, KernelGame, int, int], str], quiet: bool = False
) -> None:
    """Play ``game`` to its end with uniformly random legal moves, printing as it goes.

    ``narrate(before, after, seat, action)`` returns the text for one move (it may include a
    table); with ``quiet`` only the final table is printed.
    """
    rng = random.Random(seed)
    print(game, end="\n\n")
    while not game.is_terminal():
        before = game.clone()
        seat = game.current_player
        action = rng.choice(game.legal_actions())
        game.apply(action)
        if not quiet:
            print(narrate(before, game, seat, action))
    print("", game, sep="\n")
