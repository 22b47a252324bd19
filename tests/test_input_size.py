"""Huge or deeply nested input costs memory and time in proportion to its size, with a
small constant: a long tag value, a flood of opening parentheses, a very long game in
JSON.  Each command runs in a process of its own and its peak memory is measured."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KB on Linux")

MEASURE = textwrap.dedent(
    """
    import resource, subprocess, sys, time
    start = time.perf_counter()
    done = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    sys.stdout.write(f"{done.returncode} {peak} {seconds}\\n")
    sys.stdout.write(done.stdout.decode())
    """
)

#: the most memory a byte of input may cost, beyond the same command on a tiny file
BYTES_PER_BYTE = 20
SIZE = 2_000_000


def run(*args: str) -> tuple[int, int, float, str]:
    """Exit code, peak resident memory in bytes, seconds and output of ``zrec ARGS``."""
    command = [sys.executable, "-c", "from zrec.cli import main; main()", *args]
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *command],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    head, _, output = done.stdout.partition("\n")
    code, peak, seconds = head.split()
    return int(code), int(peak) * 1024, float(seconds), output


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, float]:
    """Peak memory and seconds of ``zrec validate`` on a tiny file."""
    small = tmp_path_factory.mktemp("base") / "small.zrec"
    small.write_text('[Game "mosona"]\n[Event "a"]\n\n*\n')
    code, peak, seconds, _ = run("validate", str(small))
    assert code == 0
    return peak, seconds


def test_a_long_tag_value_costs_memory_in_proportion(
    tmp_path: Path, base: tuple[int, float]
) -> None:
    path = tmp_path / "tag.zrec"
    path.write_text('[Game "mosona"]\n[Event "' + "a" * SIZE + '"]\n\n*\n')
    code, peak, seconds, output = run("validate", str(path))
    assert (code, output) == (0, "1 game read, 1 valid, 0 invalid, 0 warnings\n")
    assert peak - base[0] < BYTES_PER_BYTE * SIZE, (peak - base[0]) / SIZE
    assert seconds - base[1] < 3, seconds


def test_a_flood_of_parentheses_is_one_error_and_the_next_game_is_read(
    tmp_path: Path, base: tuple[int, float]
) -> None:
    path = tmp_path / "paren.zrec"
    path.write_text("(" * SIZE + '\n[Game "mosona"]\n\n1. b6-b5 *\n')
    code, peak, seconds, output = run("validate", str(path))
    assert code == 1
    assert output.splitlines()[0] == (
        f"{path}:1:51: error[syntax] game 1: variations are nested more than 50 deep here"
    )
    assert output.splitlines()[-1] == "2 games read, 1 valid, 1 invalid, 0 warnings"
    assert peak - base[0] < BYTES_PER_BYTE * SIZE, (peak - base[0]) / SIZE
    assert seconds - base[1] < 3, seconds


def test_a_flood_of_closing_parentheses_is_one_error(
    tmp_path: Path, base: tuple[int, float]
) -> None:
    path = tmp_path / "close.zrec"
    path.write_text('[Game "mosona"]\n\n1. b6-b5 ' + ")" * SIZE + " *\n")
    code, peak, seconds, output = run("validate", str(path))
    assert code == 1
    assert output.splitlines()[0] == (
        f"{path}:3:10: error[syntax] game 1: found ')' (')' closing the variation); "
        "expected the result (1-0, 0-1, 1/2-1/2 or *)"
    )
    assert peak - base[0] < BYTES_PER_BYTE * SIZE, (peak - base[0]) / SIZE
    assert seconds - base[1] < 3, seconds
