"""The JSON API, under ``/api``: each answer is what the matching command prints.

- ``GET /api/games``: the games that match the filters (:mod:`zrec.serve.finding`),
  as ``zrec archive search --format json`` prints them; the header ``X-Total-Count``
  says how many match in all;
- ``GET /api/games/{id}``: one game as zrec JSON, as ``zrec convert --to json``
  writes it (the one element of its array);
- ``GET /api/events/{name}/standings``: as ``zrec archive standings --format json``
  (``round``, ``tiebreaks`` and ``regulations`` as its options);
- ``GET /api/events/{name}/pairings``: the event's stored pairings, an object of
  each round's array (as ``zrec archive schedule --format json`` prints them);
- ``POST /api/validate``: a record (zrec text or JSON) in the body, checked as
  ``zrec validate --format json`` checks standard input, and its report;
- ``GET /api/health``: ``{"ok": true, "db": "sqlite"|"postgresql"}``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from fastapi import Query as Param
from fastapi.responses import Response

from zrec.serve.access import Reader, settings_of
from zrec.serve.errors import ApiError, not_found
from zrec.serve.events import loaded, pairings_text, ranking, standings_text
from zrec.serve.finding import Filters, filters, find_for, search_text

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["api"])

_JSON = "application/json"
_ERROR = {"description": "An error: {\"error\": {\"code\": ..., \"message\": ...}}"}


class JsonText(Response):
    """JSON already written (byte for byte what the command prints)."""

    media_type = _JSON


@router.get("/health", summary="Whether the server can read its archive")
def health(request: Request, archive: Reader) -> dict[str, Any]:
    archive.db.value("SELECT id FROM games LIMIT 1")  # (opened, and its tables read)
    return {"ok": True, "db": settings_of(request).dialect}


@router.get(
    "/games",
    summary="Search the games (as zrec archive search --format json)",
    response_class=JsonText,
    responses={400: _ERROR},
)
async def games(
    request: Request, archive: Reader, f: Annotated[Filters, Depends(filters)]
) -> Response:
    found = await find_for(request, archive, f)
    return JsonText(search_text(found), headers={"X-Total-Count": str(found.total)})


@router.get(
    "/games/{gid}",
    summary="One game as zrec JSON (as zrec convert --to json)",
    response_class=JsonText,
    responses={404: _ERROR},
)
def game(archive: Reader, gid: Annotated[int, PathParam(ge=0, le=2**62)]) -> Response:
    from zrec.errors import ZrecError
    from zrec.notation.json.values import game_json_text
    from zrec.notation.reader import read_game

    text = archive.text_of(gid)
    if text is None:
        raise not_found(f"there is no game #{gid}")
    try:
        return JsonText("".join(game_json_text(read_game(text, f"game #{gid}"))) + "\n")
    except ZrecError as exc:  # a game kept invalid that cannot be read
        raise ApiError(422, "unreadable-game", str(exc)) from None


@router.get(
    "/events/{name:path}/standings",
    summary="An event's standings (as zrec archive standings --format json)",
    response_class=JsonText,
    responses={400: _ERROR, 404: _ERROR},
)
def standings(
    archive: Reader,
    name: str,
    round: Annotated[int | None, Param(ge=1, le=999)] = None,
    tiebreaks: Annotated[str | None, Param(max_length=200)] = None,
    regulations: Annotated[str, Param(pattern="^(2026|2024)$")] = "2026",
) -> Response:
    return JsonText(standings_text(ranking(archive, name, round, tiebreaks, regulations)))


@router.get(
    "/events/{name:path}/pairings",
    summary="An event's stored pairings (as zrec archive schedule --format json)",
    response_class=JsonText,
    responses={404: _ERROR},
)
def pairings(archive: Reader, name: str) -> Response:
    return JsonText(pairings_text(archive, loaded(archive, name)))


@router.post(
    "/validate",
    summary="Check a record (as zrec validate --format json)",
    response_class=JsonText,
    responses={413: _ERROR},
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
    from zrec.check.diagnostics import ReportWriter, Totals, shown_of
    from zrec.check.inputs import validate_input

    shown_name = "<stdin>" if name == "-" else name
    out: list[str] = []
    writer = ReportWriter(out.append, True)
    totals = Totals()
    for game in validate_input(body, name, shown_name):
        report = game.report
        totals.add(report)
        writer.problems(shown_of(report, True), 0)
    writer.end(totals)
    return "".join(out)
