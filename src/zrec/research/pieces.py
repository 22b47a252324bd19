"""Pieces of work run in order: here, in worker processes (``--jobs N``) or on the
workers of a Dask cluster (``--cluster``), for ``zrec study`` and ``zrec readings --fit``.

The caller cuts its work into pieces, each a task that a module-level function turns
into a result without a shared state (a study's piece plays its games with their own
generators, a fit's piece reads its records).  :func:`run_pieces` gives the results
back in the order of the tasks however they were run, so what the caller makes of
them is the same, byte for byte, for one process, several or a cluster.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["run_pieces"]

T = TypeVar("T")
R = TypeVar("R")


def run_pieces(
    work: Callable[[T], R],
    tasks: Sequence[T],
    jobs: int = 1,
    cluster: str | None = None,
    tick: Callable[[T], None] | None = None,
) -> list[R]:
    """``[work(task) for task in tasks]``: here (``jobs`` 1, or a single task), in
    ``jobs`` worker processes, or with ``cluster``, a Dask scheduler's
    ``tcp://HOST:PORT``, by its workers (``jobs`` is not used); ``tick`` is told of each
    task done, in order.  ``work`` must be a module-level function (it is sent to the
    workers by name).  Raises :class:`~zrec.research.cluster.ClusterError` and what
    ``work`` raises."""
    if cluster is not None:
        from zrec.research.cluster import run_on_cluster

        return run_on_cluster(cluster, work, tasks, tick)
    if jobs <= 1 or len(tasks) <= 1:
        done = []
        for task in tasks:
            done.append(work(task))
            if tick is not None:
                tick(task)
        return done
    return _in_workers(work, tasks, jobs, tick)


def _in_workers(
    work: Callable[[T], R], tasks: Sequence[T], jobs: int, tick: Callable[[T], None] | None
) -> list[R]:
    from zrec.check.parallel import start_worker

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = context.Pool(jobs, initializer=start_worker)
    try:
        done = []
        for task, piece in zip(tasks, pool.imap(work, tasks), strict=True):
            done.append(piece)
            if tick is not None:
                tick(task)
    except BaseException:
        pool.terminate()  # interrupted or failed: the pieces being run are dropped
        raise
    pool.close()
    pool.join()
    return done
