"""Who asks, and the archive each request reads or writes.

:func:`reader` is the dependency of every route that reads: it gives the request the
archive read-only, on a connection the worker keeps between requests but reading
afresh (nothing of one request is kept for another), and worker processes share only
the database.  :func:`writer` opens it
read-write, for one request that writes.

:func:`caller` says who asks: the user of an API token (``Authorization: Bearer
TOKEN``), else of the session cookie (:mod:`zrec.serve.sessions`) if its session is
still in the archive (not logged out, expired, or ended by a new password or the
user's removal), else an anonymous reader.  A request without a token or a logged-in
user's cookie reads nothing to know that.  :func:`needs` makes the
dependency of a route that writes: nobody logged in gets 401 (a page: a redirect to
``/login``), a user whose role does not allow the action 403, and a form posted
without its session's CSRF token 403 (``csrf``); a request with an API token needs no
CSRF token (no browser sends one by itself).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from starlette.concurrency import run_in_threadpool

from zrec.archive import Archive
from zrec.serve.problems import ApiError
from zrec.serve.sessions import Session, same_secret

__all__ = ["WEB_WAIT", "Caller", "Reader", "Settings", "Who", "Writer", "caller", "client_key",
           "needs", "open_writer", "reader", "writer"]

#: seconds a write of the web waits for another writer (an import commits every half
#: second or so) before it is answered 503 ``archive-busy``
WEB_WAIT = 5.0

#: the header a script sends the CSRF token in when it posts with a session cookie
CSRF_HEADER = "x-csrf-token"


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


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sends a request: a name and a role (``None`` and ``"anonymous"``: nobody
    logged in, who may read), and how: ``session`` (its cookie, whose CSRF token the
    forms carry) or ``token`` (an API token)."""

    name: str | None = None
    role: str = "anonymous"
    session: Session | None = None
    token: bool = False

    @property
    def csrf(self) -> str:
        return self.session.csrf if self.session is not None else ""

    def may(self, action: str) -> bool:
        from zrec.archive.accounts import User

        return self.name is not None and User(self.name, self.role, "").may(action)


def client_key(request: Request) -> str:
    """Who sends a request, for every limit per client: its address as the server sees
    it.  That is the connection's peer, unless ``zrec serve --forwarded-allow-ips``
    names the peer as a proxy to trust: then uvicorn has put the address the proxy
    gives (``X-Forwarded-For``) in its place.  Headers of any other peer are ignored, so
    a client cannot claim to be many."""
    return request.client.host if request.client is not None else "?"


def settings_of(request: Request) -> Settings:
    found: Settings = request.app.state.settings
    return found


def _bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def _find(request: Request) -> Caller:
    from zrec.archive.accounts import expired_token, user_for_token
    from zrec.archive.logins import session_user
    from zrec.serve.local import OWNER, OWNER_ROLE, is_owner
    from zrec.serve.sessions import read

    token = _bearer(request)
    session = read(request) if token is None else None
    if token is None and is_owner(request, session):  # (zrec board's owner)
        return Caller(OWNER, OWNER_ROLE, session=session)
    if token is None and (session is None or session.id is None):
        return Caller(session=session)  # (no query: anonymous)
    archive = Archive.open(settings_of(request).db, read_only=True)
    try:
        if token is not None:
            user = user_for_token(archive, token)
            if user is None:
                ended = expired_token(archive, token)
                if ended is not None:
                    raise ApiError(401, "bad-token", f"the API token expired on {ended} (UTC): "
                                   "zrec archive users token NAME makes a new one")
                raise ApiError(401, "bad-token", "the API token is not valid (revoked, or its "
                               "user removed?): zrec archive users token NAME makes one")
            return Caller(user.name, user.role, token=True)
        assert session is not None and session.id is not None
        user = session_user(archive, session.id)
    finally:
        archive.close()
    if user is None:
        return Caller()  # logged out, or the user removed or its password changed
    return Caller(user.name, user.role, session=session)


def caller(request: Request) -> Caller:
    """Who sends ``request`` (worked out once a request)."""
    found = request.scope.get("zrec.caller")
    if not isinstance(found, Caller):
        found = _find(request)
        request.scope["zrec.caller"] = found
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


def open_writer(request: Request) -> Archive:
    """The archive opened read-write for a request, its writes waiting for another
    writer :data:`WEB_WAIT` seconds at most (then 503 ``archive-busy``)."""
    settings = settings_of(request)
    return Archive.open(settings.db, wait=settings.wait)


def writer(request: Request) -> Iterator[Archive]:
    """The archive, opened read-write for one request that writes, closed after it."""
    archive = open_writer(request)
    try:
        yield archive
    finally:
        archive.close()


async def check_csrf(request: Request, who: Caller) -> None:
    """403 ``csrf`` unless the request carries its session's CSRF token (the form field
    ``csrf`` or the header ``X-CSRF-Token``); API tokens need none."""
    if who.token:
        return
    given = request.headers.get(CSRF_HEADER)
    if given is None and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        field = (await request.form()).get("csrf")
        given = field if isinstance(field, str) else None
    if not who.csrf or not given or not same_secret(given, who.csrf):
        raise ApiError(403, "csrf", "the form's CSRF token is missing or wrong: load the "
                       "page again and send it again")


def needs(action: str) -> Callable[[Request], AsyncIterator[Caller]]:
    """The dependency of a route that does ``action`` (``import``, ``record``,
    ``remove``).  The request's form, if it was read, is closed after the route, even
    when refused: an uploaded file is a temporary file until then."""

    async def allowed(request: Request) -> AsyncIterator[Caller]:
        try:
            who = caller(request)
            if who.name is None:
                raise ApiError(401, "login-needed", f"log in to {action}: anonymous "
                               "visitors only read")
            if not who.may(action):
                raise ApiError(403, "forbidden", f"a user with the role {who.role} may "
                               f"not {action}")
            if request.method not in ("GET", "HEAD"):
                await check_csrf(request, who)
            yield who
        finally:
            await request.close()

    return allowed


Reader = Annotated[Archive, Depends(reader)]
Writer = Annotated[Archive, Depends(writer)]
Who = Annotated[Caller, Depends(caller)]
