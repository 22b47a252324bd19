"""Logging in and out: ``/login`` (a form: name and password) and ``POST /logout``, and
the limits on failed logins.

A login that succeeds starts a session (:mod:`zrec.serve.sessions`) with a new CSRF
token and goes on to the page it came from (``next``, a path of this site), and marks
the browser as one that name has logged in from (its device cookie,
:func:`zrec.serve.sessions.write_device`).  The password is never logged or shown.
Logging out ends the session in the archive too
(:func:`zrec.serve.sessions.end_session`), so that a copy of its cookie is no longer a
session.

The limits on failed logins (:func:`begin_login`, :func:`succeeded`; the archive's
table ``login_failures``) are those the OWASP Authentication Cheat Sheet advises, so
that a stranger cannot lock the right user out.  Each failure is kept with the name
tried and the *client*: the client's address (:func:`client_key`), or, for a browser
the name has logged in from before (its signed device cookie), that device.  In
:data:`WINDOW` seconds (15 minutes) a client may fail :data:`LIMIT` times (5) for one
name, an address :data:`ADDRESS_LIMIT` times (20) for any names, and a name
:data:`NAME_LIMIT` times (20) from clients it never logged in from (many addresses
guessing one password); past a limit those clients are answered 429 with
``Retry-After`` (even with the right password) until the oldest failure is 15 minutes
old, and no other client is.  A known device is held only by its own failures, so the
real user's browser logs in whatever others try.  Logins are counted in the archive,
so the limits hold for every worker; an attempt is counted *before* its password is
checked (a row noted under a lock, deleted when the password was right), so attempts
made at once are counted as they come: 40 at once for one name check at most
:data:`LIMIT` passwords.  A success forgets that client's failures for the name.
"""

from __future__ import annotations

import hashlib
import time
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Query as Param
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from zrec.archive import Archive
from zrec.serve.access import Caller, caller, check_csrf, client_key
from zrec.serve.accounts import name_key
from zrec.serve.opening import Writer
from zrec.serve.sessions import (
    Session,
    device_of,
    end_session,
    read,
    start_session,
    write,
    write_device,
)
from zrec.serve.templating import render

__all__ = ["ADDRESS_LIMIT", "DEVICE", "LIMIT", "NAME_LIMIT", "WINDOW", "begin_login",
           "retry_after", "router", "succeeded"]

#: failed logins of one name from one client (an address, or a known device) that are
#: allowed in :data:`WINDOW`
LIMIT = 5
#: failed logins from one client address (any names) allowed in :data:`WINDOW`
ADDRESS_LIMIT = 20
#: failed logins of one name from all the clients it never logged in from (any
#: addresses) allowed in :data:`WINDOW`; a device it logged in from is not held by them
NAME_LIMIT = 20
#: what the client of a failure from a known device starts with (the rest: the SHA-256
#: of the device's id), in the column ``address``
DEVICE = "device:"
#: the PostgreSQL advisory lock under which attempts are counted (SQLite: its write lock)
_COUNTING_LOCK = 7318
#: the window of the limit, in seconds (15 minutes)
WINDOW = 15 * 60

router = APIRouter(include_in_schema=False)


def _next(path: str | None) -> str:
    """Where to go after logging in: a path of this site, else the home page."""
    if (not path or not path.startswith("/") or path.startswith("//") or "\\" in path
            or not path.isprintable()):  # (a browser drops tabs: "/\t/site" is "//site")
        return "/"
    return path


def _form(request: Request, status: int, next_path: str, problem: str | None = None,
          name: str = "", headers: dict[str, str] | None = None) -> Response:
    """The login form, with a session (an anonymous one when needed) for its token."""
    session = read(request)
    fresh = session is None
    if session is None:
        session = Session.new()
    if caller(request).name is None:  # (the page's forms carry this session's token)
        request.scope["zrec.caller"] = Caller(session=session)
    page = render(request, "login.html", status=status, title="Log in", csrf=session.csrf,
                  next=next_path, problem=problem, name=name)
    if fresh:
        write(request, page, session)
    for key, value in (headers or {}).items():
        page.headers[key] = value
    return page


@router.get("/login", response_class=HTMLResponse)
def login_page(
    request: Request, next: Annotated[str | None, Param(max_length=2000)] = None
) -> Response:
    return _form(request, 200, _next(next))


@router.post("/login", response_class=HTMLResponse)
async def log_in(request: Request, archive: Writer) -> Response:
    from starlette.concurrency import run_in_threadpool

    form = await request.form()
    await check_csrf(request, Caller(session=read(request)))
    name, password, back = (form.get(k) for k in ("name", "password", "next"))
    back_path = _next(back if isinstance(back, str) else None)
    if not isinstance(name, str) or not isinstance(password, str) or not name:
        return _form(request, 400, back_path, "give a name and a password")
    device = device_of(request, name_key(name))
    outcome = await run_in_threadpool(_try, archive, name, password, client_key(request),
                                      device)
    if isinstance(outcome, int):
        minutes = (outcome + 59) // 60
        return _form(request, 429, back_path,
                     f"too many failed logins: try again in {minutes} minute"
                     f"{'s' * (minutes != 1)}", name, {"Retry-After": str(outcome)})
    if outcome is None:
        return _form(request, 401, back_path, "the name or the password is wrong", name)
    answer = RedirectResponse(back_path, status_code=303)
    write(request, answer, outcome)
    write_device(request, answer, name_key(name))
    return answer


def _try(archive: Archive, name: str, password: str, address: str,
         device: str | None) -> Session | int | None:
    """The new session of a login; seconds to wait (too many failures); ``None``:
    the name or password is wrong."""
    from zrec.serve.accounts import authenticate

    wait, attempt = begin_login(archive, name, address, device)
    if wait:
        return wait
    user = authenticate(archive, name, password)
    if user is None:
        return None  # (the attempt stays: a failure)
    with archive.db.transaction(lock=True):  # (one wait for the lock, not two)
        succeeded(archive, name, address, device, attempt)
        return Session.new(*start_session(archive, user.name))


@router.post("/logout")
async def log_out(request: Request, archive: Writer) -> Response:
    from starlette.concurrency import run_in_threadpool

    session = read(request)
    await check_csrf(request, Caller(session=session))
    if session is not None and session.id is not None:
        await run_in_threadpool(end_session, archive, session.id)
    answer = RedirectResponse("/", status_code=303)
    write(request, answer, None)
    return answer


def _client(address: str, device: str | None) -> str:
    """The client of a failure: the device (by its id's hash), else the address."""
    if device is not None:
        return DEVICE + hashlib.sha256(device.encode("utf-8", "surrogatepass")).hexdigest()
    return address[:100]

def _wait(archive: Archive, column: str, key: str, limit: int, since: float, now: float,
          more: str = "", params: tuple[str, ...] = ()) -> int:
    """Seconds until the failures of ``column = key`` (and ``more``) are fewer than
    ``limit`` in the window (0: they are)."""
    times = [float(r[0]) for r in archive.db.rows(
        f"SELECT at FROM login_failures WHERE {column} = ? AND at > ?{more} "
        "ORDER BY at DESC LIMIT ?",
        (key, since, *params, limit),
    )]
    if len(times) < limit:
        return 0
    return int(times[limit - 1] + WINDOW - now) + 1  # free when the limit-th newest leaves

def retry_after(archive: Archive, name: str, address: str, device: str | None = None,
                now: float | None = None) -> int:
    """Seconds until a login of ``name`` from ``address`` (``device``: the id of a
    device ``name`` has logged in from, else ``None``) may be tried (0: now)."""
    now = time.time() if now is None else now
    since, key, client = now - WINDOW, name_key(name)[:256], _client(address, device)
    waits = [_wait(archive, "name", key, LIMIT, since, now, " AND address = ?", (client,))]
    if device is None:
        waits.append(_wait(archive, "address", client, ADDRESS_LIMIT, since, now))
        waits.append(_wait(archive, "name", key, NAME_LIMIT, since, now,
                           " AND address NOT LIKE ?", (DEVICE + "%",)))
    return max(waits)

def begin_login(archive: Archive, name: str, address: str, device: str | None = None,
                now: float | None = None) -> tuple[int, int]:
    """Count a login before its password is checked: ``(0, attempt)`` when the password
    may be checked (the attempt, a row, counts as a failure until :func:`succeeded`
    deletes it), ``(seconds, 0)`` when the client must wait that long first.  The
    attempts are counted one at a time (a lock), so logins made at once cannot all
    pass the limits before any of them is noted."""
    now = time.time() if now is None else now
    db = archive.db
    with db.transaction(lock=db.dialect == "sqlite"):
        if db.dialect == "postgresql":
            db.execute("SELECT pg_advisory_xact_lock(?)", (_COUNTING_LOCK,))
        wait = retry_after(archive, name, address, device, now)
        if wait:
            return wait, 0
        db.execute("DELETE FROM login_failures WHERE at <= ?", (now - WINDOW,))
        attempt = db.insert(
            "INSERT INTO login_failures (name, address, at) VALUES (?, ?, ?) RETURNING id",
            (name_key(name)[:256], _client(address, device), now),
        )
    return 0, attempt

def succeeded(archive: Archive, name: str, address: str, device: str | None,
              attempt: int) -> None:
    """The login ``attempt`` of ``name`` succeeded: it is no failure, and that client's
    failures for the name are forgotten (not other clients')."""
    with archive.db.transaction():
        archive.db.execute("DELETE FROM login_failures WHERE id = ? OR (name = ? AND "
                           "address = ?)", (attempt, name_key(name)[:256],
                                            _client(address, device)))
