"""Ratings in ``zrec serve``: ``/ratings`` (every pool's list, as ``zrec archive
ratings`` gives it; ``?game=`` for one game, ``?as_of=`` for the ratings as they stood
on a day) and the history shown on a player's page (docs/tournaments.md, "Ratings").

Each list (the whole archive's, one game's, up to a day) is computed once and kept
(per process, the last :data:`KEPT` lists computed) until the archive's games or
players change: a request first reads the counts and highest ids of ``games``,
``players`` and ``aliases`` (a game imported or removed, a player merged, changes
them), and rates again when they differ.  Requests for the same list at once wait for
one computation.
"""

from __future__ import annotations

import threading
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Query as Param
from fastapi.responses import HTMLResponse, Response

from zrec.archive import Archive
from zrec.archive.rated import rate
from zrec.serve.errors import ApiError
from zrec.serve.opening import Reader
from zrec.serve.templating import render
from zrec.tournament.ratings.compute import GLICKO2, Pool, pool_title

__all__ = ["player_ratings", "router"]

router = APIRouter(include_in_schema=False)
#: the rated lists kept (each the archive's whole list, or one game's, or up to a day)
KEPT = 16
_Key = tuple[str, str | None, str | None]
_KEPT: dict[_Key, tuple[tuple[int, ...], list[Pool]]] = {}
_COMPUTING: dict[_Key, threading.Lock] = {}
_LOCK = threading.Lock()


def _state(archive: Archive) -> tuple[int, ...]:
    """What changes when a game is imported or removed, or a player merged."""
    db, found = archive.db, []
    for table in ("games", "players"):
        row = db.one(f"SELECT count(*), coalesce(max(id), 0) FROM {table}")
        found += [int(row[0]), int(row[1])] if row is not None else [0, 0]
    return (*found, int(db.value("SELECT count(*) FROM aliases") or 0))


def pools_of(archive: Archive, game: str | None = None, day: str | None = None
             ) -> list[Pool]:
    """The pools of the archive rated (of ``game`` only, up to ``day``), as kept while
    the archive does not change."""
    key, state = (archive.db.target, game, day), _state(archive)
    with _LOCK:
        held = _KEPT.get(key)
        computing = _COMPUTING.setdefault(key, threading.Lock())
    if held is not None and held[0] == state:
        return held[1]
    with computing:  # (the same list asked for at once: computed once)
        with _LOCK:
            held = _KEPT.get(key)
        if held is not None and held[0] == state:
            return held[1]
        pools = rate(archive, game, day)[0]
        with _LOCK:
            _KEPT.pop(key, None)
            _KEPT[key] = (state, pools)
            while len(_KEPT) > KEPT:  # (the oldest first)
                oldest = next(iter(_KEPT))
                del _KEPT[oldest]
                _COMPUTING.pop(oldest, None)
    return pools


def all_pools(archive: Archive) -> list[Pool]:
    """Every pool of the archive rated, as kept while the archive does not change."""
    return pools_of(archive)


def _title(pool: Pool) -> str:
    system = "Glicko-2" if pool.system == GLICKO2 else "Plackett-Luce, rating μ − 3σ"
    return f"{pool_title(pool.game, pool.options)} ({system})"


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
    pools = pools_of(archive, name, day)
    shown = [{"title": _title(p), "glicko": p.system == GLICKO2, "periods": p.periods,
              "rostered": p.rostered, "players": p.players} for p in pools]
    title = "Ratings" + (f" as of {day}" if day else "")
    return render(request, "ratings.html", title=title, pools=shown)


def player_ratings(archive: Archive, pids: list[int]) -> list[dict[str, Any]]:
    """The rating history of the players ``pids`` (one person's ids) in each pool they
    played in: a title, whether it is Glicko-2, and the steps."""
    wanted = set(pids)
    found = []
    for pool in all_pools(archive):
        for rated in (r for r in pool.players if r.player in wanted):
            found.append({"title": _title(pool), "glicko": pool.system == GLICKO2,
                          "history": rated.history, "now": rated.now})
    return found
