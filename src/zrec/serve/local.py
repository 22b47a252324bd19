"""The local recording board's owner (``zrec board``): its token, and the hosts it answers.

``zrec board`` serves on 127.0.0.1 for the person who started it, who has no account
and needs none: like a notebook server, it prints (and opens) an address holding a
secret token (``/board?token=...``, :func:`new_token`).  That address, once, gives a
signed session cookie (:mod:`zrec.serve.sessions`) that names the *owner*, who may
record and save as an editor (:func:`is_owner`); the token leaves the address
(a redirect), and a wrong one is refused in words.  No other address takes the token.

A page of another site can reach a server on 127.0.0.1 by DNS rebinding (its name
made to point at 127.0.0.1): its requests then carry its own name as ``Host``.
:class:`LocalHosts` answers 400 to any request whose ``Host`` is not ``localhost``,
``127.0.0.1`` or ``[::1]`` (with any port), before any route reads or writes.
"""

from __future__ import annotations

import hmac
import re
import secrets
from typing import Any

from fastapi import Request

from zrec.serve.sessions import Session

__all__ = ["OWNER", "LocalHosts", "is_owner", "new_token", "owner_session"]

#: the name the owner is shown under (no account of the archive: the owner has none)
OWNER = "you (zrec board)"
#: the role of the owner: saving games and recording, as an editor
OWNER_ROLE = "editor"
#: a ``Host`` header the local board answers: a loopback name, with an optional port
_LOCAL = re.compile(r"^(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?$")


def new_token() -> str:
    """A secret token for the board's address (256 bits)."""
    return secrets.token_urlsafe(32)


def _same(given: str, expected: str) -> bool:
    """Whether two secrets are the same, in constant time (as bytes: text that is not
    ASCII is no error, only not the same)."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))


def owner_session(request: Request, token: str) -> Session | None:
    """A new session for the owner, when ``token`` is the board's; else ``None``
    (a server not started by ``zrec board`` has no owner and takes no token)."""
    expected: str | None = request.app.state.owner_token
    if expected is None or not _same(token, expected):
        return None
    return Session.new(request.app.state.owner_session)


def is_owner(request: Request, session: Session | None) -> bool:
    """Whether ``session`` is the owner's (given by the token of this server)."""
    owner: str | None = request.app.state.owner_session
    return (owner is not None and session is not None and session.id is not None
            and _same(session.id, owner))


class LocalHosts:
    """ASGI middleware: 400, in words, for a request whose ``Host`` is not this
    machine's loopback name (a DNS-rebinding page's request)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            host = ""
            for name, value in scope.get("headers", []):
                if name == b"host":
                    host = value.decode("latin-1")
                    break
            if not _LOCAL.match(host):
                from fastapi.responses import PlainTextResponse

                shown = host if host.isprintable() and len(host) <= 100 else repr(host[:100])
                answer = PlainTextResponse(
                    f"zrec board answers only to localhost, 127.0.0.1 or [::1] (the Host "
                    f"this request names is {shown or 'missing'}): open the address "
                    "zrec board printed\n", status_code=400)
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)
