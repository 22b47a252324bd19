"""A full disk while zrec writes: ``zrec: no space left on device: PATH``, exit code 1,
the target as it was, and no temporary file left.

The commands run on a real full file system: a small tmpfs mounted for the test (as
root; elsewhere those tests skip), filled up before the command runs.  The write path
of :func:`zrec.fileio.atomic_output` is also tested everywhere, with the error the
stream raises on a full disk."""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
from typer.testing import CliRunner, Result

from zrec.cli import app
from zrec.fileio import NoSpaceError, atomic_files, atomic_output

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SAMPLE_FILES = sorted(SAMPLES.glob("*.zrec"))
TOURNAMENT = SAMPLES / "tournament.zrec"
EVENT = "Zuni Club Championship 2026"

runner = CliRunner()


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args))


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder on a file system of its own, 1 MB."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a small file system of its own needs root (mount)")
    mount = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True
    )
    if mount.returncode != 0:
        pytest.skip(f"mount failed: {mount.stderr!r}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], check=True)


def _fill(folder: Path) -> None:
    """Use up every free byte of the folder's file system."""
    with open(folder / "filler", "wb", buffering=0) as stream:
        try:
            while True:
                stream.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


def _refused(result: Result, path: Path | str) -> None:
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert result.stderr == f"zrec: no space left on device: {path}\n"
    assert isinstance(result.exception, SystemExit)


def _games(n: int) -> str:
    text = "\n".join(p.read_text(encoding="utf-8") for p in SAMPLE_FILES)
    return "\n".join([text] * n)


def test_convert_and_html_on_a_full_disk(small_disk: Path, tmp_path: Path) -> None:
    source = tmp_path / "games.zrec"
    source.write_text(_games(2), encoding="utf-8")
    old = small_disk / "out.json"
    old.write_text("the old text\n")
    _fill(small_disk)
    before = sorted(p.name for p in small_disk.iterdir())
    _refused(invoke("convert", "--to", "json", str(source), "-o", str(old)), old)
    _refused(invoke("html", str(source), "-o", str(small_disk / "page.html")),
             small_disk / "page.html")
    assert old.read_text() == "the old text\n"
    assert sorted(p.name for p in small_disk.iterdir()) == before


def test_fmt_in_place_on_a_full_disk(small_disk: Path) -> None:
    record = small_disk / "games.zrec"
    text = _games(1).replace("1. ", "1.  ")  # fmt has something to change
    record.write_text(text, encoding="utf-8")
    _fill(small_disk)
    _refused(invoke("fmt", "-i", str(record)), record)
    assert record.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "games.zrec"]


def test_publish_on_a_full_disk(small_disk: Path, tmp_path: Path) -> None:
    db = tmp_path / "zrec.sqlite"
    assert invoke("archive", "import", "-q", "--db", str(db), str(TOURNAMENT)).exit_code == 0
    _fill(small_disk)
    site = small_disk / "site"
    _refused(invoke("archive", "publish", EVENT, "--db", str(db), "-o", str(site)), site)
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler"]


def test_archive_import_on_a_full_disk(small_disk: Path) -> None:
    db = small_disk / "zrec.sqlite"
    assert invoke("archive", "import", "-q", "--db", str(db), str(TOURNAMENT)).exit_code == 0
    ids = invoke("archive", "search", "--db", str(db), "--format", "ids").stdout
    _fill(small_disk)
    result = invoke("archive", "import", "-q", "--db", str(db), *map(str, SAMPLE_FILES))
    _refused(result, db)
    (small_disk / "filler").unlink()
    assert invoke("archive", "search", "--db", str(db), "--format", "ids").stdout == ids
    assert invoke("archive", "check", "-q", "--db", str(db)).exit_code == 0
    assert sorted(p.name for p in small_disk.iterdir()) == ["zrec.sqlite"]


def _full(*args: object) -> NoReturn:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_atomic_output_on_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The error a stream raises when the disk fills up, anywhere on the write path."""
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    message = f"no space left on device: {target}"
    with pytest.raises(NoSpaceError, match=message), atomic_output(target) as out:
        out.write("new\n")
        _full()
    original = os.fdopen

    def failing(fd: int, *args: Any, **options: Any) -> Any:
        stream = original(fd, *args, **options)
        stream.write = _full
        return stream

    monkeypatch.setattr(os, "fdopen", failing)
    with pytest.raises(NoSpaceError, match=message), atomic_files() as group:
        group.write(target, "new\n")
    with pytest.raises(NoSpaceError, match=message), atomic_output(target) as out:
        out.write("new\n")
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]
