"""An import killed with SIGKILL keeps what it committed and nothing else, and the
next import of the same file goes on after the last committed game: the archive then
holds exactly the games a clean import holds, each once.

The import runs as ``zrec archive import`` in a process of its own (committing at most
1000 games at a time, whole chunks of 500), killed once some batches are in the
archive.  On SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from typer.testing import CliRunner

from zrec.archive import Archive
from zrec.archive.store.db import is_url
from zrec.archive.store.ingest import CHUNK, Importer
from zrec.archive.store.outcome import sha256_of
from zrec.archive.store.upkeep import check
from zrec.cli import app
from zrec.notation.reader import read_records
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_games
from zrec.rules import find_game

#: the most games a transaction commits in this test (zrec archive import --batch)
BATCH = 1000
TOTAL = 3000


@pytest.fixture(scope="module")
def games_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("crash") / "games.zrec"
    games = random_games(find_game("mosona"), {}, TOTAL, 1907)
    path.write_text("\n".join(write_game(g) for g in games), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def clean(games_file: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[list[int], int]:
    """The identities of the games a clean import of the file stores, and how many
    places (game, file, number) it notes."""
    target = str(tmp_path_factory.mktemp("clean") / "clean.sqlite")
    sha, size = sha256_of(str(games_file))
    with Archive.open(target, create=True) as archive:
        result = Importer(archive).import_records(
            read_records(games_file), str(games_file), sha, size
        )
        assert result.counts.read == TOTAL and result.counts.invalid == 0
        idents = sorted(int(r[0]) for r in archive.db.rows("SELECT ident FROM games"))
        places = int(archive.db.value("SELECT count(*) FROM game_sources"))
    return idents, places


def distinct_among_first(path: Path, count: int) -> int:
    """How many different games (by their moves) the first ``count`` records hold."""
    seen = set()
    for record in read_records(path):
        if record.number > count:
            break
        assert record.game is not None
        seen.add(tuple(node.turn.text() for node in record.game.line.moves))
    return len(seen)


def committed(db: str) -> int:
    """The games committed so far, read as another client would (0 before the archive
    has its tables)."""
    try:
        if is_url(db):
            with psycopg.connect(db, autocommit=True) as conn:
                row = conn.execute("SELECT count(*) FROM games").fetchone()
        else:
            if not os.path.exists(db):
                return 0
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
                row = conn.execute("SELECT count(*) FROM games").fetchone()
    except (sqlite3.OperationalError, psycopg.errors.UndefinedTable):
        return 0
    assert row is not None
    return int(row[0])


def kill_during_import(db: str, path: Path) -> None:
    command = [
        sys.executable,
        "-c",
        "from zrec.cli import main; main()",
        *("archive", "import", "--db", db, "-q", "--batch", str(BATCH), str(path)),
    ]
    env = {k: v for k, v in os.environ.items() if k != "ZREC_DB"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 120
    try:
        while True:
            if process.poll() is not None:
                out, err = process.communicate()
                pytest.fail(f"the import ended before it was killed: {out!r} {err!r}")
            assert time.monotonic() < deadline, "no batch was committed in time"
            if 0 < committed(db) < TOTAL:
                break
            time.sleep(0.005)
        process.send_signal(signal.SIGKILL)
    finally:
        process.kill()
        process.communicate()
    assert process.returncode == -signal.SIGKILL


def test_a_killed_import_goes_on_where_it_stopped(
    db_url: str, games_file: Path, clean: tuple[list[int], int]
) -> None:
    kill_during_import(db_url, games_file)
    with Archive.open(db_url) as archive:
        # every committed game is whole: its tags, players, sources and index rows
        result = check(archive)
        assert result.ok, result.problems
        stored = archive.count()
        assert 0 < stored < TOTAL
        for table in ("game_players", "game_sources"):
            bare = archive.db.value(
                f"SELECT count(*) FROM games g WHERE NOT EXISTS "
                f"(SELECT 1 FROM {table} t WHERE t.game = g.id)"
            )
            assert bare == 0, table
        # the file's row says how far it got: the last game of the last batch committed
        row = archive.db.one("SELECT id, games_done, complete FROM sources")
        assert row is not None
        source, done, complete = row
        assert complete == 0
        assert done % CHUNK == 0 and 0 < done < TOTAL  # (a batch: whole chunks)
        last = archive.db.value("SELECT max(number) FROM game_sources WHERE source = ?", (source,))
        assert last == done
        assert archive.db.value("SELECT count(*) FROM game_sources") == done
        assert stored == distinct_among_first(games_file, done)
    # the same file again: it goes on after the last committed game
    again = CliRunner().invoke(
        app, ["archive", "import", "--db", db_url, "--format", "json", str(games_file)]
    )
    assert again.exit_code == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["files"][0]["status"] == "resumed"
    assert (report["read"], report["already"]) == (TOTAL, done)
    assert report["added"] + report["duplicates"] == TOTAL - done
    idents, places = clean
    with Archive.open(db_url) as archive:
        assert sorted(int(r[0]) for r in archive.db.rows("SELECT ident FROM games")) == idents
        assert archive.db.value("SELECT count(*) FROM game_sources") == places
        assert archive.db.one("SELECT games_done, complete FROM sources") == (TOTAL, 1)
        assert archive.count() == distinct_among_first(games_file, TOTAL) == len(idents)
