"""``python -m sniff_env``: watch a match of American Sniff between random players, run an arena
of agents, cross-play partners (``crossplay``), ``play`` against them in the terminal or ``serve``
the game in the browser."""

from __future__ import annotations

from collections.abc import Sequence

from sniff_env.agents import arena_table, make_agent
from sniff_env.game import SETTLEMENTS, Game
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

TARGET = (("--target",), {"type": int, "default": None, "help": "points to win (default 250 / 200 / 200)"})
#: the options the browser offers (``sniff_env.web.WEB``), for ``arena``; one not given keeps the game's default
GAME_OPTIONS = [
    TARGET,
    (("--settlement",), {"choices": SETTLEMENTS, "help": "deduct (S23–S24, the default) or allfives (S4a)"}),
    (("--undrawn",), {"type": int, "choices": (0, 1, 2), "help": "boneyard tiles left undrawn (S4a; default 0)"}),
]
PLAY_OPTIONS = [
    TARGET,
    (("--partner",), {"metavar": "AGENT", "help": "your partner with 4 players (default heuristic)"}),
]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(
        SPEC.name,
        "American Sniff dominoes. Rules, Part S: https://sniff-twelve.readthedocs.io/en/latest/rules.html",
        SPEC.players,
        4,
        play_extra=PLAY_OPTIONS,
        serve_extra=[TARGET],
        arena_extra=GAME_OPTIONS,
    )
    crossplay.add_parser(parser, SPEC.players, 4)
    reveal.add_parser(parser)
    args = parse_args(parser, argv)
    if args.command == "beliefs":
        return reveal.main(args, Game)
    if args.command == "crossplay":
        return crossplay.main(args, arena_table(args.players))
    if args.command == "arena":
        run_arena(args, arena_table(args.players, **given_options(args, GAME_OPTIONS)))
    elif args.command == "play":
        if args.target is not None and args.target < 1:
            fail("--target must be at least 1")
        game = Game(num_players=args.players, seed=args.seed, target=args.target)
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

        return run_serve(args, WEB, ["target"])
    else:
        play_random(Game(num_players=args.players, seed=args.seed), args.seed, narrate, args.quiet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
