"""The command line of a game (``python -m sniff_env``, ``python -m twelve_env``), declared once:
``GameCommands`` holds what a game says of itself; its commands, their flags and what they run are
the same for every game."""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sniff_twelve.agents.builtin import game_agents
from sniff_twelve.core.game import BaseGame
from sniff_twelve.core.optional import MissingExtraError, optional_import, pyplot
from sniff_twelve.core.records import parse_record, replay_steps, split_records
from sniff_twelve.tools import analyze, arena, compare, crossplay, exploit, exploitability, report, reveal, roster
from sniff_twelve.tools.cluster import ADDRESS_HELP
from sniff_twelve.tools.exits import EXIT_FAILURE, EXIT_INTERRUPTED, fail
from sniff_twelve.tools.flags import (
    COUNT,
    RECORDS_HOLD_OPTIONS,
    SEED,
    CommandParser,
    RawDescriptionHelpFormatter,
    add_estimator,
    add_game_options,
    add_outputs,
    add_records,
    add_workers,
    whole,
)
from sniff_twelve.tools.play import add_play_options, run_play
from sniff_twelve.web.sessions import KEEP_DAYS, MAX_SESSIONS

if TYPE_CHECKING:
    from sniff_twelve.core.options import GameOption
    from sniff_twelve.core.seats import Table
    from sniff_twelve.core.spec import GameSpec, GameUI
    from sniff_twelve.web.table import WebGame

#: ``narrate(before, after, seat, action)``: the text for one move (it may include a table)
Narrate = Callable[[BaseGame, BaseGame, int, int], str]


#: the prefix of the top-level parser's own names for the demo's options (``parse_args``)
BEFORE_COMMAND = "before_command_"


#: the documentation online, where each game's rule book page is (``GameSpec.rules_page``)
DOCS_URL = "https://sniff-twelve.readthedocs.io/en/latest/"


@dataclass(frozen=True)
class GameCommands:
    """A game's command line, from its spec: name, table sizes, sides and ``options``, and the
    parts it declares (``GameSpec.part``: ``game``, ``agents``, ``ui`` and ``narrate``, ``solve``
    for ``analyze``, ``web`` for ``serve``), imported when a command needs them. A game that
    declares no words of its own is played in the plain ones (``GameUI.plain``, moves by
    ``action_name``); a command whose part the game lacks says so.

    ``--help`` opens with the spec's title and where its rules are (``rules_part`` on ``rules_page``);
    ``default_players`` is the table of ``demo``, ``arena``, ``play`` and ``serve`` (default the
    spec's). A game with partnerships (``spec.sides``) also has ``crossplay`` and ``play --partner``."""

    spec: GameSpec
    default_players: int | None = None

    def __post_init__(self) -> None:
        if self.default_players is None:
            object.__setattr__(self, "default_players", self.spec.default_players)

    @property
    def description(self) -> str:
        spec = self.spec
        part = f"Rules, Part {spec.rules_part}: " if spec.rules_part else "Rules: "
        return f"{spec.title[:1].upper()}{spec.title[1:]}. {part}{DOCS_URL}{spec.rules_page}.html"

    @property
    def game_cls(self) -> type[BaseGame]:
        return self.spec.part("game")

    @property
    def ui(self) -> GameUI:
        from sniff_twelve.core.spec import GameUI

        return self.spec.part("ui") or GameUI.plain(self.spec.title)

    @property
    def narrate(self) -> Narrate:
        return self.spec.part("narrate") or plain_narrate

    def needed_part(self, name: str, command: str) -> Any:
        """The game's part ``name``, or a one-line error: ``command`` needs it."""
        part = self.spec.part(name)
        if part is None:
            fail(f"{command} needs the game's {name!r} part, which {self.spec.title} does not declare")
        return part

    @property
    def partnership_tables(self) -> list[int]:
        """The table sizes whose sides are partnerships of two seats."""
        spec = self.spec
        return [n for n in spec.players if any(len(side) == 2 for side in spec.sides(n) or ())]

    def parser(self) -> argparse.ArgumentParser:
        """Every command of the game, with every flag it takes."""
        spec, partners = self.spec, self.partnership_tables
        partner = (
            ("--partner",),
            {"metavar": "AGENT", "help": "your partner at a partnership table (default heuristic)"},
        )
        parser = build_parser(
            spec.name,
            self.description,
            spec.players,
            self.default_players,
            options=spec.options,
            play_extra=[partner] if partners else [],
            partnerships=bool(partners),
        )
        if partners:
            crossplay.add_parser(parser, spec.players, partners[-1], spec.options)
        reveal.add_parser(parser)
        roster.add_parser(parser, spec)
        compare.add_parser(parser, spec, self.default_players)
        exploitability.add_parsers(parser, spec)
        exploit.add_parser(parser, spec, self.default_players)
        from sniff_twelve.tools import study  # ``study run|export|analyze``

        study.add_parser(parser, spec)
        return parser

    def main(self, argv: Sequence[str] | None = None) -> int:
        """Run the command ``argv`` (default: the process's) asks for; returns the exit code."""
        args = parse_args(self.parser(), argv)
        game_cls, spec = self.game_cls, self.spec
        if args.command == "agents":
            return roster.main(spec)
        if args.command == "beliefs":
            return reveal.main(args, game_cls)
        if args.command == "replay":
            return run_replay(args, game_cls, self.narrate)
        if args.command == "serve":
            return run_serve(args, self.needed_part("web", "serve"))
        if args.command == "study":
            from sniff_twelve.tools import study

            return study.main(args, self.needed_part("web", "study"))
        options = given_options(args, spec.options)
        if args.command == "analyze":
            solve = self.needed_part("solve", "analyze")
            played = arena.Table.of(spec, args.players, **options) if args.agents else None
            return run_analyze(args, game_cls, solve, lambda game: getattr(game, "hands_played", 0), played)
        if args.command == "compare":
            return compare.main(args, arena.Table.of(spec, args.players, **options))
        if args.command in ("exploitability", "cfr"):
            return exploitability.main(args, arena.Table.of(spec, args.players, **options))
        if args.command == "exploit":
            return exploit.main(args, arena.Table.of(spec, args.players, **options))
        if args.command == "crossplay":
            return crossplay.main(args, arena.Table.of(spec, args.players, **options))
        if args.command == "arena":
            run_arena(args, arena.Table.of(spec, args.players, **options))
            return 0
        game = game_cls(num_players=args.players, seed=args.seed, **options)
        if args.command == "play":
            partnership = args.players in self.partnership_tables
            if getattr(args, "partner", None) and not partnership:
                tables = " or ".join(map(str, self.partnership_tables))
                fail(f"--partner needs --players {tables} (partners sit opposite)")
            partner = (args.partner or "heuristic") if partnership else None
            return run_play(args, game, self.ui, game_agents(spec).make_agent, partner)
        play_random(game, args.seed, self.narrate, args.quiet)
        return 0


def build_parser(
    prog: str,
    description: str,
    players: Sequence[int],
    default_players: int,
    options: Sequence[GameOption] = (),
    play_extra: Sequence[tuple[tuple, dict]] = (),
    partnerships: bool = False,
) -> argparse.ArgumentParser:
    """``prog [demo|arena|play|replay|serve] …``: the commands both games share (``demo`` is the
    default: ``prog`` alone takes the demo's options). The game's ``options`` (``SPEC.options``)
    become ``--name-with-dashes`` flags of every command that starts games (``demo``, ``arena``,
    ``play``; ``serve`` the ones its start page offers, as that page's defaults); ``play_extra``
    holds ``(args, kwargs)`` only ``play`` takes; ``partnerships``: whether some table has them
    (``arena``'s ``a+b`` entries). Read the command line with ``parse_args``."""
    parser = CommandParser(prog=prog, description=description, formatter_class=RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="watch one game between random players (the default)")
    arena = sub.add_parser("arena", help="round robin of agents on shared (duplicate) deals")
    play = sub.add_parser("play", help="play against the built-in agents in the terminal")
    replay = sub.add_parser(
        "replay",
        help="replay a match record in the terminal, or as a GIF / PNG strip",
        description=f"Replay a match record. {RECORDS_HOLD_OPTIONS}",
    )
    kept = " or ".join(option.flag for option in options if not option.web)
    serve = sub.add_parser(
        "serve",
        help="play against the agents and watch replays in the browser (web extra)",
        description="Play against the agents and watch replays in the browser. The game options given are the "
        "start page's defaults"
        + (f"; it offers no {kept}: given, they hold for every game the server starts." if kept else "."),
    )
    analyze = sub.add_parser(
        "analyze",
        help="grade every decision of match records with the solver",
        description="Grade every decision of match records with the solver: the records given (which hold the "
        "options their games were played with), or, with --agents, the arena's games of those agents played "
        "here under the options given (--players, the game's options, --deals; the deals from --seed).",
    )
    add_records(analyze, needed=False)
    analyze.add_argument("--agents", nargs="+", help="play these entries' arena games and grade them (no records)")
    analyze.add_argument("--deals", type=COUNT, default=1, help="with --agents: deals per match-up")
    analyze.add_argument("--worlds", type=COUNT, default=8, help="worlds per decision for the expected loss")
    analyze.add_argument(
        "--max-nodes",
        type=COUNT,
        default=2_000_000,
        help="solver budget per position; beyond it a decision is unsolved",
    )
    analyze.add_argument("--seed", type=SEED, default=0, help="seed of the sampled worlds")
    add_outputs(
        analyze,
        json_help="write the per-agent summary, the costliest decisions and the pars",
        plot_help="save a PNG of each agent's mean losses (bench extra)",
    )
    analyze.add_argument("--address", help=ADDRESS_HELP.replace("the games", "the grading"))
    replay.add_argument(
        "file", type=Path, help="a record (Game.to_record() as JSON) or a JSONL file of them (arena --records)"
    )
    replay.add_argument("--game", type=COUNT, default=1, help="which record of a JSONL file, from 1")
    replay.add_argument("--quiet", action="store_true", help="print only the first and last tables")
    replay.add_argument("--gif", type=Path, help="also write an animated GIF")
    replay.add_argument("--png", type=Path, help="also write a PNG strip (a grid of frames)")
    replay.add_argument(
        "--frames",
        choices=("move", "hand"),
        help="the images' frames: every position, or one per hand (the table before its last move, and "
        "the end); default: hand for a match of several hands, else move",
    )
    common = [
        (("--players",), {"type": int, "choices": list(players), "default": default_players, "help": "seats"}),
        (("--seed",), {"type": SEED, "default": 0, "help": "seed of the deals and the agents"}),
        *(option.argument() for option in options),
    ]
    quiet = (("--quiet",), {"action": "store_true", "help": "print only the tables, not every move"})
    before = parser.add_argument_group("the demo's options, with no command (after a command, give them after it)")
    without_seed = [common[0], *common[2:]]  # analyze's --seed seeds its deals and its worlds
    played = ((demo, [*common, quiet]), (arena, common), (play, [*common, *play_extra]), (analyze, without_seed))
    for p, arguments in played:
        for args, kwargs in arguments:
            p.add_argument(*args, **kwargs)
    for args, kwargs in [*common, quiet]:  # stored apart, so parse_args sees what came before a command
        shown = {} if "action" in kwargs or "choices" in kwargs else {"metavar": _dest(args).upper()}
        dest = BEFORE_COMMAND + _dest(args)
        before.add_argument(*args, **{**kwargs, **shown, "dest": dest, "default": argparse.SUPPRESS})
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)"
    )
    serve.add_argument("--port", type=whole(1, 65535), default=8000, help="port")
    serve.add_argument(
        "--records",
        type=Path,
        default=Path("records"),
        help="folder for the finished games' records (default records/)",
    )
    serve.add_argument(
        "--checkpoint",
        action="append",
        default=[],
        metavar="PATH",
        help="a policy checkpoint offered as agent ppo:PATH on the start page (repeatable)",
    )
    serve.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="SPEC",
        help="another agent offered on the start page, e.g. py:package.module:Name (repeatable)",
    )
    serve.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another host name the server answers to, beside --host, localhost and 127.0.0.1 (repeatable)",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="addresses of a reverse proxy whose X-Forwarded-For/-Proto to trust, comma-separated (default: none)",
    )
    serve.add_argument(
        "--no-seed-choice", action="store_true", help="the server deals every seed: no seed field (for studies)"
    )
    serve.add_argument(
        "--max-sessions",
        type=whole(1),
        default=MAX_SESSIONS,
        metavar="N",
        help="games held in memory at once; past it the least recently used idle one waits on disk",
    )
    serve.add_argument(
        "--keep-days",
        type=whole(1),
        default=KEEP_DAYS,
        metavar="N",
        help="a game nobody moved in for N days, finished or not, leaves the store (checked at start and "
        "hourly; its record stays)",
    )
    serve.add_argument(
        "--private-records",
        action="store_true",
        help="no one lists the finished games, and a record replays only with its game's link (for studies)",
    )
    serve.add_argument(
        "--players", type=int, choices=list(players), default=default_players, help="the start page's seats"
    )
    add_game_options(serve, options)
    add_play_options(play)
    arena.add_argument(
        "--agents",
        nargs="+",
        default=["random", "greedy", "heuristic"],
        help=f"entries: agent specs ('{prog} agents' lists every one the game accepts)"
        + ("; at a table of partnerships, 'a+b' is a mixed one" if partnerships else ""),
    )
    arena.add_argument(
        "--deals",
        type=COUNT,
        default=50,
        help="deals per match-up (each played from both sides, or in every rotation); the intervals need "
        "at least 2 (with 1: n/a)",
    )
    add_workers(arena)
    add_outputs(
        arena,
        json_help="write the full results (every game) as JSON",
        plot_help="save a PNG of the scores with confidence intervals",
    )
    arena.add_argument("--records", type=Path, help="write every game's match record, one JSON per line")
    add_estimator(arena)
    return parser


def _dest(flags: tuple[str, ...]) -> str:
    """The attribute argparse stores an option under: ``--capture-extra-turn`` → ``capture_extra_turn``."""
    return flags[0].lstrip("-").replace("-", "_")


def given_options(args: argparse.Namespace, options: Sequence[GameOption]) -> dict[str, Any]:
    """The game ``options`` the command line gave, by name (one not given keeps its default); a
    value its declaration refuses is a usage error naming the flag."""
    given = {}
    for option in options:
        if hasattr(args, option.name):
            try:
                given[option.name] = option.check(getattr(args, option.name))
            except ValueError as err:
                fail(f"{option.flag}: {err}")
    return given


def parse_args(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> argparse.Namespace:
    """``argv`` (default: the process's) read by a ``build_parser`` parser. With no command it is
    the demo's (``prog --players 2`` is ``prog demo --players 2``); a demo option given before a
    command would not reach that command, so it is a usage error saying where it goes."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(argv)
    if args.command is None:
        return parser.parse_args(["demo", *argv])
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    command = commands.choices[args.command]
    for action in parser._actions:
        if action.dest.startswith(BEFORE_COMMAND) and hasattr(args, action.dest):
            flag, usage = action.option_strings[0], f"{parser.prog} {args.command}"
            if flag in command._option_string_actions:
                fail(f"{flag} goes after the command: {usage} {flag} …")
            fail(f"{usage} takes no {flag} (before a command, the options are the demo's)")
    return args


def run_analyze(
    args: argparse.Namespace, game_cls: type[BaseGame], solve, deal_index, table: Table | None = None
) -> int:
    """The ``analyze`` command (``sniff_twelve.tools.analyze``): grade the records given — or, at
    ``table`` (``--agents``), the arena's games of the agents, played first — print the table, write
    JSON / PNG if asked. Bad input (a missing file, a record of the other game, a budget below 1,
    records and ``--agents`` both or neither) exits with one ``error:`` line; Ctrl-C keeps what
    was graded and exits 130."""
    try:
        if bool(args.records) == (table is not None):
            raise ValueError("give record files, or --agents to play the games to grade (not both)")
        if args.plot:
            pyplot("analyze --plot", "bench")
        if table is None:
            records = analyze.read_records(args.records, game_cls)
        else:
            played = arena.run(table, args.agents, args.deals, args.seed, progress=not args.no_progress, records=True)
            records = [parse_record(json.dumps(game["record"]), game_cls) for game in played["games"]]
        result = analyze.analyze(
            records,
            game_cls,
            solve,
            deal_index,
            args.worlds,
            args.max_nodes,
            args.seed,
            not args.no_progress,
            args.address,
        )
    except (OSError, ValueError, MissingExtraError) as err:
        fail(err)
    if table is not None:
        played = {"agents": args.agents, "num_players": table.num_players, "options": table.options}
        result["played"] = {**played, "deals": args.deals, "seed": args.seed}
    report.publish(args, result, analyze.table(result), analyze.plot if result["agents"] else None)
    if result["partial"]:
        print("interrupted: the table covers the decisions graded so far (written, marked partial)", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def run_arena(args: argparse.Namespace, table: Table) -> dict:
    """The ``arena`` command: play, print the table, write JSON / PNG if asked; a bad line-up
    exits with its error message (one short of a table's seats: the ``--players`` that fits), and
    so does a --plot without matplotlib (before any game)."""
    try:
        if args.plot:
            pyplot("arena --plot", "bench")
        result = arena.run(
            table,
            args.agents,
            args.deals,
            seed=args.seed,
            workers=args.workers,
            progress=not args.no_progress,
            records=args.records is not None,
            address=args.address,
            estimator=args.estimator,
        )
    except arena.AgentFailedError as err:
        fail(err, EXIT_FAILURE)
    except arena.ShortLineupError as err:
        fits = [n for n in table.spec.players if n <= len(args.agents)]
        fewer = f", or --players {fits[-1]}" if fits else ""
        fail(f"{err} (--players {table.num_players}): give more --agents{fewer}")
    except (ValueError, MissingExtraError) as err:
        fail(err)
    if args.records:  # before --json, which leaves them out
        args.records.write_text("".join(json.dumps(game.pop("record")) + "\n" for game in result["games"]))
    report.publish(args, result, report.arena_text(result), report.arena_plot)
    if result["partial"]:
        print(
            f"interrupted: the table above covers the {result['games_played']} of {result['games_scheduled']} "
            "games played; what was asked for is written (marked partial). Run the command again for all.",
            file=sys.stderr,
        )
        raise SystemExit(EXIT_INTERRUPTED)
    return result


def run_replay(args: argparse.Namespace, game_cls: type[BaseGame], narrate: Narrate) -> int:
    """The ``replay`` command: check the record, then show it move by move (and export images)."""
    try:
        records = split_records(args.file.read_text())
        if not 1 <= args.game <= len(records):
            raise ValueError(f"--game must be between 1 and {len(records)} (the records in the file)")
        record = json.loads(records[args.game - 1])
        steps = replay_steps(record, game_cls)
        game, action = next(steps)
    except (OSError, ValueError) as error:
        fail(f"cannot replay {args.file}: {error}")
    frames_by = args.frames or ("hand" if record["result"].get("hands_played", 0) > 1 else "move")
    per_hand = frames_by == "hand" and hasattr(game, "hands_played")  # a game of one hand: every move
    frames = [game.image()] if args.gif or args.png else []
    print(game, end="\n\n")
    while action is not None:
        before, seat = game.clone(), game.current_player
        game, next_action = next(steps)
        if not args.quiet:
            print(narrate(before, game, seat, action))
        if frames and per_hand and (game.is_terminal() or game.hands_played != before.hands_played):
            frames.append(before.image())
        if frames and (not per_hand or game.is_terminal()):
            frames.append(game.image())
        action = next_action
    print("", game, sep="\n")
    from sniff_twelve.drawing import animate

    columns = max(1, math.ceil(math.sqrt(len(frames) * 2)))  # a grid about as wide as it is tall
    for path in (args.gif, args.png):
        if path:
            animate(frames, path, scale=0.5, columns=columns)  # a GIF for *.gif, else a PNG grid
    return 0


def run_serve(args: argparse.Namespace, spec: WebGame) -> int:
    """The ``serve`` command: check the checkpoints, then run the web app until Ctrl-C; the game
    options given become the start page's defaults. Without the ``web`` extra, a one-line message
    says what to install."""
    try:
        for module in ("starlette", "uvicorn"):
            optional_import(module, "web", "serve")
        from sniff_twelve.web.server import serve
        from sniff_twelve.web.store import DamagedStoreError, UnwritableError
    except MissingExtraError as err:
        fail(err)
    for path in args.checkpoint:
        try:
            spec.make_agent(f"ppo:{path}")
        except ValueError as err:
            fail(f"--checkpoint {path}: {err}")
    for agent in args.agent:
        try:
            spec.make_agent(agent)
        except ValueError as err:
            fail(f"--agent {agent}: {err}")
    defaults = {"players": args.players, **given_options(args, spec.options)}
    try:
        serve(
            spec,
            args.host,
            args.port,
            args.records,
            hosts=args.allowed_host,
            checkpoints=args.checkpoint,
            defaults=defaults,
            agents=args.agent,
            seed_choice=not args.no_seed_choice,
            forwarded_allow_ips=args.forwarded_allow_ips,
            max_sessions=args.max_sessions,
            keep_days=args.keep_days,
            private_records=args.private_records,
        )
    except (DamagedStoreError, UnwritableError) as err:
        fail(err)
    return 0


def plain_narrate(before: BaseGame, after: BaseGame, seat: int, action: int) -> str:
    """One move in the words any game has: the seat and the action's name."""
    return f"seat {seat}: {before.action_name(action)}"


def play_random(game: BaseGame, seed: int, narrate: Narrate, quiet: bool = False) -> None:
    """Play ``game`` to its end with uniformly random legal moves, printing as it goes.

    ``narrate(before, after, seat, action)`` returns the text for one move (it may include a
    table); with ``quiet`` only the final table is printed.
    """
    rng = random.Random(seed)
    shown = "the first and last tables" if quiet else "every move (--quiet: the first and last tables only)"
    print(f"{game.spec.title}, {game.num_players} players, every seat random, seed {seed}: {shown}\n")
    print(game, end="\n\n")
    while not game.is_terminal():
        before = game.clone()
        seat = game.current_player
        action = rng.choice(game.legal_actions())
        game.apply(action)
        if not quiet:
            print(narrate(before, game, seat, action))
    print("", game, sep="\n")
