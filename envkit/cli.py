"""Command-line plumbing shared by ``python -m sniff_env`` and ``python -m twelve_env``."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence

from envkit.game import KernelGame


def demo_parser(prog: str, description: str, players: Sequence[int], default_players: int) -> argparse.ArgumentParser:
    """``prog [demo] [--players N] [--seed S] [--quiet]``; later commands add sub-parsers."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="watch one game between random players (the default)")
    for p in (parser, demo):
        p.add_argument("--players", type=int, choices=list(players), default=default_players)
        p.add_argument("--seed", type=int, default=0, help="seed of the deal and of the random players")
        p.add_argument("--quiet", action="store_true", help="print only the tables, not every move")
    return parser


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
