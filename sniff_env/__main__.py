"""``python -m sniff_env``: watch a match of American Sniff between random players, run an arena
of agents, cross-play partners (``crossplay``), ``play`` against them in the terminal or ``serve``
the game in the browser."""

from __future__ import annotations

from collections.abc import Sequence

from sniff_env.agents import arena_table, make_agent
from sniff_env.game import Game
from sniff_env.spec import SPEC
from sniff_env.ui import PLAY_UI, narrate
from sniff_twelve.tools import crossplay, reveal
from sniff_twelve.tools.cli import (
    build_parser,
    given_options,
    parse_args,
    play_random,
    run_analyze,
    run_arena,
    run_replay,
    run_serve,
)
from sniff_twelve.tools.exits import fail
from sniff_twelve.tools.play import run_play

PARTNER = (("--partner",), {"metavar": "AGENT", "help": "your partner with 4 players (default heuristic)"})


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(
        SPEC.name,
        "American Sniff dominoes. Rules, Part S: https://sniff-twelve.readthedocs.io/en/latest/rules.html",
        SPEC.players,
        4,
        options=SPEC.options,
        play_extra=[PARTNER],
    )
    crossplay.add_parser(parser, SPEC.players, 4, SPEC.options)
    reveal.add_parser(parser)
    args = parse_args(parser, argv)
    if args.command == "beliefs":
        return reveal.main(args, Game)
    options = given_options(args, SPEC.options)
    if args.command == "crossplay":
        return crossplay.main(args, arena_table(args.players, **options))
    if args.command == "arena":
        run_arena(args, arena_table(args.players, **options))
    elif args.command == "play":
        game = Game(num_players=args.players, seed=args.seed, **options)
        if args.partner and args.players != 4:
            fail("--partner needs --players 4 (partners sit opposite)")
        partner = (args.partner or "heuristic") if args.players == 4 else None
        return run_play(args, game, PLAY_UI, make_agent, partner)
    elif args.command == "replay":
        return run_replay(args, Game, narrate)
    elif args.command == "analyze":
        from sniff_env.solver import solve

        return run_analyze(args, Game, solve, lambda game: game.hands_played)
    elif args.command == "serve":
        from sniff_env.web import WEB

        return run_serve(args, WEB)
    else:
        play_random(Game(num_players=args.players, seed=args.seed, **options), args.seed, narrate, args.quiet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
