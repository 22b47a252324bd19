"""The web application: :func:`create_app` makes it for one archive.

FastAPI (on Starlette) is used because its routes are typed: the query parameters of
the API are checked from their annotations, and ``/openapi.json`` describes the API
from the same code.  The application adds, around every route:

- the headers of every answer (:data:`zrec.serve.headers.HEADERS`: a
  Content-Security-Policy that allows no inline script or style and no framing,
  ``nosniff``, no referrer to other sites);
- a limit on request bodies (:data:`MAX_BODY`, 2 MB): a larger body is answered 413
  before it is read (by its ``Content-Length``, or as soon as the bytes read pass the
  limit), and a body that stops coming for :data:`BODY_TIMEOUT` seconds, or is not
  whole :data:`BODY_DEADLINE` seconds after it began, is answered 408 (once the body
  has all come, the wait for the client to leave is not timed: a stream of
  :mod:`zrec.serve.live` waits so as long as it streams);
- errors as JSON under ``/api`` (``{"error": {"code": ..., "message": ...}}``, the
  codes in :mod:`zrec.serve.errors`) and as a page elsewhere; never a traceback.

The routes are grouped by resource, each module a resource's pages and their JSON
twins (:mod:`zrec.serve.games`, :mod:`~zrec.serve.events`, :mod:`~zrec.serve.players`,
:mod:`~zrec.serve.ratings`, :mod:`~zrec.serve.explorer`, :mod:`~zrec.serve.board`,
:mod:`~zrec.serve.live`, ...);
the archive a request reads or writes is given by the dependencies of
:mod:`zrec.serve.opening`, who may do what by those of :mod:`zrec.serve.access`.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

from fastapi import FastAPI

from zrec import __version__
from zrec.serve.errors import install_handlers
from zrec.serve.headers import HEADERS
from zrec.serve.local import LocalHosts, new_token
from zrec.serve.opening import Settings

__all__ = ["BODY_DEADLINE", "BODY_TIMEOUT", "DB_VARIABLE", "HEADERS", "MAX_BODY",
           "app_from_environment", "create_app"]

#: the largest request body taken, in bytes
MAX_BODY = 2 * 1024 * 1024
#: seconds a request body may pause before the request is given up (slow clients)
BODY_TIMEOUT = 30.0
#: seconds a whole request body may take (a body trickled a byte at a time)
BODY_DEADLINE = 60.0
#: where ``zrec serve --workers N`` passes the archive to each worker process
DB_VARIABLE = "ZREC_SERVE_DB"


Scope = dict[str, Any]
Message = dict[str, Any]


class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


class Guard:
    """ASGI middleware: the headers of :data:`HEADERS` on every answer, and the limits
    on request bodies (size and pauses)."""

    def __init__(self, app: Any, max_body: int = MAX_BODY, timeout: float = BODY_TIMEOUT,
                 deadline: float = BODY_DEADLINE):
        self.app, self.max_body, self.timeout = app, max_body, timeout
        self.deadline = deadline

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                own = message.get("headers", [])
                given = {name.lower() for name, _ in own}  # (a page's own CSP is kept)
                message["headers"] = [*own, *(h for h in HEADERS if h[0] not in given)]
            await send(message)

        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await self._refuse(scope, sending, 413)
            return
        seen = 0
        loop = asyncio.get_running_loop()
        end = loop.time() + self.deadline
        whole = False  # the body has all come: what is received next is the client leaving

        async def receiving() -> Message:
            nonlocal seen, whole
            if whole:  # (a stream waits for the disconnect as long as it streams)
                return dict(await receive())
            left = end - loop.time()
            try:
                message: Message = await asyncio.wait_for(receive(), min(self.timeout, left))
            except asyncio.TimeoutError:
                raise _TooSlow(left <= self.timeout) from None
            seen += len(message.get("body", b""))
            if seen > self.max_body:
                raise _TooLarge()
            whole = message.get("type") != "http.request" or not message.get("more_body")
            return message

        try:
            await self.app(scope, receiving, sending)
        except (_TooLarge, _TooSlow) as exc:
            if started:
                raise
            whole = isinstance(exc, _TooSlow) and bool(exc.args[0])
            await self._refuse(scope, sending, 413 if isinstance(exc, _TooLarge) else 408, whole)

    async def _refuse(self, scope: Scope, send: Any, status: int, whole: bool = False) -> None:
        if status == 413:
            error = ("too-large", f"the request body is larger than {self.max_body} bytes")
        elif whole:
            error = ("too-slow", f"the request body took more than {self.deadline:g} s")
        else:
            error = ("too-slow", f"the request body paused for more than {self.timeout:g} s")
        body = json.dumps({"error": {"code": error[0], "message": error[1]}}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def create_app(db: str, max_body: int = MAX_BODY, board_start: str | None = None,
               owner_token: str | None = None) -> FastAPI:
    """The application serving the archive at ``db`` (a SQLite path or a PostgreSQL
    URL); each request opens the archive and closes it after.  ``board_start``: the
    record ``/board?start=1`` opens (``zrec board FILE``), kept in memory;
    ``owner_token``: the local board's (``zrec board``, :mod:`zrec.serve.local`): its
    address with the token makes its owner an editor, and only loopback hosts are
    answered."""
    from zrec.serve import (
        assets,
        board,
        board_analyse,
        board_player,
        checks,
        events,
        explorer,
        games,
        live,
        login,
        players,
        puzzle,
        ratings,
    )

    app = FastAPI(
        title="zrec",
        version=__version__,
        description="A zrec game archive: its games, events and players, and a validator.",
        docs_url=None,  # (the interactive pages load scripts from elsewhere: not allowed)
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.state.settings = Settings(db)
    app.state.session_key = None  # (read from the archive on first need)
    app.state.board_start = board_start
    app.state.owner_token = owner_token
    app.state.owner_session = None if owner_token is None else "owner:" + new_token()
    app.state.live_hub = live.Hub()  # (the streams of live games this process serves)
    install_handlers(app)
    for resource in (checks, games, events, players, ratings, board, board_player,
                     board_analyse, puzzle, explorer, live, login, assets):
        app.include_router(resource.router)
    if owner_token is not None:
        app.add_middleware(LocalHosts)  # (inside Guard: its answer has the headers)
    app.add_middleware(Guard, max_body=max_body)
    return app


def app_from_environment() -> FastAPI:
    """The application of the archive :data:`DB_VARIABLE` names (each worker process of
    ``zrec serve --workers N`` makes its own)."""
    return create_app(os.environ[DB_VARIABLE])
