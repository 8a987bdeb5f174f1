"""How many threads the compiled drivers use, and how a thread that is done waits for the others.

Every driver splits its rows over numba's threads (``prange``) and returns when the last thread is
done. With numba's OpenMP threading layer a thread that finishes early waits by spinning for a while
(libgomp's ``GOMP_SPINCOUNT``, 300,000 turns by default) before it sleeps; when another busy process
shares the cores, the spinning thread takes the CPU the one still working needs, and on 2 cores one
busy process cut ``VectorGame(4096)`` to a third of its quiet rate or less. So the drivers start
numba's threads with a short spin (``SPIN_COUNT`` turns, then sleep: ``start_threads``), which keeps
the quiet rate and steps 1.6–1.9× as many games beside a busy process. libgomp reads the setting
once, when numba loads it, and only numba's copy does: the environment is left as it was (torch's
OpenMP keeps its own), and a ``GOMP_SPINCOUNT`` or ``OMP_WAIT_POLICY`` of the user's wins.
``threads=`` on the vector games and ``vector_env`` caps the threads one object's calls use
(``thread_count``), e.g. to leave a core to a learner; results never depend on it (each row draws
from its own stream).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext

import numba as nb

from sniff_twelve.core.options import as_integer

#: libgomp's spin turns before a waiting thread sleeps, for numba's threads (``start_threads``)
SPIN_COUNT = 1000
_started = False


def start_threads() -> None:
    """Start numba's threads once, libgomp's waiting threads spinning ``SPIN_COUNT`` turns before
    they sleep, unless the environment sets ``GOMP_SPINCOUNT`` or ``OMP_WAIT_POLICY`` (then it
    rules). Does nothing when numba's threads were started before (by other code)."""
    global _started
    if _started:
        return
    _started = True
    if "GOMP_SPINCOUNT" in os.environ or "OMP_WAIT_POLICY" in os.environ:
        return
    os.environ["GOMP_SPINCOUNT"] = str(SPIN_COUNT)
    try:
        nb.get_num_threads()  # loads the threading layer: libgomp reads its settings now, once
    finally:
        del os.environ["GOMP_SPINCOUNT"]


def check_threads(threads: int | None) -> int | None:
    """Return ``threads`` if it is ``None`` (numba's setting) or an int from 1 to numba's
    ``NUMBA_NUM_THREADS``, else raise ``ValueError`` saying what is allowed."""
    if threads is None:
        return None
    value = as_integer("threads", threads)
    most = nb.config.NUMBA_NUM_THREADS
    if not 1 <= value <= most:
        raise ValueError(f"threads must be None (numba's setting) or an int from 1 to {most}; got {value}")
    return value


def thread_count(threads: int | None) -> AbstractContextManager[None]:
    """Run the compiled calls inside on ``threads`` threads (``None``: as numba is set), numba's
    threads started by ``start_threads``. (With ``None`` it hands back one shared empty context:
    a generator's would cost a microsecond and a half a call, a tenth of a one-row step.)"""
    start_threads()
    return _AS_SET if threads is None else _threads(threads)


_AS_SET = nullcontext()


@contextmanager
def _threads(threads: int) -> Iterator[None]:
    before = nb.get_num_threads()
    nb.set_num_threads(threads)
    try:
        yield
    finally:
        nb.set_num_threads(before)
