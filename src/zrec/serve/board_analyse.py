"""The computer analysis of the recording board's game: ``POST /api/analyse``.

The board page's "Analyse this game" sends the record and, if chosen, a search player
with its budget; the server judges every move of the main line as ``zrec analyse``
does (:func:`zrec.research.analysis.analyse_game`) and answers the record with the
analysis written in (marks ``?!``, ``?``, ``??``, comments, best lines, each seat's
summary and the ``Evaluation`` tag, :mod:`zrec.research.annotate`), which the page
loads in place of its own, and the analysis as ``zrec analyse --format json`` gives a
game's.

Like the rest of the board's API, asking for it is reading: nobody needs to log in and
nothing is written (saving the analysed record to the archive is the board's Save, for
an editor).  What one request may cost is bounded: the player is one of ``/api/reply``'s
search players within its web budgets (:data:`zrec.serve.board_player.WEB_BUDGETS`:
``alphabeta`` at most 6 deep, ``mcts`` at most 1000 playouts; by default the game's,
``alphabeta:4`` or ``mcts:200``); the analysis runs in the pool of expensive work
(:mod:`zrec.serve.work`) with a budget of :data:`ANALYSE_SECONDS` and the pool's own
(:data:`~zrec.serve.work.WORK_SECONDS`): 40 s in all, checked after each
move judged (``over-budget`` past it, a worker that does not stop killed); at most
:data:`AT_ONCE` analyses run at once in a server process (``busy`` for another,
answered before its body is read).
"""

from __future__ import annotations

import threading
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from zrec.serve.board_player import web_player
from zrec.serve.board_records import Invalid
from zrec.serve.errors import ApiError
from zrec.serve.work import WORK_SECONDS, refused, run

__all__ = ["ANALYSE_SECONDS", "AT_ONCE", "AnalyseRequest", "analyse_json", "router"]

router = APIRouter(prefix="/api", tags=["board"])

#: seconds an analysis may run beyond the pool's own budget for any work (its wait
#: for a worker included)
ANALYSE_SECONDS = 30.0
#: analyses at once in one server process; another request is answered ``busy``
AT_ONCE = 1
_analysing = threading.BoundedSemaphore(AT_ONCE)


class AnalyseRequest(BaseModel):
    """A record, and optionally the analysing player (``mcts:N``, ``alphabeta:D``) and
    the seed."""

    text: str = Field(max_length=2 * 1024 * 1024)
    player: str | None = Field(None, max_length=40)
    seed: int = Field(0, ge=0, le=2**63)


def analyse_body(body: bytes) -> dict[str, Any]:
    """What ``POST /api/analyse`` answers for its body."""
    from zrec.serve.board_records import parsed

    return analyse_json(parsed(AnalyseRequest, body))


def analyse_json(request: AnalyseRequest) -> dict[str, Any]:
    """The analysed record (``text``), the player, the seed and the analysis (as
    ``zrec analyse --format json`` gives a game's: ``seats``, ``moves``, ``summary``)."""
    from zrec.budget import current
    from zrec.notation.writer import write_game
    from zrec.research.analysis import (
        ANALYSIS_TAG,
        AnalysisError,
        analyse_game,
        analysis_player,
    )
    from zrec.research.annotate import annotated
    from zrec.serve.board_records import checked

    spec = None
    if request.player is not None and request.player.strip():
        spec = web_player(request.player)
        if ":" not in spec:  # (random, greedy: they play, they do not judge)
            from zrec.research.players import SEARCHERS

            names = " or ".join(s.spelt(name) for name, s in SEARCHERS.items())
            raise ApiError(400, "bad-player", f"an analysis takes a search player, {names}; "
                           f"not {request.player.strip()!r}")
        spec = analysis_player(spec)
    game = checked(request.text.encode("utf-8")).game
    if game.tag(ANALYSIS_TAG) is not None:
        raise ApiError(400, "analysed-already", f"the record is analysed already "
                       f"({ANALYSIS_TAG} {game.tag(ANALYSIS_TAG)}): send it as it was written, "
                       "without that analysis's marks, comments and lines")
    if not isinstance(game.line.moves, tuple):
        from dataclasses import replace

        game = replace(game, line=replace(game.line, moves=tuple(game.line.moves)))
    budget = current()
    try:
        analysis = analyse_game(game, spec, request.seed, 1,
                                budget.check if budget is not None else None)
    except AnalysisError as exc:
        raise ApiError(400, "player-refuses", str(exc)) from None
    body = analysis.to_json()
    return {"text": write_game(annotated(game, analysis)), "player": analysis.player,
            "seed": analysis.seed, "seats": body["seats"], "moves": body["moves"],
            "summary": body["summary"]}


@router.post(
    "/analyse",
    summary="The computer analysis of a record (every move of its main line judged by a "
    "search player): the record with marks, comments, best lines and a summary",
    responses={400: {"description": "An error: bad-player, player-refuses, analysed-already"},
               413: {"description": "An error"},
               422: {"description": "invalid-record, no-engine, over-budget"},
               429: {"description": "too-many-requests: this client's requests at once"},
               503: {"description": "busy: an analysis is already running"}},
    openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": AnalyseRequest.model_json_schema()}}}},
)
async def analyse(request: Request) -> Response:
    if not _analysing.acquire(blocking=False):
        raise await refused(request, ApiError(
            503, "busy", f"the server is already analysing {AT_ONCE} game(s) for other "
            "requests: ask again in a moment"))
    try:
        answer = await run(request, analyse_body, body=True,
                           seconds=ANALYSE_SECONDS + WORK_SECONDS)
        return JSONResponse(answer)
    except Invalid as exc:
        return exc.answer
    finally:
        _analysing.release()
