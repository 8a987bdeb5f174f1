"""``python -m twelve_env``: watch a game of "12" between random players, run an arena of agents,
``play`` against them in the terminal or ``serve`` the game in the browser
(``sniff_twelve.tools.cli``)."""

from __future__ import annotations

from collections.abc import Sequence

from sniff_twelve.tools.cli import GameCommands
from twelve_env.game import Game
from twelve_env.ui import PLAY_UI, narrate

COMMANDS = GameCommands(
    Game,
    '"12" (Jamaican Sniping). Rules, Part T: https://sniff-twelve.readthedocs.io/en/latest/rules.html',
    default_players=3,
    ui=PLAY_UI,
    narrate=narrate,
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: the process's); returns the exit code."""
    return COMMANDS.main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
