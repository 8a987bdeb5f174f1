"""``python -m dominoes_env``: watch a game, run an arena of agents, cross-play partners, ``play`` in
the terminal or ``serve`` the game in the browser (``sniff_twelve.tools.cli``)."""

from dominoes_env.spec import SPEC
from sniff_twelve.tools.cli import GameCommands

#: ``main(argv=None)``: run the command line ``argv`` (default: the process's); returns the exit code
COMMANDS = GameCommands(SPEC)
main = COMMANDS.main

if __name__ == "__main__":
    raise SystemExit(main())
