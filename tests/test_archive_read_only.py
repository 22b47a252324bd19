"""An archive that cannot be written: the commands that only read open it read-only
and work as on any archive; the commands that write refuse it in one line.

The folder is made read-only for real: with ``chmod`` for an ordinary user, and, since
``chmod`` does not stop root, with a read-only mount of its own when the tests run as
root (the fixture proves that nothing can be written there before the commands run).
The connection itself is shown read-only too: a write through it fails, on SQLite and
on PostgreSQL."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from zrec.archive import Archive, ArchiveError
from zrec.archive.store.db import connect
from zrec.archive.store.schema import MIGRATIONS, _statements
from zrec.cli import app

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SAMPLE_FILES = [str(p) for p in sorted(SAMPLES.glob("*.zrec"))]
EVENT = "Zuni Club Championship 2026"
#: the commands that only read, as a user runs them
READERS = (
    ("search",),
    ("search", "--player", "ada lovelace", "--format", "json"),
    ("export", "--format", "jsonl"),
    ("show", "3"),
    ("stats",),
    ("check", "-q"),
    ("players",),
    ("standings", EVENT),
    ("crosstable", EVENT),
)

runner = CliRunner()


def invoke(*args: str) -> Result:
    return runner.invoke(app, ["archive", *args])


def _make(db: Path) -> None:
    """An archive of the samples, with no ``-wal`` or ``-shm`` file beside it."""
    result = invoke("import", "-q", "--db", str(db), *SAMPLE_FILES)
    assert result.exit_code == 0, result.stderr
    assert not Path(f"{db}-wal").exists()


def _cannot_write(folder: Path) -> bool:
    try:
        (folder / "probe").write_text("x")
    except OSError:
        return True
    (folder / "probe").unlink()
    return False


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """The folder ``ro`` of ``tmp_path``, holding ``zrec.sqlite``, that nothing can be
    written to (not even by root), and the writable original in ``rw``."""
    (tmp_path / "rw").mkdir()
    _make(tmp_path / "rw" / "zrec.sqlite")
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() != 0:
        shutil.copy(tmp_path / "rw" / "zrec.sqlite", folder)
        (folder / "zrec.sqlite").chmod(0o444)
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    mount = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)], capture_output=True
    )
    if mount.returncode != 0:
        pytest.skip(f"root needs a read-only mount, and mount failed: {mount.stderr!r}")
    try:
        shutil.copy(tmp_path / "rw" / "zrec.sqlite", folder)
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        yield folder
    finally:  # (lazily, should a failing test have left the file open)
        subprocess.run(["umount", "--lazy", str(folder)], check=True)


def test_reading_commands_work_on_a_read_only_archive(read_only: Path) -> None:
    assert _cannot_write(read_only)
    db, original = str(read_only / "zrec.sqlite"), str(read_only.parent / "rw" / "zrec.sqlite")
    for command in READERS:
        result = invoke(*command, "--db", db)
        assert result.exit_code == 0, (command, result.stderr)
        assert result.stdout == invoke(*command, "--db", original).stdout.replace(original, db)
    site = read_only.parent / "site"
    result = invoke("publish", EVENT, "--db", db, "-o", str(site))
    assert result.exit_code == 0, result.stderr
    assert (site / "index.html").exists()
    assert sorted(p.name for p in read_only.iterdir()) == ["zrec.sqlite"]  # no -wal, -shm


def test_writing_commands_refuse_a_read_only_archive(read_only: Path) -> None:
    db = str(read_only / "zrec.sqlite")
    for command in (("remove", "1"), ("import", str(SAMPLES / "tournament.zrec"))):
        result = invoke(*command, "--db", db)
        assert result.exit_code == 2, (command, result.stderr)
        assert result.stderr.startswith(f"zrec: cannot open the archive {db}: "), result.stderr
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
    assert invoke("search", "--db", db, "--format", "ids").stdout.split() == [
        str(i) for i in range(1, 16)
    ]


def test_a_read_only_connection_cannot_write(db_url: str) -> None:
    with Archive.open(db_url, create=True):
        pass
    with Archive.open(db_url, read_only=True) as archive:
        with pytest.raises(ArchiveError, match=r"read-only|readonly"):
            archive.db.execute("INSERT INTO events (name) VALUES ('x')")
        assert archive.db.value("SELECT count(*) FROM events") == 0


def test_a_read_only_open_brings_an_older_archive_up_to_date(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    old = connect(str(db), True)
    with old.transaction():
        old.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        old.execute("INSERT INTO meta (name, value) VALUES ('schema', '1')")
        for statement in _statements(old, MIGRATIONS[1]):
            old.execute(statement)
    old.close()
    result = invoke("stats", "--db", str(db))
    assert result.exit_code == 0, result.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta").fetchall() == [("5",)]
