"""Temporary files left by a writer that was killed (SIGKILL gives it no chance to
clean up): they are named ``.NAME.zrec-PID-XXXXXXXX.tmp``, and the next write of the
same target removes those whose writer no longer runs (or started after the file was
made: its process id was given again)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from zrec.cli import app
from zrec.fileio import atomic_output, stale_temporaries

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "culin-opening.zrec"

runner = CliRunner()


def _dead_pid() -> int:
    """The id of a process that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_killed_writer_leaves_a_temporary_file_the_next_write_removes(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    writer = subprocess.Popen(
        [sys.executable, "-m", "zrec", "convert", "--to", "json", "-", "-o", str(target)],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert writer.stdin is not None
        writer.stdin.write(SAMPLE.read_bytes())
        writer.stdin.flush()  # the writer waits for more input, its temporary file open
        deadline = time.monotonic() + 60
        while not (left := [p.name for p in tmp_path.iterdir()]):
            assert time.monotonic() < deadline and writer.poll() is None
            time.sleep(0.05)
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    (name,) = left
    assert name.startswith(f".out.json.zrec-{writer.pid}-") and name.endswith(".tmp")
    assert stale_temporaries(target) == [tmp_path / name]
    result = runner.invoke(app, ["convert", "--to", "json", str(SAMPLE), "-o", str(target)])
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_which_temporary_files_are_stale(tmp_path: Path) -> None:
    target = tmp_path / "games.zrec"
    target.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    dead = _dead_pid()
    planted = {
        # a writer that has ended: removed
        f".games.zrec.zrec-{dead}-a1b2c3d4.tmp": True,
        # a writer that runs (this one), made after it started: kept
        f".games.zrec.zrec-{os.getpid()}-e5f6g7h8.tmp": False,
        # a process that runs, but the file is older than it: its id was given again
        ".games.zrec.zrec-1-i9j0k1l2.tmp": True,
        # another target's, and files zrec did not name this way: kept
        f".other.zrec.zrec-{dead}-m3n4o5p6.tmp": False,
        ".games.zrec.q7r8s9t0.tmp": False,
        f".games.zrec.zrec-{dead}-x.tmp.keep": False,
    }
    for name in planted:
        (tmp_path / name).write_text("half a game")
    os.utime(tmp_path / ".games.zrec.zrec-1-i9j0k1l2.tmp", (0, 0))  # 1970
    assert sorted(stale_temporaries(target)) == sorted(
        tmp_path / name for name, stale in planted.items() if stale
    )
    result = runner.invoke(app, ["fmt", "-i", str(target)])
    assert result.exit_code == 0, result.stderr
    left = {p.name for p in tmp_path.iterdir()}
    assert left == {"games.zrec"} | {name for name, stale in planted.items() if not stale}


def test_the_temporary_file_carries_the_writers_pid(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    with atomic_output(target) as out:
        out.write("text\n")
        (name,) = [p.name for p in tmp_path.iterdir()]
        assert name.startswith(f".out.txt.zrec-{os.getpid()}-") and name.endswith(".tmp")
        assert stale_temporaries(target) == []
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
