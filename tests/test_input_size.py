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


#: the first 28 plies of a Mosona game, then a 4-ply cycle that can repeat for ever
_OPENING = (
    "a5-b5 c6xa5 b5-b6 a5xc6 b7-b6 c6xa5 a7-b7 c8xa7xc6 b9-c8 a5xa7 a8xa6 c5-b5 a4xc5 "
    "b4-b5 c5xa4 c7-b8 c8xa7 c6-c7 a7-a8 c4-b4 a3xc4 c3xc5 a2xc3 c2xc4 a1xc2 c1xc3"
)
_CYCLE = "a4-a3 b1-a1 a3-a4 a1-b1"


def _long_game(plies: int) -> str:
    """A valid Mosona game of ``plies`` plies, as text."""
    turns = _OPENING.split()
    while len(turns) < plies:
        turns.extend(_CYCLE.split())
    moves = " ".join(
        f"{i // 2 + 1}. {turn}" if i % 2 == 0 else turn for i, turn in enumerate(turns[:plies])
    )
    return f'[Game "mosona"]\n\n{moves} *\n'


def test_a_long_game_in_json_costs_about_what_it_costs_in_text(
    tmp_path: Path, base: tuple[int, float]
) -> None:
    """A game of 100,000 plies is read from JSON a move at a time and held as moves: its
    peak memory stays within 400 bytes a ply (the whole JSON value held at once, and
    checked against the schema whole, cost four times what the game held as moves from
    text did, and more).  A long text game of plain moves is no longer held at all, so
    the text's cost is now a floor, not the measure."""
    text = tmp_path / "long.zrec"
    text.write_text(_long_game(100_000))
    data = tmp_path / "long.json"
    code, _, _, _ = run("convert", "--to", "json", str(text), "-o", str(data))
    assert code == 0
    assert data.stat().st_size > 10_000_000  # ten times the reading buffer
    valid = "1 game read, 1 valid, 0 invalid, 0 warnings\n"
    code, text_peak, text_seconds, output = run("validate", str(text))
    assert (code, output) == (0, valid)
    code, json_peak, json_seconds, output = run("validate", str(data))
    assert (code, output) == (0, valid)
    text_cost, json_cost = text_peak - base[0], json_peak - base[0]
    assert text_cost <= json_cost < 100_000 * 400, (text_cost, json_cost)
    assert json_seconds < 3 * text_seconds + 2, (text_seconds, json_seconds)
