"""``python -m twelve_env``: watch a game of "12" between random players, run an arena of agents,
``play`` against them in the terminal or ``serve`` the game in the browser
(``sniff_twelve.tools.cli``)."""

from __future__ import annotations

from sniff_twelve.tools.cli import GameCommands
from twelve_env.spec import SPEC

DESCRIPTION = '"12" (Jamaican Sniping). Rules, Part T: https://sniff-twelve.readthedocs.io/en/latest/rules.html'
COMMANDS = GameCommands(SPEC, DESCRIPTION, default_players=3)

#: ``main(argv=None)``: run the command line ``argv`` (default: the process's); returns the exit code
main = COMMANDS.main


if __name__ == "__main__":
    raise SystemExit(main())
