"""The position index: which games pass through a position, and after which ply.

The games are cut into *parts* of 4096 consecutive ids, and each part's positions into
4096 *buckets* by the first 12 bits of their 64-bit key (:func:`zrec.archive.store.facts.hash64`).
A row of ``positions`` holds one bucket of one part: ``entries``, a sorted array of
unsigned 64-bit numbers (little-endian), each the next 32 bits of a key, the game's
place in its part (12 bits) and the ply (16 bits; 65535 stands for "that ply or
later").  A lookup reads one short row per part; an import writes each batch's rows
together, at the end of the index, so the index stays compact (8 bytes a ply, where a
row a ply took about 20) and an import never waits on pages spread over it.

44 bits of key are kept: a hit may still be another position (a chance of about 1 in
17,000 for each lookup among a billion plies), which is why every hit is confirmed
by replaying its game (:mod:`zrec.archive.store.search`).
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["PART_BITS", "PositionEntries", "entry_count", "lookup", "part_entries", "remove"]

PART_BITS = 12
BUCKET_BITS = 12
_PART_MASK = (1 << PART_BITS) - 1
_MAX_PLY = 0xFFFF
_SWAP = sys.byteorder != "little"


def _split(key: int) -> tuple[int, int]:
    """A signed 64-bit key as (bucket, the next 32 bits)."""
    unsigned = key & 0xFFFF_FFFF_FFFF_FFFF
    return unsigned >> (64 - BUCKET_BITS), (unsigned >> (32 - BUCKET_BITS)) & 0xFFFF_FFFF


def _pack(values: Sequence[int]) -> bytes:
    packed = array("Q", values)
    if _SWAP:
        packed.byteswap()
    return packed.tobytes()


def _unpack(blob: bytes) -> array[int]:
    values = array("Q")
    values.frombytes(bytes(blob))
    if _SWAP:
        values.byteswap()
    return values


class PositionEntries:
    """The index entries of the games stored by one batch, written at its end."""

    def __init__(self) -> None:
        # part -> bucket -> entries (arrays: 8 bytes an entry, where an int takes 36)
        self.parts: dict[int, dict[int, array[int]]] = {}

    def add(self, gid: int, keys: Sequence[int]) -> None:
        """The positions of game ``gid``, ply 0 first."""
        buckets = self.parts.setdefault(gid >> PART_BITS, {})
        place = (gid & _PART_MASK) << 16
        get = buckets.get
        # _split inlined: this runs for every ply imported (about 40% of its time)
        for ply, key in enumerate(keys):
            unsigned = key & 0xFFFF_FFFF_FFFF_FFFF
            bucket = unsigned >> (64 - BUCKET_BITS)
            value = ((unsigned >> (32 - BUCKET_BITS)) & 0xFFFF_FFFF) << 32 | place
            value |= ply if ply < _MAX_PLY else _MAX_PLY
            found = get(bucket)
            if found is None:
                buckets[bucket] = array("Q", (value,))
            else:
                found.append(value)

    def add_one(self, gid: int, key: int, ply: int) -> None:
        """One entry: game ``gid`` holds the position ``key`` after ``ply``."""
        bucket, low = _split(key)
        value = low << 32 | (gid & _PART_MASK) << 16 | min(ply, _MAX_PLY)
        self.parts.setdefault(gid >> PART_BITS, {}).setdefault(bucket, array("Q")).append(value)

    def write(self, db: Any) -> None:
        """Add the entries to the stored rows of their parts, in one statement a part."""
        for part in sorted(self.parts):
            buckets = self.parts[part]
            for bucket, blob in db.rows(
                "SELECT bucket, entries FROM positions WHERE part = ?", (part,)
            ):
                mine = buckets.get(int(bucket))
                if mine is not None:
                    mine.extend(_unpack(blob))
            db.executemany(
                "INSERT INTO positions (part, bucket, entries) VALUES (?, ?, ?) "
                "ON CONFLICT (part, bucket) DO UPDATE SET entries = excluded.entries",
                [(part, b, _pack(sorted(buckets[b]))) for b in sorted(buckets)],
            )
        self.parts = {}


def _parts(db: Any) -> list[int]:
    top = db.value("SELECT max(part) FROM positions")
    return [] if top is None else list(range(int(top) + 1))


def lookup(db: Any, keys: Iterable[int]) -> dict[int, list[int]]:
    """The games whose index holds one of these keys: game id -> the plies (in order;
    65535 means "that ply or later")."""
    wanted: dict[int, set[int]] = {}
    for key in keys:
        bucket, low = _split(key)
        wanted.setdefault(bucket, set()).add(low)
    parts = _parts(db)
    found: dict[int, list[int]] = {}
    for bucket, lows in sorted(wanted.items()):
        for start in range(0, len(parts), 500):
            some = parts[start : start + 500]
            for part, blob in db.rows(
                f"SELECT part, entries FROM positions WHERE part IN ({','.join('?' * len(some))})"
                " AND bucket = ?",
                (*some, bucket),
            ):
                values = _unpack(blob)
                base = int(part) << PART_BITS
                for low in lows:
                    at = bisect_left(values, low << 32)
                    while at < len(values) and values[at] >> 32 == low:
                        value = values[at]
                        found.setdefault(base | (value >> 16 & _PART_MASK), []).append(
                            value & _MAX_PLY
                        )
                        at += 1
    for plies in found.values():
        plies.sort()
    return found


def part_entries(db: Any, part: int) -> dict[int, array[int]]:
    """Every stored row of one part: bucket -> its entries."""
    rows = db.rows("SELECT bucket, entries FROM positions WHERE part = ?", (part,))
    return {int(bucket): _unpack(blob) for bucket, blob in rows}


def game_entries(keys: Sequence[int], gid: int) -> list[tuple[int, int]]:
    """The entries a game's keys make: (bucket, entry)."""
    place = (gid & _PART_MASK) << 16
    out = []
    for ply, key in enumerate(keys):
        bucket, low = _split(key)
        out.append((bucket, low << 32 | place | min(ply, _MAX_PLY)))
    return out


def entry_count(db: Any) -> int:
    """How many entries the index holds (a ply of a game each)."""
    return int(db.value("SELECT coalesce(sum(length(entries)), 0) FROM positions")) // 8


def remove(db: Any, gid: int, keys: Sequence[int] | None) -> None:
    """Take game ``gid``'s entries out of the index: those its ``keys`` make, or (keys
    unknown) every entry of its place in its part."""
    part, place = gid >> PART_BITS, gid & _PART_MASK
    if keys is not None:
        rows = {}
        for bucket in sorted({b for b, _ in game_entries(keys, gid)}):
            blob = db.value(
                "SELECT entries FROM positions WHERE part = ? AND bucket = ?", (part, bucket)
            )
            if blob is not None:
                rows[bucket] = _unpack(blob)
    else:
        rows = part_entries(db, part)
    for bucket, values in rows.items():
        kept = [v for v in values if (v >> 16) & _PART_MASK != place]
        if len(kept) == len(values):
            continue
        if kept:
            db.execute(
                "UPDATE positions SET entries = ? WHERE part = ? AND bucket = ?",
                (_pack(kept), part, bucket),
            )
        else:
            db.execute("DELETE FROM positions WHERE part = ? AND bucket = ?", (part, bucket))
