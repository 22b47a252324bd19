"""Stored games replayed from their text, in order, in this process or in several, for
``archive check --jobs N`` and for the migrations that build an index again.

:func:`replayed` takes the games as the check reads them (id, what it read, the text)
and gives each back with its facts (:func:`zrec.archive.store.facts.facts_of` of the
text, as an import makes them); a game whose text could not be read passes through with
no facts.  With ``jobs`` above 1 the texts are sent to worker processes a few hundred at
a time, a few such pieces ahead of the game being compared, so memory stays flat and
the results come back in the archive's order, the same as in one process.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

from zrec.archive.store.facts import Facts, facts_of
from zrec.check.parallel import start_worker
from zrec.notation.reader import read_string

__all__ = ["refacts", "replayed", "stored_facts"]

T = TypeVar("T")

#: games sent to a worker at a time
PIECE = 250
#: pieces in flight for each worker
AHEAD = 3


def refacts(text: str) -> Facts | None:
    """The facts of a stored text (``None``: it holds no record)."""
    for record in read_string(text, "<archive>"):
        return facts_of(record, "<archive>")
    return None


def stored_facts(db: Any) -> Iterator[tuple[int, Facts]]:
    """Every valid, checked stored game (its id and the facts of its text), in id
    order, read a thousand at a time: what a migration replays to build an index again
    (:func:`zrec.archive.store.posindex.rebuild`, :func:`zrec.archive.store.lines.rebuild`)."""
    from zrec.archive.store.packing import Texts

    texts = Texts(db)
    last = 0
    while True:
        rows = db.rows(
            "SELECT id, text FROM games WHERE valid = 1 AND checked = 1 AND id > ? "
            "ORDER BY id LIMIT 1000",
            (last,),
        )
        if not rows:
            return
        for gid, text in rows:
            last = int(gid)
            fact = refacts(texts.unpack(text))
            if fact is not None:
                yield last, fact


def _work(texts: list[str | None]) -> list[Facts | None]:
    return [None if text is None else refacts(text) for text in texts]


def replayed(
    games: Iterable[tuple[int, T, str | None]], jobs: int = 1
) -> Iterator[tuple[int, T, Facts | None]]:
    """Each game (id, what was read, its text or ``None``) with the facts of its text,
    in the order given."""
    if jobs <= 1:
        for gid, read, text in games:
            yield gid, read, None if text is None else refacts(text)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=start_worker) as pool:
        waiting: deque[tuple[list[tuple[int, T]], Future[list[Facts | None]]]] = deque()
        piece: list[tuple[int, T, str | None]] = []

        def send() -> None:
            future = pool.submit(_work, [text for _, _, text in piece])
            waiting.append(([(gid, read) for gid, read, _ in piece], future))
            piece.clear()

        def done() -> Iterator[tuple[int, T, Facts | None]]:
            held, future = waiting.popleft()
            for (gid, read), fact in zip(held, future.result(), strict=True):
                yield gid, read, fact

        for game in games:
            piece.append(game)
            if len(piece) >= PIECE:
                send()
                if len(waiting) >= jobs * AHEAD:
                    yield from done()
        if piece:
            send()
        while waiting:
            yield from done()
