"""An event as the server shows it: ranked as ``zrec archive standings`` ranks it (the
same tie-breaks by default, the same numbers), its crosstable as ``crosstable`` draws
it, its rounds with their games and byes, and the pairings stored for its rounds
(``zrec archive pair``, ``schedule``, ``seat``).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from zrec.archive import Archive, StoredGame
from zrec.archive.events.loading import load_event
from zrec.serve.errors import ApiError
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

__all__ = ["PendingBoard", "Ranking", "after_words", "event_pairings", "event_rounds",
           "pairings_text", "pending_boards", "ranking", "standings_text"]


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


def pairings_text(archive: Archive, event: Tournament) -> str:
    """The stored pairings as JSON: an object of each round's array (as ``zrec archive
    schedule --format json`` prints several rounds)."""
    from zrec.archive.events.pairstore import stored_boards
    from zrec.tournament.pairing_tables import pairings_json, round_boards

    boards = stored_boards(archive.db, event.id)
    document = {str(n): pairings_json(event, round_boards(boards, n))
                for n in sorted({b.round for b in boards})}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
