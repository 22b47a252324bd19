"""Looking after an archive: statistics, the integrity check and removing games.

:func:`check` replays every stored game from its text, as an import would, and compares
what it finds with what is stored: validity, plies and identity, and every row of the
position, opening and material indexes (the games' rows are found by their keys, and
the index totals must equal what the games account for).  :func:`remove` deletes games
with all their rows, finding the index rows the same way.

A damaged SQLite file (a page overwritten, the file cut short, a text that is no longer
UTF-8) fails only where the damage is: most of its games can usually still be read one
by one.  So the check finds the stored games even when the list of them cannot be read
through (:func:`game_ids`: each id up to the highest one ever given is then tried in
turn), asks SQLite's own check of the file (:func:`sqlite_findings`, ``PRAGMA
quick_check``), and reads the tables the per-game check does not
(:func:`unreadable_tables`), so that it lists every part that cannot be read and the
user knows what an export can still save.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from zrec.archive.store import Archive, lines, posindex
from zrec.archive.store.db import DamagedArchiveError
from zrec.archive.store.facts import Facts
from zrec.archive.store.replaying import refacts, replayed
from zrec.archive.store.schema import OPENING_PLIES

__all__ = ["CheckResult", "check", "remove", "stats"]


def stats(archive: Archive, top: int = 20) -> dict[str, Any]:
    """Counts of games by game, by game and options, by result and by event (the
    ``top`` largest events), and the size of each table."""
    db = archive.db

    def grouped(sql: str) -> list[dict[str, Any]]:
        return [
            {"value": str(r[0]) if r[0] is not None else None, "games": int(r[1])}
            for r in db.rows(sql)
        ]

    return {
        "games": archive.count(),
        "valid": int(db.value("SELECT count(*) FROM games WHERE valid = 1")),
        "players": int(db.value("SELECT count(*) FROM players")),
        "events": int(db.value("SELECT count(*) FROM events")),
        "sources": int(db.value("SELECT count(*) FROM sources")),
        "positions": posindex.POSITIONS.entry_count(db),
        "by_game": grouped(
            "SELECT game, count(*) FROM games GROUP BY game ORDER BY count(*) DESC, game"
        ),
        "by_options": grouped(
            "SELECT g.game || ' ' || o.options, count(*) FROM games g JOIN rule_options o "
            "ON o.id = g.options_id GROUP BY g.game, o.options "
            "ORDER BY count(*) DESC, g.game, o.options"
        ),
        "by_result": grouped(
            "SELECT result, count(*) FROM games GROUP BY result ORDER BY count(*) DESC, result"
        ),
        "by_event": grouped(
            "SELECT e.name, count(*) FROM games g LEFT JOIN events e ON e.id = g.event "
            f"GROUP BY e.name ORDER BY count(*) DESC, e.name IS NOT NULL, e.name "
            f"LIMIT {int(top)}"
        ),
    }


@dataclass
class CheckResult:
    """What the integrity check found: one sentence per problem; ``unreadable``: the
    games that cannot be read in full (a damaged file)."""

    games: int = 0
    problems: list[str] = field(default_factory=list)
    unreadable: list[int] = field(default_factory=list)
    damaged: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems


class _Parts:
    """The position and opening indexes read a part at a time (games are checked in id
    order)."""

    def __init__(self, archive: Archive) -> None:
        self.db = archive.db
        self.part = -1
        self.rows: list[dict[int, Any]] = [{}, {}]
        #: the part's opening lines: place -> [(start, entry)]
        self.lines: dict[int, list[tuple[int, bytes]]] = {}

    def found(self, gid: int, fact: Facts) -> tuple[int, int]:
        """How many of the entries a game's keys and paths make are stored."""
        part = gid >> posindex.PART_BITS
        layouts = (posindex.POSITIONS, posindex.OPENINGS)
        if part != self.part:
            self.part = part
            self.rows = [layout.part_rows(self.db, part) for layout in layouts]
            self.lines = {}
            for start, blob in self.db.rows(
                "SELECT start, entries FROM tree_lines WHERE part = ?", (part,)
            ):
                data = lines.split(self.db, blob)
                for i in range(0, len(data), lines.WIDTH):
                    place = data[i] | data[i + 1] << 8
                    entry = data[i : i + lines.WIDTH]
                    self.lines.setdefault(place, []).append((int(start), entry))
        return (
            layouts[0].held(self.rows[0], gid, fact.keys),
            layouts[1].held(self.rows[1], gid, fact.paths[1 : OPENING_PLIES + 1]),
        )


def _index_rows(archive: Archive, gid: int, fact: Facts, parts: _Parts) -> tuple[int, ...]:
    """How many of a game's expected index rows are stored: position entries,
    opening entries, its row of ``openings_long``, material."""
    db = archive.db
    found, openings = parts.found(gid, fact)
    long = 0
    if fact.plies > OPENING_PLIES:
        long = int(
            db.value(
                "SELECT count(*) FROM openings_long WHERE path = ? AND game = ?",
                (fact.paths[OPENING_PLIES], gid),
            )
        )
    # the material row: the counts it holds, if they are the game's
    held = str(db.value("SELECT counts FROM material WHERE game = ?", (gid,)) or "").split()
    counts = [c for c, _ in fact.material]
    material = len(held) if sorted(held) == sorted(counts) else len(set(held) & set(counts))
    line = 0
    if fact.lined:
        assert fact.codes is not None
        wanted = (fact.paths[0], lines.entry_of(gid, fact.codes, fact.result))
        line = int(parts.lines.get(gid & ((1 << posindex.PART_BITS) - 1), []) == [wanted])
    return found, openings, long, material, line


def check(
    archive: Archive, tick: Callable[[], None] | None = None, jobs: int = 1
) -> CheckResult:
    """Replay every stored game and compare it with its rows (see the module's docs),
    the replays in ``jobs`` processes (the result is the same).  In a damaged archive,
    each part that cannot be read is a problem of its own, and the rest is checked as
    usual."""
    result = CheckResult()
    result.problems += sqlite_findings(archive)
    ids = game_ids(archive, result.problems)
    result.damaged = bool(result.problems)
    expected = [0, 0, 0, 0, 0]
    parts = _Parts(archive)
    for gid, read, fact in replayed(_read_games(archive, ids), jobs):
        result.games += 1
        if isinstance(read, str):  # its row could not be read
            result.problems.append(read)
            result.unreadable.append(gid)
        else:
            kept = _compare(gid, read, fact, result.problems)
            if kept is not None:
                try:
                    _check_index(archive, gid, kept, expected, result.problems, parts)
                except DamagedArchiveError as exc:
                    result.problems.append(f"#{gid}: its index rows cannot be read: {exc.reason}")
                    result.damaged = True
        if tick is not None:
            tick()
    result.damaged = result.damaged or bool(result.unreadable)
    for i, table in enumerate(_TABLES):
        try:
            if table == "positions":
                total = posindex.POSITIONS.entry_count(archive.db)
            elif table == "openings":
                total = posindex.OPENINGS.entry_count(archive.db)
            elif table == "tree_lines":
                total = lines.entry_count(archive.db)
            elif table == "material":  # the counts in its rows, each between spaces
                total = int(
                    archive.db.value(
                        "SELECT coalesce(sum(length(counts) - length(replace(counts, ' ', '')) "
                        "- 1), 0) FROM material"
                    )
                )
            else:
                total = int(archive.db.value(f"SELECT count(*) FROM {table}"))
        except DamagedArchiveError as exc:
            result.problems.append(f"the {table} index cannot be read through: {exc.reason}")
            result.damaged = True
            continue
        if total != expected[i] and not result.damaged:
            result.problems.append(
                f"the {table} index holds {total} "
                f"{'entries' if i in (0, 1, 4) else 'rows'}; the stored games account for "
                f"{expected[i]}"
            )
    if not result.damaged:
        _check_starts(archive, result.problems)
    tables = unreadable_tables(archive)
    result.problems += tables
    result.damaged = result.damaged or bool(tables)
    return result


def _check_starts(archive: Archive, problems: list[str]) -> None:
    """The starts table holds the starts of the valid games, and no other."""
    held = {tuple(map(str, r)) for r in archive.db.rows("SELECT game, options, setup FROM starts")}
    games = {tuple(map(str, r)) for r in archive.db.rows(_ALL_STARTS)}
    for game, options, setup in sorted(games - held):
        start = f"{game} ({options}{', ' + setup if setup else ''})"
        problems.append(f"the starts table lacks {start}")
    for game, options, setup in sorted(held - games):
        start = f"{game} ({options}{', ' + setup if setup else ''})"
        problems.append(f"the starts table holds {start}, which no valid game has")


def _read_games(
    archive: Archive, ids: Iterable[int]
) -> Iterator[tuple[int, tuple[bool, int, int] | str, str | None]]:
    """Each game's stored row, read whole (tags, players, sources), as show and export
    read it: (id, (valid, plies, ident), its text), or (id, the problem, ``None``)."""
    db = archive.db
    for gid in ids:
        try:
            row = db.one("SELECT text, valid, plies, ident FROM games WHERE id = ?", (gid,))
            if row is None:  # listed, then not found: the file is damaged
                raise DamagedArchiveError(db.target, "its row is not found by its id")
            archive.game(gid)
            archive.sources_of(gid)
            text = archive.texts.unpack(row[0])
        except DamagedArchiveError as exc:
            yield gid, f"#{gid}: cannot be read: {exc.reason}", None
            continue
        yield gid, (bool(row[1]), int(row[2]), int(row[3])), text


def _compare(
    gid: int, stored: tuple[bool, int, int], fact: Facts | None, problems: list[str]
) -> Facts | None:
    """Check one stored game's row against its replay; its facts when its index rows
    are to be checked."""
    valid, plies, ident = stored
    if fact is None or not fact.readable:
        problems.append(f"#{gid}: its stored text no longer reads as a record")
        return None
    if fact.valid != valid:
        now = "valid" if fact.valid else f"invalid ({fact.problem})"
        problems.append(f"#{gid}: stored as {'valid' if valid else 'invalid'}, now {now}")
    if fact.plies != plies or fact.ident != ident:
        problems.append(
            f"#{gid}: its moves replay to {fact.plies} plies and another identity "
            f"than stored ({plies} plies)"
            if fact.plies != plies
            else f"#{gid}: its identity hash differs from the one stored"
        )
    return fact if fact.indexed and valid else None


def _check_index(
    archive: Archive,
    gid: int,
    fact: Facts,
    expected: list[int],
    problems: list[str],
    parts: _Parts,
) -> None:
    """Compare a valid game's index rows with what its replay gives."""
    wanted = (
        len(set(fact.keys)),
        len(set(fact.paths[1 : OPENING_PLIES + 1])),
        int(fact.plies > OPENING_PLIES),
        len(fact.material),
        int(fact.lined),
    )
    have = _index_rows(archive, gid, fact, parts)
    for i, name in enumerate(("position", "opening", "long opening", "material", "opening line")):
        expected[i] += wanted[i]
        if have[i] != wanted[i]:
            problems.append(f"#{gid}: {have[i]} of its {wanted[i]} {name} index rows are stored")


# -- what can still be read of a damaged archive

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


def remove(archive: Archive, ids: Iterable[int]) -> list[int]:
    """Delete these games and all their rows, in one transaction; returns the ids that
    were there."""
    db = archive.db
    gone = []
    with db.transaction(lock=True):
        for gid in ids:
            row = db.one("SELECT text, plies, ident FROM games WHERE id = ?", (gid,))
            if row is None:
                continue
            fact = refacts(archive.texts.unpack(row[0]))
            # the rows can be found by their keys only if the text replays as stored
            same = fact is not None and (fact.plies, fact.ident) == (int(row[1]), int(row[2]))
            if fact is not None and fact.indexed and same:
                posindex.POSITIONS.remove(db, gid, fact.keys)
                posindex.OPENINGS.remove(db, gid, fact.paths[1 : OPENING_PLIES + 1])
                db.execute(
                    "DELETE FROM openings_long WHERE path = ? AND game = ?",
                    (fact.paths[min(fact.plies, OPENING_PLIES)], gid),
                )
                db.execute("DELETE FROM material WHERE game = ?", (gid,))
            else:  # rows found the slow way
                posindex.POSITIONS.remove(db, gid, None)
                posindex.OPENINGS.remove(db, gid, None)
                for table in ("openings_long", "material"):
                    db.execute(f"DELETE FROM {table} WHERE game = ?", (gid,))
            lines.remove(db, gid)
            start = db.one(
                "SELECT g.game, o.options, g.setup FROM games g JOIN rule_options o "
                "ON o.id = g.options_id WHERE g.id = ?",
                (gid,),
            )
            db.execute("DELETE FROM games WHERE id = ?", (gid,))
            gone.append(gid)
            if start is not None and db.one(_HAS_START, start) is None:
                db.execute(
                    "DELETE FROM starts WHERE game = ? AND options = ? AND setup = ?", start
                )
    return gone


#: the index tables, in the order the check counts their rows
_TABLES = ("positions", "openings", "openings_long", "material", "tree_lines")
#: whether a valid game has this start (the ``starts`` table holds those that do)
_HAS_START = (
    "SELECT 1 FROM games g JOIN rule_options o ON o.id = g.options_id WHERE g.game = ? AND "
    "o.options = ? AND g.setup = ? AND g.valid = 1 AND g.checked = 1 LIMIT 1"
)
_ALL_STARTS = (
    "SELECT DISTINCT g.game, o.options, g.setup FROM games g JOIN rule_options o "
    "ON o.id = g.options_id WHERE g.valid = 1 AND g.checked = 1"
)
