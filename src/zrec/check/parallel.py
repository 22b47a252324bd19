"""Validating inputs as ``zrec validate`` does: in this process, or a text file in
several processes (``validate --jobs N``).

:meth:`Validators.problems` gives the problems of one input a game at a time, as the
report shows them; ``zrec validate`` and ``POST /api/validate`` both report through it.
The file is cut into pieces of whole games (:func:`zrec.notation.chunks.cut`); worker
processes read and check the pieces, each as the reader would read that part of the
whole file (its lines numbered as in the file), and send back only what the report
shows: the counts of the piece and each problem as text, cut around its game number,
which the worker does not know (games are numbered from 1 in a piece).  The main
process writes the problems in file order, each with its game number in the file, so
the report is the same, byte for byte, as with one process.  At most a few pieces per
worker are in flight: memory stays flat however long the file is.

Workers are forked where the system allows it (they start at once, with everything
already imported), else spawned.  They ignore Ctrl-C, which the main process handles;
when the main process ends early (an interrupt, SIGTERM, an error) the workers are
terminated, and on Linux a worker dies with the main process whatever ends it.
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import signal
import sys
from collections import deque
from collections.abc import Iterator
from dataclasses import astuple
from typing import TYPE_CHECKING, BinaryIO

from zrec.check.diagnostics import ShownProblem, Totals, shown_of
from zrec.check.inputs import read_with, validate_input
from zrec.check.validate import validate_record
from zrec.notation.chunks import cut
from zrec.notation.inputs import display_name, tell
from zrec.notation.reader import read_records

if TYPE_CHECKING:  # multiprocessing is imported when workers start (start-up)
    from multiprocessing.pool import AsyncResult, Pool

__all__ = ["PieceResult", "Validators", "all_cores", "check_piece", "start_worker"]

#: games in the first piece sent to a worker
FIRST_PIECE_GAMES = 200
#: bytes in each later piece, about (whole games: some 200 games of 70 plies, 60 of
#: 200): small enough that the workers end together, large enough that sending a
#: piece costs little beside checking it
PIECE_BYTES = 128_000
#: pieces in flight for each worker
AHEAD = 3
#: seconds an interrupt waits for the pool's clean-up (see :func:`_stop`)
STOP_SECONDS = 5.0

#: What a worker sends back for a piece: its counts (:class:`~zrec.check.diagnostics.
#: Totals` as a tuple) and the problems it shows, numbered by their game in the piece
PieceResult = tuple[tuple[int, ...], list[ShownProblem]]


def all_cores() -> int:
    """How many processors this process may run on."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def check_piece(task: tuple[str, int, bytes, bool, bool, dict[str, str]]) -> PieceResult:
    """Validate the games of a piece of a text file: ``(file name, the piece's first
    line number, its bytes, JSON report, errors only, the rule options to read the
    games with)``."""
    name, first, data, as_json, errors_only, reading = task
    totals = Totals()
    shown: list[ShownProblem] = []
    for record in read_records(io.BytesIO(data), name, first):
        report = validate_record(read_with(record, reading), name)
        totals.add(report)
        shown.extend(shown_of(report, as_json, errors_only))
    return astuple(totals), shown


def start_worker() -> None:
    """A worker ends with the command: SIGTERM acts as usual (not zrec's handler,
    inherited), Ctrl-C is left to the main process, and on Linux the worker is killed
    when the main process dies."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class Validators:
    """What validates the inputs of one report: this process, and with ``jobs`` over 1
    worker processes that validate pieces of text files, started when the first piece
    comes (a context manager: on leaving it the workers are gone, terminated at once
    after an error or an interrupt)."""

    def __init__(
        self, jobs: int, as_json: bool, errors_only: bool, reading: dict[str, str] | None = None
    ) -> None:
        self.jobs = jobs
        self.as_json = as_json
        self.errors_only = errors_only
        #: ``-O`` overrides: every game is read with these rule options
        self.reading = reading or {}
        self.pool: Pool | None = None

    def __enter__(self) -> Validators:
        return self

    def _start(self) -> Pool:
        """The workers, started with the first piece."""
        if self.pool is None:
            from zrec.notation.grammar import parser
            from zrec.rules import all_games

            parser()  # built and imported once, before the workers are forked
            all_games()
            # what is imported stays out of the workers' garbage collections: they do
            # not touch (and so copy) the pages they share with the main process
            gc.freeze()
            import multiprocessing

            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
            self.pool = context.Pool(self.jobs, initializer=start_worker)
        return self.pool

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        pool, self.pool = self.pool, None
        if pool is None:
            return
        if kind is not None:  # an interrupt or an error: the workers stop at once
            _stop(pool)
            return
        try:
            pool.close()  # every piece is checked: the workers end
            pool.join()
        except BaseException:
            _stop(pool)
            raise
        # the pool's clean-up, called here rather than left to the garbage collector when
        # the pool is dropped: an interrupt that comes while it runs is then raised, not
        # printed as "Exception ignored" and lost (exit 0)
        pool.terminate()
        pool.join()

    def problems(
        self, source: bytes | BinaryIO, file: str, totals: Totals
    ) -> Iterator[tuple[list[ShownProblem], int]]:
        """The problems of one input (``file``: its name, ``-`` for standard input), a
        game at a time (with ``jobs`` over 1, a piece of zrec text at a time, checked by
        the workers), each with the number of the input's games before it: the
        problems' game numbers count from there.  Each game is counted in ``totals``
        before its problems are given."""
        name = display_name(file)
        is_json: bool | None = None  # (told here only for the workers)
        if self.jobs > 1:
            is_json, stream = tell(source, file)
            if not is_json:
                games = 0
                for part, shown in self.pieces(stream, name):
                    totals.merge(part)
                    yield shown, games
                    games += part.games
                return
            source = stream
        for game in validate_input(source, file, name, self.reading, is_json):
            totals.add(game.report)
            yield shown_of(game.report, self.as_json, self.errors_only), 0

    def pieces(self, stream: BinaryIO, name: str) -> Iterator[tuple[Totals, list[ShownProblem]]]:
        """The counts and the problems of each piece of a text file, in file order;
        the problems' game numbers count in their piece."""
        waiting: deque[AsyncResult[PieceResult]] = deque()
        for first, data in cut(stream, FIRST_PIECE_GAMES, PIECE_BYTES):
            task = (name, first, data, self.as_json, self.errors_only, self.reading)
            waiting.append(self._start().apply_async(check_piece, (task,)))
            if len(waiting) >= self.jobs * AHEAD:
                yield _piece(waiting.popleft().get())
        while waiting:
            yield _piece(waiting.popleft().get())


def _stop(pool: Pool) -> None:
    """Stop the workers at once, waiting for the pool's clean-up at most
    :data:`STOP_SECONDS`.  ``Pool.terminate`` stops the workers, then waits for its task
    thread, which waits forever when a worker was stopped while it held the lock of the
    results' queue (1 interrupt in 30 under load hung so); the workers are stopped by
    then, and the threads end with the process."""
    import threading

    stopping = threading.Thread(target=pool.terminate, name="zrec-stop-workers", daemon=True)
    stopping.start()
    stopping.join(STOP_SECONDS)


def _piece(piece: PieceResult) -> tuple[Totals, list[ShownProblem]]:
    counts, shown = piece
    return Totals(*counts), shown
