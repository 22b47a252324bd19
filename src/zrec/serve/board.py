"""The recording board: the page ``/board`` and its JSON API under ``/api``.

- ``/board`` (no login: nothing is written until an editor saves): a form to start a
  new game of any game zrec has rules for, with its seats, each rule option and each
  setup tag the rules registry lists (:mod:`zrec.serve.new_games`), or a record pasted
  or read from a file; ``/board?game=G&O=Tag=value&Event=...&Round=...&White=...``
  starts a new game with those tags (a hidden setup drawn by the server where the form
  leaves it empty, unless ``hidden=enter``), ``/board?id=N`` opens an archived game,
  ``/board?start=1`` the record ``zrec board FILE`` was started with (kept in memory at
  start: no address reads a file), ``/board?puzzle=N`` a stored puzzle's position to
  solve (:mod:`zrec.serve.puzzle`).  The board itself is drawn by ``static/board.js``
  from the JSON API.
- ``POST /api/record``: a record as the board lists it: its text as ``zrec fmt`` writes
  it, its tags, and its moves with their node numbers (file order, as
  ``POST /api/position`` counts them), comments and NAGs, variations nested;
- ``POST /api/position``: a record (zrec text) in the body; the state at one of its
  moves (:func:`zrec.play.board.board_at`: whose turn, the dice, every legal move with
  its clicks, what may be clicked next, the outcome) and the position drawn as
  ``zrec diagram --node`` draws it;
- ``POST /api/edit``: a record and an edit (:mod:`zrec.play.editing`), answering the
  new text as ``zrec fmt`` writes it and the node reached;
- ``GET /api/roll``: dice rolled by the server (from :mod:`secrets`);
- ``POST /api/json``: a record as the zrec JSON ``zrec convert --to json`` writes.

The records sent are read and checked once, and kept (:mod:`zrec.serve.board_records`).
A record that does not validate is answered 422 ``invalid-record`` with the
validator's diagnostics (as ``POST /api/validate`` checks it), its message naming the
place in the record sent (``line 9, column 70: error[...]``: the record is no file, so
no file is named); a node, roll, clicks or edit the record cannot take is 400 with the
code :mod:`zrec.play.board` gives.  None of these writes to the archive.  Playing
against a study player is :mod:`zrec.serve.board_player`.
"""

from __future__ import annotations

import io
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Query as Param
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field

from zrec.errors import ZrecError
from zrec.notation.model import Line
from zrec.play.board import BoardError, board_at
from zrec.serve.board_records import Invalid, board_error, checked, parsed
from zrec.serve.errors import ERROR, ApiError, not_found
from zrec.serve.new_games import TAG, games_offered, new_record, today
from zrec.serve.opening import Reader
from zrec.serve.templating import JsonText, render
from zrec.serve.work import run

__all__ = ["event_board", "router"]


router = APIRouter()


_INVALID = {
    "description": "A record with an error: {\"error\": {\"code\": \"invalid-record\", "
    "\"message\": ..., \"diagnostics\": [...]}}"
}
_TEXT_BODY = {
    "requestBody": {
        "required": True,
        "content": {"text/plain": {"schema": {"type": "string"}}},
    }
}


#: the tags every new game is offered, before its seats
ROSTER = ("Event", "Site", "Date", "Round")


#: the largest budget the board suggests for a player to play against (mcts:50 answers
#: in about a second on the smaller boards)
SUGGESTED = 50


def _formatted(text: str) -> str:
    """A record's text as ``zrec fmt`` writes it, or as it is when it cannot be read
    (the board then shows why, from the API)."""
    from zrec.notation.reader import read_game
    from zrec.notation.writer import write_game

    try:
        return write_game(read_game(text))
    except ZrecError:
        return text


@router.get("/board", response_class=HTMLResponse, include_in_schema=False)
def board_page(
    request: Request,
    archive: Reader,
    game: Annotated[str | None, Param(max_length=100)] = None,
    options: Annotated[list[str], Param(alias="O", max_length=200)] = [],  # noqa: B006
    gid: Annotated[int | None, Param(alias="id", ge=0, le=2**62)] = None,
    start: Annotated[int | None, Param(ge=0, le=1)] = None,
    hidden: Annotated[str | None, Param(max_length=10)] = None,
    token: Annotated[str | None, Param(max_length=200)] = None,
    puzzle: Annotated[int | None, Param(ge=0, le=2**62)] = None,
) -> Response:
    from zrec.rules import find_game

    if token is not None:
        return _owner_enters(request, token)
    from zrec.rules.base import UnknownGameError
    tags = [(k, v) for k, v in request.query_params.multi_items() if TAG.match(k) and k != "O"]
    text, problem = "", None
    task = None
    if puzzle is not None:  # (zrec.serve.puzzle: the position alone, and its task)
        from zrec.serve.puzzle import puzzle_of

        text, task, _ = puzzle_of(next(iter(archive.games([puzzle])), None), puzzle)
    elif gid is not None:
        stored = next(iter(archive.games([gid])), None)
        if stored is None:
            raise not_found(f"there is no game #{gid}")
        text = _formatted(stored.text)
    elif start:
        text = request.app.state.board_start or ""
    elif game and game.strip():
        try:
            name = find_game(game.strip()).name
        except UnknownGameError as exc:
            problem = str(exc)
        else:
            try:
                text = new_record(name, options, tags, draw=hidden != "enter")
            except ZrecError as exc:
                problem = str(exc)
    from zrec.play.editing import SUFFIXES

    chosen = dict(tags)
    opponents, hint = opponents_offered()
    return render(
        request, "board.html", title="Recording board", text=text, problem=problem,
        games=games_offered(), chosen_game=(game or "").strip(), chosen=chosen,
        chosen_options=dict(o.partition("=")[::2] for o in options),
        roster=ROSTER, suffixes=" ".join(SUFFIXES), opponents=opponents,
        opponents_hint=hint, today=today(), hidden=hidden or "draw",
        analysers=[o for o in opponents if ":" in o],
        puzzle=None if task is None else {"id": puzzle, "task": task},
        analysers_hint="Analyse this game: every move judged by a search player (none "
        "given: alphabeta:4, or mcts:200 where it rolls dice or has more seats), the "
        "record with its marks ?! ? ??, comments and best lines; " + hint.split(" (", 1)[1][:-1],
    )


def _owner_enters(request: Request, token: str) -> Response:
    """The address ``zrec board`` printed: the owner's session cookie, given for the
    board's token, and the same page without the token (:mod:`zrec.serve.local`)."""
    from urllib.parse import urlencode

    from fastapi.responses import RedirectResponse

    from zrec.serve.local import owner_session
    from zrec.serve.sessions import write

    session = owner_session(request, token)
    if session is None:
        raise ApiError(403, "bad-token", "this token is not the board's: open the address "
                       "zrec board printed (a board started again has a new one)")
    rest = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "token"])
    answer = RedirectResponse("/board" + ("?" + rest if rest else ""), status_code=303)
    write(request, answer, session)
    return answer


def opponents_offered() -> tuple[list[str], str]:
    """The players the board offers to play against (a search player with a budget
    a web request may ask), and a hint in words: every name, each budget's limit."""
    from zrec.research.players import SEARCHERS
    from zrec.research.study import PLAYER_NAMES, PLAYERS
    from zrec.serve.board_player import WEB_BUDGETS

    offered = [f"{name}:{min(s.default, WEB_BUDGETS[name], SUGGESTED)}"
               for name, s in SEARCHERS.items()]
    limits = ", ".join(f"{name} at most {WEB_BUDGETS[name]} {s.unit}"
                       for name, s in SEARCHERS.items())
    return [*offered, *PLAYERS], f"{', '.join(PLAYER_NAMES)} ({limits})"


def _moves(
    line: Line, counter: list[int], before: int, main: bool = False
) -> list[dict[str, Any]]:
    """The moves of ``line`` in file order with their node numbers; ``before``: the
    node of the position the line starts from; ``main``: the main line, whose first
    move's comment before it is the record's ``comment``."""
    from zrec.notation.writer import move_number, move_text

    out: list[dict[str, Any]] = []
    previous = before
    for i, node in enumerate(line.moves):
        counter[0] += 1
        label = "" if node.number is None else move_number(node) + " "
        item: dict[str, Any] = {
            "node": counter[0],
            "before": previous,
            "label": label + move_text(node),
            "nags": ["$" + str(n) for n in node.nags],
            "comment_before": "" if main and not i else " ".join(
                c.text for c in node.comments_before),
            "comment": " ".join(c.text for c in node.comments_after),
        }
        item["variations"] = [_moves(v, counter, previous) for v in node.variations]
        out.append(item)
        previous = item["node"]
    return out


def record_json(body: bytes) -> dict[str, Any]:
    """What ``POST /api/record`` answers for a record."""
    from zrec.notation.writer import write_game

    game = checked(body).game
    return {
        "text": write_game(game),
        "tags": [list(pair) for pair in game.tags],
        "result": game.result,
        "comment": " ".join(c.text for c in game.line.comments) or (
            " ".join(c.text for c in game.line.moves[0].comments_before)
            if game.line.moves else ""),
        "moves": _moves(game.line, [0], 0, main=True),
    }


#: the most dice ``GET /api/roll`` rolls, and the faces a die may have
MAX_DICE, FACES = 8, range(2, 21)


def position_json(
    body: bytes, at: int | None, roll: str | None, clicks: str | None, drawn: bool = True
) -> dict[str, Any]:
    """What ``POST /api/position`` answers for a record, a node, a roll and clicks
    (``drawn``: with the drawing, else ``view`` is null)."""
    from zrec.render.diagram import diagram_after

    prepared = checked(body)  # (prepared once: the drawing is of the step it found)
    made = [c.strip() for c in clicks.split(",")] if clicks else []
    try:
        board = board_at(prepared, at, roll, made)
    except BoardError as exc:
        raise board_error(exc) from None
    view = diagram_after(prepared.replay, prepared.step(board.at)) if drawn else None
    answer: dict[str, Any] = {}
    for key, value in board.to_json().items():
        answer[key] = value
        if key == "roll":  # (the drawing follows the dice, as the guide lists them)
            answer["view"] = view
    return answer


@router.post(
    "/api/position",
    tags=["board"],
    summary="The state of a record at one of its moves, for the recording board",
    responses={400: ERROR, 413: ERROR, 422: _INVALID},
    openapi_extra=_TEXT_BODY,
)
async def position(
    request: Request,
    at: Annotated[int | None, Param(ge=0, le=10**9, description=(
        "The node: the moves numbered in file order, variations included (0 is the "
        "start); by default the end of the main line."))] = None,
    roll: Annotated[str | None, Param(max_length=20, description=(
        "The dice rolled for the turn, one digit a die (1234)."))] = None,
    clicks: Annotated[str | None, Param(max_length=4000, description=(
        "The clicks of a half-made move, comma-separated (b6,b5)."))] = None,
    view: Annotated[bool, Param(description=(
        "false: leave the drawing out (null), while a move is being clicked."))] = True,
) -> Response:
    try:
        return JSONResponse(await run(request, position_json, at, roll, clicks, view,
                                      body=True))
    except Invalid as exc:
        return exc.answer


class EditRequest(BaseModel):
    """An edit of a record: the record, the node and the operation, and what the
    operation takes."""

    text: str = Field(max_length=2 * 1024 * 1024)
    at: int = Field(0, ge=0, le=10**9)
    op: str = Field(max_length=20)
    move: str | None = Field(None, max_length=10_000)
    comment: str | None = Field(None, max_length=100_000)
    nag: str | None = Field(None, max_length=10)
    tags: dict[str, str | None] | None = None
    result: str | None = Field(None, max_length=100)
    termination: str | None = Field(None, max_length=100)


def edit_body(body: bytes) -> dict[str, Any]:
    """What ``POST /api/edit`` answers for its body."""
    return edit_json(parsed(EditRequest, body))


def edit_json(request: EditRequest) -> dict[str, Any]:
    """What ``POST /api/edit`` answers."""
    from zrec.play.editing import edit

    prepared = checked(request.text.encode("utf-8"))
    args = request.model_dump(exclude_unset=True)
    try:
        text, at = edit(prepared, request.at, request.op, args)
    except BoardError as exc:
        raise board_error(exc) from None
    try:  # (and kept: the board asks for the new record's position next)
        checked(text.encode("utf-8"))
    except Invalid as exc:
        raise ApiError(
            400, "bad-edit", f"after this edit the record would not be valid: {exc.message}"
        ) from None
    return {"text": text, "at": at}


@router.post(
    "/api/edit",
    tags=["board"],
    summary="Edit a record (play a move, comment, NAG, cut, tags, result, promote)",
    responses={400: ERROR, 413: ERROR, 422: _INVALID},
    openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": EditRequest.model_json_schema()}}}},
)
async def edit_record(request: Request) -> Response:
    try:  # (the body read once the pool lets the request in, and parsed there)
        return JSONResponse(await run(request, edit_body, body=True))
    except Invalid as exc:
        return exc.answer


@router.get(
    "/api/roll",
    tags=["board"],
    summary="Dice rolled by the server (from secrets)",
    responses={400: ERROR},
)
def roll(
    faces: Annotated[str, Param(max_length=100, description=(
        "The faces of each die, comma-separated (4,4,4,4)."))],
) -> dict[str, list[int]]:
    parts = faces.split(",")
    if not all(p.isascii() and p.isdigit() and int(p) in FACES for p in parts) or len(
        parts
    ) > MAX_DICE:
        raise ApiError(
            400, "bad-roll",
            f"faces must be 1 to {MAX_DICE} dice of {FACES[0]} to {FACES[-1]} faces, "
            f"comma-separated (4,4,4,4), not {faces!r}",
        )
    return {"roll": [1 + secrets.randbelow(int(p)) for p in parts]}


@router.post(
    "/api/json",
    tags=["board"],
    summary="A record as zrec JSON (as zrec convert --to json)",
    response_class=JsonText,
    responses={413: ERROR, 422: _INVALID},
    openapi_extra=_TEXT_BODY,
)
async def as_json(request: Request) -> Response:
    try:
        return JsonText(await run(request, json_text, body=True))
    except Invalid as exc:
        return exc.answer


def json_text(body: bytes) -> str:
    """What ``POST /api/json`` answers."""
    from zrec.notation.json.convert import write_json

    out = io.StringIO()
    write_json(iter([checked(body).game]), out)
    return out.getvalue()


@router.post(
    "/api/record",
    tags=["board"],
    summary="A record as the recording board lists it: its text (as zrec fmt writes it), "
    "tags and moves with their node numbers",
    responses={413: {"description": "An error"}, 422: {"description": "A record with an "
               "error: invalid-record, with the validator's diagnostics"}},
    openapi_extra={"requestBody": {"required": True, "content": {
        "text/plain": {"schema": {"type": "string"}}}}},
)
async def record(request: Request) -> Response:
    from fastapi.responses import JSONResponse


    try:  # (in the pool of expensive work, under its limits)
        return JSONResponse(await run(request, record_json, body=True))
    except Invalid as exc:
        return exc.answer


def event_board(event: Any, rounds: list[Any], loose: list[Any]) -> dict[str, Any]:
    """What an event's page offers an editor to record a game on the board: the game of
    its stored games and their rule options (``Tag=value``), its seats, the round to
    record (the last with games, or 1) and its players."""
    from zrec.rules import find_game
    from zrec.rules.base import UnknownGameError

    found = None
    for game in [g for r in rounds for g in r.games] + list(loose):
        try:
            found = (find_game(game.tag("Game") or ""), game)
        except UnknownGameError:
            continue
        break
    players = sorted({e.name for e in event.entrants})
    if found is None:
        return {"game": None, "options": [], "seats": [], "round": 1, "players": players,
                "games": games_offered()}
    rules, first = found
    options = [f"{tag}={first.tag(tag)}" for tag in rules.options if first.tag(tag)]
    number = max((r.number for r in rounds if r.games), default=1)
    return {"game": rules.name, "options": options, "seats": list(rules.seats),
            "round": number, "players": players, "games": []}
