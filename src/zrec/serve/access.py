"""Who asks, and what they may do.  (The archive a request reads or writes is given by
the dependencies of :mod:`zrec.serve.opening`.)

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

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from zrec.serve.opening import reading, settings_of
from zrec.serve.problems import ApiError
from zrec.serve.sessions import Session, same_secret

__all__ = ["Caller", "Who", "caller", "check_csrf", "client_key", "needs"]


#: the header a script sends the CSRF token in when it posts with a session cookie
CSRF_HEADER = "x-csrf-token"


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
        from zrec.serve.accounts import User

        return self.name is not None and User(self.name, self.role, "").may(action)


def client_key(request: Request) -> str:
    """Who sends a request, for every limit per client: its address as the server sees
    it.  That is the connection's peer, unless ``zrec serve --forwarded-allow-ips``
    names the peer as a proxy to trust: then uvicorn has put the address the proxy
    gives (``X-Forwarded-For``) in its place.  Headers of any other peer are ignored, so
    a client cannot claim to be many."""
    return request.client.host if request.client is not None else "?"


def _bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def _find(request: Request) -> Caller:
    from zrec.serve.accounts import expired_token, user_for_token
    from zrec.serve.local import OWNER, OWNER_ROLE, is_owner
    from zrec.serve.sessions import read, session_user

    token = _bearer(request)
    session = read(request) if token is None else None
    if token is None and is_owner(request, session):  # (zrec board's owner)
        return Caller(OWNER, OWNER_ROLE, session=session)
    if token is None and (session is None or session.id is None):
        return Caller(session=session)  # (no query: anonymous)
    with reading(settings_of(request).db) as archive:
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


Who = Annotated[Caller, Depends(caller)]
