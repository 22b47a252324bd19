"""The index of an event's round by its players (schema 11): what the import asks for
each game it stores, answered from the index, and an archive of version 10 given it.

Every test runs on SQLite and on PostgreSQL (the ``db_url`` fixture)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zrec.archive import Archive
from zrec.archive.store.db import Database
from zrec.archive.store.ingest import Importer
from zrec.archive.store.outcome import Notice
from zrec.archive.store.schema import VERSION
from zrec.notation.reader import read_records

GAMES = """[Game "mosona"]
[Event "Open"]
[Round "{round}"]
[White "Ada"]
[Black "Bea"]

{moves}
"""


def _indexes(db: Database) -> set[str]:
    if db.dialect == "sqlite":
        rows = db.rows(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games'"
        )
    else:
        rows = db.rows("SELECT indexname FROM pg_indexes WHERE tablename = 'games'")
    return {str(name) for (name,) in rows if not str(name).startswith(("sqlite_", "games_pkey"))}


def _imported(db: str, path: Path) -> None:
    with Archive.open(db, create=True) as archive:
        Importer(archive).import_records(read_records(path), str(path))


@pytest.mark.parametrize("db_url", ["sqlite", "postgresql"], indirect=True)
def test_an_archive_of_version_10_gets_the_index_of_rounds_by_players(
    db_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "games.zrec"
    path.write_text(GAMES.format(round=1, moves="1. b6-b5 *"), encoding="utf-8")
    _imported(db_url, path)
    with Archive.open(db_url) as archive:  # back to version 10, by hand
        assert _indexes(archive.db) == {"games_ident", "games_round_seats", "games_date"}
        archive.db.execute("DROP INDEX games_round_seats")
        archive.db.execute("CREATE INDEX games_event ON games (event, round)")
        archive.db.execute("UPDATE meta SET value = '10' WHERE name = 'schema'")
    with Archive.open(db_url) as archive:
        assert archive.db.value("SELECT value FROM meta WHERE name = 'schema'") == str(VERSION)
        assert VERSION == 14
        assert _indexes(archive.db) == {"games_ident", "games_round_seats", "games_date"}
    # the import still tells a conflict (same event, round and players, other moves)
    other = tmp_path / "other.zrec"
    other.write_text(GAMES.format(round=1, moves="1. a4-b5 *"), encoding="utf-8")
    notices: list[Notice] = []
    with Archive.open(db_url) as archive:
        result = Importer(archive, notify=notices.append).import_records(
            read_records(other), str(other)
        )
    assert result.counts.conflicts == 1
    assert [n.message for n in notices] == [
        "the event, round and players of #1 with other moves: stored as #2; both kept"
    ]


def test_the_games_of_a_round_with_the_same_players_are_found_by_the_index_alone(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "archive.sqlite")
    path = tmp_path / "games.zrec"
    path.write_text(GAMES.format(round=1, moves="1. b6-b5 *"), encoding="utf-8")
    _imported(db, path)
    with Archive.open(db) as archive:
        plan = archive.db.rows(
            "EXPLAIN QUERY PLAN SELECT id, ident, plies, text FROM games WHERE event = ? "
            "AND round = ? AND seats = ? AND id <> ? ORDER BY id",
            (1, "1", "ada\x1fbea", 1),
        )
    assert [row[-1] for row in plan] == [
        "SEARCH games USING INDEX games_round_seats (event=? AND round=? AND seats=?)"
    ]
