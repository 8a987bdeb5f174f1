"""``python -m sniff_env``: watch a match of American Sniff between random players, run an arena
of agents, cross-play partners (``crossplay``), ``play`` against them in the terminal or ``serve``
the game in the browser (``sniff_twelve.tools.cli``)."""

from __future__ import annotations

from sniff_env.spec import SPEC
from sniff_twelve.tools.cli import GameCommands

DESCRIPTION = "American Sniff dominoes. Rules, Part S: https://sniff-twelve.readthedocs.io/en/latest/rules.html"
COMMANDS = GameCommands(SPEC, DESCRIPTION, default_players=4)

#: ``main(argv=None)``: run the command line ``argv`` (default: the process's); returns the exit code
main = COMMANDS.main


if __name__ == "__main__":
    raise SystemExit(main())
