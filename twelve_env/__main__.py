"""``python -m twelve_env``: watch a game, run an arena of agents, ``play`` in the terminal or
``serve`` the game in the browser (``sniff_twelve.tools.cli``); three seats by default."""

from sniff_twelve.tools.cli import GameCommands
from twelve_env.spec import SPEC

#: ``main(argv=None)``: run the command line ``argv`` (default: the process's); returns the exit code
COMMANDS = GameCommands(SPEC, default_players=3)
main = COMMANDS.main

if __name__ == "__main__":
    raise SystemExit(main())
