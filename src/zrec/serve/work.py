"""Expensive work in one bounded pool, under a budget, so that cheap pages never wait
behind it.

The routes that read, check or replay records sent to them or walk many stored games
(``POST /api/validate``, ``/api/position``, ``/api/edit``, ``/api/json``,
``/api/record``, ``/api/reply``, ``GET /api/tree``, ``/explorer`` and its board, a
search by moves, position or material) hand that work to :func:`run`.  It runs there
in one of :data:`WORKERS` worker *processes* (not threads: the work is Python that
holds the interpreter's lock, and a single thread of it made the game page of the same
process ten times slower), one piece of work at a time each:

- at most :data:`QUEUE` requests wait for a worker; another is answered 503 ``busy``
  with ``Retry-After`` (:data:`RETRY_AFTER` seconds), as is one that waited
  :data:`WAIT_SECONDS` without a worker;
- at most :data:`CLIENT_AT_ONCE` of one client's requests wait or run at once (the
  client as :func:`client_key` names it); another is answered 429
  ``too-many-requests`` with ``Retry-After``;
- a request has a budget of :data:`WORK_SECONDS` (or its route's own) from its
  arrival, its wait included; the work is given what is left and checks it as it goes
  (:mod:`zrec.budget`: at every move replayed, and every few thousand steps of a
  SQLite query); work past it is stopped and answered 422 ``over-budget``;
- a client that leaves (its connection closed) while its work waits or runs: the work
  is dropped or stopped at its next check, and the worker is free again;
- a worker that has not stopped :data:`GRACE` seconds after its budget or its
  client left (work in a step that does not check) is killed and replaced;
- a request refused (429, 503) is refused before its body is read, and answered after
  :data:`REFUSE_DELAY` (:func:`refused`): a client that asks again at once is slowed,
  and costs the server little;
- the workers run at a lower priority (:data:`NICE`) than the server's process, which
  answers the cheap pages.

The workers start with the first request that needs one; they are the server's
children and end with it.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import multiprocessing
import sqlite3
import traceback
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any

from zrec.serve.access import client_key
from zrec.serve.problems import ApiError

if TYPE_CHECKING:  # (a worker process imports this module: no more than it needs)
    from starlette.requests import Request

__all__ = [
    "CLIENT_AT_ONCE",
    "GRACE",
    "QUEUE",
    "REFUSE_DELAY",
    "RETRY_AFTER",
    "WAIT_SECONDS",
    "WORKERS",
    "WORK_SECONDS",
    "Pool",
    "opened",
    "pool_of",
    "refused",
    "run",
]

log = logging.getLogger("zrec.serve")

#: worker processes of the pool (a server process has its own pool)
WORKERS = 2
#: requests that may wait for a worker; another is answered 503 ``busy``
QUEUE = 16
#: requests of one client that may wait or run at once; another is answered 429
CLIENT_AT_ONCE = 4
#: seconds of work a request may take from when a worker takes it (``over-budget``)
WORK_SECONDS = 10.0
#: seconds a request may wait for a worker (within its budget); then 503 ``busy``
WAIT_SECONDS = 5.0
#: seconds the first requests may wait for the pool's workers to start
START_SECONDS = 60.0
#: seconds a worker is given to stop (past its budget, or its client gone) before it
#: is killed and replaced
GRACE = 2.0
#: how much less the workers' processes are given of the processors than the server's
#: (``nice``): a page is answered first
NICE = 10
#: seconds a request refused (429, 503) waits for its answer
REFUSE_DELAY = 0.5
#: seconds a client is asked to wait (``Retry-After``) after 503 ``busy`` or 429
RETRY_AFTER = 2


class _Gone(ApiError):
    """The client left before its answer (nobody reads this one)."""

    def __init__(self) -> None:
        super().__init__(499, "client-gone", "the client closed its connection")


class _Worker:
    """A worker process, its end of the pipe and its flag to stop (0: go on)."""

    def __init__(self, ctx: Any) -> None:
        self.conn, theirs = ctx.Pipe()
        self.flag = ctx.RawValue("b", 0)
        self.process = ctx.Process(target=_serve, args=(theirs, self.flag), daemon=True,
                                   name="zrec-serve-work")
        self.process.start()
        theirs.close()

    def answer(self) -> asyncio.Future[Any]:
        """The next message of the worker, when it comes (an :class:`EOFError` when
        the worker died)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        fd = self.conn.fileno()

        def readable() -> None:
            loop.remove_reader(fd)
            if future.done():
                return
            try:
                future.set_result(self.conn.recv())
            except (EOFError, OSError) as exc:
                future.set_exception(EOFError(str(exc)))

        loop.add_reader(fd, readable)
        future.add_done_callback(lambda _: loop.remove_reader(fd))
        return future

    def kill(self) -> None:
        with suppress(OSError, ValueError):
            self.process.kill()
            self.process.join(5)
        with suppress(OSError):
            self.conn.close()


class Pool:
    """The worker processes and the requests waiting for them (see the module)."""

    def __init__(
        self,
        workers: int = WORKERS,
        queue: int = QUEUE,
        per_client: int = CLIENT_AT_ONCE,
        seconds: float = WORK_SECONDS,
        grace: float = GRACE,
        wait: float = WAIT_SECONDS,
    ) -> None:
        self.size, self.queue, self.per_client = workers, queue, per_client
        self.seconds, self.grace, self.wait = seconds, grace, wait
        self._ctx = multiprocessing.get_context("spawn")
        self._all: list[_Worker] = []
        self._idle: list[_Worker] = []
        self._waiting: collections.deque[asyncio.Future[_Worker]] = collections.deque()
        self._clients: collections.Counter[str] = collections.Counter()
        #: whether a worker has started yet (till then a request waits for one longer:
        #: :data:`START_SECONDS`)
        self.started = False
        #: pieces of work answered, stopped (``over-budget``) and dropped (client gone)
        self.counts: collections.Counter[str] = collections.Counter()
        weakref.finalize(self, _stop_all, self._all)

    def _start(self) -> None:
        """The workers, started; each is idle once it says it is ready."""
        while len(self._all) < self.size:
            self._begin(_Worker(self._ctx))

    def _begin(self, worker: _Worker) -> None:
        self._all.append(worker)
        ready = worker.answer()

        def started(done: asyncio.Future[Any]) -> None:
            if not done.cancelled() and done.exception() is None:
                self.started = True
                self._give(worker)
            elif self.started:  # (a worker that never starts is not started again)
                self._replace(worker)
            else:
                log.error("a worker of the pool of expensive work did not start")
                worker.kill()  # (the next request tries again)
                self._all.remove(worker)

        ready.add_done_callback(started)

    def _replace(self, worker: _Worker) -> None:
        worker.kill()
        if worker in self._all:
            self._all.remove(worker)
        self._begin(_Worker(self._ctx))

    def _give(self, worker: _Worker) -> None:
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def _busy(self) -> ApiError:
        self.counts["busy"] += 1
        return ApiError(503, "busy", f"the server is busy: {self.size} requests of "
                        f"expensive work run and {self.queue} wait already; ask again "
                        "in a moment", {"Retry-After": str(RETRY_AFTER)})

    async def _take(self, gone: asyncio.Future[Any]) -> _Worker:
        self._start()
        if self._idle:
            return self._idle.pop()
        if len(self._waiting) >= self.queue:
            raise self._busy()  # (its body read: no need to close the connection)
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            await asyncio.wait({waiter, gone}, timeout=self.wait if self.started else
                               max(self.wait, START_SECONDS),
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not waiter.done():
                waiter.cancel()
                self._waiting.remove(waiter)
        if waiter.cancelled() and not gone.done():
            self.counts["busy"] += 1
            raise ApiError(503, "busy", f"the server is busy: this request waited "
                           f"{self.wait:g} s for a worker of the pool; ask again in a "
                           "moment", {"Retry-After": str(RETRY_AFTER)})
        if waiter.cancelled():
            self.counts["dropped"] += 1
            raise _Gone()
        if gone.done():  # (given a worker just as the client left: it goes on)
            self._give(waiter.result())
            self.counts["dropped"] += 1
            raise _Gone()
        return waiter.result()

    async def run(self, request: Request, seconds: float | None, body: bool,
                  fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` run by a worker for ``request``, within the limits (see the
        module); ``seconds``: its budget (``None``: the pool's); ``body``: the
        request's body read once the request is let in (not before), and given first."""
        key = client_key(request)
        if self._clients[key] >= self.per_client:
            self.counts["too-many"] += 1
            raise await refused(request, ApiError(
                429, "too-many-requests", f"{self.per_client} requests of expensive work "
                "from this client are already under way: ask again when they are answered"))
        if self._all and not self._idle and len(self._waiting) >= self.queue:
            raise await refused(request, self._busy())
        budget = self.seconds if seconds is None else seconds
        loop = asyncio.get_running_loop()
        self._clients[key] += 1
        gone: asyncio.Future[Any] | None = None
        try:
            if body:
                args = (await request.body(), *args)
            deadline, warm = loop.time() + budget, self.started
            gone = asyncio.ensure_future(_gone(request))
            worker = await self._take(gone)
            if not warm:  # (the workers' start is not the request's)
                deadline = loop.time() + budget
            return await self._on(worker, gone, budget, deadline - loop.time(), fn, args)
        finally:
            if gone is not None:
                gone.cancel()
            self._clients[key] -= 1
            if not self._clients[key]:
                del self._clients[key]

    async def _on(self, worker: _Worker, gone: asyncio.Future[Any], budget: float,
                  seconds: float, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """``fn(*args)`` run by ``worker`` within ``seconds`` (what is left of the
        request's ``budget``)."""
        worker.flag.value = 0
        answer = worker.answer()
        ok = False
        try:
            worker.conn.send((fn, args, seconds))
            await asyncio.wait({answer, gone}, timeout=seconds + self.grace,
                               return_when=asyncio.FIRST_COMPLETED)
            if not answer.done() and gone.done():
                worker.flag.value = 1  # (stopped at its next check)
                await asyncio.wait({answer}, timeout=self.grace)
            ok = answer.done() and not answer.cancelled() and answer.exception() is None
        finally:
            if ok:
                self._give(worker)
            else:
                died = answer.done() and not answer.cancelled()
                answer.cancel()
                if not died:
                    log.warning("a worker of the pool did not stop in time: replaced")
                self._replace(worker)
        if not ok:
            if gone.done():
                self.counts["dropped"] += 1
                raise _Gone()
            if answer.done() and not answer.cancelled():
                raise RuntimeError("a worker of the pool ended") from answer.exception()
            self.counts["stopped"] += 1
            raise _over(budget)
        kind, value = answer.result()
        if kind == "ok":
            self.counts["answered"] += 1
            return value
        if kind == "raise":
            self.counts["answered"] += 1
            raise value
        if kind == "stopped" and (value == "cancelled" or gone.done()):
            self.counts["dropped"] += 1
            raise _Gone()
        if kind == "stopped":
            self.counts["stopped"] += 1
            raise _over(budget)
        raise RuntimeError(f"a worker of the pool failed: {value}")


def _over(seconds: float) -> ApiError:
    return ApiError(422, "over-budget", f"the work of this request ran past its budget "
                    f"of {seconds:g} s and was stopped: send a smaller request")


async def refused(request: Request, error: ApiError) -> ApiError:
    """``error`` (429 or 503) for a request refused before its body is read, once
    :data:`REFUSE_DELAY` has passed (a client that asks again at once is slowed, and
    costs the server little), with ``Retry-After`` and, if the request has a body,
    ``Connection: close`` (the body is not read)."""
    await asyncio.sleep(REFUSE_DELAY)
    error.headers["Retry-After"] = str(RETRY_AFTER)
    if request.headers.get("content-length", "0") != "0" or "transfer-encoding" in (
            request.headers):
        error.headers["Connection"] = "close"
    return error


def _stop_all(workers: list[_Worker]) -> None:
    for worker in list(workers):
        worker.kill()


async def _gone(request: Request) -> None:
    """Returns when the client has closed its connection (the request's body, if any,
    already read)."""
    try:
        while (await request.receive())["type"] != "http.disconnect":
            pass
    except Exception:  # (a body that paused past its limit: not a client gone)
        await asyncio.Event().wait()


def pool_of(request: Request) -> Pool:
    """The pool of the application (``app.state.work``), made on first need."""
    state = request.app.state
    try:
        pool: Pool = state.work
    except AttributeError:
        pool = state.work = Pool()
    return pool


async def run(request: Request, fn: Callable[..., Any], *args: Any,
              seconds: float | None = None, body: bool = False) -> Any:
    """``fn(*args)`` (a function of a module, its arguments picklable) run in the
    application's pool for ``request``: its value, or the error it raised (an
    :class:`ApiError` as it was raised); see the module for the limits.  ``body``: the
    request's body is its first argument, read once the request is let in (a request
    refused is not read)."""
    return await pool_of(request).run(request, seconds, body, fn, *args)


@contextmanager
def opened(db: str) -> Iterator[Any]:
    """The archive at ``db``, read-only, for work in the pool: a SQLite query checks
    the work's budget every few thousand steps; a PostgreSQL query is cancelled by the
    server when the budget's time is out (``statement_timeout``)."""
    import time

    from zrec.archive import Archive
    from zrec.budget import current

    archive = Archive.open(db, read_only=True)
    try:
        budget = current()
        conn = archive.db.conn
        if budget is not None and isinstance(conn, sqlite3.Connection):
            conn.set_progress_handler(lambda: budget.spent() is not None, 20_000)
        elif budget is not None:
            # (a little past the deadline, so that the budget is spent when it fires)
            left = max(1, int((budget.deadline - time.monotonic()) * 1000) + 50)
            archive.db.rows("SELECT set_config('statement_timeout', ?, false)", (str(left),))
        yield archive
    finally:
        archive.close()


def _serve(conn: Any, flag: Any) -> None:
    """A worker process: says it is ready, then runs each piece of work sent to it
    under its budget and sends back what came of it."""
    import os

    with suppress(OSError, AttributeError):  # (the server's own process first)
        os.nice(NICE)
    import zrec.archive.store.tree  # (what the work uses, loaded before it comes)
    import zrec.check.validate
    import zrec.play.board  # noqa: F401
    from zrec.budget import Stopped, limited

    conn.send(("ready", None))
    while True:
        try:
            fn, args, seconds = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        result: tuple[str, Any]
        try:
            with limited(seconds, flag) as budget:
                try:
                    result = ("ok", fn(*args))
                except Stopped as exc:
                    result = ("stopped", exc.reason)
                except Exception as exc:
                    reason = budget.spent()  # (a query interrupted by the budget)
                    result = ("stopped", reason) if reason else ("raise", exc)
                    if not (reason or isinstance(exc, ApiError)):
                        log.error("error in the work of a request:\n%s",
                                  "".join(traceback.format_exception(exc)))
        except KeyboardInterrupt:
            return
        try:
            conn.send(result)
        except (OSError, EOFError):
            return
        except Exception:  # an error that cannot be sent back (not picklable)
            from zrec.archive.store.db import DamagedArchiveError

            error = result[1]
            if isinstance(error, DamagedArchiveError):
                conn.send(("raise", ApiError(500, "damaged-archive", str(error))))
            else:
                conn.send(("failed", str(error)))
