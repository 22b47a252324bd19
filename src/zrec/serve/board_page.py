"""The recording board: the page ``/board`` and what it asks the server.

- ``/board`` (no login: nothing is written until an editor saves): a form to start a
  new game of any game zrec has rules for, with its seats, each rule option and each
  setup tag the rules registry lists (nothing of a game is written in the template or
  the script), or a record pasted or read from a file; ``/board?game=G&O=Tag=value&
  Event=...&Round=...&White=...`` starts a new game with those tags (``Date`` today's
  unless given; a hidden setup the rules draw, such as the order of a herd, drawn by
  the server through the game's rules (:meth:`GameRules.random_tags` from
  :mod:`secrets`) where the form leaves it empty, unless ``hidden=enter``), ``/board?id=N``
  opens an archived game, ``/board?start=1`` the record ``zrec board FILE`` was started
  with (kept in memory at start: no address reads a file).  The board itself is drawn
  by ``static/board.js`` from the JSON API (:mod:`zrec.serve.board_api`).
- ``POST /api/record``: a record as the board lists it: its text as ``zrec fmt`` writes
  it, its tags, and its moves with their node numbers (file order, as
  ``POST /api/position`` counts them), comments and NAGs, variations nested.
"""

from __future__ import annotations

import datetime
import random
import re
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Query as Param
from fastapi.responses import HTMLResponse, Response

from zrec.errors import ZrecError
from zrec.notation.model import Game, Line
from zrec.rules.base import GameRules
from zrec.serve.access import Reader
from zrec.serve.templating import render

__all__ = ["new_record", "router"]

router = APIRouter()

#: a query parameter that is a tag of the new game: a name as tags are written
_TAG = re.compile(r"^[A-Z][A-Za-z0-9_]{0,39}$")
#: the tags every new game is offered, before its seats
ROSTER = ("Event", "Site", "Date", "Round")
#: the largest budget the board suggests for a player to play against (mcts:50 answers
#: in about a second on the smaller boards)
SUGGESTED = 50


def today() -> str:
    """Today's date (the server's), as a record writes dates: ``YYYY.MM.DD``."""
    return datetime.date.today().strftime("%Y.%m.%d")


def drawable(rules: GameRules) -> list[str]:
    """The setup tags of a game its rules draw at random for a new game (a hidden
    setup, such as the order of a herd), for any number of seats it may have."""
    found: dict[str, None] = {}
    for seats in [None, *range(1, len(rules.seats) + 1)]:
        try:
            drawn = rules.random_tags(seats, random.Random(0))
        except ZrecError:
            continue
        found.update((tag, None) for tag in drawn if tag in rules.inputs)
    return list(found)


def drawn_setup(
    rules: GameRules, named: list[str], rng: random.Random
) -> tuple[list[str], dict[str, str]]:
    """The seats a new game with the seats ``named`` plays (its rules' smallest number
    of seats that holds them all: with Shepherd1 and Wolves named, a game of
    one shepherd player) and its hidden setup drawn by the rules with ``rng``."""
    for seats in [*range(1, len(rules.seats) + 1), None] if named else [None]:
        try:
            drawn = rules.random_tags(seats, rng)
        except ZrecError:
            continue
        playing = [tag for tag in rules.seats if tag in drawn]
        if set(named) <= set(playing) or seats is None:
            return playing, {k: v for k, v in drawn.items() if k in rules.inputs}
    return [], {}  # (not reached: every game can be drawn with its usual seats)


def new_record(
    game: str, options: list[str], tags: list[tuple[str, str]], draw: bool = True,
    rng: random.Random | None = None,
) -> str:
    """A new game's record (no moves yet) as ``zrec fmt`` writes it: the game, the
    tags given (empty ones left out; ``Date`` today's when none is given) and the rule
    options (``Tag=value``).  ``draw``: a hidden setup the rules draw (a herd's
    orders) that is not given is drawn with ``rng`` (by default from :mod:`secrets`),
    and a seat it needs that is not named is written ``?``."""
    from zrec.notation.writer import write_game
    from zrec.rules import find_game

    rules = find_game(game)
    given = [(name, value.strip()) for name, value in tags
             if value.strip() and name not in ("Game", "Result")]
    if not any(name == "Date" for name, _ in given):
        at = next((i for i, (name, _) in enumerate(given) if name not in ("Event", "Site")),
                  len(given))
        given.insert(at, ("Date", today()))
    written: dict[str, str] = {"Game": game}
    written.update(given)
    if draw:
        named = [seat for seat in rules.seats if seat in written]
        playing, hidden = drawn_setup(
            rules, named, rng or random.Random(secrets.randbits(128)))
        if hidden:
            for seat in playing:
                written.setdefault(seat, "?")
            for name, value in hidden.items():
                written.setdefault(name, value)
    for item in options:
        name, sep, value = item.partition("=")
        if sep and _TAG.match(name.strip()) and value.strip():
            written[name.strip()] = value.strip()
    written["Result"] = "*"
    return write_game(Game(tuple(written.items()), Line(()), "*"))


def games_offered() -> list[dict[str, Any]]:
    """Every game zrec has rules for, as the new-game form offers it: its name and
    title, its seats, its rule options (values, default, meaning) and setup tags."""
    from zrec.rules import all_games

    return [
        {
            "name": rules.name,
            "title": rules.title,
            "seats": list(rules.seats),
            "options": [(tag, spec.values, spec.default, spec.doc)
                        for tag, spec in rules.options.items()],
            "inputs": [(tag, spec.doc) for tag, spec in rules.inputs.items()],
            "drawn": drawable(rules),
        }
        for rules in all_games()
    ]


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
) -> Response:
    from zrec.rules import find_game
    from zrec.serve.errors import not_found

    if token is not None:
        return _owner_enters(request, token)
    from zrec.rules.base import UnknownGameError
    tags = [(k, v) for k, v in request.query_params.multi_items() if _TAG.match(k) and k != "O"]
    text, problem = "", None
    if gid is not None:
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
    )


def _owner_enters(request: Request, token: str) -> Response:
    """The address ``zrec board`` printed: the owner's session cookie, given for the
    board's token, and the same page without the token (:mod:`zrec.serve.local`)."""
    from urllib.parse import urlencode

    from fastapi.responses import RedirectResponse

    from zrec.serve.errors import ApiError
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
    from zrec.serve.board_api import checked

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

    from zrec.serve.board_api import _Invalid
    from zrec.serve.work import run

    try:  # (in the pool of expensive work, under its limits)
        return JSONResponse(await run(request, record_json, body=True))
    except _Invalid as exc:
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
