"""The games: the archive's home page, the search, a game's page, and their JSON twins;
importing games and removing one.

- ``/`` (events, recent games, the search form); ``/search`` (every filter of ``zrec
  archive search``, a page at a time, with the count) and its twin ``GET /api/games``
  (as ``zrec archive search --format json`` prints them; the header
  ``X-Total-Count`` says how many match in all), the filters of
  :mod:`zrec.serve.finding`;
- ``/games/{id}`` (the replay page of ``zrec html``, kept by :mod:`zrec.serve.replays`,
  its stylesheet and script linked from ``/static``, links to the explorer at each of
  its positions, and the record, its tags, where it was found and its copies) and its
  twin ``GET /api/games/{id}`` (the game as zrec JSON, as ``zrec convert --to json``
  writes it: the one element of its array);
- ``/import`` (an editor): a form to paste games or upload a file, and the import's
  report, and its twin ``POST /api/games`` (an editor): games in the body (zrec text
  or JSON, told apart as ``zrec validate`` tells them), imported as ``zrec archive
  import --format json -`` imports standard input, answering what it prints (the
  counts, the input, and the reports: invalid, duplicate, truncated copy, conflict);
- ``POST /games/{id}/remove`` (an admin): the game removed, as ``zrec archive remove``.

Records sent with no file name (``-``: typed, pasted, saved from the board) are stored
with no source: no game page says it was found in ``<stdin>``.  The import page's
report lists the ids of the games the import stored, as the store's import answers
them (never guessed from the highest ids: another import may run at the same time).
Who may write is :func:`zrec.serve.access.needs`: nobody logged in gets 401 (a page: a
redirect to ``/login``), a role that may not 403, a form without its CSRF token 403.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from fastapi import Query as Param
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from zrec.archive import Archive, StoredGame
from zrec.archive.analyses import page_evaluation
from zrec.notation.inputs import read_input
from zrec.serve.access import Caller, needs
from zrec.serve.errors import ERROR, ApiError, not_found
from zrec.serve.finding import Filters, filters, find_for, page_links, search_text
from zrec.serve.headers import csp_with_styles
from zrec.serve.opening import Reader, Writer
from zrec.serve.replays import PAGES
from zrec.serve.templating import JsonText, render, render_text

__all__ = ["import_document", "import_text", "page_import", "router"]


router = APIRouter()
Editor = Annotated[Caller, Depends(needs("import"))]
Admin = Annotated[Caller, Depends(needs("remove"))]
#: the text of each <style> element of a page
_STYLE = re.compile(r"<style>(.*?)</style>", re.S)


#: recent games on the home page
RECENT = 20


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def home(request: Request, archive: Reader) -> Response:
    events = [
        (str(name), int(count))
        for name, count in archive.db.rows(
            "SELECT e.name, count(g.id) FROM events e LEFT JOIN games g ON g.event = e.id "
            "GROUP BY e.id, e.name ORDER BY e.name"
        )
    ]
    recent = archive.db.rows(f"SELECT id FROM games ORDER BY id DESC LIMIT {RECENT}")
    ids = [int(r[0]) for r in recent]
    return render(
        request, "home.html", title="zrec archive", events=events,
        games=list(archive.games(ids)), total=archive.count(),
    )


@router.get("/search", response_class=HTMLResponse, include_in_schema=False)
async def search(
    request: Request, archive: Reader, f: Annotated[Filters, Depends(filters)]
) -> Response:
    from starlette.concurrency import run_in_threadpool

    given = f.given()
    try:
        found = await find_for(request, archive, f) if given else None
    except ApiError as exc:  # (the form stays as it was filled, the reason above it)
        if exc.code != "bad-search":
            raise
        return await run_in_threadpool(
            render, request, "search.html", status=exc.status, title="Search", f=f,
            found=None, problem=exc.message, pages=page_links(given, 0, 1, 0))
    return await run_in_threadpool(
        render, request, "search.html", title="Search", f=f, found=found, problem=None,
        pages=page_links(given, f.offset, f.limit, found.total if found else 0),
    )


@router.get("/games/{gid}", response_class=HTMLResponse, include_in_schema=False)
def game_page(
    request: Request, archive: Reader, gid: Annotated[int, PathParam(ge=0, le=2**62)]
) -> Response:
    from zrec.errors import ZrecError

    stored = next(iter(archive.games([gid])), None)
    if stored is None:
        raise not_found(f"there is no game #{gid}")
    sources = archive.sources_of(gid)
    from zrec.serve.plies import explore_links

    extra = render_text(
        request, "game_parts.html", stored=stored, sources=sources, event=_event_of(stored),
        explore=explore_links(stored.text, stored.game, stored.options),
    )
    try:
        page = PAGES.page(stored.text, gid, page_evaluation(archive, stored))
    except ZrecError as exc:  # a game kept invalid: its record and why
        return render(request, "game_unreadable.html", title=f"Game #{gid}", stored=stored,
                      sources=sources, problem=str(exc), parts=Markup(extra))
    account = render_text(request, "_account.html").strip()
    page = page.replace('<div class="account"></div>', f'<div class="account">{account}</div>', 1)
    head, _, rest = page.partition("</head>")
    body, _, end = rest.rpartition("</body>")
    sheet = '<link href="/static/site.css" rel="stylesheet">'
    # a board drawn with a stylesheet of its own (a map with a legend) carries it inline:
    # the page's CSP names each such <style> by its hash
    styles = _STYLE.findall(body)
    headers = {"Content-Security-Policy": csp_with_styles(styles)} if styles else None
    return HTMLResponse(f"{head}{sheet}</head>{body}{extra}</body>{end}", headers=headers)


def _event_of(stored: StoredGame) -> str | None:
    name = stored.tag("Event")
    return name if name and name != "?" else None


@router.get(
    "/api/games",
    tags=["api"],
    summary="Search the games (as zrec archive search --format json)",
    response_class=JsonText,
    responses={400: ERROR},
)
async def games(
    request: Request, archive: Reader, f: Annotated[Filters, Depends(filters)]
) -> Response:
    found = await find_for(request, archive, f)
    return JsonText(search_text(found), headers={"X-Total-Count": str(found.total)})


@router.get(
    "/api/games/{gid}",
    tags=["api"],
    summary="One game as zrec JSON (as zrec convert --to json)",
    response_class=JsonText,
    responses={404: ERROR},
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
    result = importer.import_records(read_input(body, name, shown), shown, None, None,
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
    responses={401: ERROR, 403: ERROR, 413: ERROR},
    openapi_extra={
        "requestBody": {"required": True,
                        "content": {"text/plain": {"schema": {"type": "string"}}}},
    },
)
async def post_games(
    request: Request,
    who: Editor,
    archive: Writer,
    name: Annotated[str, Param(max_length=200, description="The input's file name.")] = "-",
    keep_invalid: Annotated[bool, Param(description="Store invalid games, flagged.")] = False,
) -> Response:
    from starlette.concurrency import run_in_threadpool

    body = await request.body()
    return JsonText(await run_in_threadpool(import_text, archive, body, name, keep_invalid))


@router.get("/import", response_class=HTMLResponse, include_in_schema=False)
def import_page(request: Request, who: Editor) -> Response:
    return render(request, "import.html", title="Import games", report=None)


@router.post("/import", response_class=HTMLResponse, include_in_schema=False)
async def import_form(request: Request, who: Editor, archive: Writer) -> Response:
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
    report = await run_in_threadpool(page_import, archive, body, name, keep)
    return render(request, "import.html", title="Import games", report=report)


def page_import(archive: Archive, body: bytes, name: str, keep: bool) -> dict[str, Any]:
    """The import's report as the page shows it."""
    from zrec.archive.store.outcome import ImportCounts

    document, lines, stored = import_document(archive, body, name, keep)
    keys = list(ImportCounts().to_json())
    said = ", ".join(f"{document[k]} {k}" for k in keys
                     if k != "read" and (document[k] or k == "added"))
    return {"summary": f"{document['read']} games read: {said}", "columns": keys,
            "files": document["files"], "lines": lines, "ids": stored[:200],
            "reports": document["reports"]}


@router.post("/games/{gid}/remove", include_in_schema=False)
def remove_game(
    who: Admin, archive: Writer, gid: Annotated[int, PathParam(ge=0, le=2**62)]
) -> Response:
    from zrec.archive.store.upkeep import remove

    if not remove(archive, [gid]):
        raise not_found(f"there is no game #{gid}")
    return RedirectResponse(f"/?removed={gid}", status_code=303)
