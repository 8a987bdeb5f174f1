"""``python -m sniff_env``: watch a match of American Sniff between random players."""

from __future__ import annotations

from collections.abc import Sequence

from envkit.cli import build_parser, play_random, run_arena
from sniff_env import kernels as K
from sniff_env.agents import arena_table
from sniff_env.game import Game
from sniff_env.tiles import DRAW, action_name


def narrate(before: Game, after: Game, seat: int, action: int) -> str:
    """One line per move; when a hand ends, the table as it stood and the settlement."""
    line = f"seat {seat}: {action_name(action)}"
    if action < DRAW and after.hands_played == before.hands_played:
        line += f"   ends {after.describe()['total']}" + (f", +{after.last_credit}" if after.last_credit else "")
    if after.hands_played > before.hands_played:
        s = after.state_array
        result = "domino" if s[K.LAST_RESULT] == K.DOMINO else "blocked"
        deducted = s[K.DEDUCT : K.DEDUCT + after.num_players].tolist()
        line = (
            f"\n{before}\n\n{line}\n-- hand {after.hands_played} over ({result}): "
            f"deducted {deducted} by seat, scores {after.scores}\n"
        )
    return line


def main(argv: Sequence[str] | None = None) -> None:
    args = build_parser("sniff", "American Sniff dominoes (RULES.md Part S)", (2, 3, 4), 4).parse_args(argv)
    if args.command == "arena":
        run_arena(args, arena_table(args.players))
    else:
        play_random(Game(num_players=args.players, seed=args.seed), args.seed, narrate, args.quiet)


if __name__ == "__main__":
    main()
