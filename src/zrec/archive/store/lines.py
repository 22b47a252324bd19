"""The opening lines: the first moves of each game as one byte a move, for the tree.

``tree_lines`` (schema version 5) holds, for every valid game with moves whose turns roll
no dice, its first :data:`LINE_MOVES` moves of the main line as *codes*: each move's
code is the last byte of the 64-bit hash of the position it makes (the position
index's hash, :func:`zrec.archive.store.facts.hash64`, worked out by the import
anyway: the codes cost it nothing).  From a known position, the legal moves whose
codes differ are told apart by their code alone: the tree
(:mod:`zrec.archive.store.tree`) follows the moves asked for code by code where each
one's code is its position's only one, and decodes the next code by the legal moves
of the position reached (moves that share a code are told apart by replay).

The rows are packed as the position index is (:mod:`zrec.archive.store.packed`): one row
per start (the path at ply 0, :func:`zrec.archive.store.facts.start_path`, which holds
the game, its options and its start position) and part of 4096 game ids, its blob
the part's entries in id order, :data:`WIDTH` bytes each: the game's place in its
part (2 bytes, little-endian), its codes (0 after its last move), and a byte that
holds how many codes it has (times 8) and its result (:data:`RESULTS`, 1 to 4; 0:
another result, read from the game's row).  That is 23 bytes a game.
"""

from __future__ import annotations

from typing import Any

from zrec.archive.store.db import DamagedArchiveError
from zrec.archive.store.packed import PART_BITS
from zrec.archive.store.schema import OPENING_PLIES

__all__ = [
    "LINE_MOVES",
    "RESULTS",
    "WIDTH",
    "Lines",
    "entry_of",
    "rebuild",
    "remove",
    "result_code",
    "split",
]

#: the moves of a game kept as codes
LINE_MOVES = OPENING_PLIES
#: bytes an entry: place, codes, their number and the result
WIDTH = 2 + LINE_MOVES + 1
#: the results kept in an entry, by their code (0: another, read from ``games``)
RESULTS = ("", "1-0", "0-1", "1/2-1/2", "*")
_PLACE = (1 << PART_BITS) - 1


def result_code(result: str) -> int:
    """A result's code in an entry (0 for one not in :data:`RESULTS`)."""
    try:
        return RESULTS.index(result) if result else 0
    except ValueError:
        return 0


def entry_of(gid: int, codes: bytes, result: str) -> bytes:
    """A game's entry: its place, its codes (padded with 0), how many they are (times
    8) with its result's code."""
    place = gid & _PLACE
    held = codes[:LINE_MOVES]
    last = len(held) << 3 | result_code(result)
    return bytes((place & 0xFF, place >> 8)) + held.ljust(LINE_MOVES, b"\0") + bytes([last])


def split(db: Any, blob: Any) -> bytes:
    """A row's blob as bytes (a row that holds no whole entries is damage)."""
    if not isinstance(blob, (bytes, bytearray, memoryview)) or len(blob) % WIDTH:
        raise DamagedArchiveError(db.target, "a row of tree_lines holds no whole entries")
    return bytes(blob)


def _places(data: bytes) -> list[int]:
    return [data[i] | data[i + 1] << 8 for i in range(0, len(data), WIDTH)]


class Lines:
    """The entries of the games stored by one batch, in memory until its end."""

    def __init__(self) -> None:
        #: (start, part) -> the entries of this batch
        self.rows: dict[tuple[int, int], list[bytes]] = {}

    def add(self, gid: int, start: int, codes: bytes, result: str) -> None:
        """A game's codes (from its start ``start``, the path at ply 0)."""
        self.rows.setdefault((start, gid >> PART_BITS), []).append(entry_of(gid, codes, result))

    def write(self, db: Any) -> None:
        """Add the entries to their stored rows (entries kept in id order)."""
        for (start, part), mine in sorted(self.rows.items()):
            held = db.value(
                "SELECT entries FROM tree_lines WHERE start = ? AND part = ?", (start, part)
            )
            entries = list(mine)
            if held is not None:
                data = split(db, held)
                entries += [data[i : i + WIDTH] for i in range(0, len(data), WIDTH)]
            entries.sort(key=lambda e: e[0] | e[1] << 8)
            db.execute(
                "INSERT INTO tree_lines (start, part, entries) VALUES (?, ?, ?) "
                "ON CONFLICT (start, part) DO UPDATE SET entries = excluded.entries",
                (start, part, b"".join(entries)),
            )
        self.rows = {}


def held(db: Any, gid: int) -> list[tuple[int, bytes]]:
    """The entries stored for a game: (its start, the entry), in every row of its part."""
    part, place = gid >> PART_BITS, gid & _PLACE
    found = []
    for start, blob in db.rows("SELECT start, entries FROM tree_lines WHERE part = ?", (part,)):
        data = split(db, blob)
        for i, at in enumerate(_places(data)):
            if at == place:
                found.append((int(start), data[i * WIDTH : (i + 1) * WIDTH]))
    return found


def remove(db: Any, gid: int) -> None:
    """Take a game's entry out of its part's rows."""
    part, place = gid >> PART_BITS, gid & _PLACE
    for start, blob in db.rows("SELECT start, entries FROM tree_lines WHERE part = ?", (part,)):
        data = split(db, blob)
        kept = [
            data[i * WIDTH : (i + 1) * WIDTH]
            for i, at in enumerate(_places(data))
            if at != place
        ]
        if len(kept) * WIDTH == len(data):
            continue
        if kept:
            db.execute(
                "UPDATE tree_lines SET entries = ? WHERE start = ? AND part = ?",
                (b"".join(kept), start, part),
            )
        else:
            db.execute("DELETE FROM tree_lines WHERE start = ? AND part = ?", (start, part))


def entry_count(db: Any) -> int:
    """How many entries the table holds."""
    return int(db.value("SELECT coalesce(sum(length(entries)), 0) FROM tree_lines")) // WIDTH


def rebuild(db: Any, batch: int = 20_000) -> None:
    """Fill the empty table from the stored games, replayed from their text (what the
    migration to version 6 does)."""
    from zrec.archive.store.replaying import stored_facts

    lines = Lines()
    held_games = 0
    for gid, fact in stored_facts(db):
        if fact.lined:
            assert fact.codes is not None
            lines.add(gid, fact.paths[0], fact.codes, fact.result)
            held_games += 1
            if held_games >= batch:
                lines.write(db)
                held_games = 0
    lines.write(db)
