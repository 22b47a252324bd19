"""Playing a study's pieces of games on a Dask distributed cluster (``--cluster``).

The scheduler and its workers are started with Dask's own commands (``dask scheduler``,
``dask worker tcp://HOST:PORT``) on machines that have the same zrec installed.  Each
piece of games is one Dask task; the pieces come back in the order they were given, so
a study run here gives the same numbers, byte for byte, as one run in a single process.
:mod:`distributed` is imported only when a cluster is asked for: it is an optional
dependency (the ``cluster`` extra: ``pip install '.[cluster]'``) and slow to import.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib.metadata
import importlib.util
import logging
import re
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError
from typing import Any, TypeVar

from zrec.errors import ZrecError

__all__ = ["CONNECT_TIMEOUT", "ClusterError", "check_address", "run_on_cluster"]

#: seconds to wait for the scheduler to answer, then for a first worker to join it
CONNECT_TIMEOUT = 10

#: ``tcp://HOST:PORT`` (a host name, an IPv4 address or an IPv6 one in brackets)
ADDRESS = re.compile(r"tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})")

T = TypeVar("T")
R = TypeVar("R")

#: what Dask raises when the scheduler does not answer in time or goes away: before
#: Python 3.11, asyncio's and concurrent.futures' timeouts are not the built-in one
_LOST: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncio.TimeoutError,
    concurrent.futures.TimeoutError,
)
_LOST_OR_CANCELLED: tuple[type[BaseException], ...] = (*_LOST, CancelledError)


class ClusterError(ZrecError):
    """The cluster cannot be reached or cannot play the games."""


def check_address(address: str) -> None:
    """Raise :class:`ClusterError` unless ``address`` reads ``tcp://HOST:PORT``."""
    found = ADDRESS.fullmatch(address)
    if found is None or not 0 < int(found.group(2)) < 65536:
        raise ClusterError(
            f"--cluster {address}: not a Dask scheduler's address; write tcp://HOST:PORT "
            "(as `dask scheduler` prints it)"
        )


def _connect(address: str) -> Any:
    """A client of the scheduler at ``address`` (``distributed.Client``; its methods
    are not typed), once a worker has joined."""
    check_address(address)
    try:
        import distributed
    except ImportError:
        raise ClusterError(
            "--cluster needs Dask's distributed package: install zrec's cluster extra "
            "(pip install '.[cluster]' in the project's folder)"
        ) from None
    # what goes wrong is said in one line (ClusterError), not in Dask's logged tracebacks
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name.partition(".")[0] == "distributed":
            logging.getLogger(name).setLevel(logging.CRITICAL)
    connect: Any = distributed.Client
    try:
        client: Any = connect(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except _LOST as exc:
        raise ClusterError(
            f"--cluster {address}: no Dask scheduler answered within {CONNECT_TIMEOUT} s "
            f"({_first_line(exc)})"
        ) from None
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
    except _LOST:
        client.close()
        raise ClusterError(
            f"--cluster {address}: the scheduler has no worker (waited {CONNECT_TIMEOUT} s); "
            f"start one with `dask worker {address}`"
        ) from None
    return client


def _check_workers(client: Any, address: str, module: str) -> None:
    """Every worker can import ``module`` (the work's) and has this machine's version of
    zrec.  A worker that cannot would die reading its first task, and the study would
    wait for ever."""
    spec: dict[str, Any] = client.run(importlib.util.find_spec, module, on_error="return")
    for worker, found in sorted(spec.items()):
        if isinstance(found, BaseException) or found is None:
            raise ClusterError(
                f"--cluster {address}: the worker {worker} cannot import zrec "
                f"({_first_line(found) if found else 'no ' + module}); install the same "
                "zrec on every worker's machine"
            )
    mine = importlib.metadata.version("zrec")
    versions: dict[str, Any] = client.run(importlib.metadata.version, "zrec", on_error="return")
    for worker, version in sorted(versions.items()):
        if version != mine:
            raise ClusterError(
                f"--cluster {address}: worker {worker} has zrec {version}, this machine "
                f"zrec {mine}; the workers need the same zrec"
            )


def run_on_cluster(
    address: str,
    work: Callable[[T], R],
    tasks: Sequence[T],
    tick: Callable[[T], None] | None = None,
) -> list[R]:
    """``[work(task) for task in tasks]``, each task played by a worker of the Dask
    scheduler at ``address``, in the order of ``tasks`` (``tick`` is told of each task
    done, in that order).  Raises :class:`ClusterError`."""
    client = _connect(address)
    futures: list[Any] = []
    try:
        _check_workers(client, address, work.__module__)
        futures = client.map(work, tasks, pure=False)
        done: list[R] = []
        for task, future in zip(tasks, futures, strict=True):
            done.append(future.result())
            if tick is not None:
                tick(task)
        return done
    except _LOST_OR_CANCELLED:  # the scheduler went away
        raise ClusterError(
            f"--cluster {address}: the scheduler stopped answering while the games were played"
        ) from None
    finally:
        client.cancel(futures)  # interrupted or failed: the pieces not played are dropped
        client.close()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
