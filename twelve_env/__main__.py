"""``python -m twelve_env``: watch a game of "12" between random players."""

from __future__ import annotations

from collections.abc import Sequence

from envkit.cli import build_parser, play_random, run_arena
from twelve_env.agents import arena_table
from twelve_env.cards import rank_name
from twelve_env.game import Game


def narrate(before: Game, after: Game, seat: int, action: int) -> str:
    taken = after.captured[seat] - before.captured[seat]
    top = rank_name(before.deck, before.pile[-1])
    what = f"captures {taken}" if taken else "draws" if after.stock_size < before.stock_size else "no capture"
    return f"seat {seat}: {rank_name(after.deck, action)} on {top}: {what}"


def main(argv: Sequence[str] | None = None) -> None:
    deck = (("--deck",), {"choices": ("bridge", "numbers"), "default": "bridge"})
    parser = build_parser("twelve", '"12" (Jamaican Sniping), RULES.md Part T', range(2, 8), 3, extra=[deck])
    args = parser.parse_args(argv)
    if args.command == "arena":
        run_arena(args, arena_table(args.players, deck=args.deck))
    else:
        play_random(Game(num_players=args.players, deck=args.deck, seed=args.seed), args.seed, narrate, args.quiet)


if __name__ == "__main__":
    main()
