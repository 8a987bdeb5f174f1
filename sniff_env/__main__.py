"""``python -m sniff_env``: watch a match of American Sniff between random players, run an arena
of agents, cross-play partners (``crossplay``), ``play`` against them in the terminal or ``serve``
the game in the browser (``sniff_twelve.tools.cli``)."""

from __future__ import annotations

from collections.abc import Sequence

from sniff_env.game import Game
from sniff_env.ui import PLAY_UI, narrate
from sniff_twelve.tools.cli import GameCommands

COMMANDS = GameCommands(
    Game,
    "American Sniff dominoes. Rules, Part S: https://sniff-twelve.readthedocs.io/en/latest/rules.html",
    default_players=4,
    ui=PLAY_UI,
    narrate=narrate,
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: the process's); returns the exit code."""
    return COMMANDS.main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
