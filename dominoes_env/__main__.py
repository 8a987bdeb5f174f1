"""``python -m dominoes_env``: the shared command line (``sniff_twelve.tools.cli``) on block dominoes:
``demo``, ``arena``, ``play``, ``serve``, ``analyze``, ``compare`` and the others."""

from dominoes_env.spec import SPEC
from sniff_twelve.tools.cli import GameCommands

COMMANDS = GameCommands(SPEC)
main = COMMANDS.main  # main(argv=None) runs a command line and returns its exit code

if __name__ == "__main__":
    raise SystemExit(main())
