"""Validating and indexing games in several processes, for ``import --jobs N``.

The text of a file is cut into pieces of a few hundred games, only where a game surely
begins: at a line that opens with ``[`` after a blank line, when the text before ends
with a result token outside any comment (a brace anywhere on a tag line, or a ``;``,
counts as a comment that may still be open: no cut there).  The reader would start a
new game there too, so each piece read on its own gives the same records as the whole
file read at once; where the cutter is unsure it does not cut, and the piece only
grows.  Worker processes
read, validate and index the pieces (:func:`zrec.archive.facts.facts_of`); the
importing process numbers the games and their lines as in the whole file and stores
them in file order, so reports and the archive are the same as with one process.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import io
import multiprocessing
import re
import signal
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import BinaryIO

from zrec.archive.facts import Facts, facts_of
from zrec.notation.reader import read_records

__all__ = ["cut", "parallel_facts"]

#: games in one piece sent to a worker
PIECE = 250
_RESULT = re.compile(rb"(?:^|\s)(?:\d+(?:/\d+)?(?:-\d+(?:/\d+)?)+|\*)\s*$")


def cut(stream: BinaryIO, games: int = PIECE) -> Iterator[tuple[int, bytes]]:
    """Pieces of a text file, each ``(its first line number, its bytes)``."""
    lines: list[bytes] = []
    first = 1
    number = 0
    in_comment = False
    blank_before = False
    ended = False  # the last text line ended with a result token, outside a comment
    begun = 1  # games begun in this piece (the first begins it)
    for raw in stream:
        number += 1
        text = raw.strip()
        if not text:
            blank_before = True
            lines.append(raw)
            continue
        tag_line = not in_comment and raw[:1] == b"["
        if tag_line and blank_before and ended:
            begun += 1
            if begun > games:
                yield first, b"".join(lines)
                lines, first, begun = [], number, 1
        if tag_line:
            ended = False
            if b"{" in text:  # maybe a comment opened after the tag (or a brace in its
                in_comment = _comment_after(text, False)  # value): unsure, so no cut
        else:
            line_comment = not in_comment and b";" in text
            if line_comment:  # the rest of the line is a comment (or unsure: no cut)
                text = text[: text.index(b";")]
            in_comment = _comment_after(text, in_comment)
            ended = not line_comment and not in_comment and _RESULT.search(text) is not None
        blank_before = False
        lines.append(raw)
    if lines:
        yield first, b"".join(lines)


def _comment_after(text: bytes, in_comment: bool) -> bool:
    """Whether a comment is open after this line (comments do not nest)."""
    at = 0
    while True:
        if in_comment:
            at = text.find(b"}", at)
            if at < 0:
                return True
            in_comment = False
        else:
            at = text.find(b"{", at)
            if at < 0:
                return False
            in_comment = True
        at += 1


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
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_worker_start) as pool:
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


def _worker_start() -> None:
    """A worker ends with the import: SIGTERM and SIGINT act as usual (not zrec's
    handlers, inherited), and on Linux the worker is killed when the import is."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the importing process decides
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _methods() -> list[str]:
    return multiprocessing.get_all_start_methods()
