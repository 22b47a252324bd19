"""Solving a puzzle on the recording board: ``/board?puzzle=N`` and ``POST /api/puzzle``.

A puzzle is a stored game made by ``zrec puzzles`` (:mod:`zrec.research.puzzles`): a
``Setup`` position and the solution as its main line, the comment before its first move
saying what is to be found.  ``/board?puzzle=N`` opens the board on the position alone
(the solution is not in the page) with that task; the person plays a move on the board,
and the page sends the record to ``POST /api/puzzle``, which says whether its first
move is the solution's, and gives the solution once it is found or asked for
(``reveal``).  Both only read: nobody needs to log in.  No rule is in the page: the
moves are the board's, and the server compares them as ``zrec fmt`` writes them.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from zrec.archive import StoredGame
from zrec.serve.errors import ApiError, not_found
from zrec.serve.opening import Reader

__all__ = ["PUZZLE_TEXT", "PuzzleRequest", "puzzle_of", "router"]

router = APIRouter(prefix="/api", tags=["board"])

#: the longest record the board may send (characters): a puzzle's position and the
#: moves tried on it, a few hundred; the record is read in the server's own process
#: (only its first move is judged), so a long one is refused unread rather than let
#: slow every other page, as records sent to the pool's routes are not
PUZZLE_TEXT = 16 * 1024


class PuzzleRequest(BaseModel):
    """The puzzle's archive id, the record on the board, and whether to show the
    solution anyway."""

    id: int = Field(ge=0, le=2**62)
    text: str = Field(max_length=PUZZLE_TEXT)
    reveal: bool = False


def puzzle_of(stored: StoredGame | None, gid: int) -> tuple[str, str, Any]:
    """A stored puzzle's position as a record without moves (what the board opens), its
    task in words, and the game; 404 ``not-found`` for no game, or a game that is no
    puzzle (no ``Setup``, or no move)."""
    from zrec.notation.model import Game, Line
    from zrec.notation.reader import read_game
    from zrec.notation.writer import write_game

    if stored is None:
        raise not_found(f"there is no game #{gid}")
    game = read_game(stored.text, f"game #{gid}") if stored.valid else None
    if game is None or not game.tag("Setup") or not game.line.moves:
        raise not_found(f"game #{gid} is no puzzle: a puzzle has a Setup and its solution "
                        "(zrec puzzles makes them)")
    first = game.line.moves[0]
    said = " ".join(c.text for c in first.comments_before)
    task = said.split(" From ", 1)[0].strip() or "Find the best move."
    tags = tuple((k, "*" if k == "Result" else v) for k, v in game.tags)
    return write_game(Game(tags, Line(()), "*")), task, game


@router.post(
    "/puzzle",
    summary="Whether the first move of the record on the board solves a stored puzzle",
    responses={400: {"description": "An error: bad-request"},
               404: {"description": "not-found: no such game, or no puzzle"}},
)
def puzzle(body: PuzzleRequest, archive: Reader) -> Response:
    from zrec.errors import ZrecError
    from zrec.notation.reader import read_game
    from zrec.notation.writer import write_game

    stored = next(iter(archive.games([body.id])), None)
    _, _, game = puzzle_of(stored, body.id)
    try:
        tried = read_game(body.text, "the board's record")
    except ZrecError as exc:
        raise ApiError(400, "bad-request", str(exc)) from None
    if not tried.line.moves and not body.reveal:
        raise ApiError(400, "bad-request", "the record has no move to judge yet")
    wanted = game.line.moves[0].turn.text()
    played = tried.line.moves[0].turn.text() if tried.line.moves else None
    solved = played == wanted
    answer: dict[str, Any] = {"solved": solved, "move": played}
    if solved or body.reveal:  # (its moves, without the task's comment)
        from dataclasses import replace

        from zrec.notation.model import Line

        bare = Line(tuple(replace(n, comments_before=(), comments_after=())
                          for n in game.line.moves))
        moves = write_game(replace(game, line=bare)).split("\n\n", 1)[1]
        answer["solution"] = " ".join(moves.split())
    return JSONResponse(answer)
