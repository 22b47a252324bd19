"""The position index's layouts side by side: size, import time and lookup time.

Reads the position entries of an archive that ``archive_bench.py`` made (its games'
keys, with the 48 bits the archive keeps, and game ids; a game's entries numbered as
its plies, since the archive keeps no ply), then writes them
into new SQLite files in four layouts, as an import would (game order, a transaction
per 20,000 games, the archive's pragmas), and looks 200 of the keys up in each:

* ``rows``: a row per ply, ``(key, game, ply)`` WITHOUT ROWID (schema 2);
* ``rows, no ply``: a row per distinct position of a game, ``(key, game)`` WITHOUT
  ROWID;
* ``key table``: the keys de-duplicated, ``keys (key, id)`` WITHOUT ROWID, and a row per
  ply ``(id, game, ply)`` WITHOUT ROWID;
* ``packed``: schema 4 (:mod:`zrec.archive.store.packed`), a row per part of 4096
  games and bucket of keys keyed by one integer, entries of 6 bytes, no ply.

Usage::

    python benchmarks/index_layouts.py ARCHIVE [--layout packed]
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from zrec.archive.store.db import Database
from zrec.archive.store.posindex import PART_BITS, POSITIONS, Entries

BATCH = 20_000


def _entries(path: str) -> list[tuple[int, int, int]]:
    """(key, game, ply) of every entry, in game order."""
    db = Database(sqlite3.connect(path), "sqlite", path)
    out = []
    for part in POSITIONS.parts(db):
        for bucket, (high, low) in POSITIONS.part_rows(db, part).items():
            for top, rest in zip(high, low, strict=True):
                key = bucket << 52 | top << 20 | (rest >> PART_BITS) << 16
                key = key - (1 << 64) if key >= 1 << 63 else key
                out.append((key, part << PART_BITS | rest & 0xFFF, 0))
    out.sort(key=lambda e: e[1])
    ply, last = 0, -1
    for i, (key, gid, _) in enumerate(out):
        ply = ply + 1 if gid == last else 0
        out[i], last = (key, gid, ply), gid
    out.sort(key=lambda e: (e[1], e[2]))
    return out


def _batches(entries: list[tuple[int, int, int]]) -> Iterator[list[tuple[int, int, int]]]:
    start = 0
    while start < len(entries):
        last = entries[start][1] + BATCH
        end = start
        while end < len(entries) and entries[end][1] < last:
            end += 1
        yield entries[start:end]
        start = end


def _open(path: Path) -> Database:
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "cache_size=-65536"):
        conn.execute(f"PRAGMA {pragma}")
    return Database(conn, "sqlite", str(path))


def _rows(db: Database, batch: list[tuple[int, int, int]]) -> None:
    db.executemany("INSERT INTO positions VALUES (?, ?, ?)", batch)


def _no_ply(db: Database, batch: list[tuple[int, int, int]]) -> None:
    db.executemany(
        "INSERT INTO positions VALUES (?, ?) ON CONFLICT DO NOTHING", [(k, g) for k, g, _ in batch]
    )


def _key_table(db: Database, batch: list[tuple[int, int, int]]) -> None:
    db.executemany(
        "INSERT INTO keys (key) VALUES (?) ON CONFLICT DO NOTHING", [(k,) for k, _, _ in batch]
    )
    db.executemany(
        "INSERT INTO postings SELECT id, ?, ? FROM keys WHERE key = ?",
        [(g, p, k) for k, g, p in batch],
    )


def _packed(db: Database, batch: list[tuple[int, int, int]]) -> None:
    entries = Entries(POSITIONS)
    for key, gid, _ in batch:
        entries.add(gid, [key])
    entries.write(db)


LAYOUTS: dict[str, tuple[str, Callable[[Database, list[tuple[int, int, int]]], None], str]] = {
    "rows": (
        "CREATE TABLE positions (key INTEGER, game INTEGER, ply INTEGER, "
        "PRIMARY KEY (key, game, ply)) WITHOUT ROWID",
        _rows,
        "SELECT game, ply FROM positions WHERE key = ?",
    ),
    "rows, no ply": (
        "CREATE TABLE positions (key INTEGER, game INTEGER, PRIMARY KEY (key, game)) "
        "WITHOUT ROWID",
        _no_ply,
        "SELECT game FROM positions WHERE key = ?",
    ),
    "key table": (
        "CREATE TABLE keys (key INTEGER PRIMARY KEY, id INTEGER UNIQUE);"
        "CREATE TABLE postings (id INTEGER, game INTEGER, ply INTEGER, "
        "PRIMARY KEY (id, game, ply)) WITHOUT ROWID",
        _key_table,
        "SELECT p.game, p.ply FROM keys k JOIN postings p ON p.id = k.id WHERE k.key = ?",
    ),
    "packed": (
        "CREATE TABLE positions (id INTEGER PRIMARY KEY, entries BLOB NOT NULL)",
        _packed,
        "",
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive", help="an archive made by archive_bench.py")
    parser.add_argument(
        "--layout", action="append", choices=list(LAYOUTS), help="only these (repeat)"
    )
    args = parser.parse_args()
    entries = _entries(args.archive)
    games = len({gid for _, gid, _ in entries})
    print(f"{games} games, {len(entries)} entries")
    probes = [k for k, _, _ in random.Random(1).sample(entries, 200)]
    scratch = Path(args.archive).with_suffix(".layout.sqlite")
    for name, (schema, insert, query) in LAYOUTS.items():
        if args.layout and name not in args.layout:
            continue
        db = _open(scratch)
        for statement in schema.split(";"):
            db.execute(statement)
        if name == "key table":  # the id given by the key table itself
            db.execute(
                "CREATE TRIGGER ids AFTER INSERT ON keys BEGIN "
                "UPDATE keys SET id = new.rowid WHERE rowid = new.rowid; END"
            )
        start = time.perf_counter()
        for batch in _batches(entries):
            db.execute("BEGIN")
            insert(db, batch)
            db.execute("COMMIT")
        elapsed = time.perf_counter() - start
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = scratch.stat().st_size
        times: list[float] = []
        found: Any = 0
        for key in probes:
            start = time.perf_counter()
            found = POSITIONS.games(db, [key]) if not query else db.rows(query, (key,))
            times.append(time.perf_counter() - start)
        assert found
        print(
            f"  {name:<13} {size / 1e6:7.1f} MB  {size / len(entries):5.1f} bytes an entry"
            f"  insert {elapsed:6.1f} s  lookup {statistics.median(times) * 1e3:6.2f} ms"
        )
        db.close()
    for suffix in ("", "-wal", "-shm"):
        Path(str(scratch) + suffix).unlink(missing_ok=True)


if __name__ == "__main__":
    main()
