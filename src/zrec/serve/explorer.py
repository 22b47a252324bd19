"""The opening explorer: ``GET /api/tree``, the page ``/explorer`` and its board.

- ``GET /api/tree`` (``game``, ``moves`` or ``position``, and ``O``, repeated,
  ``Tag=value``): the moves played next in the archive, as ``zrec archive tree
  --format json`` prints them for the same arguments, byte for byte
  (:func:`zrec.archive.store.tree.tree`).  A game, option, move or position the tree
  cannot take is answered 400 with the code ``bad-tree`` and the tree's message.
- ``/explorer`` (``game``, ``O``, ``moves`` or ``position``, ``offset``): a form to
  choose the game and its rule options, the moves so far as a trail of links, the
  board of the position reached (an image: ``/explorer/board.svg`` with the same
  parameters, drawn as ``zrec diagram`` draws it), the moves played next with their
  games and each seat's score, each a link that plays it (from a position: to the
  position it reaches), and a page of the games that reach the position (the
  archive's search by moves or position).  Everything is in the address, so a position is a
  link to keep; no script.  With no game, moves or position (the bare ``/explorer``
  every page links to), the page asks for a game first: a link per game held.

The work of all three (the tree, the position reached, the search) runs in the pool of
expensive work (:mod:`zrec.serve.work`), under its limits and budget.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi import Query as Param
from fastapi.responses import HTMLResponse, Response

from zrec.archive import Archive
from zrec.archive.store.query import SearchError
from zrec.serve.errors import ERROR, ApiError
from zrec.serve.opening import Reader, settings_of
from zrec.serve.templating import JsonText, render

__all__ = ["explorer_query", "router", "tree_json"]

router = APIRouter()

#: games a page of the explorer lists
GAMES_PAGE = 20
#: the longest moves (or position) the tree and the explorer take, in characters
#: (``bad-request`` beyond); their work has the budget of :mod:`zrec.serve.work`
MOVES_TEXT = 4000

_Game = Annotated[str | None, Param(max_length=100, description="The game (its Game tag).")]
_Options = Annotated[
    list[str],
    Param(alias="O", max_length=200, description="A rule option, Tag=value (repeat: all)."),
]
_Moves = Annotated[
    str | None,
    Param(max_length=MOVES_TEXT, description='The moves played so far: "1. b6-b5 b4xb6".'),
]
_Position = Annotated[
    str | None,
    Param(max_length=MOVES_TEXT, description="From this position (a Setup string)."),
]


def tree_json(branches: list[Any]) -> str:
    """The branches as ``zrec archive tree --format json`` prints them."""
    items = [json.dumps(b.to_json(), ensure_ascii=False) for b in branches]
    return "[" + ",".join(f"\n{item}" for item in items) + "\n]\n"


def _bad(message: str) -> ApiError:
    return ApiError(400, "bad-tree", message)


def option_pairs(given: list[str], skip_empty: bool = False) -> dict[str, str]:
    """``O`` parameters (``Tag=value``) as a mapping; ``skip_empty``: a form's "any"
    (an empty value) is left out."""
    options: dict[str, str] = {}
    for item in given:
        if skip_empty and not item.strip():
            continue
        tag, sep, value = item.partition("=")
        if not sep or not tag.strip():
            raise _bad(f"O takes Tag=value, not {item!r}")
        options[tag.strip()] = value.strip()
    return options


def branches_of(
    archive: Archive,
    game: str | None,
    options: dict[str, str],
    moves: str | None,
    position: str | None = None,
) -> list[Any]:
    from zrec.archive.store.tree import tree

    try:
        return tree(archive, game, options, moves, position)
    except SearchError as exc:
        raise _bad(str(exc)) from None


@router.get(
    "/api/tree",
    tags=["api"],
    summary="The moves played next (as zrec archive tree --format json)",
    response_class=JsonText,
    responses={400: ERROR},
)
async def api_tree(
    request: Request,
    game: _Game = None,
    moves: _Moves = None,
    position: _Position = None,
    options: _Options = [],  # noqa: B006
) -> Response:
    from zrec.serve.work import run

    pairs = option_pairs(options)
    return JsonText(await run(request, tree_text, settings_of(request).db, game, pairs,
                              moves, position))


def tree_text(
    db: str, game: str | None, options: dict[str, str], moves: str | None,
    position: str | None,
) -> str:
    """What ``GET /api/tree`` answers (work for the pool of :mod:`zrec.serve.work`)."""
    from zrec.serve.work import opened

    with opened(db) as archive:
        return tree_json(branches_of(archive, game, options, moves, position))


@dataclass(slots=True)
class Reached:
    """The position the moves reach in a start the archive holds: the engine, the
    trail (each move's label, as ``1. b6-b5``, and the moves up to it) and the text
    that numbers the next move (``2.``, or nothing)."""

    record: Any
    engine: Any
    trail: list[tuple[str, str]]
    number: str
    seats: list[str]
    position: Any


def reached(
    archive: Archive, game: str | None, options: dict[str, str], moves: str | None,
    position: str | None = None,
) -> Reached | None:
    """The first start of the archive (of ``game``, with ``options``; from
    ``position``, a Setup string, when given) in which ``moves`` can be played, or
    ``game``'s own start when the archive holds none; ``None`` when there is no such
    start, or when no game is named and the archive holds more than one."""
    from zrec.archive.store.starts import stored_starts
    from zrec.archive.store.wanted import moves_line
    from zrec.notation.model import Game, Line
    from zrec.render.diagram import DiagramError, record_frames
    from zrec.rules import find_game
    from zrec.rules.base import UnknownGameError

    try:
        line = moves_line(moves) if moves and moves.strip() else Line(())
        name = find_game(game).name if game else None
    except (SearchError, UnknownGameError):
        return None
    starts = [tags for _, tags in stored_starts(archive, list(options.items()), name)]
    if len({tags.get("Game") for tags in starts}) > 1:
        return None  # (no one board: the games differ)
    if not starts and name is not None:
        starts = [{"Game": name, **options}]
    for tags in starts:
        if position is not None:
            tags = {**tags, "Setup": position}
        record = Game(tuple(tags.items()), line, "*")
        try:
            replay, frames = record_frames(record)
        except DiagramError:
            continue
        if len(frames) != len(line.moves) + 1:
            continue
        trail, sofar = [], ""
        for frame in frames[1:]:
            label = frame.caption or ""
            sofar = f"{sofar} {label}".strip()
            trail.append((label, sofar))
        number = replay.engine.move_number(frames[-1].position)
        seats = list(replay.engine.seats)
        return Reached(record, replay.engine, trail, number.text() if number.turn else "",
                       seats, frames[-1].position)
    return None


def explorer_query(
    game: str | None, options: dict[str, str], moves: str | None, **more: Any
) -> str:
    """The query of the explorer at ``moves`` (``more``: ``position``, ``offset``)."""
    pairs = [("game", game or ""), *(("O", f"{t}={v}") for t, v in options.items())]
    if moves:
        pairs.append(("moves", moves))
    pairs += [(k, str(v)) for k, v in more.items()]
    return urlencode([(k, v) for k, v in pairs if v])


def _points(value: float) -> str:
    whole, half = divmod(round(value * 2), 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def _rows(
    branches: list[Any], href: Callable[[str], str | None], number: str, seats: list[str],
) -> tuple[list[str], list[dict[str, Any]]]:
    """The table of the moves played next: its seats and a row a move (``href``: the
    link of a move, numbered as ``number`` says)."""
    for branch in branches:
        seats += [s for s in branch.score if s not in seats]
    total = sum(b.games for b in branches) or 1
    rows = []
    for branch in branches:
        given = sum(branch.score.values()) or 1
        rows.append({
            "move": branch.move,
            "href": href(f"{number} {branch.move}".strip()),
            "games": branch.games,
            "share": f"{100 * branch.games / total:.1f}",
            "score": [
                f"{_points(branch.score[s])} ({round(100 * branch.score[s] / given)}%)"
                if s in branch.score else ""
                for s in seats
            ],
        })
    return seats, rows


def _choices(archive: Archive, game: str | None) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The games the archive holds, and the rule options to choose from: the chosen
    game's, or those of every game held."""
    from zrec.rules import find_game
    from zrec.rules.base import UnknownGameError

    held = sorted({str(r[0]) for r in archive.db.rows("SELECT DISTINCT game FROM starts")})
    names = [game] if game else held
    options: dict[str, list[str]] = {}
    for name in names:
        try:
            rules = find_game(name)
        except UnknownGameError:
            continue
        for tag, spec in rules.options.items():
            values = options.setdefault(tag, [])
            values += [v for v in spec.values if v not in values]
    return held, sorted(options.items())


@router.get("/explorer", response_class=HTMLResponse, include_in_schema=False)
async def explorer_page(
    request: Request,
    archive: Reader,
    game: _Game = None,
    moves: _Moves = None,
    position: _Position = None,
    options: _Options = [],  # noqa: B006
    offset: Annotated[int, Param(ge=0, le=10**9)] = 0,
) -> Response:
    from starlette.concurrency import run_in_threadpool

    from zrec.serve.work import run

    chosen = option_pairs(options, skip_empty=True)
    if not any(given and given.strip() for given in (game, moves, position)):
        return await run_in_threadpool(_choose, request, archive, chosen)
    parts = await run(request, explorer_parts, settings_of(request).db, game, moves,
                      position, chosen, offset)
    ids = parts.pop("ids")
    return await run_in_threadpool(
        lambda: render(request, "explorer.html", **parts, games=list(archive.games(ids))))


def explorer_parts(
    db: str, game: str | None, moves: str | None, position: str | None,
    chosen: dict[str, str], offset: int,
) -> dict[str, Any]:
    """What the page ``/explorer`` shows, but its games (``ids``): work for the pool of
    :mod:`zrec.serve.work`."""
    from zrec.serve.work import opened

    with opened(db) as archive:
        return _explorer_parts(archive, game, moves, position, chosen, offset)


def _explorer_parts(
    archive: Archive, game: str | None, moves: str | None, position: str | None,
    chosen: dict[str, str], offset: int,
) -> dict[str, Any]:
    from zrec.archive.store.search import Query, search_page
    from zrec.rules import find_game
    from zrec.rules.base import UnknownGameError

    game = game.strip() if game and game.strip() else None
    moves = moves.strip() if moves and moves.strip() else None
    position = position.strip() if position and position.strip() else None
    try:
        name = find_game(game).name if game else None
    except UnknownGameError as exc:
        raise _bad(str(exc)) from None
    branches = branches_of(archive, name, chosen, moves, position)
    where = reached(archive, name, chosen, moves, position)
    seats, rows = _rows(branches, _stepper(archive, name, chosen, moves, position),
                        where.number if where else "", list(where.seats) if where else [])
    try:
        ids, total = search_page(archive, Query(
            game=_searched_game(archive, name, chosen), options=list(chosen.items()),
            moves=moves or None, position=position,
            limit=GAMES_PAGE, offset=offset,
        ))
    except SearchError as exc:
        raise _bad(str(exc)) from None
    at = {"position": position} if position else {}
    here = explorer_query(name, chosen, moves, **at)

    def link(upto: str | None, **more: Any) -> str:
        return "/explorer?" + explorer_query(name, chosen, upto, **at, **more)

    games_held, choices = _choices(archive, name)
    trail = [("position" if position else "start", link(None))]
    trail += [(label, link(upto)) for label, upto in (where.trail if where else [])]
    pages = {
        "first": offset + 1, "last": min(offset + GAMES_PAGE, total),
        "before": link(moves, offset=max(0, offset - GAMES_PAGE)) if offset > 0 else None,
        "after": link(moves, offset=offset + GAMES_PAGE)
        if offset + GAMES_PAGE < total else None,
    }
    return dict(
        title="Opening explorer", game=name, moves=moves or "",
        position=position or "",
        chosen=chosen, games_held=games_held, choices=choices, trail=trail,
        board=("/explorer/board.svg?" + here) if where else None,
        seats=seats, rows=rows, played=sum(b.games for b in branches),
        ids=ids, total=total, pages=pages,
    )


def _choose(request: Request, archive: Archive, chosen: dict[str, str]) -> Response:
    """The explorer with nothing asked yet (the link of every page, which crawlers
    follow): the form, and a link per game the archive holds; no tree, no search (at
    22,540 games the tree of every start took over a minute)."""
    games_held, choices = _choices(archive, None)
    return render(
        request, "explorer.html", title="Opening explorer", game=None, moves="", position="",
        chosen=chosen, games_held=games_held, choices=choices, choose=[
            (g, "/explorer?" + explorer_query(g, chosen, None)) for g in games_held],
    )


def _stepper(
    archive: Archive, game: str | None, options: dict[str, str], moves: str | None,
    position: str | None,
) -> Callable[[str], str | None]:
    """The link of a move played next: the moves so far and it; from a position, the
    position it reaches (``None`` when it cannot be played there)."""

    def after_moves(step: str) -> str | None:
        return "/explorer?" + explorer_query(game, options, f"{moves or ''} {step}".strip())

    def from_position(step: str) -> str | None:
        nxt = reached(archive, game, options, step, position)
        if nxt is None:
            return None
        setup = nxt.engine.setup_text(nxt.position)
        return "/explorer?" + explorer_query(game, options, None, position=setup)

    return after_moves if position is None else from_position


def _searched_game(archive: Archive, name: str | None, options: dict[str, str]) -> str | None:
    """The game to search the games at the position by: ``None`` when every start the
    archive holds (with these options) is of ``name``, since the moves then select
    the same games, counted from the opening index alone rather than game by game
    (at 100,000 games, 1 ms instead of 30)."""
    from zrec.archive.store.starts import stored_starts

    held = {tags.get("Game") for _, tags in stored_starts(archive, list(options.items()), None)}
    return None if name is not None and held <= {name} else name


@router.get("/explorer/board.svg", include_in_schema=False)
async def explorer_board(
    request: Request,
    game: _Game = None,
    moves: _Moves = None,
    position: _Position = None,
    options: _Options = [],  # noqa: B006
) -> Response:
    """The board of the position, as ``zrec diagram`` draws it."""
    from zrec.serve.work import run

    svg = await run(request, board_svg, settings_of(request).db, game,
                    option_pairs(options, skip_empty=True), moves, position)
    return Response(svg, media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=3600"})


def board_svg(
    db: str, game: str | None, options: dict[str, str], moves: str | None,
    position: str | None,
) -> str:
    """The drawing ``/explorer/board.svg`` answers (work for the pool)."""
    from zrec.render.diagram import DiagramError, diagram_for_record
    from zrec.serve.work import opened

    game = game.strip() if game and game.strip() else None
    moves = moves.strip() if moves and moves.strip() else None
    position = position.strip() if position and position.strip() else None
    with opened(db) as archive:
        where = reached(archive, game, options, moves, position)
    if where is None:
        raise ApiError(404, "not-found", "no start of the archive can play these moves")
    try:
        given = position is not None and not where.trail
        caption = f"{where.engine.title} — the position given" if given else None
        return diagram_for_record(where.record, caption=caption)
    except DiagramError as exc:
        raise ApiError(404, "not-found", str(exc)) from None
