"""What one import chunk keeps while it runs, and the small tests import makes of a game.

:class:`Rows` holds the rows written together when a chunk of a batch is done, and what
the stored games say about the chunk's games (looked up once a chunk by
:func:`prefetch`, kept up to date as games are stored).  :func:`starts` and
:func:`prefix_of` confirm by replay that a game is the start of a stored one, or a
stored one the start of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from zrec.archive.people.names import UNKNOWN_NAMES, normal_name
from zrec.archive.store.facts import Facts, facts_of
from zrec.archive.store.lines import Lines
from zrec.archive.store.posindex import OPENINGS, Entries
from zrec.archive.store.schema import OPENING_PLIES
from zrec.archive.store.verify import index_text
from zrec.notation.json.convert import JsonRecord
from zrec.notation.reader import Record

__all__ = [
    "Rows",
    "known",
    "material_text",
    "parts",
    "prefetch",
    "prefix_of",
    "seats_key",
    "serial_facts",
    "starts",
]


def starts(text: str, fact: Facts, n: int) -> bool:
    """Whether ``fact`` (of ``n`` plies) is the start of the stored game ``text``: the
    same game, options and start, the same positions, and in a game with dice the same
    rolls."""
    # the whole game: a move that is not a turn right after ply n belongs to ply n
    stored = index_text(text)
    if stored is None or stored.keys[: n + 1] != fact.keys:
        return False
    if stored.paths[OPENING_PLIES] != fact.paths[OPENING_PLIES]:
        return False  # other rules or another start
    if stored.spell:  # the rolls after the opening: the path at ply n is the identity
        upto = index_text(text, n)
        return upto is not None and upto.path == fact.ident
    return True


def serial_facts(records: Iterable[Record | JsonRecord], file: str, done: int) -> Iterator[Facts]:
    """The facts of a file's records after the first ``done``, validated here."""
    for record in records:
        if record.number > done:
            yield facts_of(record, file)


def prefix_of(fact: Facts, plies: int, text: str) -> bool:
    """Whether the stored game ``text``, of ``plies`` plies, is the start of ``fact``."""
    if not fact.indexed or plies >= fact.plies:
        return False
    stored = index_text(text)
    if stored is None or stored.keys != fact.keys[: plies + 1]:
        return False
    # the same game, options and start (the first paths hold them), and in a game
    # with dice the same rolls as far as the opening paths go
    last = min(plies, OPENING_PLIES)
    return stored.paths[last] == fact.paths[last] and not (stored.spell and plies > last)


def parts(values: list[Any], size: int = 500) -> Iterator[list[Any]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def material_text(fact: Facts) -> str:
    """A game's row of the material index: each count of pieces it reaches, in game
    order, each between spaces (`` 12:12 12:11 ``, searched for as ``% 12:11 %``)."""
    return f" {' '.join(counts for counts, _ in fact.material)} "


def known(value: str | None) -> bool:
    return value is not None and value.strip() not in UNKNOWN_NAMES


def seats_key(fact: Facts) -> str:
    """Who sat where, as duplicates and conflicts compare it (worked out once a game)."""
    if fact.seats_key is None:
        fact.seats_key = "\x1f".join(normal_name(name) for _, name in fact.seats)
    return fact.seats_key


class Rows:
    """The rows of one chunk of a batch, written together at its end (the position
    and opening index entries are kept for the whole batch)."""

    def __init__(self, entries: Entries, openings: Entries, lines: Lines) -> None:
        #: the batch's position and opening index entries and opening lines (written
        #: when it commits)
        self.entries = entries
        self.openings = openings
        self.lines = lines
        self.tags: list[tuple[Any, ...]] = []
        self.players: list[tuple[Any, ...]] = []
        self.sources: list[tuple[Any, ...]] = []
        self.openings_long: list[tuple[int, int]] = []  # (path at OPENING_PLIES, game)
        self.material: list[tuple[Any, ...]] = []
        self.starts: set[tuple[str, str, str]] = set()  # (game, options, setup)
        self.openings_by_path: dict[tuple[int, str], tuple[int, int]] = {}
        self.long: dict[int, list[int]] = {}  # path at OPENING_PLIES -> games
        # what the stored games say (see prefetch), kept up to date
        self.same: dict[tuple[int, int, str], int] = {}  # (ident, plies, seats) -> id
        self.by_path: dict[int, list[tuple[int, int, str]]] = {}  # path -> (id, plies, seats)

    def source(self, gid: int, sid: int | None, fact: Facts) -> None:
        """Where a game was found (``sid`` None: records that came from no file)."""
        if sid is not None:
            self.sources.append((gid, sid, fact.number, fact.line))

    def write(self, db: Any) -> None:
        db.copy_rows("game_tags", "game, idx, name, value", self.tags)
        db.copy_rows("game_players", "game, seat, role, player", self.players)
        if self.sources:
            db.executemany(
                "INSERT INTO game_sources (game, source, number, line) VALUES (?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                self.sources,
            )
        db.copy_rows("openings_long", "path, game", self.openings_long)
        db.copy_rows("material", "game, counts", self.material)
        if self.starts:
            db.executemany(
                "INSERT INTO starts (game, options, setup) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                sorted(self.starts),
            )


def prefetch(db: Any, batch: list[Facts], rows: Rows) -> None:
    """What the stored games say about this chunk, in two queries rather than
    two a game: games with the same identity, and the games a truncated copy could
    come from (by its opening path at its last ply, or at ply 20 for a longer game;
    none for a game the rules have ended, which no stored game goes on from)."""
    for part in parts(sorted({f.ident for f in batch})):
        for gid, ident, plies, seats in db.rows(
            "SELECT id, ident, plies, seats FROM games WHERE ident IN "
            f"({','.join('?' * len(part))}) ORDER BY id",
            part,
        ):
            rows.same.setdefault((int(ident), int(plies), str(seats)), int(gid))
    # a longer game's first 20 plies: ``openings_long``, written a chunk at a time
    long = {f.paths[OPENING_PLIES] for f in batch if f.extendable and f.plies > OPENING_PLIES}
    for part in parts(sorted(long)):
        for path, gid, plies, seats in db.rows(
            "SELECT o.path, g.id, g.plies, g.seats FROM openings_long o JOIN games g "
            f"ON g.id = o.game WHERE o.path IN ({','.join('?' * len(part))}) ORDER BY g.id",
            part,
        ):
            rows.by_path.setdefault(int(path), []).append((int(gid), int(plies), str(seats)))
    # a short game's path at its last ply: the packed index (few games are short),
    # and the entries of this batch's chunks before
    for fact in batch:
        if not fact.extendable or fact.plies > OPENING_PLIES:
            continue
        path = fact.paths[fact.plies]
        if path in rows.by_path:
            continue
        ids = sorted({*OPENINGS.games(db, [path]), *rows.openings.games(path)})
        found = rows.by_path.setdefault(path, [])
        for part in parts(ids):
            found.extend(
                (int(gid), int(plies), str(seats))
                for gid, plies, seats in db.rows(
                    f"SELECT id, plies, seats FROM games WHERE id IN "
                    f"({','.join('?' * len(part))}) AND plies > ? ORDER BY id",
                    [*part, fact.plies],
                )
            )
