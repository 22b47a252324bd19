"""The packed layout shared by the position index and the opening index.

Both indexes say which games hold a 64-bit hash (a position's key, an opening's path).
The games are cut into *parts* of 4096 consecutive ids, and each part's hashes into
buckets by their first bits (12 for positions, 10 for openings: :class:`Layout`).  One
row holds one bucket of one part, its id ``part << bits | bucket`` (a plain integer
key: rows written in id order fill SQLite's pages, where a two-column key left them a
third empty).  Its blob holds the bucket's entries sorted, as two arrays, little-endian:
first the next 32 bits of each hash (4 bytes an entry), then 16 bits an entry: 4 more
bits of the hash and the game's place in its part (12 bits).  An entry is 6 bytes and
keeps 48 bits of the hash with 12 bucket bits (46 with 10).

A game's hashes are entered once each (a position met twice counts once), so the
entries matching a hash *are* the games that hold it: a search counts them by bisection
in each part's row, reading no entry, and pages through them in id order.  An import
writes each batch's rows together, at the end of the index (a part begun by the batch
before is read and written again once).
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from zrec.archive.store.db import DamagedArchiveError

if TYPE_CHECKING:  # numpy is imported where an import needs it (a search does not)
    import numpy as np

    _Numbers = np.ndarray[Any, np.dtype[np.uint64]]

__all__ = ["PART_BITS", "Entries", "Layout"]

PART_BITS = 12
_PLACE = (1 << PART_BITS) - 1
_SWAP = sys.byteorder != "little"


def _arrays(db: Any, table: str, blob: Any) -> tuple[Sequence[int], Sequence[int]]:
    """A row's blob as its two arrays: high 32 bits of the entries, and the low 16
    (a row that holds no whole entries is damage)."""
    if not isinstance(blob, (bytes, bytearray, memoryview)) or len(blob) % 6:
        held = "no entries" if blob is None else "bytes that are not whole entries"
        raise DamagedArchiveError(db.target, f"a row of the {table} index holds {held}")
    data = bytes(blob) if not isinstance(blob, bytes) else blob
    n = len(data) // 6
    if not _SWAP:
        view = memoryview(data)
        return view[: 4 * n].cast("I"), view[4 * n :].cast("H")
    high, low = array("I"), array("H")
    high.frombytes(data[: 4 * n])
    low.frombytes(data[4 * n :])
    high.byteswap()
    low.byteswap()
    return high, low


def _blob(values: Iterable[int]) -> bytes:
    """Entries (48-bit numbers: hash bits, then the place) as a row's blob, sorted."""
    ordered = sorted(values)
    high = array("I", [v >> 16 for v in ordered])
    low = array("H", [v & 0xFFFF for v in ordered])
    if _SWAP:
        high.byteswap()
        low.byteswap()
    return high.tobytes() + low.tobytes()


@dataclass(frozen=True)
class Layout:
    """One packed index: its table and the bits of a hash that choose the bucket."""

    table: str
    bits: int

    def split(self, key: int) -> tuple[int, int]:
        """A signed 64-bit hash as (bucket, the entry's hash bits: 36, shifted left by
        12 for the place)."""
        unsigned = key & 0xFFFF_FFFF_FFFF_FFFF
        rest = (unsigned >> (64 - self.bits - 36)) & 0xF_FFFF_FFFF
        return unsigned >> (64 - self.bits), rest << PART_BITS

    def parts(self, db: Any) -> list[int]:
        top = db.value(f"SELECT max(id) FROM {self.table}")
        return [] if top is None else list(range((int(top) >> self.bits) + 1))

    def _rows(self, db: Any, bucket: int, parts: list[int]) -> Iterator[tuple[int, Any]]:
        for start in range(0, len(parts), 500):
            ids = [p << self.bits | bucket for p in parts[start : start + 500]]
            marks = ",".join("?" * len(ids))
            for rid, blob in db.rows(
                f"SELECT id, entries FROM {self.table} WHERE id IN ({marks})", ids
            ):
                yield int(rid) >> self.bits, blob

    def runs(
        self, db: Any, keys: Iterable[int]
    ) -> dict[int, list[tuple[Sequence[int], int, int]]]:
        """Where each hash's entries lie, part by part: part -> [(the row's low
        array, first, end)], by bisection (no entry is read)."""
        wanted: dict[int, set[int]] = {}
        for key in keys:
            bucket, entry = self.split(key)
            wanted.setdefault(bucket, set()).add(entry)
        parts = self.parts(db)
        found: dict[int, list[tuple[Sequence[int], int, int]]] = {}
        for bucket, entries in sorted(wanted.items()):
            for part, blob in self._rows(db, bucket, parts):
                high, low = _arrays(db, self.table, blob)
                for entry in entries:
                    top, extra = entry >> 16, entry & 0xF000
                    first = bisect_left(high, top)
                    end = bisect_right(high, top, first)
                    if first == end:
                        continue
                    first = bisect_left(low, extra, first, end)
                    end = bisect_left(low, extra + (1 << PART_BITS), first, end)
                    if first < end:
                        found.setdefault(part, []).append((low, first, end))
        return found

    def count(self, db: Any, keys: Sequence[int]) -> int:
        """How many games hold one of these hashes."""
        return self.count_page(db, keys, 0, 0)[0]

    def count_page(
        self, db: Any, keys: Sequence[int], offset: int, limit: int | None
    ) -> tuple[int, list[int]]:
        """How many games hold one of these hashes, and those from ``offset`` on, in id
        order (at most ``limit``), from one reading of the rows."""
        found = self.runs(db, keys)
        if len(keys) == 1:
            total = sum(end - first for runs in found.values() for _, first, end in runs)
        else:
            total = sum(len(_places(runs)) for runs in found.values())
        return total, _page(found, offset, limit)

    def games(self, db: Any, keys: Iterable[int]) -> set[int]:
        """The games that hold one of these hashes."""
        return {
            part << PART_BITS | place
            for part, runs in self.runs(db, keys).items()
            for place in _places(runs)
        }

    def page(self, db: Any, keys: Iterable[int], offset: int, limit: int | None) -> list[int]:
        """The games that hold one of these hashes, in id order, from ``offset`` on (at
        most ``limit``)."""
        return _page(self.runs(db, keys), offset, limit)

    def entry_count(self, db: Any) -> int:
        """How many entries the index holds."""
        return int(db.value(f"SELECT coalesce(sum(length(entries)), 0) FROM {self.table}")) // 6

    def part_rows(self, db: Any, part: int) -> dict[int, tuple[Sequence[int], Sequence[int]]]:
        """Every stored row of one part: bucket -> its arrays."""
        rows = db.rows(
            f"SELECT id, entries FROM {self.table} WHERE id >= ? AND id < ?",
            (part << self.bits, (part + 1) << self.bits),
        )
        mask = (1 << self.bits) - 1
        return {int(rid) & mask: _arrays(db, self.table, blob) for rid, blob in rows}

    def held(
        self, rows: dict[int, tuple[Sequence[int], Sequence[int]]], gid: int, keys: Iterable[int]
    ) -> int:
        """How many of the entries a game's (distinct) hashes make are in these rows
        of its part."""
        found = 0
        place = gid & _PLACE
        for key in set(keys):
            bucket, entry = self.split(key)
            arrays = rows.get(bucket)
            if arrays is None:
                continue
            high, low = arrays
            top, rest = entry >> 16, (entry | place) & 0xFFFF
            first = bisect_left(high, top)
            end = bisect_right(high, top, first)
            at = bisect_left(low, rest, first, end)
            found += at < end and low[at] == rest
        return found

    def remove(self, db: Any, gid: int, keys: Iterable[int] | None) -> None:
        """Take game ``gid``'s entries out: those its ``keys`` make, or (keys unknown)
        every entry of its place in its part."""
        part, place = gid >> PART_BITS, gid & _PLACE
        rows = self.part_rows(db, part)
        if keys is not None:
            buckets = {self.split(k)[0] for k in keys}
            rows = {b: r for b, r in rows.items() if b in buckets}
        for bucket, (high, low) in rows.items():
            values = [h << 16 | lo for h, lo in zip(high, low, strict=True)]
            kept = [v for v in values if v & _PLACE != place]
            if len(kept) == len(values):
                continue
            rid = part << self.bits | bucket
            if kept:
                sql = f"UPDATE {self.table} SET entries = ? WHERE id = ?"
                db.execute(sql, (_blob(kept), rid))
            else:
                db.execute(f"DELETE FROM {self.table} WHERE id = ?", (rid,))


def _page(
    found: dict[int, list[tuple[Sequence[int], int, int]]], offset: int, limit: int | None
) -> list[int]:
    """The games of these runs from ``offset`` on (at most ``limit``), in id order; a
    part is read entry by entry only where the page lies."""
    shown: list[int] = []
    for part, runs in sorted(found.items()):
        if limit is not None and len(shown) >= limit:
            break
        if len(runs) == 1 and offset >= runs[0][2] - runs[0][1]:
            offset -= runs[0][2] - runs[0][1]
            continue
        places = sorted(_places(runs))
        if offset >= len(places):
            offset -= len(places)
            continue
        shown.extend(part << PART_BITS | p for p in places[offset:])
        offset = 0
    return shown if limit is None else shown[:limit]


def _places(runs: list[tuple[Sequence[int], int, int]]) -> set[int]:
    return {v & _PLACE for low, first, end in runs for v in low[first:end]}


class Entries:
    """The entries of the games stored by one batch, in memory until its end.

    This is the import's one use of numpy: a batch's entries (a thousand or so games,
    50 positions each) are kept as the games' hashes, in arrays of 8 bytes a hash, and
    only :meth:`write` turns them into entries, sorts them with the stored rows of
    their part and cuts them into rows, on arrays.  Done in Python, number by number,
    that was a tenth of an import's CPU time (57 us a game of 50 positions; 33 us with
    numpy, most of it SQLite's, in the same run on a loaded machine).

    An entry is held as one unsigned 64-bit number: the bucket, then the entry's 36
    hash bits, then the game's place in its part (``bucket << 48 | entry``)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        #: part -> the hashes of its games, in the order added (8 bytes each), and for
        #: each game where its hashes end and its place
        self._hashes: dict[int, array[int]] = {}
        self._ends: dict[int, array[int]] = {}
        self._places: dict[int, array[int]] = {}
        self._sorted: dict[int, _Numbers] = {}

    @property
    def parts(self) -> list[int]:
        """The parts that have new entries."""
        return sorted(self._hashes)

    def add(self, gid: int, keys: Iterable[int]) -> None:
        """A game's hashes (a hash it holds twice is entered once)."""
        part = gid >> PART_BITS
        hashes = self._hashes.get(part)
        if hashes is None:
            hashes = self._hashes[part] = array("q")
            self._ends[part], self._places[part] = array("q"), array("H")
        hashes.extend(keys)
        self._ends[part].append(len(hashes))
        self._places[part].append(gid & _PLACE)
        self._sorted.pop(part, None)

    def _values(self, part: int) -> _Numbers:
        """A part's new entries, sorted, each once."""
        import numpy as np

        found = self._sorted.get(part)
        if found is None:
            ends = np.frombuffer(self._ends[part], dtype=np.int64)
            counts = np.diff(ends, prepend=np.zeros(1, dtype=np.int64))
            hashes = np.frombuffer(self._hashes[part], dtype=np.int64).view(np.uint64)
            # the hash's first bits + 36 (Layout.split: the bucket, then the entry's
            # bits), above the place
            shift = np.uint64(64 - self.layout.bits - 36)
            values = (hashes >> shift) << np.uint64(PART_BITS)
            values |= np.repeat(np.frombuffer(self._places[part], dtype=np.uint16), counts)
            found = self._sorted[part] = _distinct(np, values)
        return found

    def games(self, key: int) -> list[int]:
        """The games of this batch that hold ``key`` (by bisection in each part)."""
        import numpy as np

        bucket, entry = self.layout.split(key)
        first = bucket << _BUCKET | entry
        found: list[int] = []
        for part in sorted(self._hashes):
            values = self._values(part)
            at, end = np.searchsorted(values, [first, first + (1 << PART_BITS)])
            found.extend(part << PART_BITS | int(v) & _PLACE for v in values[at:end])
        return found

    def write(self, db: Any) -> None:
        """Add the entries to the stored rows of their parts, in one statement a part,
        in id order: a part's stored rows and its new entries sorted together, and the
        rows of the buckets that have new entries written again."""
        import numpy as np

        layout = self.layout
        mask = (1 << layout.bits) - 1
        at_slice = _BUCKET + layout.bits - _SLICE_BITS  # a number's slice: above it
        edges = np.arange(SLICES + 1, dtype=np.uint64) << np.uint64(at_slice)
        edges[-1] = np.iinfo(np.uint64).max  # (the last slice's end: past every number)
        for part in sorted(self._hashes):
            new = self._values(part)
            self._sorted.pop(part)
            del self._hashes[part]
            rows = db.rows(
                f"SELECT id, entries FROM {layout.table} WHERE id >= ? AND id < ? ORDER BY id",
                (part << layout.bits, (part + 1) << layout.bits),
            )
            held = _widen(db, layout.table, [(int(rid) & mask, blob) for rid, blob in rows])
            del rows
            new_at = np.searchsorted(new, edges).tolist()
            held_at = np.searchsorted(held, edges).tolist()
            statements: list[tuple[int, bytes]] = []
            for k in range(SLICES):
                fresh = new[new_at[k] : new_at[k + 1]]
                if not len(fresh):
                    continue
                merged = np.concatenate((held[held_at[k] : held_at[k + 1]], fresh))
                merged.sort()
                # (a cast to a narrower type keeps the low bits)
                high = (merged >> np.uint64(16)).astype("<u4").tobytes()
                low = merged.astype("<u2").tobytes()
                buckets = _distinct(np, fresh >> np.uint64(_BUCKET))
                starts = np.searchsorted(merged, buckets << np.uint64(_BUCKET)).tolist()
                ends = np.searchsorted(merged, (buckets + np.uint64(1)) << np.uint64(_BUCKET))
                statements += [
                    (part << layout.bits | b, high[4 * at : 4 * to] + low[2 * at : 2 * to])
                    for b, at, to in zip(buckets.tolist(), starts, ends.tolist(), strict=True)
                ]
            db.executemany(
                f"INSERT INTO {layout.table} (id, entries) VALUES (?, ?) "
                "ON CONFLICT (id) DO UPDATE SET entries = excluded.entries",
                statements,
            )
        self._hashes, self._ends, self._places, self._sorted = {}, {}, {}, {}


def _distinct(np: Any, values: _Numbers) -> _Numbers:
    """The numbers sorted, each once (numpy's ``unique`` hashes them: 15 times slower
    on these)."""
    values = np.sort(values)
    if len(values) > 1:
        values = values[np.concatenate(([True], values[1:] != values[:-1]))]
    return values


#: the slices of a part's entries that :meth:`Entries.write` sorts one at a time (its
#: passing arrays, about 40 bytes an entry, are then a sixteenth of the part's)
_SLICE_BITS = 4
SLICES = 1 << _SLICE_BITS
#: where an entry's bucket begins in :class:`Entries`' numbers (an entry is 48 bits)
_BUCKET = 48


def _widen(db: Any, table: str, rows: list[tuple[int, Any]]) -> _Numbers:
    """Stored rows (bucket, blob) as :class:`Entries`' numbers, in the rows' order."""
    import numpy as np

    highs, lows, buckets, counts = [], [], [], []
    for bucket, blob in rows:
        if not isinstance(blob, (bytes, bytearray, memoryview)) or len(blob) % 6:
            _arrays(db, table, blob)  # (says what is wrong)
        data = bytes(blob)
        n = len(data) // 6
        highs.append(data[: 4 * n])
        lows.append(data[4 * n :])
        buckets.append(bucket)
        counts.append(n)
    high = np.frombuffer(b"".join(highs), dtype="<u4").astype(np.uint64)
    low = np.frombuffer(b"".join(lows), dtype="<u2").astype(np.uint64)
    bucket_of = np.repeat(np.array(buckets, dtype=np.uint64), counts)
    out: _Numbers = (bucket_of << np.uint64(_BUCKET)) | (high << np.uint64(16)) | low
    return out
