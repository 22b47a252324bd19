"""``validate --jobs N``: files cut into pieces and checked in worker processes give the
same report, byte for byte, as one process: the same problems in file order, with the
same game, line and column numbers, in both formats; an interrupt leaves no worker."""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

import zrec.cli as zrec_cli
from zrec.check import parallel
from zrec.cli import Terminated, app
from zrec.notation import chunks
from zrec.notation.fastpath import RESULT
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_games
from zrec.rules import find_game

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
runner = CliRunner()

#: games whose comments and strings straddle the places a cutter might cut
TRAPS = [
    '[Game "mosona"]\n\n1. b6-b5 { a note that runs on\n1-0\n\n[Event "not a game"]\n}  *\n',
    '[Game "mosona"]\n[Result "*"] {note starts here\nthis ends 1-0\n\n[Game "fake"]\n}\n'
    "1. a5-b5 c6xa5 2. b7-c6 *\n",
    '[Game "mosona"]\n[Result "*"]\n\n1. a5-b5 ; a line comment 1-0\n\n[Game "mosona"]\n\n'
    "c6xa5 *\n",
    '[Game "mosona"]\n[Note "a brace { in a value"]\n\n1. b6-b5 b4xb6 *\n',
    '[Game "mosona"]\n\n1. b6-b5 b4xb6 (2. b7xb5 *\n',
    '{ a comment between games, with a result 1-0\n\n[Game "inside"]\n}\n',
    '[Game "mosona"]\n\n1. b6\u2013b5 b4xb6 *\n',
]


def _mixed(tmp_path: Path, name: str, seed: int) -> Path:
    """Random games of every game, every sample and every invalid sample, and the
    traps, interleaved."""
    games: list[str] = []
    for game, count in (("mosona", 40), ("kolowis", 12), ("stone-warriors", 12)):
        games += [write_game(g) for g in random_games(find_game(game), {}, count, seed)]
    samples = sorted(SAMPLES.glob("*.zrec")) + sorted((SAMPLES / "invalid").glob("*.zrec"))
    parts: list[str] = []
    for i, path in enumerate(samples):
        parts.extend(games[i * 2 : i * 2 + 2])
        parts.append(path.read_bytes().decode("utf-8", "replace"))
        parts.append(TRAPS[i % len(TRAPS)])
    parts.extend(games[len(samples) * 2 :])
    path = tmp_path / name
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


# -- the cutter ------------------------------------------------------------------------

#: a line ending with a result token, as the grammar's RESULT has it
_RESULT = re.compile(rb"(?:^|\s)(?:" + RESULT.encode("ascii") + rb")\s*$")


def _reference_cut(stream: io.BytesIO, games: int) -> Iterator[tuple[int, bytes]]:
    """The cutter as first written for ``import --jobs``: one line at a time."""
    lines: list[bytes] = []
    first, number, begun = 1, 0, 1
    in_comment = blank_before = ended = False
    for raw in stream:
        number += 1
        text = raw.strip()
        if not text:
            blank_before = True
            lines.append(raw)
            continue
        tag_line = not in_comment and raw[:1] == b"["
        if tag_line and blank_before and ended:
            begun += 1
            if begun > games:
                yield first, b"".join(lines)
                lines, first, begun = [], number, 1
        if tag_line:
            ended = False
            if b"{" in text:
                in_comment = chunks._comment_after(text, False)
        else:
            line_comment = not in_comment and b";" in text
            if line_comment:
                text = text[: text.index(b";")]
            in_comment = chunks._comment_after(text, in_comment)
            ended = not line_comment and not in_comment and _RESULT.search(text) is not None
        blank_before = False
        lines.append(raw)
    if lines:
        yield first, b"".join(lines)


LINES = [
    '[Game "mosona"]',
    '[Result "*"]',
    ' [Event "spaced"]',
    '[Note "a { brace"]',
    "1. b6-b5 b4xb6 *",
    "2. b7xb5 1-0",
    "1/2-1/2",
    "x1-0",
    "a 0-1-0 \r",
    "1. a5-b5 ; a comment 1-0",
    "{ a comment 1-0",
    "} *",
    "12-3",
    "\x0c*",
    "",
    "  ",
    "\t\r",
    "\r",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(LINES), max_size=60),
    st.booleans(),
    st.integers(1, 3),
    st.sampled_from([1, 7, 40, 1 << 20]),
)
def test_the_cutter_cuts_where_the_line_by_line_cutter_cuts(
    lines: list[str], newline_at_end: bool, games: int, block: int
) -> None:
    text = ("\n".join(lines) + ("\n" if newline_at_end else "")).encode()
    expected = list(_reference_cut(io.BytesIO(text), games))
    original = chunks.BLOCK
    chunks.BLOCK = block
    try:
        assert list(chunks.cut(io.BytesIO(text), games)) == expected
    finally:
        chunks.BLOCK = original


def test_the_cutter_is_the_same_on_large_files(tmp_path: Path) -> None:
    path = _mixed(tmp_path, "m.zrec", 5)
    plain = "\n".join(write_game(g) for g in random_games(find_game("kolowis"), {}, 60, 2))
    for text in (path.read_bytes(), plain.encode(), plain.replace("\n", "\r\n").encode()):
        for games in (1, 4):
            expected = list(_reference_cut(io.BytesIO(text), games))
            assert list(chunks.cut(io.BytesIO(text), games)) == expected


def test_pieces_that_follow_a_size_are_cut_where_games_begin() -> None:
    """With a size, the pieces are still cut only where the cutter cuts one game at a
    time, and after the first they hold about ``size`` bytes each."""
    text = "\n".join(write_game(g) for g in random_games(find_game("mosona"), {}, 300, 3))
    data = text.encode()
    starts = {first for first, _ in _reference_cut(io.BytesIO(data), 1)}
    pieces = list(chunks.cut(io.BytesIO(data), 40, 6_000))
    assert b"".join(p for _, p in pieces) == data
    assert {first for first, _ in pieces} <= starts
    assert pieces[0][1].count(b"[Game ") == 40
    sizes = [len(p) for _, p in pieces[1:-1]]
    assert len(sizes) > 10
    assert all(3_000 < size < 12_000 for size in sizes), sizes
    # no games a piece cuts at every game: the first piece is one game, with a size too
    first = next(iter(chunks.cut(io.BytesIO(data), 0, 6_000)))
    assert first == next(iter(chunks.cut(io.BytesIO(data), 0)))
    assert first[1].count(b"[Game ") == 1


# -- validate --jobs -------------------------------------------------------------------


def invoke(*args: str, stdin: bytes | None = None) -> Result:
    return runner.invoke(app, list(args), input=stdin)


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pieces of 3 games: many cuts, next to every kind of game and trap."""
    monkeypatch.setattr(parallel, "FIRST_PIECE_GAMES", 3)


@pytest.mark.usefixtures("small_pieces")
def test_jobs_give_the_report_of_one_process_byte_for_byte(tmp_path: Path) -> None:
    first = _mixed(tmp_path, "first.zrec", 1)
    second = _mixed(tmp_path, "second.zrec", 2)
    as_json = tmp_path / "games.json"
    convert = invoke("convert", "--to", "json", str(SAMPLES / "mosona-open.zrec"))
    as_json.write_text(convert.stdout)
    files = [str(first), str(as_json), str(tmp_path / "missing.zrec"), "-", str(second)]
    stdin = second.read_bytes()
    for extra in (
        [],
        ["--no-warnings"],
        ["--format", "json"],
        ["--format", "json", "--no-warnings"],
    ):
        one = invoke("validate", *extra, *files, stdin=stdin)
        assert one.exit_code == 2  # the missing file
        assert "error[illegal-move]" in one.stdout or '"illegal-move"' in one.stdout
        assert "game 150" in one.stdout or '"game": 150' in one.stdout  # far past a piece
        for jobs in ("2", "3"):
            many = invoke("validate", "--jobs", jobs, *extra, *files, stdin=stdin)
            assert (many.exit_code, many.stdout, many.stderr) == (
                one.exit_code,
                one.stdout,
                one.stderr,
            ), (jobs, extra)


@pytest.mark.usefixtures("small_pieces")
def test_every_invalid_sample_is_reported_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    invalid = [str(p) for p in sorted((SAMPLES / "invalid").glob("*.zrec"))]
    for extra in ([], ["--format", "json"]):
        one = invoke("validate", *extra, *invalid)
        many = invoke("validate", "--jobs", "2", *extra, *invalid)
        assert one.exit_code == 1
        assert (many.exit_code, many.stdout) == (one.exit_code, one.stdout)
    # in the samples' own words: the diagnostics written beside each (without its
    # summary line), in order
    expected = [
        line
        for path in sorted((SAMPLES / "invalid").glob("*.zrec"))
        for line in path.with_suffix(".expected").read_text(encoding="utf-8").splitlines()[:-1]
    ]
    monkeypatch.chdir(ROOT)
    relative = [str(Path(p).relative_to(ROOT)) for p in invalid]
    shown = invoke("validate", "--jobs", "2", *relative).stdout.splitlines()
    assert shown[:-1] == expected


def test_all_cores_and_a_file_of_valid_games(tmp_path: Path) -> None:
    path = tmp_path / "valid.zrec"
    games = random_games(find_game("mosona"), {}, 30, 4)
    path.write_text("\n".join(write_game(g) for g in games))
    one = invoke("validate", str(path))
    assert one.exit_code == 0
    assert one.stdout.startswith("30 games read, 30 valid")
    assert invoke("validate", "--jobs", "0", str(path)).stdout == one.stdout
    empty = tmp_path / "empty.zrec"
    empty.write_text("")
    for fmt in ("human", "json"):
        assert (
            invoke("validate", "-j", "2", "--format", fmt, str(empty)).stdout
            == invoke("validate", "--format", fmt, str(empty)).stdout
        )
    assert "--jobs" in invoke("validate", "--help").stdout


# -- an interrupt ends the workers too -------------------------------------------------


def _session_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _workers_started(pid: int) -> bool:
    children = Path(f"/proc/{pid}/task/{pid}/children")
    return children.exists() and len(children.read_text().split()) >= 2


def _feed(fd: int, data: bytes) -> None:
    """Write the data to a pipe, and leave it open: its reader waits for more."""
    view = memoryview(data)
    with contextlib.suppress(OSError):  # the reader is gone
        while view:
            view = view[os.write(fd, view[:65536]) :]


CHILDREN = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children")
#: what a foreground job has: Ctrl-C raises KeyboardInterrupt, even where the suite runs
#: as a background job (which ignores SIGINT, and so would the processes it starts)
FOREGROUND = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"


@pytest.mark.skipif(not CHILDREN.exists(), reason="reads the children of a process in /proc")
@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_an_interrupt_leaves_no_worker(sig: signal.Signals, code: int) -> None:
    """zrec runs as a terminal's foreground job, whose Ctrl-C is not ignored: when the
    suite itself runs in the background (``scripts/test &``), every process it starts
    inherits SIGINT ignored, as a shell's background job has it, and zrec rightly kept
    ignoring it (it checked all the games and exited 0).  The games come on a pipe that
    stays open, so the run cannot end before the signal either: it checks them, then
    waits for more (from a file they took 1.5 s after the workers started)."""
    games = "\n".join(write_game(g) for g in random_games(find_game("mosona"), {}, 50, 3))
    data = "\n".join([games] * 200).encode()  # 10,000 games
    command = [sys.executable, "-c", FOREGROUND + "from zrec.cli import main; main()"]
    read, write = os.pipe()
    process = subprocess.Popen(
        [*command, "validate", "--jobs", "2", "--format", "json", "-"],
        stdin=read,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    os.close(read)
    threading.Thread(target=_feed, args=(write, data), daemon=True).start()
    try:
        deadline = time.monotonic() + 20
        while not _workers_started(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _workers_started(process.pid)
        time.sleep(0.3)
        assert process.poll() is None  # still running, whatever the load
        if sig == signal.SIGINT:
            os.killpg(process.pid, sig)  # Ctrl-C: the whole foreground group
        else:
            os.kill(process.pid, sig)
        _, stderr = process.communicate(timeout=20)
        assert process.returncode == code, stderr
        deadline = time.monotonic() + 10
        while _session_alive(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _session_alive(process.pid)
    finally:
        if _session_alive(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
        os.close(write)


@pytest.mark.skipif(not CHILDREN.exists(), reason="reads the children of a process in /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupt_while_zrec_shuts_down_ends_it_quietly(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """A Ctrl-C or SIGTERM after the command is over (here while Python runs its exit
    functions, after the workers are gone) ends the process by that signal, with the
    whole report written and no traceback (it printed a KeyboardInterrupt traceback
    and exited 0)."""
    path = tmp_path / "games.zrec"
    path.write_text("\n".join(write_game(g) for g in random_games(find_game("mosona"), {}, 30, 3)))
    flag = tmp_path / "exiting"
    code = FOREGROUND + (
        "import atexit, pathlib, time\n"
        "from zrec.cli import main\n"
        f"atexit.register(lambda: (pathlib.Path({str(flag)!r}).touch(), time.sleep(30)))\n"
        "main()\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code, "validate", "--jobs", "2", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not flag.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert flag.exists()
        os.killpg(process.pid, sig)
        stdout, stderr = process.communicate(timeout=20)
        assert (process.returncode, stderr) == (-sig, b"")
        assert stdout == b"30 games read, 30 valid, 0 invalid, 0 warnings\n"
    finally:
        if _session_alive(process.pid):
            os.killpg(process.pid, signal.SIGKILL)


@pytest.fixture
def signals_kept() -> Iterator[None]:
    """zrec's ``main`` sets the handlers of SIGINT and SIGTERM: this process keeps its own."""
    kept = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    yield
    for sig, handler in kept.items():
        if handler is not None:  # None: not set from Python
            signal.signal(sig, handler)


@pytest.mark.parametrize(
    ("raised", "code", "said"),
    [
        (KeyboardInterrupt(), 130, "zrec: interrupted\n"),
        (Terminated(143), 143, "zrec: terminated\n"),
        (None, 0, ""),
    ],
)
def test_a_pipe_that_breaks_while_an_interrupt_is_handled_is_still_the_interrupt(
    signals_kept: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    raised: BaseException | None,
    code: int,
    said: str,
) -> None:
    """A worker's pipe can break while the workers are stopped after Ctrl-C or SIGTERM:
    the command still ends as interrupted, not with the exit code 0 of a closed reader."""

    def command(prog_name: str) -> None:
        try:
            if raised is not None:
                raise raised
        finally:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(zrec_cli, "application", lambda: command)
    monkeypatch.setattr(sys, "argv", ["zrec", "no-such-command"])
    with pytest.raises(SystemExit) as ended:
        zrec_cli.main()
    assert ended.value.code == code
    assert capsys.readouterr().err == said
