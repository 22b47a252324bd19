"""The events: an event's page and its JSON twins, and recording its results and byes.

An event as the server shows it: ranked as ``zrec archive standings`` ranks it (the
same tie-breaks by default, the same numbers), its crosstable as ``crosstable`` draws
it, its rounds with their games and byes, and the pairings stored for its rounds
(``zrec archive pair``, ``schedule``, ``seat``).

- ``/events/{name}``: standings, crosstable and rounds, and an editor's forms for
  results and byes;
- ``GET /api/events/{name}/standings``: as ``zrec archive standings --format json``
  (``round``, ``tiebreaks`` and ``regulations`` as its options);
- ``GET /api/events/{name}/pairings``: the event's stored pairings, an object of each
  round's array (as ``zrec archive schedule --format json`` prints them);
- ``POST /events/{name}/results`` (a form of :mod:`zrec.serve.results`; then back to
  the event's page, which says what became of the record) and its twin ``POST
  /api/events/{name}/results`` (JSON in, the import's JSON out): a result recorded;
- ``POST /events/{name}/byes`` (an editor): a bye for a player in a round, or one
  taken back, as ``zrec archive bye`` records it.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi import Query as Param
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from zrec.archive import Archive, StoredGame
from zrec.archive.events.loading import load_event
from zrec.serve.access import Caller, caller, needs
from zrec.serve.board import event_board
from zrec.serve.errors import ERROR, ApiError
from zrec.serve.opening import Reader, Writer
from zrec.serve.results import bad_result, outcome, recording, result_text, said
from zrec.serve.templating import JsonText, render, url_part
from zrec.tournament.event import (
    BYES,
    Entrant,
    EventError,
    Tournament,
    round_number,
)
from zrec.tournament.tiebreaks import (
    Ranked,
    default_tiebreaks,
    parse_tiebreaks,
    rank,
    round_robin,
)

__all__ = ["Ranking", "after_words", "event_pairings", "event_rounds", "loaded", "pairings_text",
           "ranking", "router", "standings_text"]


router = APIRouter()
Recorder = Annotated[Caller, Depends(needs("record"))]


@dataclass(slots=True)
class Ranking:
    """An event ranked: the event (after the round asked for), its lines, tie-breaks,
    and whether it is a round robin."""

    event: Tournament
    lines: list[Ranked]
    codes: list[str]
    robin: bool


def loaded(archive: Archive, name: str) -> Tournament:
    """The event called ``name``; 404 when the archive has none."""
    try:
        return load_event(archive, name)
    except EventError as exc:
        raise ApiError(404, "not-found", str(exc)) from None


def ranking(
    archive: Archive,
    name: str,
    last: int | None = None,
    tiebreaks: str | None = None,
    regulations: str = "2026",
) -> Ranking:
    """The event ranked as ``zrec archive standings`` ranks it."""
    event = loaded(archive, name)
    if event.rounds == 0:
        raise ApiError(
            404, "not-found", f"{event.name!r} has no game with a round and a result yet"
        )
    robin = round_robin(event)
    try:
        if last is not None:
            event = event.upto(last)
        chosen = parse_tiebreaks(tiebreaks, event) if tiebreaks is not None else None
        codes = chosen or default_tiebreaks(event, robin)
        return Ranking(event, rank(event, codes, regulations, robin), codes, robin)
    except EventError as exc:
        raise ApiError(400, "bad-event-query", str(exc)) from None


def standings_text(found: Ranking) -> str:
    """The standings as ``zrec archive standings --format json`` prints them."""
    from zrec.tournament.tables import standings_json

    document = standings_json(found.lines, found.codes)
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


@dataclass(slots=True)
class EventRound:
    """One round: its games (in board order) and who had a bye or was absent."""

    number: int
    games: list[StoredGame] = field(default_factory=list)
    byes: list[tuple[str, str]] = field(default_factory=list)


_BYE_WORDS = {"U": "pairing-allocated bye", "F": "full-point bye", "H": "half-point bye",
              "Z": "absent, or a zero-point bye"}


def event_rounds(archive: Archive, event: Tournament) -> tuple[list[EventRound], list[Any]]:
    """The event's rounds in order, and its stored games that name no round."""
    rows = archive.db.rows(
        "SELECT id, round FROM games WHERE event = ? ORDER BY id", (event.id,)
    )
    numbers = {int(gid): round_number(None if tag is None else str(tag)) for gid, tag in rows}
    games = {g.id: g for g in archive.games(list(numbers))}
    rounds: dict[int, EventRound] = {}
    loose = []
    for gid, number in numbers.items():
        if gid not in games:
            continue
        if number is None:
            loose.append(games[gid])
        else:
            rounds.setdefault(number, EventRound(number)).games.append(games[gid])
    for entrant in event.entrants:
        for n, played in entrant.rounds.items():
            if played.code in BYES or (played.game is None and not played.opponents):
                words = _BYE_WORDS.get(played.code, "absent")
                rounds.setdefault(n, EventRound(n)).byes.append((entrant.name, words))
    for shown in rounds.values():
        shown.games.sort(key=lambda g: (_board(g.tag("Round")), g.id))
        shown.byes.sort()
    return [rounds[n] for n in sorted(rounds)], loose


def _board(tag: str) -> int:
    parts = tag.strip().split(".")
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 1 << 30


def event_pairings(
    archive: Archive, event: Tournament, link: Callable[[Entrant], str | None]
) -> list[tuple[str, ET.Element]]:
    """Each round with stored pairings, headed by how far it has got (``Round 5 (1 of
    4 games in; 3 pending)``), and its boards as an HTML table (names linked by
    ``link``, each board's result by its game's page, or ``pending``)."""
    from zrec.archive.events.pairstore import stored_boards
    from zrec.tournament.boards import Board
    from zrec.tournament.pairing_tables import pairings_html, round_boards
    from zrec.tournament.progress import board_result, progress_words, round_progress

    boards = stored_boards(archive.db, event.id)
    progress = round_progress(event, boards)

    def result(board: Board) -> tuple[str, str | None] | None:
        found = board_result(event, board)
        if found is None:
            return None
        text = found.text + (" (forfeit)" if found.forfeit else "")
        return text, None if found.game is None else f"/games/{found.game}"

    out = []
    for n in sorted({b.round for b in boards}):
        title = f"Round {n}" + (f" ({progress_words(progress[n])})" if n in progress else "")
        out.append((title, pairings_html(event, round_boards(boards, n), link, result)))
    return out


def after_words(archive: Archive, event: Tournament) -> str:
    """``After round 5``, saying when a round it counts is not complete: ``After round
    5 (1 of 4 games in; 3 pending)``."""
    from zrec.archive.events.pairstore import stored_boards
    from zrec.tournament.progress import round_progress, standings_title

    return standings_title(event.rounds, round_progress(event, stored_boards(archive.db,
                                                                             event.id)))


def pairings_text(archive: Archive, event: Tournament) -> str:
    """The stored pairings as JSON: an object of each round's array (as ``zrec archive
    schedule --format json`` prints several rounds)."""
    from zrec.archive.events.pairstore import stored_boards
    from zrec.tournament.pairing_tables import pairings_json, round_boards

    boards = stored_boards(archive.db, event.id)
    document = {str(n): pairings_json(event, round_boards(boards, n))
                for n in sorted({b.round for b in boards})}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


@router.get("/events/{name:path}", response_class=HTMLResponse, include_in_schema=False)
def event_page(request: Request, archive: Reader, name: str) -> Response:
    from zrec.tournament.tables import crosstable_html, standings_html

    event = loaded(archive, name)
    rounds, loose = event_rounds(archive, event)
    parts: dict[str, Any] = {}
    if event.rounds:
        ranked = ranking(archive, event.name)

        def player(entrant: Any) -> str:
            return "/players/" + url_part(entrant.name)

        def game(gid: int) -> str:
            return f"/games/{gid}"

        form = "round robin" if ranked.robin else "swiss"
        parts = {
            "codes": ranked.codes,
            "standings": _markup(standings_html(ranked.lines, ranked.codes, player)),
            "crosstable": _markup(crosstable_html(ranked.event, ranked.lines, form, game)),
            "form": form,
            "left_out": ranked.event.left_out,
            "after": after_words(archive, event),
        }
    pairings = [(n, _markup(t)) for n, t in event_pairings(
        archive, event, lambda e: "/players/" + url_part(e.name))]
    board = event_board(event, rounds, loose) if caller(request).may("import") else None
    found = recording(archive, event)
    if board is not None and found is not None and found.boards:  # the round being played
        board["round"] = found.round
    from zrec.archive.live import live_games

    return render(request, "event.html", title=event.name, event=event, rounds=rounds,
                  loose=loose, board=board, recording=found,
                  live=live_games(archive, "playing", event=event.name),
                  pairings=pairings,
                  recorded=said(dict(request.query_params)), **parts)


def _markup(element: ET.Element) -> Markup:
    """An element built with :mod:`xml.etree` (every text escaped as it is written)."""
    return Markup(ET.tostring(element, encoding="unicode", method="html"))


@router.get(
    "/api/events/{name:path}/standings",
    tags=["api"],
    summary="An event's standings (as zrec archive standings --format json)",
    response_class=JsonText,
    responses={400: ERROR, 404: ERROR},
)
def standings(
    archive: Reader,
    name: str,
    round: Annotated[int | None, Param(ge=1, le=999)] = None,
    tiebreaks: Annotated[str | None, Param(max_length=200)] = None,
    regulations: Annotated[str, Param(pattern="^(2026|2024)$")] = "2026",
) -> Response:
    return JsonText(standings_text(ranking(archive, name, round, tiebreaks, regulations)))


@router.get(
    "/api/events/{name:path}/pairings",
    tags=["api"],
    summary="An event's stored pairings (as zrec archive schedule --format json)",
    response_class=JsonText,
    responses={404: ERROR},
)
def pairings(archive: Reader, name: str) -> Response:
    return JsonText(pairings_text(archive, loaded(archive, name)))


@router.post("/events/{name:path}/results", include_in_schema=False)
async def event_result(request: Request, who: Recorder, archive: Writer, name: str
                       ) -> Response:
    from starlette.concurrency import run_in_threadpool

    form = await request.form()
    given = {k: v for k, v in form.items() if isinstance(v, str)}
    report = await run_in_threadpool(_record, archive, name, given)
    from urllib.parse import urlencode

    told = urlencode(outcome(report))
    return RedirectResponse(f"/events/{url_part(report['event'])}?{told}#recorded",
                            status_code=303)


@router.post("/api/events/{name:path}/results", tags=["api"], include_in_schema=False)
async def api_event_result(request: Request, who: Recorder, archive: Writer, name: str
                           ) -> Response:
    """The fields of the form as a JSON object; the answer is the import's report
    (``{"added": ID, "reports": [...]}``, or ``duplicate``: the game it repeats)."""
    import json

    from starlette.concurrency import run_in_threadpool

    try:
        given = json.loads(await request.body())
    except ValueError:
        raise bad_result("the body is a JSON object of the result's fields") from None
    if not isinstance(given, dict) or not all(isinstance(v, str) for v in given.values()):
        raise bad_result("the body is a JSON object of the result's fields, each a string")
    report = await run_in_threadpool(_record, archive, name, given)
    body = {**outcome(report), "reports": report["reports"]}
    return Response(json.dumps(body, ensure_ascii=False) + "\n", media_type="application/json")


def _record(archive: Archive, name: str, given: dict[str, str]) -> dict[str, Any]:
    """The result recorded: the import's report (as the import page shows it)."""
    from zrec.serve.games import page_import

    event = loaded(archive, name)
    found = recording(archive, event)
    if found is None:
        raise bad_result(f"{event.name!r} has no game yet to take the game and its rule "
                         "options from: import its first record")
    text = result_text(found, event.name, given)
    report = page_import(archive, text.encode("utf-8"), "-", False)
    report["event"] = event.name
    return report


@router.post("/events/{name:path}/byes", include_in_schema=False)
async def event_bye(request: Request, who: Recorder, archive: Writer, name: str) -> Response:
    """A bye (``kind``: pab, full, half, zero; ``remove``: the player's bye taken
    back) for ``player`` in ``round`` (``extend``: past the event's last round, as
    ``--extend-rounds``)."""
    from starlette.concurrency import run_in_threadpool

    form = await request.form()
    number, player, kind = (form.get(k) for k in ("round", "player", "kind"))
    if not (isinstance(number, str) and number.strip().isdigit() and isinstance(player, str)
            and player.strip() and isinstance(kind, str)):
        raise ApiError(400, "bad-bye", "a bye needs a round (a number), a player and a kind")
    extend = form.get("extend") == "1"
    await run_in_threadpool(_bye, archive, name, int(number), player.strip(), kind, extend)
    return RedirectResponse("/events/" + url_part(name), status_code=303)


def _bye(archive: Archive, event: str, number: int, player: str, kind: str,
         extend: bool) -> None:
    from zrec.archive.events.byes import BYE_KINDS, add_bye, remove_bye
    from zrec.tournament.event import EventError

    if kind != "remove" and kind not in BYE_KINDS:
        raise ApiError(400, "bad-bye", f"a bye's kind is one of {', '.join(BYE_KINDS)}, "
                       f"or remove, not {kind!r}")
    try:
        if kind == "remove":
            remove_bye(archive, event, number, player)
        else:
            add_bye(archive, event, number, player, kind, extend)
    except EventError as exc:
        raise ApiError(400, "bad-bye", str(exc)) from None
