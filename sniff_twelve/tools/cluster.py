"""Work spread over a Ray cluster (``--address``): the chunks a local process pool would play, run
as Ray tasks, their results handed back in the order of the chunks.

Every chunk is a pure function of its input (the games' seeds are in it), so where it runs does not
change what it returns: the same seed gives the same JSON locally and on any cluster. A worker that
dies mid-chunk has its chunk run again elsewhere (Ray retries the task); the results are taken
once per chunk, so no game is played into the results twice or lost.

``address`` is what ``ray.init`` takes: ``auto`` (the cluster this machine belongs to, started with
``ray start``), ``HOST:PORT`` (a head node), ``ray://HOST:10001`` (Ray Client). Every node needs
the same ``sniff-twelve`` installed (the ``rllib`` extra brings Ray).
"""

from __future__ import annotations

import logging
import re
import socket
from collections.abc import Callable, Sequence
from typing import Any

from sniff_twelve.core.optional import optional_import

#: how often a chunk is tried again after its worker died
RETRIES = 5
#: the ``--address`` option's help, the same for every command that has it
ADDRESS_HELP = (
    "run the games on a Ray cluster instead of local processes: auto (the cluster this machine joined "
    "with ray start), HOST:PORT or ray://HOST:PORT; the same results as a local run (the rllib extra)"
)


def map_on_ray(
    function: Callable[[Any], list],
    chunks: Sequence[Any],
    address: str,
    done: Callable[[list], None] = lambda batch: None,
    stopped: Callable[[], bool] = lambda: False,
) -> list:
    """``function(chunk)`` for every chunk on the cluster at ``address``, concatenated in chunk
    order; ``done(batch)`` hears of each batch as it is added. When ``stopped()`` turns true the
    chunks still running are cancelled and the batches so far (in order, with no gap) are returned."""
    ray = optional_import("ray", "rllib", "--address (running on a Ray cluster)")
    connected_here = not ray.is_initialized()
    if connected_here:
        _check_reachable(address)
        try:
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as error:
            raise ValueError(f"--address {address}: cannot reach a Ray cluster there ({error})") from None
    try:
        task = ray.remote(max_retries=RETRIES, num_cpus=1)(_call)
        shared = ray.put(function)  # sent once, not with every chunk
        pending = {task.remote(shared, chunk): k for k, chunk in enumerate(chunks)}
        finished: dict[int, list] = {}
        batches: list[list] = []
        while len(batches) < len(chunks) and not stopped():
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.2)
            for ref in ready:
                finished[pending.pop(ref)] = ray.get(ref)
            while len(batches) in finished:  # hand on in chunk order, with no gap
                batches.append(finished.pop(len(batches)))
                done(batches[-1])
        for ref in pending:
            ray.cancel(ref, force=True)
        return [item for batch in batches for item in batch]
    finally:
        if connected_here:
            ray.shutdown()


def _call(function: Callable[[Any], list], chunk: Any) -> list:
    return function(chunk)


def _check_reachable(address: str) -> None:
    """``ValueError`` at once if ``HOST:PORT`` takes no connection (Ray itself would retry for
    minutes); ``auto`` and ``ray://`` addresses are Ray's to check."""
    match = re.fullmatch(r"(?P<host>[^:/]+|\[[0-9a-fA-F:]+\]):(?P<port>[0-9]{1,5})", address)
    if match is None:
        return
    try:
        socket.create_connection((match["host"].strip("[]"), int(match["port"])), timeout=5).close()
    except (OSError, ValueError, OverflowError) as error:
        raise ValueError(f"--address {address}: cannot reach a Ray cluster there ({error})") from None
