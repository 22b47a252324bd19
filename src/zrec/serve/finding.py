"""The search filters as query parameters, and one page of games found.

The parameters are named as ``zrec archive search``'s options (``player``, ``white``,
``event``, ``date-from``, ``moves``, ``position``, ...; ``option`` or ``O`` for
``-O Tag=value``; ``id`` for ``--id``); the repeatable ones may be given more than
once.  ``position-after`` names a stored game and a ply, ``ID:PLY``, instead of a
file: the server reads no file it is told to.  ``limit`` (1 to :data:`MAX_LIMIT`,
default :data:`PAGE`) and ``offset`` choose the page; every search counts its games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Query as Param
from fastapi import Request

from zrec.archive import Archive
from zrec.archive.store.search import Query, SearchError, search_page
from zrec.serve.errors import ApiError

__all__ = ["MAX_LIMIT", "PAGE", "Filters", "Found", "costly", "find", "find_for", "ids_found",
           "page_links", "search_text"]

#: games a page shows when no limit is given, and the most a page may show
PAGE, MAX_LIMIT = 50, 1000

_Text = Annotated[str | None, Param()]


@dataclass(slots=True)
class Filters:
    """The filters of one request, as given (to fill the search form again)."""

    player: list[str]
    white: str | None
    black: str | None
    seat: list[str]
    event: str | None
    site: str | None
    round: str | None
    date_from: str | None
    date_to: str | None
    result: str | None
    termination: str | None
    game: str | None
    option: list[str]
    moves: str | None
    position: str | None
    position_after: str | None
    material: str | None
    id: list[int]
    limit: int
    offset: int

    def given(self) -> list[tuple[str, str]]:
        """The parameters given, as (name, value) pairs of a query string, without
        ``offset`` (the links of the pages add it)."""
        named: list[tuple[str, list[Any]]] = [
            ("player", self.player), ("white", [self.white]), ("black", [self.black]),
            ("seat", self.seat), ("event", [self.event]), ("site", [self.site]),
            ("round", [self.round]), ("date-from", [self.date_from]),
            ("date-to", [self.date_to]), ("result", [self.result]),
            ("termination", [self.termination]), ("game", [self.game]),
            ("option", self.option), ("moves", [self.moves]), ("position", [self.position]),
            ("position-after", [self.position_after]), ("material", [self.material]),
            ("id", self.id), ("limit", [self.limit] if self.limit != PAGE else []),
        ]
        return [(name, str(v)) for name, values in named for v in values if v not in (None, "")]


def filters(
    player: Annotated[list[str], Param(description="A player in any seat (repeat: all).")] = [],  # noqa: B006
    white: Annotated[str | None, Param(description="The player of White.")] = None,
    black: Annotated[str | None, Param(description="The player of Black.")] = None,
    seat: Annotated[list[str], Param(description="A seat's player: Shepherd2=NAME.")] = [],  # noqa: B006
    event: Annotated[str | None, Param(description="The Event tag, exactly.")] = None,
    site: Annotated[str | None, Param(description="The Site tag, exactly.")] = None,
    round: Annotated[str | None, Param(description="The Round tag, exactly.")] = None,
    date_from: Annotated[str | None, Param(alias="date-from")] = None,
    date_to: Annotated[str | None, Param(alias="date-to")] = None,
    result: Annotated[str | None, Param(description="The result, e.g. 1-0.")] = None,
    termination: Annotated[str | None, Param(description="How it ended.")] = None,
    game: Annotated[str | None, Param(description="The game (its Game tag).")] = None,
    option: Annotated[list[str], Param(description="A rule option, Tag=value.")] = [],  # noqa: B006
    O: Annotated[list[str], Param(description="The same as option.")] = [],  # noqa: B006, E741
    moves: Annotated[str | None, Param(description='Opening moves: "1. b6-b5 b4xb6".')] = None,
    position: Annotated[str | None, Param(description="A position (a Setup string).")] = None,
    position_after: Annotated[
        str | None,
        Param(alias="position-after", description="The position after ply PLY of game ID."),
    ] = None,
    material: Annotated[str | None, Param(description="Pieces per seat: 12:9.")] = None,
    id: Annotated[list[int], Param(description="Only these archive ids.")] = [],  # noqa: B006
    limit: Annotated[int, Param(ge=1, le=MAX_LIMIT)] = PAGE,
    offset: Annotated[int, Param(ge=0, le=10**9)] = 0,
) -> Filters:
    """The filters of a request (a FastAPI dependency); a parameter left empty (a
    field of the search form not filled in) is not given."""

    def one(value: str | None) -> str | None:
        return value if value and value.strip() else None

    def many(values: list[str]) -> list[str]:
        return [v for v in values if v.strip()]

    return Filters(
        many(player), one(white), one(black), many(seat), one(event), one(site), one(round),
        one(date_from), one(date_to), one(result), one(termination), one(game),
        many([*option, *O]), one(moves), one(position), one(position_after), one(material),
        list(id), limit, offset,
    )


def _pairs(items: list[str], name: str) -> list[tuple[str, str]]:
    out = []
    for item in items:
        tag, sep, value = item.partition("=")
        if not sep or not tag.strip():
            raise ApiError(400, "bad-search", f"{name} takes Tag=value, not {item!r}")
        out.append((tag.strip(), value.strip()))
    return out


def _position_after(archive: Archive, value: str) -> tuple[Any, int]:
    """``ID:PLY``: a stored game and a ply."""
    from zrec.errors import ZrecError
    from zrec.notation.reader import read_game

    gid, sep, ply = value.partition(":")
    if not (sep and gid.isdigit() and ply.isdigit()):
        raise ApiError(400, "bad-search", f"position-after takes ID:PLY, not {value!r}")
    text = archive.text_of(int(gid))
    if text is None:
        raise ApiError(400, "bad-search", f"position-after: there is no game #{gid}")
    try:
        return read_game(text, f"game #{gid}"), int(ply)
    except ZrecError as exc:
        raise ApiError(400, "bad-search", f"position-after: {exc}") from None


def query_of(archive: Archive, f: Filters) -> Query:
    seats = _pairs(f.seat, "seat")
    seats += [("White", f.white)] if f.white is not None else []
    seats += [("Black", f.black)] if f.black is not None else []
    return Query(
        players=f.player,
        seats=seats,
        event=f.event,
        site=f.site,
        round=f.round,
        date_from=f.date_from,
        date_to=f.date_to,
        result=f.result,
        termination=f.termination,
        game=f.game,
        options=_pairs(f.option, "option"),
        moves=f.moves,
        position=f.position,
        position_of=_position_after(archive, f.position_after) if f.position_after else None,
        material=f.material,
        ids=f.id or None,
        limit=f.limit,
        offset=f.offset,
    )


@dataclass(slots=True)
class Found:
    """A page of games found, and how many match in all."""

    games: list[Any]
    total: int


def find(archive: Archive, f: Filters) -> Found:
    """The page of games ``f`` asks for (stored games, in archive order)."""
    try:
        ids, total = search_page(archive, query_of(archive, f))
        return Found(list(archive.games(ids)), total)
    except SearchError as exc:
        raise ApiError(400, "bad-search", str(exc)) from None


def costly(f: Filters) -> bool:
    """Whether a search replays or walks games (by moves, a position or material): run
    in the pool of expensive work (:mod:`zrec.serve.work`)."""
    return bool(f.moves or f.position or f.position_after or f.material)


def ids_found(db: str, f: Filters) -> tuple[list[int], int]:
    """The ids of the page of games ``f`` asks for, and how many match (work for the
    pool)."""
    from zrec.serve.work import opened

    with opened(db) as archive:
        try:
            return search_page(archive, query_of(archive, f))
        except SearchError as exc:
            raise ApiError(400, "bad-search", str(exc)) from None


async def find_for(request: Request, archive: Archive, f: Filters) -> Found:
    """:func:`find` for a request: a costly search (:func:`costly`) in the pool of
    expensive work, under its limits, the games of its page read here."""
    from starlette.concurrency import run_in_threadpool

    from zrec.serve.opening import settings_of
    from zrec.serve.work import run

    if not costly(f):
        return await run_in_threadpool(find, archive, f)
    ids, total = await run(request, ids_found, settings_of(request).db, f)
    return Found(await run_in_threadpool(lambda: list(archive.games(ids))), total)


def search_text(found: Found) -> str:
    """The games as ``zrec archive search --format json`` prints them, byte for byte."""
    import json

    parts = [json.dumps(game.to_json(), ensure_ascii=False) for game in found.games]
    return "[" + "".join(("," if i else "") + "\n" + p for i, p in enumerate(parts)) + "\n]\n"


def page_links(given: list[tuple[str, str]], offset: int, limit: int, total: int
               ) -> dict[str, Any]:
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
