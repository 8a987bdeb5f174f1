"""How many threads the compiled drivers use, and how a thread that is done waits for the others.

Every driver splits its rows over numba's threads (``prange``) and returns when the last thread is
done. With numba's OpenMP threading layer a thread that finishes early spins while it waits
(OpenMP's default wait policy), so when another busy process shares the cores the spinning thread
takes CPU from the one still working: on 2 cores, one busy process cut ``VectorGame(4096)`` to
under a tenth of its quiet rate. ``OMP_WAIT_POLICY=passive`` in the environment before the first
compiled call makes waiting threads sleep instead (the process-wide setting is the user's to make:
it also reaches torch's OpenMP, and it costs a fifth of the quiet rate). ``threads=`` on the vector games and
``vector_env`` caps the threads one object's calls use (``thread_count``), e.g. to leave a core to
a learner; results never depend on it (each row draws from its own stream).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numba as nb

from sniff_twelve.core.options import as_integer


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


@contextmanager
def thread_count(threads: int | None) -> Iterator[None]:
    """Run the compiled calls inside on ``threads`` threads (``None``: as numba is set)."""
    if threads is None:
        yield
        return
    before = nb.get_num_threads()
    nb.set_num_threads(threads)
    try:
        yield
    finally:
        nb.set_num_threads(before)
