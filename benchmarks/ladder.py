"""The strength ladder: ``python -m benchmarks.ladder [--deals N] [--workers W] [--agent SPEC …] [--address ADDR]``.

Round robins of random, greedy, heuristic, rollout and pimc on duplicate deals for 2-player
Sniff, 4-player partnership Sniff and 2-player "12", with ``belief``, the search on beliefs
(Sniff also with ``ppo``, the shipped self-play checkpoints, and ``guided``, the search they
guide); prints each table (score ± 95%
CI, Elo, and per match-up the deal's share of the outcome variance: luck against skill,
``sniff_twelve.tools.arena.luck_skill``) and every entry's mean time per decision on shared
positions of the table's game (one core, ``benchmarks.timing``), and writes
``benchmarks/results/ladder.json``. ``--estimator aivat`` adds the AIVAT margins
(``sniff_twelve.tools.evaluation``). ``--agent`` puts more agents on every table's ladder (your own
as ``py:package.module:Name``); each game's options (``SPEC.options``, e.g. ``--undrawn 1``,
``--deck numbers``) set the rules of that game's tables.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from benchmarks.timing import times_per_decision
from sniff_env.spec import SPEC as SNIFF
from sniff_twelve.tools import arena, report
from sniff_twelve.tools.cli import given_options
from sniff_twelve.tools.cluster import ADDRESS_HELP
from sniff_twelve.tools.exits import EXIT_FAILURE, EXIT_INTERRUPTED, fail
from sniff_twelve.tools.flags import COUNT, SEED, CommandParser, add_estimator, plain
from sniff_twelve.tools.interrupt import StopRequest
from twelve_env.spec import SPEC as TWELVE

GAMES = {"sniff": SNIFF, "twelve": TWELVE}
LADDER = ["random", "greedy", "heuristic", "rollout", "pimc"]
#: name: (game, players, entries)
TABLES = {
    "sniff, 2 players": ("sniff", 2, [*LADDER, "ppo", "guided", "belief"]),
    "sniff, 4 players (partnerships)": ("sniff", 4, [*LADDER, "ppo", "guided", "belief"]),
    '"12", 2 players': ("twelve", 2, [*LADDER, "belief"]),
}


def main(argv: list[str] | None = None) -> None:
    parser = CommandParser(prog="python -m benchmarks.ladder", description=plain(__doc__))
    parser.add_argument("--deals", type=COUNT, default=100, help="duplicate deals per match-up")
    parser.add_argument("--workers", type=COUNT, default=os.cpu_count() or 1, help="processes (default: all cores)")
    parser.add_argument("--seed", type=SEED, default=0, help="seed of the deals and the agents")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"), help="where ladder.json goes")
    parser.add_argument("--game", choices=["sniff", "twelve"], help="only this game's tables")
    parser.add_argument("--agent", action="append", default=[], metavar="SPEC", help="another agent (repeatable)")
    parser.add_argument("--address", help=ADDRESS_HELP)
    add_estimator(parser)
    added: set[str] = set()  # an option both games have (the size dial's hand_size) is one flag, for both
    for spec in GAMES.values():
        rules = parser.add_argument_group(f"the rules of the {spec.title} tables")
        for option in spec.options:
            if option.name not in added:
                added.add(option.name)
                rules.add_argument(*option.argument()[0], **option.argument()[1])
    args = parser.parse_args(argv)
    options = {game: given_options(args, spec.options) for game, spec in GAMES.items()}
    played = set() if args.game is None else {option.name for option in GAMES[args.game].options}
    for game, given in options.items():
        foreign = [name for name in given if name not in played]
        if foreign and args.game not in (None, game):
            flags = ", ".join(GAMES[game].option(name).flag for name in foreign)
            fail(f"{flags}: an option of {GAMES[game].title}, and --game {args.game} plays none of its tables")
    results = {}
    with StopRequest() as stop:  # Ctrl-C / SIGTERM: keep the tables so far, the current one partial
        for name, (game, players, entries) in TABLES.items():
            if args.game not in (None, game):
                continue
            table = arena.Table.of(GAMES[game], players, **options[game])
            try:
                lineup = [*entries, *args.agent]
                result = arena.run(
                    table, lineup, args.deals, args.seed, args.workers, address=args.address, estimator=args.estimator
                )
            except arena.AgentFailedError as error:
                fail(error, EXIT_FAILURE)
            except ValueError as error:
                fail(error)
            result.pop("games")
            results[name] = result
            print(f"\n### {name}\n")
            print(report.arena_text(result))
            if stop:
                break
            result["ms_per_decision"] = times_per_decision(table, [*entries, *args.agent])
            print("\n| entry | ms per decision |\n|---|---:|")
            print("\n".join(f"| {entry} | {ms:.3g} |" for entry, ms in result["ms_per_decision"].items()))
            if stop:
                break
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "ladder.json").write_text(json.dumps(results, indent=1))
    if stop:
        print(f"interrupted ({stop.signal}): {args.out / 'ladder.json'} holds the tables so far (the last partial)")
        raise SystemExit(EXIT_INTERRUPTED)


if __name__ == "__main__":
    main()
