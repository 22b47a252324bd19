"""The pages: server-rendered HTML, read without JavaScript (only a game's board and
its stepping need it).

``/`` (events, recent games, the search form), ``/search`` (every filter of ``zrec
archive search``, a page at a time, with the count), ``/games/{id}`` (the replay page
of ``zrec html``, its stylesheet and script linked from ``/static``, links to the
explorer at each of its positions, and the record, its tags, where it was found and
its copies), ``/events/{name}`` (standings, crosstable and rounds, as ``zrec archive
standings`` and ``crosstable`` give them, and an editor's forms for results and byes)
and ``/players/{name}`` (results, events, rating history, games; ``/ratings`` is in
:mod:`zrec.serve.ratings`).  ``/static/NAME`` serves the stylesheets
and the replay script.
"""

from __future__ import annotations

import io
import re
import threading
import xml.etree.ElementTree as ET
from collections import OrderedDict
from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from fastapi import Query as Param
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from zrec.archive import Archive, StoredGame
from zrec.archive.store.search import Query, SearchError, search_page
from zrec.serve.access import Reader, visitor
from zrec.serve.board_page import event_board
from zrec.serve.errors import ApiError, not_found
from zrec.serve.events import after_words, event_pairings, event_rounds, loaded, ranking
from zrec.serve.finding import PAGE, Filters, filters, find_for
from zrec.serve.headers import csp_with_styles
from zrec.serve.templating import render, render_text, url_part

__all__ = ["router"]

router = APIRouter(include_in_schema=False)
#: the text of each <style> element of a page
_STYLE = re.compile(r"<style>(.*?)</style>", re.S)

#: recent games on the home page
RECENT = 20


@router.get("/", response_class=HTMLResponse)
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


@router.get("/search", response_class=HTMLResponse)
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
            found=None, problem=exc.message, pages=_pages(given, 0, 1, 0))
    return await run_in_threadpool(
        render, request, "search.html", title="Search", f=f, found=found, problem=None,
        pages=_pages(given, f.offset, f.limit, found.total if found else 0),
    )


def _pages(given: list[tuple[str, str]], offset: int, limit: int, total: int) -> dict[str, Any]:
    """The links to the page before and the page after (``None``: none)."""
    from urllib.parse import urlencode

    def link(start: int) -> str:
        return "/search?" + urlencode([*given, ("offset", str(start))])

    return {
        "first": offset + 1,
        "last": min(offset + limit, total),
        "before": link(max(0, offset - limit)) if offset > 0 else None,
        "after": link(offset + limit) if offset + limit < total else None,
    }


@router.get("/games/{gid}", response_class=HTMLResponse)
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
        page = PAGES.page(stored.text, gid)
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


#: the largest page kept, in characters: 32 pages stay under 32 MB a worker
_KEPT_MOST = 1_000_000


class _Pages:
    """The replay pages of stored games' records (as ``zrec html`` makes them), kept:
    the last :attr:`size` made (a 200-ply game takes ~60 ms of CPU to walk and draw;
    its page is 30 to 300 kB).  A page asked for by several requests at once is made
    once, the others waiting for it.  Kept by each worker for itself: another worker
    makes its own, and a game whose text changes is made again."""

    def __init__(self, size: int = 32) -> None:
        self.size, self.made, self.hits = size, 0, 0
        self._kept: OrderedDict[tuple[str, int], str] = OrderedDict()
        self._lock = threading.Lock()
        self._making: dict[tuple[str, int], threading.Lock] = {}

    def _kept_page(self, key: tuple[str, int]) -> str | None:
        with self._lock:
            page = self._kept.get(key)
            if page is not None:
                self._kept.move_to_end(key)
                self.hits += 1
            return page

    def page(self, text: str, gid: int) -> str:
        key = (text, gid)
        page = self._kept_page(key)
        if page is not None:
            return page
        with self._lock:
            making = self._making.setdefault(key, threading.Lock())
        with making:
            page = self._kept_page(key)
            if page is not None:
                return page
            try:
                page = _made(text, gid)
            finally:
                with self._lock:
                    self._making.pop(key, None)
            with self._lock:
                self.made += 1
                if len(page) <= _KEPT_MOST:  # (a page of a very long game is not kept)
                    self._kept[key] = page
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
            return page

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.made = self.hits = 0


def _made(text: str, gid: int) -> str:
    from zrec.notation.reader import read_game
    from zrec.render.replay_page import write_page

    out = io.StringIO()
    write_page([(read_game(text, f"game #{gid}"), 1, None)], out, nav=_bar(), linked="/static/")
    return out.getvalue()


PAGES = _Pages()


def _event_of(stored: StoredGame) -> str | None:
    name = stored.tag("Event")
    return name if name and name != "?" else None


def _bar() -> ET.Element:
    """The bar of links above a game's board (the site's own, as ``base.html`` has)."""
    bar = ET.Element("header", {"class": "zrec-site-bar"})
    nav = ET.SubElement(bar, "nav")
    for text, href in (("zrec archive", "/"), ("Search", "/search"), ("Explorer", "/explorer"),
                       ("Board", "/board"), ("Ratings", "/ratings")):
        ET.SubElement(nav, "a", {"href": href}).text = text
    ET.SubElement(bar, "div", {"class": "account"})
    return bar


@router.get("/events/{name:path}", response_class=HTMLResponse)
def event_page(request: Request, archive: Reader, name: str) -> Response:
    from zrec.tournament.tables import crosstable_html, standings_html

    event = loaded(archive, name)
    rounds, loose = event_rounds(archive, event)
    parts: dict[str, Any] = {}
    if event.rounds:
        ranked = ranking(archive, event.name)

        def player(entrant: Any) -> str:
            return "/players/" + url_part(entrant.name)

        def game(gid: int) -> str:
            return f"/games/{gid}"

        form = "round robin" if ranked.robin else "swiss"
        parts = {
            "codes": ranked.codes,
            "standings": _markup(standings_html(ranked.lines, ranked.codes, player)),
            "crosstable": _markup(crosstable_html(ranked.event, ranked.lines, form, game)),
            "form": form,
            "left_out": ranked.event.left_out,
            "after": after_words(archive, event),
        }
    from zrec.serve.results import recording, said

    pairings = [(n, _markup(t)) for n, t in event_pairings(
        archive, event, lambda e: "/players/" + url_part(e.name))]
    board = event_board(event, rounds, loose) if visitor(request).may("import") else None
    found = recording(archive, event)
    if board is not None and found is not None and found.boards:  # the round being played
        board["round"] = found.round
    return render(request, "event.html", title=event.name, event=event, rounds=rounds,
                  loose=loose, board=board, recording=found,
                  pairings=pairings,
                  recorded=said(dict(request.query_params)), **parts)


def _markup(element: ET.Element) -> Markup:
    """An element built with :mod:`xml.etree` (every text escaped as it is written)."""
    return Markup(ET.tostring(element, encoding="unicode", method="html"))


@router.get("/players/{name:path}", response_class=HTMLResponse)
def player_page(
    request: Request,
    archive: Reader,
    name: str,
    limit: Annotated[int, Param(ge=1, le=1000)] = PAGE,
    offset: Annotated[int, Param(ge=0, le=10**9)] = 0,
) -> Response:
    pids = archive.player_ids(name)
    if not pids:
        raise not_found(f"there is no player {name!r}")
    shown = sorted(set(archive.player_names(pids).values()))
    try:
        ids, total = search_page(archive, Query(players=[name], limit=limit, offset=offset))
    except SearchError as exc:
        raise ApiError(400, "bad-search", str(exc)) from None
    marks = ",".join("?" * len(pids))
    score = _score(archive, pids, marks)
    events = [
        (str(n), int(c))
        for n, c in archive.db.rows(
            "SELECT e.name, count(DISTINCT g.id) FROM events e JOIN games g ON g.event = e.id "
            f"JOIN game_players gp ON gp.game = g.id WHERE gp.player IN ({marks}) "
            "GROUP BY e.id, e.name ORDER BY e.name",
            pids,
        )
    ]
    given = [("player", name), *([("limit", str(limit))] if limit != PAGE else [])]
    from zrec.serve.ratings import player_ratings

    return render(
        request, "player.html", title=", ".join(shown), name=name, names=shown,
        games=list(archive.games(ids)), total=total, score=score, events=events,
        pages=_pages(given, offset, limit, total), ratings=player_ratings(archive, pids),
    )


def _score(archive: Archive, pids: list[int], marks: str) -> dict[str, int]:
    """The player's games by result: won, drawn (a shared best score), lost,
    unfinished."""
    counts = {"won": 0, "drawn": 0, "lost": 0, "unfinished": 0}
    for seat, result in archive.db.rows(
        "SELECT gp.seat, g.result FROM game_players gp JOIN games g ON g.id = gp.game "
        f"WHERE gp.player IN ({marks})",
        pids,
    ):
        parts = str(result).split("-")
        values = [_number(p) for p in parts]
        if str(result) == "*" or int(seat) >= len(values) or None in values:
            counts["unfinished"] += 1
            continue
        mine, best = values[int(seat)], max(v for v in values if v is not None)
        if mine is not None and mine < best:
            counts["lost"] += 1
        elif values.count(best) > 1:
            counts["drawn"] += 1
        else:
            counts["won"] += 1
    return counts


def _number(text: str) -> float | None:
    top, _, bottom = text.partition("/")
    if not top.isdigit() or (bottom and not bottom.isdigit()) or bottom == "0":
        return None
    return int(top) / int(bottom or 1)


@cache
def _static() -> dict[str, tuple[str, str]]:
    from importlib import resources

    from zrec.render.replay_page import assets
    from zrec.render.svg import DEFAULT_CSS, MAP_CSS, POINTS_CSS

    files = {
        name: (text, "text/css" if name.endswith(".css") else "text/javascript")
        for name, text in assets().items()
    }
    for item in resources.files("zrec.serve").joinpath("static").iterdir():
        if item.name.endswith((".css", ".js")):
            kind = "text/css" if item.name.endswith(".css") else "text/javascript"
            files[item.name] = (item.read_text(encoding="utf-8"), kind)
    # the boards' look, for a page that draws boards by script (their own <style> is
    # taken out: the CSP would refuse it)
    files["diagram.css"] = (DEFAULT_CSS + MAP_CSS + POINTS_CSS, "text/css")
    return files


@router.get("/static/{name}")
def static(name: str) -> Response:
    found = _static().get(name)
    if found is None:
        raise not_found(f"there is no file {name!r}")
    text, kind = found
    return Response(text, media_type=kind, headers={"Cache-Control": "public, max-age=3600"})


@router.get("/favicon.ico")
def favicon() -> Response:
    """No icon (a browser asks for one on every site)."""
    return Response(status_code=204)
