"""The JSON API of the recording board, under ``/api``: reading only, no login.

- ``POST /api/position``: a record (zrec text) in the body; the state at one of its
  moves (:func:`zrec.play.board.board_at`: whose turn, the dice, every legal move with
  its clicks, what may be clicked next, the outcome) and the position drawn as
  ``zrec diagram --node`` draws it;
- ``POST /api/edit``: a record and an edit (:mod:`zrec.play.editing`), answering the
  new text as ``zrec fmt`` writes it and the node reached;
- ``GET /api/roll``: dice rolled by the server (from :mod:`secrets`);
- ``POST /api/json``: a record as the zrec JSON ``zrec convert --to json`` writes.

A record that does not validate is answered 422 ``invalid-record`` with the
validator's diagnostics (as ``POST /api/validate`` checks it), its message naming the
place in the record sent (``line 9, column 70: error[...]``: the record is no file, so
no file is named); a node, roll, clicks or
edit the record cannot take is 400 with the code :mod:`zrec.play.board` gives.  None
of these writes to the archive.
"""

from __future__ import annotations

import io
import secrets
from functools import lru_cache
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Request
from fastapi import Query as Param
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from zrec.check.diagnostics import Diagnostic
from zrec.notation.model import Game, Line
from zrec.play.board import BoardError, BoardRecord, board_at
from zrec.serve.api import JsonText
from zrec.serve.errors import ApiError
from zrec.serve.work import run

__all__ = ["router"]

Parsed = TypeVar("Parsed", bound=BaseModel)

router = APIRouter(prefix="/api", tags=["board"])

_ERROR = {"description": "An error: {\"error\": {\"code\": ..., \"message\": ...}}"}
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
#: the most dice ``GET /api/roll`` rolls, and the faces a die may have
MAX_DICE, FACES = 8, range(2, 21)


class _Invalid(Exception):
    """A record that does not validate: its message and diagnostics (plain data: it
    comes back from a worker process of :mod:`zrec.serve.work`)."""

    def __init__(self, message: str, diagnostics: list[dict[str, Any]]) -> None:
        super().__init__(message, diagnostics)
        self.message, self.diagnostics = message, diagnostics

    @property
    def answer(self) -> Response:
        """The answer: 422 ``invalid-record`` with the diagnostics."""
        return JSONResponse({"error": {"code": "invalid-record", "message": self.message,
                                       "diagnostics": self.diagnostics}}, status_code=422)


def _invalid(message: str, diagnostics: list[dict[str, Any]]) -> _Invalid:
    return _Invalid(message, diagnostics)


#: what the end of a game is checked against (its result, a score it states): not
#: refused in a record still being written (result ``*``)
UNFINISHED = frozenset({"wrong-result", "wrong-score"})
#: the largest body whose checked record is kept for the next request (the board sends
#: the same record again for every click of a move)
KEPT_BODY = 256 * 1024
#: the most moves (variations included) of a record the board takes: a longer one is
#: answered 422 ``record-too-long`` before it is replayed
MAX_MOVES = 10_000


def checked(body: bytes) -> BoardRecord:
    """The one record of ``body``, validated as ``POST /api/validate`` validates it;
    raises :class:`_Invalid` with the validator's diagnostics.  A record with the
    result ``*`` is being written: its end is not judged (:data:`UNFINISHED`)."""
    if len(body) <= KEPT_BODY:
        return _kept(body)
    return _checked(body)


@lru_cache(maxsize=32)
def _kept(body: bytes) -> BoardRecord:
    return _checked(body)


def _checked(body: bytes) -> BoardRecord:
    from zrec.check.inputs import validate_input

    records = list(validate_input(body, "-"))
    if len(records) != 1:
        said = "no record" if not records else f"{len(records)} records"
        raise _invalid(f"the body holds {said}: send one record", [])
    game: Game | None = records[0].record.game
    if game is not None and (count := moves_in(game.line)) > MAX_MOVES:
        raise ApiError(422, "record-too-long", f"the record has {count} moves (variations "
                       f"included): the board takes at most {MAX_MOVES}")
    report = records[0].report
    errors = [d for d in report.diagnostics if d.severity == "error" and not (
        d.code in UNFINISHED and game is not None and game.result == "*")]
    if errors:
        raise _invalid(web_message(errors[0]), [d.to_json() for d in report.diagnostics])
    assert game is not None  # (a record that validates was read)
    try:
        return BoardRecord(game)
    except BoardError as exc:
        raise _board_error(exc) from None


def web_message(found: Diagnostic) -> str:
    """A diagnostic of a record sent through the web, worded as ``zrec validate``
    words it but naming no file (the record was no file: not ``<stdin>``) and no game
    number (there is one record): ``line 9, column 70: error[wrong-result]: ...``."""
    ply = f", ply {found.ply}" if found.ply is not None else ""
    said = (f"line {found.line}, column {found.column}: {found.severity}[{found.code}]"
            f"{ply}: {found.message}")
    return f"{said}\n{found.excerpt}" if found.excerpt else said


def moves_in(line: Line) -> int:
    """The moves of a line, its variations' included."""
    count, lines = 0, [line]
    while lines:
        for node in lines.pop().moves:
            count += 1
            lines.extend(node.variations)
    return count


def _board_error(exc: BoardError) -> ApiError:
    return ApiError(422 if exc.code == "no-engine" else 400, exc.code, exc.message)


def position_json(
    body: bytes, at: int | None, roll: str | None, clicks: str | None, drawn: bool = True
) -> dict[str, Any]:
    """What ``POST /api/position`` answers for a record, a node, a roll and clicks
    (``drawn``: with the drawing, else ``view`` is null)."""
    from zrec.render.diagram import diagram_for_node

    prepared = checked(body)
    made = [c.strip() for c in clicks.split(",")] if clicks else []
    try:
        board = board_at(prepared, at, roll, made)
    except BoardError as exc:
        raise _board_error(exc) from None
    view = diagram_for_node(prepared.game, board.at) if drawn else None
    answer: dict[str, Any] = {}
    for key, value in board.to_json().items():
        answer[key] = value
        if key == "roll":  # (the drawing follows the dice, as the guide lists them)
            answer["view"] = view
    return answer


@router.post(
    "/position",
    summary="The state of a record at one of its moves, for the recording board",
    responses={400: _ERROR, 413: _ERROR, 422: _INVALID},
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
    except _Invalid as exc:
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


def parsed(model: type[Parsed], body: bytes) -> Parsed:
    """The JSON body as ``model``; 400 ``bad-request`` in words (as FastAPI says it of
    a body it reads) if it is not one."""
    from pydantic import ValidationError

    from zrec.serve.errors import words

    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise ApiError(400, "bad-request", words(
            [{**e, "loc": ("body", *e["loc"])} for e in exc.errors()])) from None


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
        raise _board_error(exc) from None
    try:  # (and kept: the board asks for the new record's position next)
        checked(text.encode("utf-8"))
    except _Invalid as exc:
        raise ApiError(
            400, "bad-edit", f"after this edit the record would not be valid: {exc.message}"
        ) from None
    return {"text": text, "at": at}


@router.post(
    "/edit",
    summary="Edit a record (play a move, comment, NAG, cut, tags, result, promote)",
    responses={400: _ERROR, 413: _ERROR, 422: _INVALID},
    openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": EditRequest.model_json_schema()}}}},
)
async def edit_record(request: Request) -> Response:
    try:  # (the body read once the pool lets the request in, and parsed there)
        return JSONResponse(await run(request, edit_body, body=True))
    except _Invalid as exc:
        return exc.answer


@router.get(
    "/roll",
    summary="Dice rolled by the server (from secrets)",
    responses={400: _ERROR},
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
    "/json",
    summary="A record as zrec JSON (as zrec convert --to json)",
    response_class=JsonText,
    responses={413: _ERROR, 422: _INVALID},
    openapi_extra=_TEXT_BODY,
)
async def as_json(request: Request) -> Response:
    try:
        return JsonText(await run(request, json_text, body=True))
    except _Invalid as exc:
        return exc.answer


def json_text(body: bytes) -> str:
    """What ``POST /api/json`` answers."""
    from zrec.notation.json.convert import write_json

    out = io.StringIO()
    write_json(iter([checked(body).game]), out)
    return out.getvalue()
