"""A study player's move for the recording board: ``POST /api/reply``.

The board page lets a person play one of the players of :mod:`zrec.research.study`
(``random``, ``greedy``, ``mcts[:playouts]``, ``alphabeta[:depth]``, as ``zrec play``
takes them): after each move of the person it sends the record, the node and the
player, and plays the move answered through ``POST /api/edit`` as a clicked one.  The
answer is the move of the seat to move at that node, written as ``zrec fmt`` writes it
(a turn with dice: with its roll), chosen by the Python engines; no rule is in the page.

Like the rest of the board's API, asking for a move is reading: nobody needs to log in
and nothing is written.  What one request may cost is bounded, since anybody may send
one: a search player's budget at most :data:`WEB_BUDGETS` (``bad-player`` beyond), a
search stopped after :data:`SEARCH_SECONDS` seconds (``search-too-long``), and at most
:data:`AT_ONCE` searches at once in a server process (``busy`` for another, answered
before its body is read); the search runs in the pool of expensive work
(:mod:`zrec.serve.work`), under its limits per client and its budget of time.

Dice: a turn that rolls them is rolled by the server, as the board's Roll button has
it do (``GET /api/roll``), from the generator the player's own random choices draw on:
seeded with the ``seed`` given and the node, so that the same request is answered the
same move, or else from :mod:`secrets`.  A ``roll`` given (dice read off real ones) is
used instead.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from zrec.play.board import BoardError, board_at, parse_roll
from zrec.serve.board_records import Invalid, board_error, checked
from zrec.serve.errors import ApiError
from zrec.serve.work import WORK_SECONDS, refused, run

__all__ = [
    "AT_ONCE",
    "SEARCH_SECONDS",
    "WEB_BUDGETS",
    "WEB_PLAYOUT_MOVES",
    "ReplyRequest",
    "reply_json",
    "router",
]

router = APIRouter(prefix="/api", tags=["board"])

#: the largest budget a request may ask of each search player (``zrec play`` takes more)
WEB_BUDGETS = {"mcts": 1000, "alphabeta": 6}
#: the most moves of an mcts playout a request may ask (``mcts:N:M``)
WEB_PLAYOUT_MOVES = 100
#: seconds a search may run before it is stopped (the engines read no clock: the
#: server's wrapper of the engine does, at each of its calls)
SEARCH_SECONDS = 10.0
#: searches at once in one server process (waiting for the pool of
#: :mod:`zrec.serve.work` or searching); another request is answered ``busy``, before
#: its body is read
AT_ONCE = 2
_searching = threading.BoundedSemaphore(AT_ONCE)


class ReplyRequest(BaseModel):
    """A record, the node to move from (by default the end of its main line), the
    player, and optionally a seed and the roll of the turn."""

    text: str = Field(max_length=2 * 1024 * 1024)
    at: int | None = Field(None, ge=0, le=10**9)
    player: str = Field(max_length=40)
    seed: int | None = Field(None, ge=0, le=2**63)
    roll: str | None = Field(None, max_length=20)


def web_player(text: str) -> str:
    """The player ``text`` names, spelt as ``zrec study`` spells it (``mcts`` is
    ``mcts:200``); :class:`ApiError` ``bad-player`` for another name, a bad budget or
    one over :data:`WEB_BUDGETS`."""
    from zrec.research.players import SEARCHERS, PlayerError, player_spec
    from zrec.research.study import PLAYER_NAMES, PLAYERS

    try:
        spec = player_spec(text, "player")
    except PlayerError as exc:
        raise ApiError(400, "bad-player", str(exc)) from None
    if spec is None:
        if text.strip().lower() in PLAYERS:
            return text.strip().lower()
        raise ApiError(400, "bad-player",
                       f"the player is {', '.join(PLAYER_NAMES)}, not {text.strip()!r}")
    name, budget, *moves = spec.split(":")  # mcts:16:4: the playouts are the budget
    most = WEB_BUDGETS[name]
    if int(budget) > most:
        unit = SEARCHERS[name].unit
        raise ApiError(400, "bad-player",
                       f"player {spec}: over the web, {name} searches with a budget of at "
                       f"most {most} ({unit}); zrec play takes more")
    if moves and int(moves[0]) > WEB_PLAYOUT_MOVES:
        raise ApiError(400, "bad-player",
                       f"player {spec}: over the web, a playout of {name} is at most "
                       f"{WEB_PLAYOUT_MOVES} moves; zrec play takes more")
    return spec


class _TooLong(Exception):
    """The search ran past its deadline."""


class _Timed:
    """The engine, for a search: the calls of the engine protocol the players make, each
    of those a search repeats first checking the search's deadline."""

    def __init__(self, engine: Any, deadline: float) -> None:
        from zrec.budget import current

        self._engine, self._deadline, self._budget = engine, deadline, current()
        self.seats: tuple[str, ...] = engine.seats
        self.title: str = engine.title

    def _check(self) -> None:
        if time.monotonic() > self._deadline:
            raise _TooLong()
        if self._budget is not None:  # (the request's: its client gone)
            self._budget.check()

    def key(self, pos: Any) -> bytes:
        return bytes(self._engine.key(pos))

    def material(self, pos: Any) -> tuple[int, ...]:
        return tuple(self._engine.material(pos))

    def to_move(self, pos: Any) -> int | None:
        found: int | None = self._engine.to_move(pos)
        return found

    def move_number(self, pos: Any) -> Any:
        return self._engine.move_number(pos)

    def chance(self, pos: Any) -> Any:
        return self._engine.chance(pos)

    def spell(self, pos: Any, move: Any) -> Any:
        return self._engine.spell(pos, move)

    def outcome(self, pos: Any) -> Any:
        self._check()
        return self._engine.outcome(pos)

    def legal_moves(self, pos: Any, roll: Sequence[int] | None = None) -> Any:
        self._check()
        return self._engine.legal_moves(pos, roll)

    def sample_move(self, pos: Any, roll: Sequence[int] | None, rng: random.Random) -> Any:
        self._check()
        return self._engine.sample_move(pos, roll, rng)

    def apply(self, pos: Any, move: Any) -> Any:
        self._check()
        return self._engine.apply(pos, move)


def reply_body(body: bytes, seconds: float = SEARCH_SECONDS) -> dict[str, Any]:
    """What ``POST /api/reply`` answers for its body."""
    from zrec.serve.board_records import parsed

    return reply_json(parsed(ReplyRequest, body), seconds)


def reply_json(request: ReplyRequest, seconds: float = SEARCH_SECONDS) -> dict[str, Any]:
    """What ``POST /api/reply`` answers (``seconds``: the most the search runs)."""
    from zrec.errors import ZrecError
    from zrec.research.study import seat_players

    spec = web_player(request.player)
    prepared = checked(request.text.encode("utf-8"))
    try:
        board = board_at(prepared, request.at)
    except BoardError as exc:
        raise board_error(exc) from None
    if board.to_move is None:
        raise ApiError(400, "game-over", f"the game is over after node {board.at}: "
                       "no move is left to play")
    engine, pos = prepared.replay.engine, prepared.position(board.at)
    try:
        choose = seat_players(engine, (spec,))[0]
    except ZrecError as exc:
        raise ApiError(400, "player-refuses", str(exc)) from None
    seed = secrets.randbits(64) if request.seed is None else request.seed
    rng = random.Random(f"zrec-reply/{seed}/{board.at}")
    chance = engine.chance(pos)
    roll: tuple[int, ...] | None = None
    if request.roll is not None:  # (dice read off real ones)
        try:
            roll = parse_roll(request.roll, None if chance is None else chance.faces, board.at)
        except BoardError as exc:
            raise board_error(exc) from None
    elif chance is not None:
        roll = tuple(chance.roll(rng))
    move = _search(choose, engine, pos, roll, rng, spec, seconds)
    if move is None:
        raise ApiError(400, "no-move", f"{spec} finds no move to play after node {board.at}")
    return {"move": engine.spell(pos, move).text(), "at": board.at, "seat": board.to_move,
            "player": spec, "roll": None if roll is None else list(roll)}


def _search(choose: Any, engine: Any, pos: Any, roll: tuple[int, ...] | None,
            rng: random.Random, spec: str, seconds: float) -> Any:
    """The move ``choose`` makes, within ``seconds``."""
    try:
        return choose(_Timed(engine, time.monotonic() + seconds), pos, roll, rng)
    except _TooLong:
        raise ApiError(422, "search-too-long", f"{spec} searched for more than "
                       f"{seconds:g} s, the most the server searches for one move: "
                       "ask for a smaller budget") from None


@router.post(
    "/reply",
    summary="The move of a study player (random, greedy, mcts:N, alphabeta:D) at a node "
    "of a record, for playing against it on the recording board",
    responses={400: {"description": "An error: bad-player, player-refuses, game-over, "
                     "bad-node, bad-roll, no-move"},
               413: {"description": "An error"},
               422: {"description": "invalid-record, no-engine, record-too-long, "
                     "search-too-long or over-budget"},
               429: {"description": "too-many-requests: this client's requests at once"},
               503: {"description": "busy: too many searches at once"}},
    openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": ReplyRequest.model_json_schema()}}}},
)
async def reply(request: Request) -> Response:
    # the gate first: a request over it costs nothing, its body not even read
    if not _searching.acquire(blocking=False):
        raise await refused(request, ApiError(
            503, "busy", f"the server is already searching {AT_ONCE} moves for other "
            "requests: ask again in a moment"))
    try:
        answer = await run(request, reply_body, SEARCH_SECONDS, body=True,
                           seconds=SEARCH_SECONDS + WORK_SECONDS)
        return JSONResponse(answer)
    except Invalid as exc:
        return exc.answer
    finally:
        _searching.release()
