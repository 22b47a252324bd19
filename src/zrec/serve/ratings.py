"""Ratings in ``zrec serve``: ``/ratings`` (every pool's list, as ``zrec archive
ratings`` gives it; ``?game=`` for one game, ``?as_of=`` for the ratings as they stood
on a day) and the history shown on a player's page.  Computed from the archive on each
request (docs/tournaments.md, "Ratings").
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Query as Param
from fastapi.responses import HTMLResponse, Response

from zrec.archive import Archive
from zrec.archive.ratings.compute import GLICKO2, Pool, rate
from zrec.serve.access import Reader
from zrec.serve.errors import ApiError
from zrec.serve.templating import render

__all__ = ["player_ratings", "router"]

router = APIRouter(include_in_schema=False)


def _title(pool: Pool) -> str:
    system = "Glicko-2" if pool.system == GLICKO2 else "Plackett-Luce, rating μ − 3σ"
    return f"{pool.game} {pool.options} ({system})"


@router.get("/ratings", response_class=HTMLResponse)
def ratings_page(
    request: Request,
    archive: Reader,
    game: Annotated[str | None, Param(max_length=200)] = None,
    as_of: Annotated[str | None, Param(max_length=40)] = None,
) -> Response:
    from zrec.archive.store.dates import DateError, date_range
    from zrec.rules import find_game
    from zrec.rules.base import UnknownGameError

    name = day = None
    try:
        name = find_game(game).name if game else None
        bounds = date_range(as_of) if as_of else None
    except (UnknownGameError, DateError) as exc:
        raise ApiError(400, "bad-search", str(exc)) from None
    if as_of and bounds is None:
        raise ApiError(400, "bad-search", f"{as_of!r} has no year: give a day, YYYY.MM.DD")
    day = bounds[1] if bounds else None
    pools, _ = rate(archive, name, day)
    shown = [{"title": _title(p), "glicko": p.system == GLICKO2, "periods": p.periods,
              "players": p.players} for p in pools]
    title = "Ratings" + (f" as of {day}" if day else "")
    return render(request, "ratings.html", title=title, pools=shown)


def player_ratings(archive: Archive, pids: list[int]) -> list[dict[str, Any]]:
    """The rating history of the players ``pids`` (one person's ids) in each pool they
    played in: a title, whether it is Glicko-2, and the steps."""
    wanted = set(pids)
    games = sorted({str(r[0]) for r in archive.db.rows(
        "SELECT DISTINCT g.game FROM games g JOIN game_players gp ON gp.game = g.id "
        f"WHERE gp.player IN ({','.join('?' * len(pids))})", pids)})
    found = []
    for game in games:
        pools, _ = rate(archive, game)
        for pool in pools:
            for rated in (r for r in pool.players if r.player in wanted):
                found.append({"title": _title(pool), "glicko": pool.system == GLICKO2,
                              "history": rated.history, "now": rated.now})
    return found
