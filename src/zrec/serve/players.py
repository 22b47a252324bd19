"""The players: ``/players/{name}`` (results, events, rating history, accuracy in the
games a computer analysis is stored for (:mod:`zrec.archive.analyses`), games, a page at
a time); every pool's ratings are ``/ratings`` (:mod:`zrec.serve.ratings`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Query as Param
from fastapi.responses import HTMLResponse, Response

from zrec.archive import Archive
from zrec.archive.store.search import Query, SearchError, search_page
from zrec.serve.errors import ApiError, not_found
from zrec.serve.finding import PAGE, page_links
from zrec.serve.opening import Reader
from zrec.serve.templating import render

__all__ = ["router"]


router = APIRouter(include_in_schema=False)


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
    from zrec.archive.analyses import accuracy_of
    from zrec.serve.ratings import player_ratings

    return render(
        request, "player.html", title=", ".join(shown), name=name, names=shown,
        games=list(archive.games(ids)), total=total, score=score, events=events,
        pages=page_links(given, offset, limit, total), ratings=player_ratings(archive, pids),
        accuracy=accuracy_of(archive, pids),
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
