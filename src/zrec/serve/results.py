"""Recording a result on an event's page: a result-only record, imported.

An editor gives a round, a player for each seat, a result, how the game ended (a
``Termination`` other than ``normal``: a record with no moves cannot have ended by the
rules) and a date (today's when none is given: the form shows it, to be changed).
When the event has stored pairings, the form offers the boards of the first round that
has boards without a result: picking one fills the round (``5.2``: board 2 of round 5)
and the players (a script does it on the page; without it the server fills the seats
left blank from that board's pairing).  The server builds the record (the tags
``Game`` and the rule options of the event's games, ``Event``, ``Date``, ``Round``,
the seats, ``Result`` and ``Termination``, and no moves) with the notation's writer,
and imports it as ``POST /import`` does (:func:`zrec.serve.writing.page_import`), so
a duplicate or a conflict is reported as an import reports it.

- ``POST /events/{name}/results`` (a form): then back to the event's page, which
  says what became of the record;
- ``POST /api/events/{name}/results`` (JSON in, the import's JSON out).

The seats are the game's own (:attr:`GameRules.seats`).  A game with more seats than
the event's games play, or whose records need setup tags (:attr:`GameRules.inputs`),
is not offered the form: its results are imported as records.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response

from zrec.archive import Archive
from zrec.serve.access import Caller, needs, open_writer
from zrec.serve.errors import ApiError
from zrec.serve.events import PendingBoard, pending_boards
from zrec.serve.templating import url_part

__all__ = ["Recording", "recording", "router"]

router = APIRouter(include_in_schema=False)
Recorder = Annotated[Caller, Depends(needs("record"))]
_ROUND = re.compile(r"[1-9][0-9]{0,2}(\.[1-9][0-9]{0,2})?")
_DATE = re.compile(r"[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}")
#: what the page says became of a recorded result, by the import's report
OUTCOMES = {"added": "the result is recorded as game #{}",
            "conflict": "it conflicts with game #{}: see both",
            "duplicate": "the result was not stored: the same game as #{}",
            "truncated": "the result was not stored: a truncated copy of game #{}"}


@dataclass(slots=True)
class Recording:
    """What the form needs: the event's game and options, its seats, the results and
    terminations to choose from, the players known; or why there is no form."""

    game: str
    options: dict[str, str]
    seats: list[str]
    results: list[str]
    terminations: list[str]
    players: list[str]
    refused: str | None = None
    #: the boards of the first round with boards without a result
    boards: list[PendingBoard] = field(default_factory=list)
    #: the day the date field shows, YYYY.MM.DD
    today: str = ""

    @property
    def round(self) -> str:
        """The round the form starts at: the first with boards without a result."""
        return str(self.boards[0].round) if self.boards else ""


def today() -> str:
    """Today's date (the server's), as a ``Date`` tag writes it."""
    return datetime.date.today().strftime("%Y.%m.%d")


def _results(seats: int) -> list[str]:
    """One win for each seat, then all drawn: ``1-0``, ``0-1``, ``1/2-1/2``."""
    wins = ["-".join("1" if i == j else "0" for j in range(seats)) for i in range(seats)]
    return [*wins, "-".join(["1/2"] * seats)]


def _seats(rules: Any, options: dict[str, str]) -> list[str]:
    """The seats a game of ``rules`` has under ``options`` (its engine's: a rule set may
    have seats of its own), or every seat of the game when no engine can be made from the
    options alone (a game whose seats are named by its setup tags)."""
    from zrec.errors import ZrecError
    from zrec.rules.base import configure

    try:
        engine = rules.engine_for(configure(rules, options))
    except ZrecError:
        engine = None
    return list(engine.seats if engine is not None else rules.seats)


def recording(archive: Archive, event: Any) -> Recording | None:
    """The form for ``event`` (a :class:`Tournament`), ``None`` when it has no game to
    take the game and options from."""
    from zrec.archive.store import split_options
    from zrec.play.ending import TERMINATIONS
    from zrec.rules import find_game
    from zrec.rules.base import UnknownGameError

    row = next(iter(archive.db.rows(
        "SELECT g.game, o.options, count(*) AS n FROM games g "
        "JOIN rule_options o ON o.id = g.options_id WHERE g.event = ? "
        "GROUP BY g.game, o.options ORDER BY n DESC, g.game, o.options LIMIT 1",
        (event.id,))), None)
    if row is None:
        return None
    try:
        rules = find_game(str(row[0]))
    except UnknownGameError:
        return None
    options = split_options(str(row[1]))
    seats = _seats(rules, options)
    players = sorted({e.name for e in event.entrants})
    terminations = [t for t in TERMINATIONS if t != "normal"]
    found = Recording(rules.name, options, seats, _results(len(seats)),
                      terminations, players, today=today())
    found.boards = [b for b in pending_boards(archive, event) if len(b.players) == len(seats)]
    if len(seats) != event.seats or rules.inputs:
        found.refused = (f"results of {rules.title} are imported as records (on the import "
                         "page): a record of this game names its seats and setup in tags "
                         "this form does not ask for")
    elif len(seats) != 2:
        # the results it offers are one seat's win or a draw: a game of more seats may
        # score otherwise (seats in teams)
        found.refused = (f"results of {rules.title} with {len(seats)} seats are imported "
                         "as records (on the import page): this form records games of two "
                         "seats")
    return found


def _bad(message: str) -> ApiError:
    return ApiError(400, "bad-result", message)


def result_text(found: Recording, event: str, given: dict[str, str]) -> str:
    """The record of the result ``given`` (the form's fields), as the notation's writer
    writes it; 400 (``bad-result``) for a field the form does not take."""
    from zrec.notation.model import Game, Line
    from zrec.notation.writer import write_game

    if found.refused:
        raise _bad(found.refused)
    number = given.get("round", "").strip() or given.get("board", "").strip()
    if not _ROUND.fullmatch(number):
        raise _bad(f"the round is a number from 1 to 999 (3, or 3.2 for board 2), "
                   f"not {number!r}")
    result = given.get("result", "").strip()
    if result not in found.results:
        raise _bad(f"the result is one of {', '.join(found.results)}, not {result!r}")
    ended = " ".join(given.get("termination", "").split()).lower()
    if ended not in found.terminations:
        raise _bad(f"how the game ended is one of {', '.join(found.terminations)}, "
                   f"not {ended!r}")
    date = given.get("date", "").strip().replace("-", ".") or found.today or today()
    if not _DATE.fullmatch(date):
        raise _bad(f"the date is written YYYY.MM.DD (or YYYY-MM-DD), not {date!r}")
    paired = next((b.players for b in found.boards if b.value == number), None)
    names = [(seat, " ".join(given.get(seat, "").split()) or (paired[i] if paired else ""))
             for i, seat in enumerate(found.seats)]
    missing = [seat for seat, name in names if not name]
    if missing:
        raise _bad(f"name the player of each seat: {', '.join(missing)} has none")
    if len({name.casefold() for _, name in names}) < len(names):
        raise _bad("a player cannot play against themselves")
    tags = [("Game", found.game), *found.options.items(), ("Event", event),
            ("Date", date), ("Round", number), *names, ("Result", result),
            ("Termination", ended)]
    return write_game(Game(tuple(tags), Line(()), result))


def _record(request: Request, name: str, given: dict[str, str]) -> dict[str, Any]:
    """The result recorded: the import's report (as the import page shows it)."""
    from zrec.serve.events import loaded
    from zrec.serve.writing import page_import

    archive = open_writer(request)
    try:
        event = loaded(archive, name)
        found = recording(archive, event)
        if found is None:
            raise _bad(f"{event.name!r} has no game yet to take the game and its rule "
                       "options from: import its first record")
        text = result_text(found, event.name, given)
        event_name = event.name
    finally:
        archive.close()
    report = page_import(request, text.encode("utf-8"), "-", False)
    report["event"] = event_name
    return report


def outcome(report: dict[str, Any]) -> dict[str, int]:
    """What became of the one record imported, as the event page's address says it:
    ``{"added": ID}`` (with ``"conflict": OTHER`` when it conflicts with a stored
    game), or ``{"duplicate": OTHER}``, ``{"truncated": OTHER}`` when not stored; 400
    when the record was invalid."""
    told = {r["kind"]: int(r["other"]) for r in report["reports"] if r["other"] is not None}
    for kind in ("duplicate", "truncated"):
        if kind in told:
            return {kind: told[kind]}
    if not report["ids"]:
        raise _bad("the result was not stored: " + "; ".join(report["lines"]))
    found = {"added": int(report["ids"][0])}
    return found | ({"conflict": told["conflict"]} if "conflict" in told else {})


def said(query: dict[str, str]) -> list[str]:
    """The event page's words for what became of a recorded result (its address's
    ``added``, ``duplicate``, ``truncated``, ``conflict``)."""
    return [words.format(query[k]) for k, words in OUTCOMES.items()
            if query.get(k, "").isdigit()]


@router.post("/events/{name:path}/results")
async def event_result(request: Request, who: Recorder, name: str) -> Response:
    from starlette.concurrency import run_in_threadpool

    form = await request.form()
    given = {k: v for k, v in form.items() if isinstance(v, str)}
    report = await run_in_threadpool(_record, request, name, given)
    from urllib.parse import urlencode

    told = urlencode(outcome(report))
    return RedirectResponse(f"/events/{url_part(report['event'])}?{told}#recorded",
                            status_code=303)


@router.post("/api/events/{name:path}/results", tags=["api"])
async def api_event_result(request: Request, who: Recorder, name: str) -> Response:
    """The fields of the form as a JSON object; the answer is the import's report
    (``{"added": ID, "reports": [...]}``, or ``duplicate``: the game it repeats)."""
    import json

    from starlette.concurrency import run_in_threadpool

    try:
        given = json.loads(await request.body())
    except ValueError:
        raise _bad("the body is a JSON object of the result's fields") from None
    if not isinstance(given, dict) or not all(isinstance(v, str) for v in given.values()):
        raise _bad("the body is a JSON object of the result's fields, each a string")
    report = await run_in_threadpool(_record, request, name, given)
    body = {**outcome(report), "reports": report["reports"]}
    return Response(json.dumps(body, ensure_ascii=False) + "\n", media_type="application/json")
