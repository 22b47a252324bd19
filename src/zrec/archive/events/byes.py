"""Byes: a round a player has no opponent in, recorded and taken back.

:func:`add_bye` records one bye; :func:`remove_bye` takes one back.  A bye goes only
into a round the event has: its rounds are those its roster declares (the TRF file's
``XXR``), else up to the last round of its stored games (finished or not) and byes.
A bye past them would make the event longer, with every other player absent in the new
round (and every Buchholz changed): it is refused unless the caller asks for it
(``extend=True``, the ``--extend-rounds`` of ``zrec archive bye``).  A bye is refused
too where the player has a stored game, or a board in the round's stored pairings, and
the message names that game or board.  docs/tournaments.md gives the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from zrec.archive.events.loading import event_row, load_event
from zrec.archive.events.pairstore import stored_boards
from zrec.archive.store import Archive
from zrec.tournament.event import (
    BYES,
    CODES,
    MAX_ROUNDS,
    EventError,
    Tournament,
    round_number,
)

__all__ = ["BYE_KINDS", "Added", "add_bye", "event_rounds", "remove_bye"]

#: ``--kind`` of ``zrec archive bye`` -> TRF code
BYE_KINDS = {"pab": "U", "full": "F", "half": "H", "zero": "Z"}
_KIND_OF = {code: kind for kind, code in BYE_KINDS.items()}


def event_rounds(event: Tournament, declared: int) -> tuple[int, str]:
    """The rounds the event has, and where that number comes from: the rounds its
    roster declares (``declared``), or the last round of its games (finished or not)
    and byes."""
    held = max([event.rounds, *(n for n, _ in event.pending)])
    if declared >= held and declared > 0:
        return declared, "as its roster declares"
    return held, "the last round of its games and byes"


def _said(code: str) -> str:
    """A roster entry's result in words (``" "``: paired, no result yet)."""
    return CODES[code][2] if code in CODES else "game not finished"


def _player(archive: Archive, name: str) -> int:
    ids = archive.player_ids(name)
    if not ids:
        raise EventError(f"there is no player {name!r} in {archive.db.target}")
    return ids[0]


def _stored_game(archive: Archive, event: Tournament, number: int, pid: int) -> str | None:
    """What a stored game of the player's in that round is, in words, or ``None``."""
    entrant = next((e for e in event.entrants if e.player == pid), None)
    if entrant is None:
        return None
    held = entrant.rounds.get(number)
    if held is not None and held.game is not None:
        others = ", ".join(event.entrant(n).name for n in held.opponents)
        return (
            f"game #{held.game} (a {CODES[held.code][2]} against {others}); zrec archive "
            f"remove {held.game} takes it out"
        )
    open_ids = {gid for gid, why in event.left_out if why.startswith("not finished")}
    for gid, tag in archive.db.rows(
        "SELECT g.id, g.round FROM games g JOIN game_players gp ON gp.game = g.id "
        "WHERE g.event = ? AND gp.player = ? ORDER BY g.id",
        (event.id, pid),
    ):
        if int(gid) in open_ids and round_number(tag) == number:
            paired, _ = event.pending[(number, entrant.number)]
            names = ", ".join(event.entrant(n).name for n in paired)
            return (
                f"game #{gid} (not finished, against {names}); zrec archive remove {gid} "
                "takes it out"
            )
    return None


def _paired(archive: Archive, eid: int, number: int, pid: int) -> str | None:
    """The player's stored board in that round, in words, or ``None``."""
    for b in stored_boards(archive.db, eid):
        if b.round == number and pid in b.players:
            if b.bye:
                return f"board {b.board}: the pairing-allocated bye"
            others = [p for p in b.players if p != pid]
            names = archive.player_names(others)
            return f"board {b.board}, against " + ", ".join(names[o] for o in others)
    return None


@dataclass(frozen=True, slots=True)
class Added:
    """What :func:`add_bye` did: the player's name as the archive keeps it, and the
    event's rounds when the bye added some (else 0)."""

    name: str
    rounds: int


def add_bye(
    archive: Archive, event_name: str, number: int, player: str, kind: str,
    extend: bool = False,
) -> Added:
    """Record a bye (``kind``: pab, full, half, zero) for a player in a round of the
    event; a round past the event's rounds only with ``extend``."""
    code = BYE_KINDS[kind]
    db = archive.db
    if not 1 <= number <= MAX_ROUNDS:
        raise EventError(f"rounds are 1 to {MAX_ROUNDS}, not {number}")
    pid = _player(archive, player)
    eid, event_name, declared = event_row(archive, event_name)
    with db.transaction():
        event = load_event(archive, event_name)
        name = archive.player_names([pid])[pid]
        game = _stored_game(archive, event, number, pid)
        if game is not None:
            raise EventError(
                f"{event_name!r}, round {number}: {name} has a stored game in that round, "
                + game
            )
        board = _paired(archive, eid, number, pid)
        if board is not None:
            raise EventError(
                f"{event_name!r}, round {number}: {name} is paired there ({board}); enter "
                "a bye before the round is drawn, or draw it again after the bye (zrec "
                f"archive pair, or seat, --replace --round {number})"
            )
        held = db.value(
            "SELECT code FROM event_rounds WHERE event = ? AND round = ? AND player = ?",
            (eid, number, pid),
        )
        if held is not None and str(held) not in BYES:
            raise EventError(
                f"{event_name!r}, round {number}: the roster gives {name} a "
                f"{_said(str(held))}; zrec archive "
                "roster reads a corrected roster"
            )
        rounds, why = event_rounds(event, declared)
        if number > rounds and not extend:
            raise EventError(
                f"{event_name!r} has {rounds} rounds ({why}): a bye in round {number} "
                "would add a round in which every other player is absent; "
                "--extend-rounds adds it"
            )
        db.execute(
            "DELETE FROM event_rounds WHERE event = ? AND round = ? AND player = ?",
            (eid, number, pid),
        )
        db.execute(
            "INSERT INTO event_rounds (event, round, player, code, opponent, colour) "
            "VALUES (?, ?, ?, ?, NULL, '')",
            (eid, number, pid, code),
        )
        load_event(archive, event_name)
    return Added(name, number if number > rounds else 0)


def remove_bye(archive: Archive, event_name: str, number: int, player: str) -> tuple[str, str]:
    """Take back the player's bye in that round; returns the player's name as the
    archive keeps it and the kind of bye taken back."""
    db = archive.db
    pid = _player(archive, player)
    eid, event_name, _ = event_row(archive, event_name)
    name = archive.player_names([pid])[pid]
    with db.transaction():
        held = db.value(
            "SELECT code FROM event_rounds WHERE event = ? AND round = ? AND player = ?",
            (eid, number, pid),
        )
        if held is None or str(held) not in BYES:
            raise EventError(
                f"{event_name!r}, round {number}: {name} has no bye to take back"
                + ("" if held is None else f" (the roster gives a {_said(str(held))})")
            )
        db.execute(
            "DELETE FROM event_rounds WHERE event = ? AND round = ? AND player = ?",
            (eid, number, pid),
        )
        load_event(archive, event_name)
    return name, _KIND_OF[str(held)]
