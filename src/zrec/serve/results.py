"""Recording a result on an event's page: the form, and the result-only record it makes.

An editor gives a round, a player for each seat, a result, how the game ended (a
``Termination`` other than ``normal``: a record with no moves cannot have ended by the
rules) and a date (today's when none is given: the form shows it, to be changed).
When the event has stored pairings, the form offers the boards of the first round that
has boards without a result (:func:`pending_boards`): picking one fills the round
(``5.2``: board 2 of round 5) and the players (a script does it on the page; without
it the server fills the seats left blank from that board's pairing).  The server
builds the record (:func:`result_text`: the tags ``Game`` and the rule options of the
event's games, ``Event``, ``Date``, ``Round``, the seats, ``Result`` and
``Termination``, and no moves) with the notation's writer; the event's routes
(:mod:`zrec.serve.events`) import it as ``POST /import`` does
(:func:`zrec.serve.games.page_import`), so a duplicate or a conflict is reported as an
import reports it, and say what became of it (:func:`outcome`, :func:`said`).

The seats are the game's own (:attr:`GameRules.seats`).  A game with more seats than
the event's games play, or whose records need setup tags (:attr:`GameRules.inputs`),
is not offered the form: its results are imported as records.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from typing import Any

from zrec.archive import Archive
from zrec.serve.errors import ApiError
from zrec.tournament.event import Tournament

__all__ = ["PendingBoard", "Recording", "bad_result", "outcome", "pending_boards", "recording",
           "result_text", "said"]

_ROUND = re.compile(r"[1-9][0-9]{0,2}(\.[1-9][0-9]{0,2})?")
_DATE = re.compile(r"[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}")
#: what the page says became of a recorded result, by the import's report
OUTCOMES = {"added": "the result is recorded as game #{}",
            "conflict": "it conflicts with game #{}: see both",
            "duplicate": "the result was not stored: the same game as #{}",
            "truncated": "the result was not stored: a truncated copy of game #{}"}


@dataclass(frozen=True, slots=True)
class PendingBoard:
    """A stored board without a result yet: its round, its number and its players in
    seat order (White, Black)."""

    round: int
    board: int
    players: tuple[str, ...]

    @property
    def value(self) -> str:
        """The ``Round`` tag of its game: ``5.2`` for board 2 of round 5."""
        return f"{self.round}.{self.board}"


def pending_boards(archive: Archive, event: Tournament) -> list[PendingBoard]:
    """The boards of the first paired round that has boards without a result, in board
    order (none when every paired board has its result)."""
    from zrec.archive.events.pairstore import stored_boards
    from zrec.tournament.progress import board_result

    names = {e.player: e.name for e in event.entrants}
    found = [
        PendingBoard(b.round, b.board, tuple(names.get(p, "?") for p in b.players))
        for b in sorted(stored_boards(archive.db, event.id), key=lambda b: (b.round, b.board))
        if not b.bye and board_result(event, b) is None
    ]
    return [b for b in found if b.round == found[0].round] if found else []


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


def bad_result(message: str) -> ApiError:
    return ApiError(400, "bad-result", message)


def result_text(found: Recording, event: str, given: dict[str, str]) -> str:
    """The record of the result ``given`` (the form's fields), as the notation's writer
    writes it; 400 (``bad-result``) for a field the form does not take."""
    from zrec.notation.model import Game, Line
    from zrec.notation.writer import write_game

    if found.refused:
        raise bad_result(found.refused)
    number = given.get("round", "").strip() or given.get("board", "").strip()
    if not _ROUND.fullmatch(number):
        raise bad_result(f"the round is a number from 1 to 999 (3, or 3.2 for board 2), "
                   f"not {number!r}")
    result = given.get("result", "").strip()
    if result not in found.results:
        raise bad_result(f"the result is one of {', '.join(found.results)}, not {result!r}")
    ended = " ".join(given.get("termination", "").split()).lower()
    if ended not in found.terminations:
        raise bad_result(f"how the game ended is one of {', '.join(found.terminations)}, "
                   f"not {ended!r}")
    date = given.get("date", "").strip().replace("-", ".") or found.today or today()
    if not _DATE.fullmatch(date):
        raise bad_result(f"the date is written YYYY.MM.DD (or YYYY-MM-DD), not {date!r}")
    paired = next((b.players for b in found.boards if b.value == number), None)
    names = [(seat, " ".join(given.get(seat, "").split()) or (paired[i] if paired else ""))
             for i, seat in enumerate(found.seats)]
    missing = [seat for seat, name in names if not name]
    if missing:
        raise bad_result(f"name the player of each seat: {', '.join(missing)} has none")
    if len({name.casefold() for _, name in names}) < len(names):
        raise bad_result("a player cannot play against themselves")
    tags = [("Game", found.game), *found.options.items(), ("Event", event),
            ("Date", date), ("Round", number), *names, ("Result", result),
            ("Termination", ended)]
    return write_game(Game(tuple(tags), Line(()), result))


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
        raise bad_result("the result was not stored: " + "; ".join(report["lines"]))
    found = {"added": int(report["ids"][0])}
    return found | ({"conflict": told["conflict"]} if "conflict" in told else {})


def said(query: dict[str, str]) -> list[str]:
    """The event page's words for what became of a recorded result (its address's
    ``added``, ``duplicate``, ``truncated``, ``conflict``)."""
    return [words.format(query[k]) for k, words in OUTCOMES.items()
            if query.get(k, "").isdigit()]


