"""The floor of benchmarks/kernel_bench.py, ``benchmarks/floor/mosona_floor.c``: compiled
with gcc (skipped where there is none), it counts what tests/data/perft-serpent.json
counts, for every table at the depths whose counts stay under a budget (a fraction of a
second in C), and refuses a bad option with its usage."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "benchmarks" / "floor" / "mosona_floor.c"
DATA = ROOT / "tests" / "data" / "perft-serpent.json"
BUDGET = 1_000_000  # the largest count checked here

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc on this machine")


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> Path:
    binary = tmp_path_factory.mktemp("floor") / "mosona_floor"
    subprocess.run(
        ["gcc", "-O2", "-Wall", "-Werror", "-o", str(binary), str(SOURCE)],
        check=True, capture_output=True, timeout=60,
    )
    return binary


def run(floor: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(floor), *args], capture_output=True, text=True, timeout=30, check=False
    )


def perft_counts(floor: Path, depth: int, *options: str) -> list[int]:
    done = run(floor, "perft", str(depth), *options)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"nodes \d+ seconds [0-9.]+ nodes/s \d+", lines[-1])
    rows = [line.split() for line in lines[:-1]]
    assert [int(d) for d, _ in rows] == list(range(1, depth + 1))
    return [int(count) for _, count in rows]


def test_mosona_at_depth_4_is_the_table(floor: Path) -> None:
    assert perft_counts(floor, 4) == [3, 4, 9, 23]


TABLES = [
    (t["game"], t["board"], t["jumps"], t["counts"])
    for t in json.loads(DATA.read_text(encoding="utf-8"))["tables"]
]


@pytest.mark.parametrize(
    ("game", "board", "jumps", "counts"), TABLES, ids=[f"{g}-{b}-{j}" for g, b, j, _ in TABLES]
)
def test_every_table_under_the_budget(
    floor: Path, game: str, board: str, jumps: str, counts: list[int]
) -> None:
    depth = max(d for d in range(1, len(counts) + 1) if counts[d - 1] <= BUDGET)
    options = ["--board", board, "--jumps", jumps, *(["--kolowis"] if game == "kolowis" else [])]
    assert perft_counts(floor, depth, *options) == counts[:depth]


def test_selfplay_plays_the_games_it_is_asked_for(floor: Path) -> None:
    done = run(floor, "selfplay", "20", "7", "--max-plies", "10")
    assert done.returncode == 0, done.stderr
    found = re.fullmatch(
        r"games 20 plies (\d+) finished (\d+) seconds [0-9.]+ plies/s \d+\n", done.stdout
    )
    assert found is not None, done.stdout
    # no game of the serpents ends within 10 plies of the start: every one is cut off
    assert found.groups() == ("200", "0")


def test_a_bad_option_gets_the_usage(floor: Path) -> None:
    done = run(floor, "perft", "3", "--board", "curved")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("usage: mosona_floor perft DEPTH [--board lined|open]")
