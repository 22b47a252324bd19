"""What ``zrec archive check`` can still read of a damaged archive.

A damaged SQLite file (a page overwritten, the file cut short, a text that is no longer
UTF-8) fails only where the damage is: most of its games can usually still be read one
by one.  The helpers here find the stored games even when the list of them cannot be
read through (each id up to the highest one ever given is then tried in turn), ask
SQLite's own check of the file (``PRAGMA quick_check``), and read the tables the
per-game check does not, so that the check lists every part that cannot be read and
the user knows what an export can still save.
"""

from __future__ import annotations

from zrec.archive.store import Archive
from zrec.archive.store.db import DamagedArchiveError

__all__ = ["game_ids", "sqlite_findings", "unreadable_tables"]

#: the tables that no game's own check reads in full, with a column that is read from
#: each row (the index tables are counted; their rows are read game by game)
OTHER_TABLES = (
    "meta",
    "sources",
    "events",
    "players",
    "aliases",
    "event_players",
    "event_rounds",
    "event_pairings",
)


def game_ids(archive: Archive, problems: list[str]) -> list[int]:
    """The ids of the stored games.  If they cannot be read through, a problem says so
    and each id up to the highest one given (SQLite keeps it) is tried on its own; an
    id whose row cannot be found either way is left out."""
    try:
        return list(archive.all_ids())
    except DamagedArchiveError as exc:
        problems.append(f"the list of games cannot be read through: {exc.reason}")
        if archive.db.dialect != "sqlite":
            return []
    db = archive.db
    try:
        top = db.value("SELECT seq FROM sqlite_sequence WHERE name = 'games'")
    except DamagedArchiveError as exc:
        problems.append(f"the highest id given cannot be read either: {exc.reason}")
        return []
    found = []
    for gid in range(1, int(top or 0) + 1):
        try:
            if db.value("SELECT id FROM games WHERE id = ?", (gid,)) is None:
                continue
        except DamagedArchiveError:
            pass  # perhaps a game: its own check says what is wrong
        found.append(gid)
    return found


def sqlite_findings(archive: Archive) -> list[str]:
    """What SQLite's own check of the file (``PRAGMA quick_check``) finds, as one
    problem; nothing for a sound file or a PostgreSQL archive."""
    if archive.db.dialect != "sqlite":
        return []
    try:
        rows = archive.db.rows("PRAGMA quick_check")
    except DamagedArchiveError as exc:
        return [f"SQLite's own check of the file (PRAGMA quick_check) stops: {exc.reason}"]
    faults = [str(r[0]) for r in rows if str(r[0]) != "ok"]
    if not faults:
        return []
    first = "".join(c if c.isprintable() else "?" for c in faults[0].splitlines()[0])
    more = f" (and {len(faults) - 1} more)" if len(faults) > 1 else ""
    return [f"SQLite's own check of the file (PRAGMA quick_check) finds: {first}{more}"]


def unreadable_tables(archive: Archive) -> list[str]:
    """A problem for each table outside the games that cannot be read in full."""
    problems = []
    for table in OTHER_TABLES:
        try:
            archive.db.rows(f"SELECT * FROM {table}")
        except DamagedArchiveError as exc:
            problems.append(f"the table {table} cannot be read in full: {exc.reason}")
    return problems
