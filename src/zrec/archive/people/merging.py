"""Merging two players into one: the games, entries and rounds of one go to the other,
and its name becomes an alias.

:func:`merge` refuses what cannot be one person (two players who sat at one game, or
were paired in a round) and names that mean no player, or several; the work is done
in one transaction.  :mod:`zrec.archive.people.players` suggests the merges.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zrec.archive.people.names import normal_name
from zrec.archive.store import Archive
from zrec.archive.store.db import ArchiveError, Database

__all__ = ["Merge", "MergeError", "merge"]


class MergeError(ArchiveError):
    """A merge that cannot be made: the message says why."""


@dataclass(frozen=True, slots=True)
class Merge:
    """What :func:`merge` did: the games moved, and the normal forms that now mean the
    canonical player because of it."""

    old: str
    canonical: str
    games: int
    aliases: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "old": self.old,
            "canonical": self.canonical,
            "games": self.games,
            "aliases": [*self.aliases],
        }


def _lookup(db: Database, name: str) -> tuple[int, str, bool]:
    """The player a name means: (id, name as kept, whether through an alias)."""
    norm = normal_name(name)
    row = db.one(
        "SELECT p.id, p.name FROM aliases a JOIN players p ON p.id = a.player WHERE a.norm = ?",
        (norm,),
    )
    if row is not None:
        return int(row[0]), str(row[1]), True
    rows = db.rows("SELECT id, name FROM players WHERE norm = ? ORDER BY id", (norm,))
    if not rows:
        raise MergeError(f'there is no player "{name}" (zrec archive players lists them)')
    if len(rows) > 1:
        names = ", ".join(f'"{r[1]}"' for r in rows)
        raise MergeError(f'"{name}" names {len(rows)} players: {names}')
    return int(rows[0][0]), str(rows[0][1]), False


def merge(archive: Archive, old: str, canonical: str) -> Merge:
    """Make the player ``old`` means one with the player ``canonical`` means, in one
    transaction: its games, event entries and rounds go to the canonical player (an
    event both entered keeps the canonical player's entry, a round both have the
    canonical player's round), its normal form and aliases become the canonical
    player's aliases, and its row is deleted.  Raises :class:`MergeError` for a name
    that is no player, an alias already, the same player, or a player who sat at a
    game (or was paired in a round) with the other."""
    db = archive.db
    with db.transaction(lock=True):
        pid, name, through = _lookup(db, old)
        target, target_name, _ = _lookup(db, canonical)
        if through:
            raise MergeError(f'"{old}" is already an alias of "{name}"')
        if pid == target:
            raise MergeError(f'"{old}" and "{canonical}" are the same player ("{name}")')
        _refuse_opponents(db, pid, name, target, target_name)
        games = int(
            db.value("SELECT count(DISTINCT game) FROM game_players WHERE player = ?", (pid,))
        )
        norm = str(db.value("SELECT norm FROM players WHERE id = ?", (pid,)))
        aliases = [str(r[0]) for r in db.rows("SELECT norm FROM aliases WHERE player = ?", (pid,))]
        db.execute("UPDATE game_players SET player = ? WHERE player = ?", (target, pid))
        db.execute(
            "DELETE FROM event_players WHERE player = ? AND event IN "
            "(SELECT event FROM event_players WHERE player = ?)",
            (pid, target),
        )
        db.execute("UPDATE event_players SET player = ? WHERE player = ?", (target, pid))
        db.execute(
            "DELETE FROM event_rounds WHERE player = ? AND EXISTS (SELECT 1 FROM event_rounds r "
            "WHERE r.event = event_rounds.event AND r.round = event_rounds.round "
            "AND r.player = ?)",
            (pid, target),
        )
        db.execute("UPDATE event_rounds SET player = ? WHERE player = ?", (target, pid))
        db.execute("UPDATE event_rounds SET opponent = ? WHERE opponent = ?", (target, pid))
        db.execute("UPDATE event_pairings SET player = ? WHERE player = ?", (target, pid))
        db.execute("UPDATE aliases SET player = ? WHERE player = ?", (target, pid))
        db.execute("INSERT INTO aliases (norm, player) VALUES (?, ?)", (norm, target))
        db.execute("DELETE FROM players WHERE id = ?", (pid,))
    return Merge(name, target_name, games, tuple(sorted({norm, *aliases})))


def _refuse_opponents(db: Database, pid: int, name: str, target: int, target_name: str) -> None:
    """Two players who sat at one game, or were paired in a round, are two people."""
    game = db.value(
        "SELECT min(a.game) FROM game_players a JOIN game_players b ON b.game = a.game "
        "WHERE a.player = ? AND b.player = ?",
        (pid, target),
    )
    if game is not None:
        raise MergeError(
            f'"{name}" and "{target_name}" sat at one game (#{game}): they are two players'
        )
    row = db.one(
        "SELECT e.name, r.round FROM event_rounds r JOIN events e ON e.id = r.event "
        "WHERE (r.player = ? AND r.opponent = ?) OR (r.player = ? AND r.opponent = ?) "
        "ORDER BY e.name, r.round",
        (pid, target, target, pid),
    )
    if row is None:  # the stored pairings (pair, schedule, seat): any two boards of a
        # round, or one board, hold two people
        row = db.one(
            "SELECT e.name, a.round FROM event_pairings a JOIN event_pairings b ON "
            "b.event = a.event AND b.round = a.round JOIN events e "
            "ON e.id = a.event WHERE a.player = ? AND b.player = ? ORDER BY e.name, a.round",
            (pid, target),
        )
    if row is not None:
        raise MergeError(
            f'"{name}" and "{target_name}" were both paired in round {row[1]} of '
            f'"{row[0]}": they are two players'
        )
