"""How a request opens the archive: the one way, and why it is this way.

Every route that reads takes the archive from the dependency :data:`Reader`
(:func:`reader`), every route that writes from :data:`Writer` (:func:`writer`); no
route opens it by hand.  The rest of the server that must read or write outside a
route's own work uses the same two openings: who asks (:func:`zrec.serve.access.caller`)
borrows a kept read-only connection (:func:`reading`), the session key is read once a
process through :func:`writing`.  The pool of expensive work runs in other *processes*,
which open their own (:func:`zrec.serve.work.opened`: a connection cannot cross a
process).

Why a dependency, and why these two:

- a connection is used by one thread at a time.  Python's :mod:`sqlite3` refuses, by
  default, a connection used in a thread other than the one that made it; FastAPI moves
  a request between threads: a sync dependency and a sync route run in its thread pool,
  an async route and an async dependency in the event loop's thread, and an async route
  hands its blocking work to the pool (``run_in_threadpool``).  So the archive's
  connections are made with ``check_same_thread=False``, and each request holds its own
  connection, which only the thread doing that request's step at the time uses; no
  connection is shared by two requests at once (a kept one is taken out of the kept
  list while a request has it).  A dependency is what gives a request its own and
  closes it after, whatever the route raised.
- reading: :func:`reader` is async and keeps connections between requests (a new
  PostgreSQL connection costs the server a process; see :data:`_IDLE`): a request whose
  connection is kept is handed to no thread to open it.  Each request still reads
  afresh: a kept connection holds no transaction, and its cached dictionaries are
  dropped.
- writing: :func:`writer` opens the archive read-write for one request and closes it
  after (a writer is not kept: each write waits for another writer
  :data:`WEB_WAIT` seconds at most, then 503 ``archive-busy``).  A route that writes
  declares who may write first (:func:`zrec.serve.access.needs`), so a request refused
  opens nothing.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from starlette.concurrency import run_in_threadpool

from zrec.archive import Archive

__all__ = ["WEB_WAIT", "Reader", "Settings", "Writer", "reader", "reading", "settings_of",
           "writer", "writing"]

#: seconds a write of the web waits for another writer (an import commits every half
#: second or so) before it is answered 503 ``archive-busy``
WEB_WAIT = 5.0


@dataclass(frozen=True, slots=True)
class Settings:
    """What the application was made with: the archive, and the seconds a write waits
    for another writer (:data:`WEB_WAIT`)."""

    db: str
    wait: float = WEB_WAIT

    @property
    def dialect(self) -> str:
        from zrec.archive.store.db import is_url

        return "postgresql" if is_url(self.db) else "sqlite"


def settings_of(request: Request) -> Settings:
    found: Settings = request.app.state.settings
    return found


#: read-only connections this worker keeps between requests, by archive: a new
#: PostgreSQL connection costs the server a process of its own (the game page's p99
#: under 50 clients was 347 ms with a connection a request), a new SQLite one 0.5 ms of
#: CPU (a seventh of a request); each request still reads afresh (a connection holds
#: no transaction between requests, and the cached dictionaries are dropped)
_IDLE: dict[str, list[Archive]] = {}
#: the most kept: PostgreSQL, against the server's connection limit; SQLite, about as
#: many as there are requests under way at once (each waits its turn with its archive)
_IDLE_MOST = {"postgresql": 8, "sqlite": 64}
_idle_lock = threading.Lock()


async def reader(request: Request) -> AsyncIterator[Archive]:
    """The archive, opened read-only for one request and closed after it (its
    connection kept by this worker for another request).  Async, so that a request
    whose connection is kept is not handed to a thread three times (to open, to answer,
    to close) but once: that cut the CPU of a request by a fifth."""
    db = settings_of(request).db
    archive = _idle(db)
    if archive is None:
        archive = await run_in_threadpool(Archive.open, db, read_only=True)
    with _lent(db, archive):
        yield archive


@contextmanager
def reading(db: str) -> Iterator[Archive]:
    """The archive read-only on a kept connection (as :func:`reader` gives a route),
    for a step of a request that runs in one thread (who asks)."""
    with _lent(db, _idle(db) or Archive.open(db, read_only=True)) as archive:
        yield archive


@contextmanager
def _lent(db: str, archive: Archive) -> Iterator[Archive]:
    """A read-only connection lent to a request: kept for another one after, unless
    the request failed (the connection may be in any state then) or it cannot be kept
    (:func:`_keep`), when it is closed."""
    done = False
    try:
        yield archive
        done = True
    finally:
        if not (done and _keep(db, archive)):
            archive.close()


def _usable(archive: Archive) -> bool:
    """Whether a kept connection may serve another request: not closed, not broken
    (PostgreSQL), in no transaction."""
    conn = archive.db.conn
    if archive.db.dialect == "sqlite":
        try:
            return not conn.in_transaction
        except sqlite3.ProgrammingError:  # closed
            return False
    return not (conn.closed or conn.broken)


def _idle(db: str) -> Archive | None:
    """A kept connection to ``db`` that is still open, its cached dictionaries dropped
    (another process may have added some)."""
    with _idle_lock:
        idle = _IDLE.get(db, [])
        while idle:
            archive = idle.pop()
            if _usable(archive):
                archive.texts.forget()
                return archive
            archive.close()
    return None


def _keep(db: str, archive: Archive) -> bool:
    with _idle_lock:
        idle = _IDLE.setdefault(db, [])
        if len(idle) >= _IDLE_MOST[archive.db.dialect] or not _usable(archive):
            return False
        idle.append(archive)
        return True


@contextmanager
def writing(settings: Settings) -> Iterator[Archive]:
    """The archive opened read-write, its writes waiting for another writer
    ``settings.wait`` seconds at most (then 503 ``archive-busy``), closed after."""
    archive = Archive.open(settings.db, wait=settings.wait)
    try:
        yield archive
    finally:
        archive.close()


def writer(request: Request) -> Iterator[Archive]:
    """The archive, opened read-write for one request that writes, closed after it."""
    with writing(settings_of(request)) as archive:
        yield archive


Reader = Annotated[Archive, Depends(reader)]
Writer = Annotated[Archive, Depends(writer)]
