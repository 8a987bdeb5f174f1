"""``python -m twelve_env``: watch a game of "12" between random players, run an arena of agents,
``play`` against them in the terminal or ``serve`` the game in the browser."""

from __future__ import annotations

from collections.abc import Sequence

from sniff_twelve.tools import reveal
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
from sniff_twelve.tools.play import run_play
from twelve_env.agents import arena_table, make_agent
from twelve_env.game import Game
from twelve_env.spec import SPEC
from twelve_env.ui import PLAY_UI, narrate


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(
        SPEC.name,
        '"12" (Jamaican Sniping). Rules, Part T: https://sniff-twelve.readthedocs.io/en/latest/rules.html',
        SPEC.players,
        3,
        options=SPEC.options,
    )
    reveal.add_parser(parser)
    args = parse_args(parser, argv)
    if args.command == "beliefs":
        return reveal.main(args, Game)
    options = given_options(args, SPEC.options)
    if args.command == "arena":
        run_arena(args, arena_table(args.players, **options))
    elif args.command == "play":
        game = Game(num_players=args.players, seed=args.seed, **options)
        return run_play(args, game, PLAY_UI, make_agent)
    elif args.command == "replay":
        return run_replay(args, Game, narrate)
    elif args.command == "analyze":
        from twelve_env.solver import solve

        return run_analyze(args, Game, solve, lambda game: 0)
    elif args.command == "serve":
        from twelve_env.web import WEB

        return run_serve(args, WEB)
    else:
        play_random(Game(num_players=args.players, seed=args.seed, **options), args.seed, narrate, args.quiet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
