"""Searches by position and by opening counted from the packed indexes, over several
parts of games, with only the games of the page shown replayed."""

from __future__ import annotations

from pathlib import Path

import pytest

from zrec.archive import Archive
from zrec.archive.store import verify
from zrec.archive.store.ingest import Importer
from zrec.archive.store.posindex import OPENINGS, POSITIONS, Entries
from zrec.archive.store.search import Query, search, search_page
from zrec.archive.store.upkeep import check
from zrec.archive.store.verify import keys_of_text
from zrec.notation.reader import read_string
from zrec.notation.writer import move_text, write_game
from zrec.play.selfplay import random_games
from zrec.rules import find_game

MOSONA_START = "BBBBBBBB/BBBB1WWWW/WWWWWWWW w"


def _archive(tmp_path: Path) -> str:
    """40 random games in each of parts 0, 1 and 3 (ids 1-40, 5001-5040, 13001-13040)."""
    db = str(tmp_path / "a.sqlite")
    with Archive.open(db, create=True) as archive:
        importer = Importer(archive)
        for seed, after in ((1, 5000), (2, 13000), (3, None)):
            games = random_games(find_game("mosona"), {"White": "A", "Black": "B"}, 40, seed)
            text = "\n".join(write_game(g) for g in games)
            importer.import_records(read_string(text, f"r{seed}"), f"r{seed}")
            if after is not None:
                with archive.db.transaction():
                    archive.db.execute(
                        "UPDATE sqlite_sequence SET seq = ? WHERE name = 'games'", (after,)
                    )
    return db


def _queries(archive: Archive) -> list[Query]:
    first = archive.game(1)
    game = next(iter(read_string(first.text, "x"))).game
    assert game is not None
    moves = game.line.moves
    return [
        Query(position=MOSONA_START),  # every game
        Query(position_of=(game, 2)),
        Query(moves=move_text(moves[0])),
        Query(moves=" ".join(move_text(m) for m in moves[:2])),
        Query(position_of=(game, 1), players=["A"]),  # the index and a condition
    ]


def test_counts_and_pages_come_from_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _archive(tmp_path)
    replayed: list[str] = []
    confirmed = verify.confirmed

    def counted(text: str, raw: list[set[bytes]], prefix: list[tuple[int, list[int]]]) -> bool:
        replayed.append(text)
        return confirmed(text, raw, prefix)

    with Archive.open(db) as archive:
        assert sorted(archive.all_ids()) == [
            *range(1, 41),
            *range(5001, 5041),
            *range(13001, 13041),
        ]
        assert check(archive).ok
        for query in _queries(archive):
            everything = list(search(archive, query))
            assert len(everything) > 10
            monkeypatch.setattr(verify, "confirmed", counted)
            for offset, limit in ((0, 5), (38, 5), (41, 50), (len(everything) - 2, 5), (500, 5)):
                query.offset, query.limit = offset, limit
                replayed.clear()
                page, total = search_page(archive, query)
                assert page == everything[offset : offset + limit]
                assert total == len(everything)
                # only the games shown are replayed, and only for a position
                positions = query.position is not None or query.position_of is not None
                assert len(replayed) == (len(page) if positions else 0)
            monkeypatch.setattr(verify, "confirmed", confirmed)
            query.offset, query.limit = 0, None


def test_a_false_hit_of_the_index_is_never_shown(tmp_path: Path) -> None:
    db = _archive(tmp_path)
    with Archive.open(db) as archive:
        query = _queries(archive)[1]
        everything = list(search(archive, query))
        assert query.position_of is not None
        keys = keys_of_text(archive.game(1).text)
        assert keys is not None
        other = next(g for g in archive.all_ids() if g not in everything and g > 5000)
        # an entry of the position for a game that does not pass through it
        with archive.db.transaction():
            entries = Entries(POSITIONS)
            entries.add(other, [keys[2]])
            entries.write(archive.db)
        assert other in POSITIONS.games(archive.db, [keys[2]])
        assert list(search(archive, query)) == everything  # each hit replayed
        query.limit = 200
        assert search_page(archive, query) == (everything, len(everything))
        # a page without it: counted from the index, one too many
        query.limit = 1
        assert search_page(archive, query) == (everything[:1], len(everything) + 1)


def test_the_index_counts_by_bisection(tmp_path: Path) -> None:
    db = _archive(tmp_path)
    with Archive.open(db) as archive:
        keys = keys_of_text(archive.game(5001).text)
        assert keys is not None
        for key in {*keys, 12345}:
            games = POSITIONS.games(archive.db, [key])
            assert POSITIONS.count(archive.db, [key]) == len(games)
            assert POSITIONS.page(archive.db, [key], 0, None) == sorted(games)
            assert POSITIONS.page(archive.db, [key], 3, 2) == sorted(games)[3:5]
        assert POSITIONS.count(archive.db, [12345]) == 0
        both = list(keys[:2])
        assert POSITIONS.count(archive.db, both) == len(POSITIONS.games(archive.db, both))
        assert OPENINGS.count(archive.db, [0]) == 0


def test_entries_written_in_batches_make_the_rows_of_all_at_once(tmp_path: Path) -> None:
    """Entries merged into a part's stored rows batch by batch (the import's way: the
    part's rows and new entries sorted together) make the same rows, byte for byte, as
    every entry packed at once, each bucket's sorted by hash and place."""
    import random
    import sqlite3

    from zrec.archive.store.db import Database
    from zrec.archive.store.packed import _blob

    conn = sqlite3.connect(str(tmp_path / "p.sqlite"), isolation_level=None)
    conn.execute("CREATE TABLE positions (id INTEGER PRIMARY KEY, entries BLOB NOT NULL)")
    db = Database(conn, "sqlite", "p.sqlite")
    rng = random.Random(7)
    # parts 0 and 1, in three batches; a key shared by many games, and one met twice
    games = {
        gid: [rng.getrandbits(64) - (1 << 63) for _ in range(12)] for gid in range(3900, 4300)
    }
    for keys in games.values():
        keys[3] = keys[7] = -5
    expected: dict[int, list[int]] = {}
    for gid, keys in games.items():
        for key in set(keys):
            bucket, entry = POSITIONS.split(key)
            rid = (gid >> 12) << POSITIONS.bits | bucket
            expected.setdefault(rid, []).append(entry | gid & 0xFFF)
    for first, end in ((3900, 4000), (4000, 4200), (4200, 4300)):
        entries = Entries(POSITIONS)
        for gid in range(first, end):
            entries.add(gid, games[gid])
        entries.write(db)
    rows: dict[int, bytes] = dict(db.rows("SELECT id, entries FROM positions"))
    assert sorted(rows) == sorted(expected)
    assert all(rows[rid] == _blob(values) for rid, values in expected.items())
    assert len(POSITIONS.games(db, [-5])) == 400
