"""An event's roster: what a tournament knows beyond its games.

:func:`import_roster` takes a TRF file's players (their pairing numbers, ratings and
the like) into an event, and every round of theirs that no stored game holds: byes,
absences, forfeits and results known without a record.  A round that a stored game
holds is checked against the game instead (same opponent, same result), and a
disagreement is refused with nothing written, in one transaction.  Byes are
:mod:`zrec.archive.events.byes`.
"""

from __future__ import annotations

from dataclasses import dataclass

from zrec.archive.events.loading import event_row, load_event
from zrec.archive.store import Archive
from zrec.tournament.event import (
    CODES,
    EventError,
    Tournament,
    same_result,
)
from zrec.tournament.trf import Trf

__all__ = ["RosterCounts", "import_roster"]


@dataclass(slots=True)
class RosterCounts:
    """What an import did."""

    event: str
    players: int = 0
    new_players: int = 0
    rounds: int = 0  # roster entries written
    games: int = 0  # rounds a stored game already holds (checked)


#: the width of a TRF file's name field: a name that fills it may have been cut short
_NAME_WIDTH = 33


def _player(archive: Archive, name: str, counts: RosterCounts, known: dict[int, str]) -> int:
    ids = archive.player_ids(name)
    if ids:
        return ids[0]
    if len(name) == _NAME_WIDTH:  # a longer name, cut to the field: the event's player?
        start = " ".join(name.split()).casefold()
        found = [pid for pid, full in known.items() if full.casefold().startswith(start)]
        if len(found) == 1:
            return found[0]
    counts.new_players += 1
    return archive.add_player(name)


def _event_id(archive: Archive, name: str, rounds: int | None) -> int:
    try:
        eid, _, _ = event_row(archive, name)
    except EventError:
        return archive.db.insert(
            "INSERT INTO events (name, rounds) VALUES (?, ?) RETURNING id", (name, rounds)
        )
    if rounds is not None:
        archive.db.execute("UPDATE events SET rounds = ? WHERE id = ?", (rounds, eid))
    return eid


def import_roster(archive: Archive, trf: Trf, event_name: str | None = None) -> RosterCounts:
    """Take the TRF file's roster into the event (by default the file's own 012 name)."""
    name = event_name or trf.name
    if not name:
        raise EventError("the TRF file names no event (line 012): give one with --event")
    counts = RosterCounts(name)
    db = archive.db
    with db.transaction():
        eid = _event_id(archive, name, trf.rounds or None)
        db.execute("DELETE FROM event_rounds WHERE event = ?", (eid,))
        db.execute("DELETE FROM event_players WHERE event = ?", (eid,))
        known = {e.player: e.name for e in load_event(archive, name).entrants}
        ids = {p.number: _player(archive, p.name, counts, known) for p in trf.players}
        if len(set(ids.values())) != len(ids):
            raise EventError(f"{name!r}: two players of the TRF file are one player here")
        for p in trf.players:
            db.execute(
                "INSERT INTO event_players (event, player, number, rating, federation, "
                "fide_id, title, sex, birth) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (eid, ids[p.number], p.number, p.rating, p.federation, p.fide_id, p.title,
                 p.sex, p.birth),
            )
        counts.players = len(trf.players)
        held = load_event(archive, name)
        by_player = {e.player: e for e in held.entrants}
        for p in trf.players:
            entrant = by_player[ids[p.number]]
            for r in p.rounds.values():
                if r.code == " " and (r.number, entrant.number) in held.pending:
                    continue  # the stored game is not finished either
                there = entrant.rounds.get(r.number)
                if there is not None and there.game is not None:
                    _agree(held, p.name, r.number, there.code, there.opponent, r.code,
                           None if r.opponent is None else ids[r.opponent])
                    counts.games += 1
                    continue
                db.execute(
                    "INSERT INTO event_rounds (event, round, player, code, opponent, colour) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (eid, r.number, ids[p.number], r.code,
                     None if r.opponent is None else ids[r.opponent], r.colour),
                )
                counts.rounds += 1
        load_event(archive, name)  # refuses what still does not fit, before the commit
    return counts


def _agree(
    event: Tournament,
    who: str,
    number: int,
    game_code: str,
    game_opponent: int | None,
    code: str,
    opponent: int | None,
) -> None:
    stored = None if game_opponent is None else event.entrant(game_opponent).player
    if stored != opponent or not same_result(game_code, code):
        said = CODES[code][2]
        raise EventError(
            f"{event.name!r}, round {number}: the TRF file gives {who} a {said}"
            + ("" if opponent is None else " against another player")
            + f", but the stored game gives a {CODES[game_code][2]}"
            + ("" if stored == opponent else " against another opponent")
        )
