"""Writing through the server: importing games, byes, removing games.

- ``POST /api/games`` (an editor): games in the body (zrec text or JSON, told apart
  as ``zrec validate`` tells them), imported as ``zrec archive import --format json -``
  imports standard input, answering what it prints (the counts, the input, and the
  reports: invalid, duplicate, truncated copy, conflict);
- ``/import`` (an editor): a form to paste games or upload a file, and the import's
  report;
- ``POST /events/{name}/byes`` (an editor): a bye for a player in a round, or one taken
  back, as ``zrec archive bye`` records it;
- ``POST /games/{id}/remove`` (an admin): the game removed, as ``zrec archive remove``.

Records sent with no file name (``-``: typed, pasted, saved from the board) are stored
with no source: no game page says it was found in ``<stdin>``.  The page's report lists
the ids the import stored, as the store answers them.

Each opens the archive read-write for its request only (:func:`zrec.serve.access.writer`).
Who may do what is :func:`zrec.serve.access.needs`: nobody logged in gets 401 (a page:
a redirect to ``/login``), a role that may not 403, a form without its CSRF token 403.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from fastapi import Query as Param
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from zrec.archive import Archive
from zrec.serve.access import Visitor, Writer, needs, open_writer
from zrec.serve.api import JsonText, records_in
from zrec.serve.errors import ApiError, not_found
from zrec.serve.templating import render, url_part

__all__ = ["import_text", "page_import", "router"]

router = APIRouter()
_ERROR = {"description": "An error: {\"error\": {\"code\": ..., \"message\": ...}}"}
Editor = Annotated[Visitor, Depends(needs("import"))]
Recorder = Annotated[Visitor, Depends(needs("record"))]
Admin = Annotated[Visitor, Depends(needs("remove"))]


def import_document(
    archive: Archive, body: bytes, name: str = "-", keep_invalid: bool = False
) -> tuple[dict[str, Any], list[str], list[int]]:
    """What ``zrec archive import --format json NAME`` prints (as an object) for a file
    holding ``body`` (``-``: standard input, named ``<stdin>`` in the reports, never
    "imported before", stored with no source), its reports as the command's text output
    words them, and the ids of the games it stored."""
    from zrec.archive.store.ingest import Importer
    from zrec.archive.store.outcome import Notice

    shown = "<stdin>" if name == "-" else name
    notices: list[Notice] = []
    importer = Importer(archive, keep_invalid, notices.append)
    result = importer.import_records(records_in(body, name, shown), shown, None, None,
                                     source=name != "-")
    document = {
        **result.counts.to_json(),
        "files": [{"file": result.file, "sha256": result.sha256, "status": result.status,
                   **result.counts.to_json()}],
        "reports": [n.to_json() for n in notices],
    }
    return document, [n.format() for n in notices], result.ids


def import_text(archive: Archive, body: bytes, name: str = "-",
                keep_invalid: bool = False) -> str:
    """:func:`import_document` as the command prints it."""
    return json.dumps(import_document(archive, body, name, keep_invalid)[0],
                      ensure_ascii=False, indent=2) + "\n"


@router.post(
    "/api/games",
    tags=["api"],
    summary="Import games (as zrec archive import --format json -)",
    response_class=JsonText,
    responses={401: _ERROR, 403: _ERROR, 413: _ERROR},
    openapi_extra={
        "requestBody": {"required": True,
                        "content": {"text/plain": {"schema": {"type": "string"}}}},
    },
)
async def post_games(
    request: Request,
    who: Editor,
    name: Annotated[str, Param(max_length=200, description="The input's file name.")] = "-",
    keep_invalid: Annotated[bool, Param(description="Store invalid games, flagged.")] = False,
) -> Response:
    from starlette.concurrency import run_in_threadpool

    body = await request.body()
    return JsonText(await run_in_threadpool(_import, request, body, name, keep_invalid))


def _import(request: Request, body: bytes, name: str, keep_invalid: bool) -> str:
    archive = open_writer(request)
    try:
        return import_text(archive, body, name, keep_invalid)
    finally:
        archive.close()


@router.get("/import", response_class=HTMLResponse, include_in_schema=False)
def import_page(request: Request, who: Annotated[Visitor, Depends(needs("import"))]) -> Response:
    return render(request, "import.html", title="Import games", report=None)


@router.post("/import", response_class=HTMLResponse, include_in_schema=False)
async def import_form(request: Request, who: Editor) -> Response:
    from starlette.concurrency import run_in_threadpool
    from starlette.datastructures import UploadFile

    form = await request.form()
    upload, text = form.get("file"), form.get("text")
    body, name = b"", "-"
    if isinstance(upload, UploadFile) and upload.filename:
        body, name = await upload.read(), upload.filename.replace("\\", "/").rsplit("/")[-1]
    elif isinstance(text, str) and text.strip():
        body = text.encode("utf-8")
    if not body.strip():
        raise ApiError(400, "bad-import", "paste games or choose a file to import")
    keep = form.get("keep_invalid") == "1"
    report = await run_in_threadpool(page_import, request, body, name, keep)
    return render(request, "import.html", title="Import games", report=report)


def page_import(request: Request, body: bytes, name: str, keep: bool) -> dict[str, Any]:
    """The import's report as the page shows it."""
    from zrec.archive.store.outcome import ImportCounts

    archive = open_writer(request)
    try:
        document, lines, stored = import_document(archive, body, name, keep)
    finally:
        archive.close()
    keys = list(ImportCounts().to_json())
    said = ", ".join(f"{document[k]} {k}" for k in keys
                     if k != "read" and (document[k] or k == "added"))
    return {"summary": f"{document['read']} games read: {said}", "columns": keys,
            "files": document["files"], "lines": lines, "ids": stored[:200],
            "reports": document["reports"]}


@router.post("/events/{name:path}/byes", include_in_schema=False)
async def event_bye(request: Request, who: Recorder, name: str) -> Response:
    """A bye (``kind``: pab, full, half, zero; ``remove``: the player's bye taken
    back) for ``player`` in ``round`` (``extend``: past the event's last round, as
    ``--extend-rounds``)."""
    from starlette.concurrency import run_in_threadpool

    form = await request.form()
    number, player, kind = (form.get(k) for k in ("round", "player", "kind"))
    if not (isinstance(number, str) and number.strip().isdigit() and isinstance(player, str)
            and player.strip() and isinstance(kind, str)):
        raise ApiError(400, "bad-bye", "a bye needs a round (a number), a player and a kind")
    extend = form.get("extend") == "1"
    await run_in_threadpool(_bye, request, name, int(number), player.strip(), kind, extend)
    return RedirectResponse("/events/" + url_part(name), status_code=303)


def _bye(request: Request, event: str, number: int, player: str, kind: str,
         extend: bool) -> None:
    from zrec.archive.events.byes import BYE_KINDS, add_bye, remove_bye
    from zrec.tournament.event import EventError

    if kind != "remove" and kind not in BYE_KINDS:
        raise ApiError(400, "bad-bye", f"a bye's kind is one of {', '.join(BYE_KINDS)}, "
                       f"or remove, not {kind!r}")
    archive = open_writer(request)
    try:
        if kind == "remove":
            remove_bye(archive, event, number, player)
        else:
            add_bye(archive, event, number, player, kind, extend)
    except EventError as exc:
        raise ApiError(400, "bad-bye", str(exc)) from None
    finally:
        archive.close()


@router.post("/games/{gid}/remove", include_in_schema=False)
def remove_game(
    who: Admin, archive: Writer, gid: Annotated[int, PathParam(ge=0, le=2**62)]
) -> Response:
    from zrec.archive.store.upkeep import remove

    if not remove(archive, [gid]):
        raise not_found(f"there is no game #{gid}")
    return RedirectResponse(f"/?removed={gid}", status_code=303)

