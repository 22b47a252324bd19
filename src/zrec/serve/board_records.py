"""The records the recording board sends: each read and validated once, and kept.

:func:`checked` gives the one record of a body, validated as ``POST /api/validate``
validates it, prepared for the board (its engine and start, the positions found at its
nodes); a record that does not validate raises :class:`Invalid` (answered 422
``invalid-record`` with the validator's diagnostics), one with more than
:data:`MAX_MOVES` moves 422 ``record-too-long``.  The board sends the same record again
for every click of a move, so a record of up to :data:`KEPT_BODY` bytes is kept for the
next request (:data:`RECORDS`), and the steps to the nodes asked about with it
(:class:`KeptRecord`): each request prepares its record once, and draws the position
from the step it found (no second replay).  What is kept is bounded twice: at most
:data:`KEPT_RECORDS` records, each keeping at most :data:`KEPT_NODES` nodes (so a record
of 10,000 moves asked about at every node does not keep 10,000 positions), the least
recently asked first to go.  Requests answered in threads at once share the kept
records: locks guard both.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, TypeVar

from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from zrec.check.diagnostics import Diagnostic
from zrec.notation.model import Game, Line
from zrec.play import Step, path_to
from zrec.play.board import BoardError, BoardRecord, bad_node
from zrec.play.places import check_node
from zrec.serve.errors import ApiError

__all__ = ["KEPT_BODY", "KEPT_NODES", "KEPT_RECORDS", "MAX_MOVES", "RECORDS", "UNFINISHED",
           "Invalid", "KeptRecord", "board_error", "checked", "moves_in", "parsed",
           "web_message"]


Parsed = TypeVar("Parsed", bound=BaseModel)


class Invalid(Exception):
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


def _invalid(message: str, diagnostics: list[dict[str, Any]]) -> Invalid:
    return Invalid(message, diagnostics)


#: what the end of a game is checked against (its result, a score it states): not
#: refused in a record still being written (result ``*``)
UNFINISHED = frozenset({"wrong-result", "wrong-score"})


#: the largest body whose checked record is kept for the next request (the board sends
#: the same record again for every click of a move)
KEPT_BODY = 256 * 1024


#: the most moves (variations included) of a record the board takes: a longer one is
#: answered 422 ``record-too-long`` before it is replayed
MAX_MOVES = 10_000
#: the records kept for the next request, and the nodes each keeps
KEPT_RECORDS, KEPT_NODES = 32, 64


class KeptRecord(BoardRecord):
    """A record prepared for the board once and kept between requests, with the last
    step to each node asked about (the position there, and the move that reached it,
    for the drawing): at most ``most`` nodes, the least recently asked about dropped
    first.  A lock guards them: requests in threads at once share the record."""

    def __init__(self, game: Game, most: int = KEPT_NODES) -> None:
        super().__init__(game)
        self.most = most
        self._steps: OrderedDict[int, Step | None] = OrderedDict()
        self._lock = threading.Lock()

    def step(self, at: int) -> Step | None:
        """The last step to node ``at`` (``None`` at the start); :class:`BoardError`
        (``bad-node``) for a node the record does not have."""
        with self._lock:
            if at in self._steps:
                self._steps.move_to_end(at)
                return self._steps[at]
        check_node(self.game.line, at, bad_node(at))
        found = path_to(self.replay, self.game.line, at)[-1] if at else None
        with self._lock:  # (walked outside the lock: another node's request goes on)
            self._steps[at] = found
            self._steps.move_to_end(at)
            while len(self._steps) > self.most:
                self._steps.popitem(last=False)
        return found

    def position(self, at: int) -> Any:
        """The position after node ``at`` (as :meth:`BoardRecord.position`)."""
        step = self.step(at)
        return self.replay.start if step is None else step.after

    @property
    def kept(self) -> int:
        """How many nodes are kept."""
        with self._lock:
            return len(self._steps)


class _Records:
    """The records kept, by their bodies: at most ``size``, the least recently asked
    for dropped first; a lock guards them.  A record asked for by two requests at once
    may be checked twice (each request then has one), never half kept."""

    def __init__(self, size: int = KEPT_RECORDS) -> None:
        self.size, self.made, self.hits = size, 0, 0
        self._kept: OrderedDict[bytes, KeptRecord] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, body: bytes) -> KeptRecord:
        with self._lock:
            found = self._kept.get(body)
            if found is not None:
                self._kept.move_to_end(body)
                self.hits += 1
                return found
        found = _checked(body)  # (checked outside the lock: it takes a while)
        with self._lock:
            self.made += 1
            self._kept[body] = found
            self._kept.move_to_end(body)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return found

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.made = self.hits = 0


#: the records kept by this process
RECORDS = _Records()


def checked(body: bytes) -> KeptRecord:
    """The one record of ``body``, validated as ``POST /api/validate`` validates it;
    raises :class:`Invalid` with the validator's diagnostics.  A record with the
    result ``*`` is being written: its end is not judged (:data:`UNFINISHED`)."""
    if len(body) <= KEPT_BODY:
        return RECORDS.get(body)
    return _checked(body)


def _checked(body: bytes) -> KeptRecord:
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
        return KeptRecord(game)
    except BoardError as exc:
        raise board_error(exc) from None


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


def board_error(exc: BoardError) -> ApiError:
    return ApiError(422 if exc.code == "no-engine" else 400, exc.code, exc.message)


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
