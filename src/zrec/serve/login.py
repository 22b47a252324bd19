"""Logging in and out: ``/login`` (a form: name and password) and ``POST /logout``.

A login that succeeds starts a session (:mod:`zrec.serve.sessions`) with a new CSRF
token and goes on to the page it came from (``next``, a path of this site), and marks
the browser as one that name has logged in from (its device cookie,
:func:`zrec.serve.sessions.write_device`).  Logins are counted in the archive before
the password is checked (:mod:`zrec.archive.logins`), so the limits hold for every
worker and for logins sent at once: a client (its address, :func:`client_key`, or its
device cookie) that failed 5 times for a name in 15 minutes, an address that failed
20 times, or any client the name never logged in from once the name failed 20 times
from such clients, is answered 429 with ``Retry-After``, even with the right password,
until the oldest failure is 15 minutes old; a browser the name has logged in from is
held only by its own failures.  The password is never logged or shown.
Logging out ends the session in the archive too (:func:`zrec.archive.logins.end_session`),
so that a copy of its cookie is no longer a session.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Query as Param
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from zrec.archive import Archive
from zrec.serve.access import Caller, caller, check_csrf, client_key
from zrec.serve.opening import Writer
from zrec.serve.sessions import Session, device_of, read, write, write_device
from zrec.serve.templating import render

__all__ = ["router"]

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

    from zrec.archive.accounts import name_key

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
    from zrec.archive.accounts import authenticate
    from zrec.archive.logins import begin_login, start_session, succeeded

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

    from zrec.archive.logins import end_session

    session = read(request)
    await check_csrf(request, Caller(session=session))
    if session is not None and session.id is not None:
        await run_in_threadpool(end_session, archive, session.id)
    answer = RedirectResponse("/", status_code=303)
    write(request, answer, None)
    return answer

