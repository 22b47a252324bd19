"""The archive at size, in small: an import's memory does not grow with its file, the
packed position index (schema 3) is what an older archive's rows become, and searches
by moves and position come a page at a time with how many games match in all.

Every test that uses an archive runs on SQLite and on PostgreSQL (``db_url``)."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from old_rows import rows_back_to_v3
from zrec.archive import Archive
from zrec.archive.store import ingest, posindex
from zrec.archive.store.ingest import Importer
from zrec.archive.store.schema import VERSION
from zrec.archive.store.search import Query, search, search_page
from zrec.archive.store.upkeep import check, remove
from zrec.archive.store.verify import keys_of_text
from zrec.cli import app
from zrec.notation.reader import read_records, read_string
from zrec.notation.writer import move_text, write_game
from zrec.play.selfplay import random_games
from zrec.rules import find_game

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
MOSONA_START = "BBBBBBBB/BBBB1WWWW/WWWWWWWW w"


def _text(count: int, seed: int) -> str:
    games = random_games(
        find_game("mosona"), {"Event": "Open", "White": "A", "Black": "B"}, count, seed
    )
    return "\n".join(write_game(game) for game in games)


def _import(db: str, text: str, name: str = "random.zrec") -> None:
    with Archive.open(db, create=True) as archive:
        Importer(archive).import_records(read_string(text, name), name)


def _peak(tmp_path: Path, text: str, name: str) -> int:
    with Archive.open(str(tmp_path / f"{name}.sqlite"), create=True) as archive:
        importer = Importer(archive, batch=100_000)  # one transaction
        tracemalloc.start()
        try:
            result = importer.import_records(read_string(text, name), name)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert result.counts.read == text.count('[Game "')
    return peak


def test_an_import_holds_one_chunk_of_games_whatever_the_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ingest, "CHUNK", 25)
    # one transaction for the whole batch, whatever the time it takes (an import
    # commits every TRANSACTION_SECONDS of its CPU or TRANSACTION_WALL of the clock
    # otherwise, and a later transaction reads the index rows of the games before it:
    # memory that grows with the archive, not the batch)
    monkeypatch.setattr(ingest, "TRANSACTION_SECONDS", 10_000.0)
    monkeypatch.setattr(ingest, "TRANSACTION_WALL", 10_000.0)
    # one import first, so that what this process pays once (modules, caches: more or
    # less of it paid already in a worker shared with other tests) is in neither peak
    _peak(tmp_path, _text(100, 3), "first")
    small, large = _text(100, 1), _text(400, 2)
    peaks = [_peak(tmp_path, small, "small"), _peak(tmp_path, large, "large")]
    # what each game more in one batch adds: the facts of one chunk at a time, and the
    # index's entries of the batch (8 bytes a position, and their sort at the end): 1.6
    # to 2.1 KB a game measured; with the whole batch in one chunk, 12 KB a game
    per_game = (peaks[1] - peaks[0]) / 300
    assert per_game < 4_000, peaks


def _old_layout(archive: Archive, version: int) -> None:
    """Turn a schema 4 archive back into schema 2 (one position row a ply, no starts)
    or 3 (positions packed by part and bucket), the games' rows as schema 3 holds them;
    the opening rows of both versions, a row a ply, hold hashes of another kind, which
    the migration must not keep."""
    rows_back_to_v3(archive, indexes=False)
    db = archive.db
    with db.transaction():
        for table in ("positions", "openings", "openings_long", *(["starts"] * (version < 3))):
            db.execute(f"DROP TABLE {table}")
        db.execute(
            "CREATE TABLE openings (path BIGINT NOT NULL, game BIGINT NOT NULL, "
            "PRIMARY KEY (path, game))"
        )
        db.execute("INSERT INTO openings (path, game) VALUES (12345, 1)")
        if version == 3:
            db.execute(
                "CREATE TABLE positions (part INTEGER NOT NULL, bucket INTEGER NOT NULL, "
                "entries BYTEA NOT NULL, PRIMARY KEY (part, bucket))"
            )
            db.execute("INSERT INTO positions VALUES (0, 1, ?)", (b"12345678",))
        else:
            db.execute(
                "CREATE TABLE positions (key BIGINT NOT NULL, game BIGINT NOT NULL, "
                "ply INTEGER NOT NULL, PRIMARY KEY (key, game, ply))"
            )
            for gid, text in db.rows("SELECT id, text FROM games WHERE valid = 1 ORDER BY id"):
                keys = keys_of_text(str(text))
                assert keys is not None
                db.executemany(
                    "INSERT INTO positions (key, game, ply) VALUES (?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    [(key, int(gid), ply) for ply, key in enumerate(keys)],
                )
        db.execute(f"UPDATE meta SET value = '{version}' WHERE name = 'schema'")


QUERIES = [
    Query(position=MOSONA_START),
    Query(moves="1. a5-b5 c6xa5"),
    Query(players=["Lovelace, Ada"]),
]
_INDEXES = ("positions", "openings", "openings_long")


def _plain(tables: list[list[tuple[Any, ...]]]) -> list[list[tuple[Any, ...]]]:
    """Rows with their blobs as bytes (PostgreSQL gives memoryviews)."""
    return [
        [tuple(bytes(v) if isinstance(v, memoryview) else v for v in r) for r in t] for t in tables
    ]


@pytest.mark.parametrize("version", [2, 3])
def test_an_older_archive_gets_its_indexes_built_again_when_opened(
    db_url: str, version: int
) -> None:
    files = sorted(SAMPLES.glob("*.zrec"))
    with Archive.open(db_url, create=True) as archive:
        importer = Importer(archive)
        for path in files:
            importer.import_records(read_records(path), path.name)
        importer.import_records(read_string(_text(60, 3), "r.zrec"), "r.zrec")
        rows = [sorted(map(tuple, archive.db.rows(f"SELECT * FROM {t}"))) for t in _INDEXES]
        before = [list(search(archive, q)) for q in QUERIES]
        assert all(before) and all(rows)
        _old_layout(archive, version)
    with Archive.open(db_url, read_only=True) as archive:  # migrated, then read
        assert archive.db.value("SELECT value FROM meta WHERE name = 'schema'") == str(VERSION)
        after = [sorted(map(tuple, archive.db.rows(f"SELECT * FROM {t}"))) for t in _INDEXES]
        assert _plain(after) == _plain(rows)
        assert [list(search(archive, q)) for q in QUERIES] == before
        assert check(archive).ok


def _opening(text: str, plies: int) -> str:
    """The first plies of the first game of ``text``."""
    game = next(iter(read_string(text, "x"))).game
    assert game is not None
    return " ".join(move_text(node) for node in game.line.moves[:plies])


def test_a_page_of_a_search_and_how_many_match(db_url: str) -> None:
    text = _text(120, 4)
    _import(db_url, text)
    with Archive.open(db_url) as archive:
        for query in (Query(position=MOSONA_START), Query(moves=_opening(text, 1))):
            everything = list(search(archive, query))
            assert len(everything) > 10
            for offset, limit in ((0, 5), (3, 4), (len(everything) - 2, 5), (500, 5)):
                query.offset, query.limit = offset, limit
                page, total = search_page(archive, query)
                assert page == everything[offset : offset + limit]
                assert list(search(archive, query)) == page
                assert total == len(everything)
            query.offset, query.limit = 0, None


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["archive", *args])
    return result.exit_code, result.stdout, result.stderr


def test_the_command_shows_a_page_and_the_total(db_url: str) -> None:
    _import(db_url, _text(80, 5))
    with Archive.open(db_url) as archive:
        every = list(search(archive, Query(position=MOSONA_START)))
    assert len(every) == 80
    code, out, err = _cli("search", "--db", db_url, "--position", MOSONA_START)
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert [int(line.split()[0]) for line in lines[1:-1]] == every[:50]  # the default page
    assert lines[-1] == "games 1-50 of 80 found (--offset 50 for the next 30)"
    code, out, err = _cli(
        "search", "--db", db_url, "--position", MOSONA_START, "--offset", "50", "--format", "ids"
    )
    assert (code, out.split(), err) == (
        0,
        [str(i) for i in every[50:]],
        "games 51-80 of 80 found\n",
    )
    code, out, err = _cli("search", "--db", db_url, "--position", MOSONA_START, "--offset", "90")
    assert out.splitlines()[-1] == "80 games found: none from 91 on"
    # other searches are not paged unless asked
    code, out, err = _cli("search", "--db", db_url, "--player", "A", "--format", "ids")
    assert (code, len(out.split()), err) == (0, 80, "")
    code, out, err = _cli("search", "--db", db_url, "--offset", "78", "--format", "ids")
    assert out.split() == [str(i) for i in every[78:]]
    code, out, err = _cli("search", "--db", db_url, "--offset", "-1")
    assert code == 2


def test_the_index_is_written_at_the_end_of_each_batch(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    text = _text(30, 6)
    with Archive.open(db, create=True) as archive:
        Importer(archive, batch=7).import_records(read_string(text, "r"), "r")
        one = sorted(archive.db.rows("SELECT id, entries FROM positions"))
        both = sorted(archive.db.rows("SELECT id, entries FROM openings"))
    other = str(tmp_path / "b.sqlite")
    with Archive.open(other, create=True) as archive:
        Importer(archive).import_records(read_string(text, "r"), "r")
        assert sorted(archive.db.rows("SELECT id, entries FROM positions")) == one
        assert sorted(archive.db.rows("SELECT id, entries FROM openings")) == both
        stored = list(archive.games(list(archive.all_ids())))
        distinct = sum(len(set(keys_of_text(g.text) or ())) for g in stored)
        assert posindex.POSITIONS.entry_count(archive.db) == distinct
        paths = sum(min(g.plies, 20) for g in stored)
        assert posindex.OPENINGS.entry_count(archive.db) == paths


def test_the_starts_follow_the_games(db_url: str) -> None:
    with Archive.open(db_url, create=True) as archive:
        importer = Importer(archive)
        for name in ("tournament.zrec", "mosona-open.zrec"):
            importer.import_records(read_records(SAMPLES / name), name)
        starts = archive.db.rows("SELECT game, options FROM starts ORDER BY game, options")
        assert ("mosona", "Board=open;Jumps=line;Middle=right;EndRule=majority;First=White") in [
            (str(g), str(o)) for g, o in starts
        ]
        open_board = [
            int(gid)
            for (gid,) in archive.db.rows(
                "SELECT g.id FROM games g JOIN rule_options o ON o.id = g.options_id "
                "WHERE o.options LIKE ?",
                ("Board=open%",),
            )
        ]
        remove(archive, open_board)
        assert len(archive.db.rows("SELECT game FROM starts")) == len(starts) - 1
        assert check(archive).ok
        archive.db.execute("DELETE FROM starts WHERE game = 'kolowis'")
        assert check(archive).problems == [
            "the starts table lacks kolowis "
            "(Board=lined;Jumps=line;Middle=right;EndRule=majority;First=White;Pieces=24)"
        ]


def test_a_transaction_ends_where_a_part_of_the_index_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each commit writes again every row of the index part it adds to: an import that
    # commits within a part writes the part's rows again and again (the time limits held
    # off: a loaded machine would end a transaction by the clock first)
    monkeypatch.setattr(ingest, "TRANSACTION_SECONDS", 10_000.0)
    monkeypatch.setattr(ingest, "TRANSACTION_WALL", 10_000.0)
    written: list[list[int]] = []
    write = posindex.Entries.write

    def noted(self: posindex.Entries, db: Any) -> None:
        if self.layout is posindex.POSITIONS and self.parts:
            written.append(sorted(self.parts))
        write(self, db)

    monkeypatch.setattr(posindex.Entries, "write", noted)
    # games with no moves, each its own (other players): 4,600 stored, ids 1 to 4600
    text = "\n".join(
        f'[Game "mosona"]\n[Event "Open"]\n[White "A{i}"]\n[Black "B"]\n'
        f'[Result "1/2-1/2"]\n\n1/2-1/2\n'
        for i in range(4600)
    )
    with Archive.open(str(tmp_path / "a.sqlite"), create=True) as archive:
        result = Importer(archive).import_records(read_string(text, "r"), "r")
        assert result.counts.added == 4600
        # the chunk of 500 that reaches part 1 (ids 4096 on) ends the first transaction
        assert written == [[0, 1], [1]]
        assert archive.db.value("SELECT max(id) FROM games") == 4600
        assert check(archive).ok


def test_a_transaction_ends_after_its_seconds_of_the_clock_while_the_input_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an import reading a slow input uses no CPU while it waits, but holds the write lock:
    # the clock ends its transaction too
    monkeypatch.setattr(ingest, "TRANSACTION_SECONDS", 10_000.0)
    monkeypatch.setattr(ingest, "TRANSACTION_WALL", 0.2, raising=False)
    commits: list[int] = []
    write = posindex.Entries.write

    def noted(self: posindex.Entries, db: Any) -> None:
        if self.layout is posindex.POSITIONS:
            commits.append(len(commits))
        write(self, db)

    monkeypatch.setattr(posindex.Entries, "write", noted)
    text = "\n".join(
        f'[Game "mosona"]\n[Event "Open"]\n[White "A{i}"]\n[Black "B"]\n'
        f'[Result "1/2-1/2"]\n\n1/2-1/2\n'
        for i in range(1500)
    )

    def slow(records: Iterator[Any]) -> Iterator[Any]:
        for n, record in enumerate(records):
            if n and n % 500 == 0:
                time.sleep(0.3)  # the input keeps the import waiting
            yield record

    with Archive.open(str(tmp_path / "a.sqlite"), create=True) as archive:
        result = Importer(archive).import_records(slow(read_string(text, "r")), "r")
        assert result.counts.added == 1500
        # the clock ended a transaction at each wait, after its chunk of 500 (one
        # transaction held the lock through both waits before); a loaded machine may
        # end one more
        assert len(commits) >= 3, commits
        assert check(archive).ok
