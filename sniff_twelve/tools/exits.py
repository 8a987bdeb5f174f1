"""How every command of the project ends — ``sniff``, ``twelve``, the benchmarks and the examples:

- 0: done;
- 1: a failure while running (an agent that raised or played an illegal move, ``AgentFailedError``);
- 2: a usage error — a bad option, agent spec, file or missing extra — with one ``error: …`` line
  on stderr and nothing done (argparse's own code for a bad command line);
- 130: stopped by Ctrl-C or SIGTERM, what was done kept (the shell's code for SIGINT).
"""

from __future__ import annotations

import sys
from typing import NoReturn

EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def fail(message: object, code: int = EXIT_USAGE) -> NoReturn:
    """Print ``error: message`` on stderr and exit with ``code`` (a usage error unless told)."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(code)
