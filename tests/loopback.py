"""Ray in the tests: whatever starts Ray runs inside a network namespace that has only loopback
(``unshare -n``, then ``ip link set lo up``), so no test traffic leaves 127.0.0.1 — Ray binds to
the machine's interface otherwise, even when told ``--node-ip-address=127.0.0.1``. Making the
namespace needs root (CI runs as root); elsewhere these tests skip and say so."""

from __future__ import annotations

import functools
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


@functools.cache
def available() -> bool:
    if not (shutil.which("unshare") and shutil.which("ip")):
        return False
    made = subprocess.run(["unshare", "-n", "sh", "-c", "ip link set lo up"], capture_output=True, check=False)
    return made.returncode == 0


needs_loopback = pytest.mark.skipif(
    not available(),
    reason="starts Ray, which must run in a loopback-only network namespace: needs root, unshare and ip "
    "(util-linux, iproute2); CI runs as root",
)


def in_loopback(command: list[str]) -> list[str]:
    """``command`` run in a new network namespace with only loopback, up."""
    return ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *command]


def run_python(args: list[str], cwd: Path | None = None, timeout: float = 900) -> subprocess.CompletedProcess:
    """``python ARGS`` (this interpreter) in a loopback-only namespace; skips the test where no
    namespace can be made, fails it with the end of stderr if the command fails."""
    if not available():
        pytest.skip(needs_loopback.kwargs["reason"])
    done = subprocess.run(
        in_loopback([sys.executable, *args]), cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done
