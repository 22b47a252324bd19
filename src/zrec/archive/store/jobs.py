"""Validating and indexing games in several processes, for ``import --jobs N``.

The text of a file is cut into pieces of a few hundred games, only where a game surely
begins (:func:`zrec.notation.chunks.cut`, which ``validate --jobs`` uses too): each
piece read on its own gives the same records as the whole file read at once.  Worker
processes read, validate and index the pieces (:func:`zrec.archive.store.facts.facts_of`);
the importing process numbers the games and their lines as in the whole file and stores
them in file order, so reports and the archive are the same as with one process.
"""

from __future__ import annotations

import dataclasses
import io
import multiprocessing
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import BinaryIO

from zrec.archive.store.facts import Facts, facts_of
from zrec.check.parallel import start_worker
from zrec.notation.chunks import cut
from zrec.notation.reader import read_records

__all__ = ["cut", "parallel_facts"]


def _work(task: tuple[str, int, bytes]) -> list[Facts]:
    name, first, data = task
    return [facts_of(record, name) for record in read_records(io.BytesIO(data), name, first)]


def _renumber(fact: Facts, games: int) -> None:
    """The facts of a game read in a piece, numbered as in the whole file."""
    if not games:
        return
    fact.number += games
    report = fact.report
    report.number += games
    report.diagnostics = [dataclasses.replace(d, game=d.game + games) for d in report.diagnostics]


def parallel_facts(stream: BinaryIO, name: str, done: int, jobs: int) -> Iterator[Facts]:
    """The facts of every game of a text file after the first ``done``, in file order,
    found by ``jobs`` worker processes."""
    context = multiprocessing.get_context("fork" if "fork" in _methods() else "spawn")
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=start_worker) as pool:
        waiting: deque[Future[list[Facts]]] = deque()
        games = 0
        pieces = cut(stream)
        for piece in _ahead(pieces, pool, waiting, name, jobs * 3):
            for fact in piece:
                _renumber(fact, games)
            games += len(piece)
            yield from (f for f in piece if f.number > done)


def _ahead(
    pieces: Iterable[tuple[int, bytes]],
    pool: ProcessPoolExecutor,
    waiting: deque[Future[list[Facts]]],
    name: str,
    depth: int,
) -> Iterator[list[Facts]]:
    """Results in order, with at most ``depth`` pieces in flight (memory stays flat)."""
    for first, data in pieces:
        waiting.append(pool.submit(_work, (name, first, data)))
        if len(waiting) >= depth:
            yield waiting.popleft().result()
    while waiting:
        yield waiting.popleft().result()


def _methods() -> list[str]:
    return multiprocessing.get_all_start_methods()
