"""``zrec readings --fit`` in worker processes (``--jobs``) and on a Dask cluster
(``--cluster``): the same bytes as one process, the refusals ``zrec study`` makes, and
a progress bar on standard error when it is a terminal."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import tempfile
import termios
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zrec.cli import app
from zrec.research import fit

ROOT = Path(__file__).resolve().parents[1]
# a sample of each game but the larger serpent spaces (a Kolowis record is fitted under
# 6,144 readings): what these tests check does not depend on the size of a space
SAMPLES = sorted(
    str(p)
    for p in (ROOT / "samples").glob("*.zrec")
    if not p.name.startswith(("kolowis", "mosona-lined", "mosona-open", "tournament"))
)
MOSONA = [str(ROOT / "samples" / n) for n in ("culin-opening.zrec", "mosona-bent.zrec")]
runner = CliRunner()


def readings(*args: str) -> Any:
    return runner.invoke(app, ["readings", "--fit", *args])


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Pieces of three records (the last one short), and the samples with a record
    left out in the middle (its warning must keep its place)."""
    monkeypatch.setattr(fit, "RECORDS_PER_PIECE", 3)
    bad = tmp_path / "bad.zrec"
    bad.write_text('[Game "nosuchgame"]\n\n1-0\n', encoding="utf-8")
    return [*SAMPLES[:4], str(bad), *SAMPLES[4:]]


def outputs(files: list[str], *args: str) -> list[tuple[str, str]]:
    """The table and the JSON, each with its standard error."""
    done = []
    for fmt in ("text", "json"):
        result = readings(*files, *args, "--format", fmt)
        assert result.exit_code == 0, result.output
        done.append((result.stdout, result.stderr))
    return done


def test_two_processes_give_the_bytes_of_one(small_pieces: list[str]) -> None:
    alone = outputs(small_pieces, "--jobs", "1")
    assert outputs(small_pieces, "--jobs", "2") == alone
    assert outputs(small_pieces, "-j", "3") == alone
    table, warned = alone[0]
    assert "mosona: 2 records\n" in table and "awethi: 2 records\n" in table
    assert warned == ('zrec: warning: left out: record 5: [Game "nosuchgame"] names no game '
                      "zrec knows; known games: awethi, kolowis, mosona, stone-warriors\n")
    # the search model too (no bar: standard error is not a terminal)
    searched = outputs(MOSONA, "--model", "alphabeta:2", "--jobs", "1")
    assert outputs(MOSONA, "--model", "alphabeta:2", "--jobs", "2") == searched
    assert searched[0][0].startswith(
        "player model: softmax over the alphabeta values at depth 2 of the legal moves, "
        "beta = 1\n\nmosona: 2 records\n")
    assert searched[0][1] == ""


def test_a_cluster_of_two_workers_gives_the_bytes_of_one_process(
    two_workers: str, small_pieces: list[str]
) -> None:
    alone = outputs(small_pieces, "--jobs", "1", "--beta", "2", "--seed", "4")
    assert outputs(small_pieces, "--cluster", two_workers, "--beta", "2", "--seed", "4") == alone
    assert "beta = 2\n" in alone[0][0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fit", "--cluster", "tcp://127.0.0.1:8786", "--jobs", "2"],
         "zrec: --cluster and --jobs: give one (the cluster's workers fit the records)\n"),
        (["--fit", "--cluster", "127.0.0.1:8786"], "zrec: --cluster 127.0.0.1:8786: not a "
         "Dask scheduler's address; write tcp://HOST:PORT (as `dask scheduler` prints it)\n"),
        (["--jobs", "2"], "zrec: --jobs goes with --fit\n"),
        (["--cluster", "tcp://127.0.0.1:8786"], "zrec: --cluster goes with --fit\n"),
        (["--model", "greedy"], "zrec: --model goes with --fit\n"),
    ],
)  # fmt: skip
def test_what_study_refuses_is_refused(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["readings", MOSONA[0], *args])
    assert (result.exit_code, result.stderr) == (2, message)


def test_without_dask_the_cluster_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = readings(MOSONA[0], "--cluster", "tcp://127.0.0.1:8786")
    assert (result.exit_code, result.stderr) == (2, (
        "zrec: --cluster needs Dask's distributed package: install zrec's cluster extra "
        "(pip install '.[cluster]' in the project's folder)\n"))


def on_a_terminal(*args: str) -> tuple[str, str]:
    """Standard output and what a terminal on standard error shows, of a fit."""
    main, other = pty.openpty()
    fcntl.ioctl(other, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 100 wide
    # standard output to a file: a pipe read only at the end would fill and stop the fit
    with tempfile.TemporaryFile() as sink, subprocess.Popen(
        [sys.executable, "-m", "zrec", "readings", "--fit", *args],
        stdout=sink, stderr=other,
    ) as process:  # fmt: skip
        os.close(other)
        shown = b""
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the terminal closed: the command ended
                break
            if not chunk:
                break
            shown += chunk
        process.wait()
        sink.seek(0)
        out = sink.read().decode()
    os.close(main)
    assert process.returncode == 0
    return out, shown.decode()


def test_a_progress_bar_on_a_terminal_unless_quiet() -> None:
    out, shown = on_a_terminal(*SAMPLES, "--jobs", "2")
    # files are read as they are fitted: the records are counted, with no total
    assert "fit: 0 records [" in shown and " records/s]" in shown
    quiet_out, nothing = on_a_terminal(*SAMPLES, "--jobs", "2", "-q")
    assert (quiet_out, nothing) == (out, "")


def test_the_records_are_read_a_few_pieces_ahead_of_the_fit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # an archive of a million games is never held: at most PIECES_AT_ONCE pieces of
    # records are read ahead of the pieces fitted, and the numbers do not change
    from zrec.notation.reader import read_records

    games = []
    for path in SAMPLES:
        with Path(path).open("rb") as stream:
            games += [r.game for r in read_records(stream, path) if r.game is not None]
    whole = [f.to_json() for f in fit.fit_records(games)]
    monkeypatch.setattr(fit, "RECORDS_PER_PIECE", 2)
    monkeypatch.setattr(fit, "PIECES_AT_ONCE", 2)
    read, fitted, ahead = 0, 0, []

    def counted() -> Any:
        nonlocal read
        for game in games:
            read += 1
            yield game

    def tick(n: int) -> None:
        nonlocal fitted
        fitted += n
        ahead.append(read - fitted)

    assert [f.to_json() for f in fit.fit_records(counted(), tick=tick)] == whole
    assert fitted == read == len(games) == 6
    assert max(ahead) == 2  # a piece of two is fitted while the next is in memory
