"""Files the command line writes: links kept, no temporary file left on SIGTERM, and
``fmt`` over several files."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from zrec.cli import app

runner = CliRunner()
MESSY = '[Game "mosona"]\n[Event "E"]\n1.  b6-b5   b4xb6 {centre taken} *\n'
CANONICAL = '[Game "mosona"]\n[Event "E"]\n\n1. b6-b5 b4xb6 {centre taken} *\n'
SHORT = '[Game "mosona"]\n1. b6-b5 *'  # its canonical form is longer
SHORT_CANONICAL = '[Game "mosona"]\n\n1. b6-b5 *\n'
BROKEN = '[Game "mosona"]\n1. b6-b5 zz9 *\n'


def invoke(*args: str, stdin: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=stdin)


# -- 3. fmt -i keeps symbolic and hard links ---------------------------------------------


@pytest.mark.parametrize(("text", "canonical"), [(MESSY, CANONICAL), (SHORT, SHORT_CANONICAL)])
def test_fmt_in_place_writes_through_a_symbolic_link(
    tmp_path: Path, text: str, canonical: str
) -> None:
    real = tmp_path / "real.zrec"
    real.write_text(text)
    real.chmod(0o640)
    folder = tmp_path / "links"
    folder.mkdir()
    link = folder / "link.zrec"
    link.symlink_to(real)
    result = invoke("fmt", "-i", str(link))
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert link.is_symlink() and link.resolve() == real
    assert real.read_text() == canonical
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["links", "real.zrec"]
    assert [p.name for p in folder.iterdir()] == ["link.zrec"]


@pytest.mark.parametrize(("text", "canonical"), [(MESSY, CANONICAL), (SHORT, SHORT_CANONICAL)])
def test_fmt_in_place_keeps_hard_links(tmp_path: Path, text: str, canonical: str) -> None:
    first = tmp_path / "a.zrec"
    first.write_text(text)
    first.chmod(0o640)
    second = tmp_path / "b.zrec"
    os.link(first, second)
    inode = first.stat().st_ino
    result = invoke("fmt", "-i", str(first))
    assert (result.exit_code, result.stderr) == (0, "")
    assert first.stat().st_ino == second.stat().st_ino == inode
    assert first.stat().st_nlink == 2
    assert second.read_text() == first.read_text() == canonical
    assert stat.S_IMODE(first.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.zrec", "b.zrec"]


def test_output_through_a_dangling_link_creates_its_target(tmp_path: Path) -> None:
    source = tmp_path / "g.zrec"
    source.write_text(MESSY)
    link = tmp_path / "out.zrec"
    link.symlink_to(tmp_path / "target.zrec")
    assert invoke("fmt", str(source), "-o", str(link)).exit_code == 0
    assert link.is_symlink()
    assert (tmp_path / "target.zrec").read_text() == CANONICAL


# -- 4. SIGTERM leaves no temporary file -------------------------------------------------


def test_sigterm_while_writing_leaves_nothing_behind(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "from zrec.cli import main; main()"]
    args = ["random", "--game", "mosona", "--count", "100000", "-o", "out.zrec"]
    process = subprocess.Popen(
        command + args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            temporary = [p for p in tmp_path.iterdir() if p.name.startswith(".out.zrec.")]
            if temporary and temporary[0].stat().st_size > 0:
                break  # games are being written
            assert process.poll() is None, process.communicate()
            time.sleep(0.02)
        else:
            pytest.fail("zrec random never started writing")
        assert temporary[0].name.endswith(".tmp")
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 128 + signal.SIGTERM
    assert (stdout, stderr) == (b"", b"zrec: terminated\n")
    assert list(tmp_path.iterdir()) == []


# -- 7. fmt takes several files ----------------------------------------------------------


def test_fmt_prints_several_files_as_one_text(tmp_path: Path) -> None:
    first, second = tmp_path / "a.zrec", tmp_path / "b.zrec"
    first.write_text(MESSY)
    second.write_text(SHORT)
    result = invoke("fmt", str(first), str(second))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == CANONICAL + "\n" + SHORT_CANONICAL
    assert result.stdout == invoke("fmt", "-", stdin=MESSY + "\n" + SHORT + "\n").stdout


def test_fmt_several_files_with_a_broken_game_writes_nothing(tmp_path: Path) -> None:
    first, second = tmp_path / "a.zrec", tmp_path / "b.zrec"
    first.write_text(MESSY)
    second.write_text(BROKEN)
    out = tmp_path / "out.zrec"
    result = invoke("fmt", str(first), str(second), "-o", str(out))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{second}:2:10: found 'zz9'")
    assert result.stderr.endswith("zrec: nothing written: fix the games above first\n")
    assert not out.exists()


def test_fmt_in_place_rewrites_each_file(tmp_path: Path) -> None:
    first, second = tmp_path / "a.zrec", tmp_path / "b.zrec"
    first.write_text(MESSY)
    second.write_text(SHORT)
    result = invoke("fmt", "-i", str(first), str(second))
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert (first.read_text(), second.read_text()) == (CANONICAL, SHORT_CANONICAL)


def test_fmt_in_place_leaves_a_broken_file_and_rewrites_the_others(tmp_path: Path) -> None:
    broken, good = tmp_path / "a.zrec", tmp_path / "b.zrec"
    broken.write_text(BROKEN)
    good.write_text(MESSY)
    result = invoke("fmt", "-i", str(broken), str(good))
    assert result.exit_code == 1
    assert result.stderr.endswith(f"zrec: {broken}: nothing written: fix the games above first\n")
    assert (broken.read_text(), good.read_text()) == (BROKEN, CANONICAL)


def test_fmt_check_names_every_file_that_would_change(tmp_path: Path) -> None:
    paths = [tmp_path / name for name in ("a.zrec", "b.zrec", "c.zrec")]
    for path, text in zip(paths, (MESSY, CANONICAL, SHORT), strict=True):
        path.write_text(text)
    result = invoke("fmt", "--check", *map(str, paths))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{paths[0]}: not in canonical form\n{paths[2]}: not in canonical form\n"
    )
    assert invoke("fmt", "--check", str(paths[1]), str(paths[1])).exit_code == 0
    assert paths[0].read_text() == MESSY


def test_fmt_check_goes_on_after_a_file_it_cannot_read(tmp_path: Path) -> None:
    path = tmp_path / "a.zrec"
    path.write_text(MESSY)
    result = invoke("fmt", "--check", "/no/such.zrec", str(path))
    assert result.exit_code == 2
    assert result.stderr == (
        "zrec: cannot read /no/such.zrec: No such file or directory\n"
        f"{path}: not in canonical form\n"
    )


def test_fmt_writes_ascii_and_says_what_it_read(tmp_path: Path) -> None:
    source = tmp_path / "paper.zrec"
    source.write_text('[Game "mosona"]\n\n1. b6\u2013b5 b4\u00d7b6 *\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["fmt", str(source)])
    assert result.exit_code == 0
    assert result.stdout.endswith("1. b6-b5 b4xb6 *\n")
    assert "typographic characters read as ASCII" in result.stderr
    assert "(warning, game 1)" in result.stderr
