"""Errors as answers: JSON under ``/api``, a page elsewhere, never a traceback.

Every error has a stable code (the API's clients test it) and a message in words:

========================  ======  ==============================================
code                      status  when
========================  ======  ==============================================
``bad-request``           400     a parameter is missing or of the wrong kind
``bad-search``            400     a search that cannot be run (its message says why)
``bad-event-query``       400     a round or tie-break an event cannot take
``bad-tree``              400     an opening tree that cannot be made (the tree's words)
``bad-node``, ``bad-roll``,  400  a node, roll, clicks, move or edit the recording
``bad-clicks``, ``bad-move``,     board's record cannot take (:mod:`zrec.play.board`,
``illegal-move``, ``bad-edit``    :mod:`zrec.play.editing`)
``bad-player``,           400     a player ``POST /api/reply`` does not know or a
``player-refuses``,               budget over the web's limit, a player that cannot
``game-over``, ``no-move``        play the game, a game over, no move found
``bad-game``,             400     a live game that cannot be made or changed: an
``bad-options``,                  unknown game or option, seats or users, a clock,
``bad-seats``,                    a seat or an action it does not have, a round
``bad-clock``, ``bad-seat``,      with no board to play (:mod:`zrec.serve.live`)
``bad-action``, ``bad-round``
``not-your-seat``         403     a live game's move, action or seat not the user's
``not-your-turn``,        409     a live game that cannot take it now: another
``seats-open``,                   seat's turn, a seat open or taken, resigning
``seat-taken``,                   before the first move, aborting after it, no draw
``too-early``,                    offered, the game over (``game-over``)
``too-late``, ``no-offer``
``too-many-games``        429     a user who plays too many live games at once
``invalid-record``        422     a record sent to the board that does not validate
``record-too-long``       422     a record sent to the board with more moves than it
                                  takes (:data:`zrec.serve.board_records.MAX_MOVES`)
``search-too-long``       422     a player's search that ran past its time
``over-budget``           422     work that ran past its request's budget
                                  (:mod:`zrec.serve.work`)
``no-engine``             422     a record of a game zrec has no rules for, to the board
``login-needed``          401     a write by nobody logged in (a page: a redirect
                                  to ``/login``)
``bad-token``             401     an API token that is not (or no longer) valid
``forbidden``             403     a write the user's role does not allow
``csrf``                  403     a form without its session's CSRF token
``not-found``             404     no such page, game, event or player
``method-not-allowed``    405     the address takes another method
``too-large``             413     a body over the limit (:data:`zrec.serve.app.MAX_BODY`)
``too-slow``              408     a body that stopped coming
``bad-import``            400     an import that cannot be read (no text, no file)
``bad-bye``               400     a bye the event cannot take (the message says why)
``bad-result``            400     a result the event's form cannot record (the message
                                  says which field and why)
``too-many-logins``       429     too many failed logins (``Retry-After`` says when)
``too-many-requests``     429     too many of one client's expensive requests at once
                                  (``Retry-After``)
``busy``                  503     too many searches of players, or requests of
                                  expensive work, at once (``Retry-After``)
``archive-busy``          503     another writer (an import) held the archive
                                  for longer than a write of the web waits
                                  (``Retry-After`` says when to try again)
``archive-unavailable``   503     the archive cannot be opened or read
``damaged-archive``       500     the archive is damaged
``internal-error``        500     anything else (the server's log has the details)
========================  ======  ==============================================
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from zrec.archive.store.db import ArchiveBusyError, ArchiveError, DamagedArchiveError
from zrec.serve.problems import ApiError

__all__ = ["ERROR", "ApiError", "install_handlers", "not_found", "words"]

#: how an error answer is described in ``/openapi.json``
ERROR = {"description": "An error: {\"error\": {\"code\": ..., \"message\": ...}}"}

log = logging.getLogger("zrec.serve")

#: seconds an ``archive-busy`` answer says to wait before trying again
BUSY_RETRY = 5

_STATUS_CODES = {
    400: "bad-request", 404: "not-found", 405: "method-not-allowed", 413: "too-large",
    408: "too-slow",
}


def not_found(message: str) -> ApiError:
    return ApiError(404, "not-found", message)


def answer(request: Request, status: int, code: str, message: str) -> Response:
    """The error as the client gets it: JSON under ``/api`` (and for ``/openapi.json``),
    else a page (for a page that needs a login: a redirect to ``/login``)."""
    page = not request.url.path.startswith("/api")
    if page and status == 401 and code == "login-needed":
        from fastapi.responses import RedirectResponse

        from zrec.serve.templating import url_part

        back = request.url.path if request.method in ("GET", "HEAD") else "/"
        return RedirectResponse("/login?next=" + url_part(back), status_code=303)
    form = request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    )
    if page and (request.method in ("GET", "HEAD") or form):
        from zrec.serve.templating import render

        return render(
            request, "error.html", status=status, title=f"{status}: {code}", message=message
        )
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def words(errors: Any) -> str:
    """A validation error of FastAPI in words: ``limit: Input should be ...``."""
    parts = []
    for error in errors:
        where = ".".join(str(p) for p in error.get("loc", ()) if p not in ("query", "path"))
        parts.append(f"{where}: {error.get('msg', 'invalid')}" if where else error.get("msg"))
    return "; ".join(parts) or "the request is not valid"


def install_handlers(app: FastAPI) -> None:
    """The exception handlers of the application."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> Response:
        response = answer(request, exc.status, exc.code, exc.message)
        response.headers.update(exc.headers)
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        return answer(request, 400, "bad-request", words(exc.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = _STATUS_CODES.get(exc.status_code, "http-error")
        message = {
            404: f"there is nothing at {request.url.path}",
            405: f"{request.url.path} does not take {request.method}",
        }.get(exc.status_code, str(exc.detail))
        return answer(request, exc.status_code, code, message)

    @app.exception_handler(ArchiveError)
    async def archive_error(request: Request, exc: ArchiveError) -> Response:
        if isinstance(exc, DamagedArchiveError):
            log.error("damaged archive: %s", exc)
            return answer(request, 500, "damaged-archive", str(exc))
        if isinstance(exc, ArchiveBusyError):
            busy = answer(request, 503, "archive-busy", "the archive is busy with another "
                          "writer (an import?): nothing was changed; try again in a few "
                          "seconds")
            busy.headers["Retry-After"] = str(BUSY_RETRY)
            return busy
        return answer(request, 503, "archive-unavailable", str(exc))

    @app.exception_handler(ClientDisconnect)
    async def left(request: Request, exc: ClientDisconnect) -> Response:
        # (a body shorter than its Content-Length, then the connection closed: one line,
        # no traceback; the answer goes nowhere)
        log.warning("%s %s: the client left before its whole body came",
                    request.method, request.url.path)
        return Response(status_code=400)

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> Response:
        # (Starlette answers this outside the middleware that adds the security headers:
        # they are added here, and a page that fails again is answered as JSON)
        from zrec.serve.headers import HEADERS

        log.exception("error in %s %s", request.method, request.url.path)
        message = "the server failed to answer (its log says why)"
        try:
            response = answer(request, 500, "internal-error", message)
        except Exception:
            log.exception("error in the error page of %s %s", request.method,
                          request.url.path)
            response = JSONResponse({"error": {"code": "internal-error", "message": message}},
                                    status_code=500)
        for name, value in HEADERS:
            if name.decode() not in response.headers:
                response.headers[name.decode()] = value.decode()
        return response
