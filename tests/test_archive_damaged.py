"""Damaged SQLite archives, as a fault hunt damages them: pages overwritten with
garbage, the file cut short, bytes of stored texts changed so that they are no longer
UTF-8, and schema versions that are not versions.  Every command says in one line that
the archive is damaged and exits with 1, never with a traceback; ``check`` lists what it
can still read."""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from zrec.cli import app

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SAMPLE_FILES = [str(p) for p in sorted(SAMPLES.glob("*.zrec"))]
#: the commands that read an archive, with what each needs besides --db
READERS = (("search",), ("export",), ("check",), ("stats",), ("show", "1"))
HINT = "; zrec archive check says what can still be read"

runner = CliRunner()


def invoke(*args: str) -> Result:
    return runner.invoke(app, ["archive", *args])


@pytest.fixture(scope="module")
def archive_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A real archive of the samples (15 games), checkpointed into one file."""
    path = tmp_path_factory.mktemp("archive") / "zrec.sqlite"
    result = invoke("import", "-q", "--db", str(path), *SAMPLE_FILES)
    assert result.exit_code == 0, result.stderr
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode=DELETE")
    return path.read_bytes()


def _one_line(result: Result) -> str:
    """The one line of standard error of a refused command, with no traceback."""
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def _text_offset(data: bytes, game: str) -> int:
    """Where in the file the stored text of the first game of ``game`` starts."""
    found = re.search(rb'\[Game "' + game.encode() + rb'"\]\n\[Event', data)
    assert found is not None
    return found.start()


def test_a_stored_text_that_is_not_utf8(archive_bytes: bytes, tmp_path: Path) -> None:
    data = bytearray(archive_bytes)
    at = _text_offset(archive_bytes, "awethi") + 2  # [Game -> [G\xffme
    data[at] = 0xFF
    db = tmp_path / "bad.sqlite"
    db.write_bytes(bytes(data))
    damaged = f"zrec: {db} is damaged: a text stored in it is not UTF-8 (column 'text')"
    for command in (("search", "--format", "zrec"), ("export",)):
        result = invoke(*command, "--db", str(db))
        assert result.exit_code == 1
        assert _one_line(result) == damaged + HINT
    # the other games can still be read, and check says which one cannot
    with sqlite3.connect(db) as conn:
        # a text stored as it is (no dictionary in so small an archive), after its
        # first byte
        query = "SELECT id FROM games WHERE substr(text, 2, 3) = ?"
        (bad,) = conn.execute(query, (b"[G\xff",)).fetchone()
    result = invoke("check", "-q", "--db", str(db))
    assert result.exit_code == 1
    assert f"#{bad}: cannot be read: a text stored in it is not UTF-8 (column 'text')" in (
        result.stdout.splitlines()
    )
    assert result.stdout.splitlines()[-1] == (
        "15 games checked: 1 problem; the archive is damaged: 14 of its 15 games can "
        "still be read in full"
    )
    assert "Traceback" not in result.stdout + result.stderr
    others = invoke("export", "--db", str(db), *(f"--id={i}" for i in range(1, 16) if i != bad))
    assert others.exit_code == 0 and others.stdout.count('[Game "') == 14


def test_an_archive_cut_short(archive_bytes: bytes, tmp_path: Path) -> None:
    db = tmp_path / "short.sqlite"
    db.write_bytes(archive_bytes[: len(archive_bytes) // 2])
    damaged = f"zrec: {db} is damaged: database disk image is malformed"
    for command in READERS:
        result = invoke(*command, "--db", str(db))
        assert result.exit_code == 1, (command, result.stdout, result.stderr)
        hint = HINT if command != ("check",) else "; nothing in it can be read"
        assert _one_line(result) == damaged + hint


def test_a_file_whose_first_page_is_garbage(archive_bytes: bytes, tmp_path: Path) -> None:
    data = bytearray(archive_bytes)
    data[100:4096] = random.Random(5).randbytes(3996)  # the schema page, header kept
    db = tmp_path / "garbled.sqlite"
    db.write_bytes(bytes(data))
    for command in READERS:
        result = invoke(*command, "--db", str(db))
        assert result.exit_code == 1, (command, result.stdout, result.stderr)
        line = _one_line(result)
        assert line.startswith(f"zrec: {db} is damaged: "), line
        assert line.endswith(HINT if command != ("check",) else "; nothing in it can be read")


def _damage(data: bytes, rng: random.Random) -> bytes:
    """One damaged copy, as a fault hunt makes them (the 100-byte header is kept, so
    that the file is still recognised as a SQLite database)."""
    out = bytearray(data)
    kind = rng.choice(("garbage", "cut", "utf8"))
    if kind == "garbage":
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(100, len(out) - 64)
            size = min(rng.randint(1, 4096), len(out) - at)
            out[at : at + size] = rng.randbytes(size)
    elif kind == "cut":
        out = out[: rng.randrange(4096, len(out))]
    else:
        for _ in range(rng.randint(1, 20)):
            out[rng.randrange(4096, len(out))] = rng.choice((0xFF, 0xC3, 0x80, 0xFE))
    return bytes(out)


@pytest.mark.parametrize("seed", range(4))
def test_many_damaged_copies(archive_bytes: bytes, tmp_path: Path, seed: int) -> None:
    """Damage at random offsets: each command works, or refuses in one line with exit
    code 1 (``show 1`` may also find no game 1, a usage error)."""
    rng = random.Random(seed)
    for n in range(6):
        db = tmp_path / f"damaged-{n}.sqlite"
        db.write_bytes(_damage(archive_bytes, rng))
        for command in READERS:
            result = invoke(*command, "--db", str(db))
            where = (seed, n, command, result.stdout[-300:], result.stderr)
            assert isinstance(result.exception, (SystemExit, type(None))), where
            assert "Traceback" not in result.stdout + result.stderr, where
            if result.exit_code == 0 or command == ("check",):
                assert result.exit_code in (0, 1), where
                if command == ("check",):  # in two processes: the same report
                    again = invoke(*command, "--jobs", "2", "--db", str(db))
                    assert (again.exit_code, again.stdout) == (result.exit_code, result.stdout)
                continue
            line = _one_line(result)
            if result.exit_code == 2:
                assert line == f"zrec: there is no game #1 in {db}", where
            else:
                assert result.exit_code == 1, where
                assert line.startswith(f"zrec: {db} is damaged: "), where


@pytest.mark.parametrize("value", ["abc", "-1", "0", "2.5", ""])
def test_a_schema_version_that_is_not_one(
    archive_bytes: bytes, tmp_path: Path, value: str
) -> None:
    db = tmp_path / "meta.sqlite"
    db.write_bytes(archive_bytes)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE name = 'schema'", (value,))
    message = (
        f"zrec: {db} is damaged: its schema version (the value 'schema' in the table "
        f"meta) is {value!r}, not a whole number from 1 up"
    )
    for command in (*READERS, ("import", str(SAMPLES / "tournament.zrec")), ("remove", "1")):
        result = invoke(*command, "--db", str(db))
        assert result.exit_code == 1, (command, result.stdout, result.stderr)
        assert _one_line(result) == message, (command, result.stderr)
    with sqlite3.connect(db) as conn:  # nothing was changed
        assert conn.execute("SELECT value FROM meta").fetchall() == [(value,)]
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (15,)


def test_a_schema_version_that_is_missing(archive_bytes: bytes, tmp_path: Path) -> None:
    db = tmp_path / "meta.sqlite"
    db.write_bytes(archive_bytes)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET name = 'sch?ma'")  # as a damaged byte leaves it
    for command in READERS:
        result = invoke(*command, "--db", str(db))
        assert result.exit_code == 1, (command, result.stdout, result.stderr)
        assert _one_line(result) == (
            f"zrec: {db} is damaged: its schema version (the value 'schema' in the table "
            "meta) is missing"
        )
