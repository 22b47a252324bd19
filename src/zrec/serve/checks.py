"""The server's checks: a record sent to it, and the server itself.

- ``POST /api/validate``: a record (zrec text or JSON) in the body, checked as
  ``zrec validate --format json`` checks standard input, and its report (the work runs
  in the pool of expensive work, :mod:`zrec.serve.work`);
- ``GET /api/health``: ``{"ok": true, "db": "sqlite"|"postgresql"}``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Query as Param
from fastapi.responses import Response

from zrec.serve.errors import ERROR
from zrec.serve.opening import Reader, settings_of
from zrec.serve.templating import JsonText

__all__ = ["router", "validation_text"]


router = APIRouter(prefix="/api", tags=["api"])


@router.get("/health", summary="Whether the server can read its archive")
def health(request: Request, archive: Reader) -> dict[str, Any]:
    archive.db.value("SELECT id FROM games LIMIT 1")  # (opened, and its tables read)
    return {"ok": True, "db": settings_of(request).dialect}


@router.post(
    "/validate",
    summary="Check a record (as zrec validate --format json)",
    response_class=JsonText,
    responses={413: ERROR},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"text/plain": {"schema": {"type": "string"}}},
        }
    },
)
async def validate(
    request: Request,
    name: Annotated[str, Param(max_length=200, description="The record's file name.")] = "-",
) -> Response:
    from zrec.serve.work import run

    # checked in the pool of expensive work: the server goes on answering meanwhile
    return JsonText(await run(request, validation_text, name, body=True))


def validation_text(body: bytes, name: str = "-") -> str:
    """What ``zrec validate --format json NAME`` prints for a file holding ``body``
    (``-``: standard input, named ``<stdin>``)."""
    from zrec.check.diagnostics import ReportWriter, Totals
    from zrec.check.parallel import Validators

    out: list[str] = []
    writer = ReportWriter(out.append, True)
    totals = Totals()
    with Validators(1, True, False) as validators:  # (in this process: no workers)
        for shown, games_before in validators.problems(body, name, totals):
            writer.problems(shown, games_before)
    writer.end(totals)
    return "".join(out)
