"""benchmarks/kernel_bench.py runs as the lead's kernel work needs it to, with or without
a compiled kernel: one short perft round checks its counts against the tables and says
which kernel each switch ran on, and a depth beyond the tables is refused."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "kernel_bench.py"


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120,
        check=False,
    )


def test_one_perft_round_checks_the_counts_and_names_the_kernels() -> None:
    done = bench("--only", "perft", "--rounds", "1", "--depth", "5")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(
        r"# kernel_bench, \S+ \S+, \d+ CPUs; ZREC_KERNEL=1 runs on .+, ZREC_KERNEL=0 on .+",
        lines[0],
    )
    assert lines[2] == (
        "## perft: nodes per CPU second, best / median of 1 rounds (depth 5, the default reading)"
    )
    rows = {line.split(" | ")[0][2:]: line.split(" | ") for line in lines if
            line.startswith(("| mosona ", "| kolowis "))}
    assert sorted(rows) == ["kolowis", "mosona"]
    for cells in rows.values():
        assert len(cells) == 9
        assert cells[7] == "= the table"  # every contender's counts, the floor's too
        floor_ran = cells[1] != "—"
        assert floor_ran == (shutil.which("gcc") is not None)


def test_self_play_checks_that_both_switches_play_the_same_games() -> None:
    done = bench("--only", "selfplay", "--game", "mosona", "--rounds", "1", "--games", "3",
                 "--floor-games", "10")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[2] == (
        "## selfplay: plies per CPU second, best / median of 1 rounds (random player, 3 games "
        "of zrec, 10 of the floor, at most 300 plies)"
    )
    (row,) = [line.split(" | ") for line in lines if line.startswith("| mosona ")]
    assert row[6].startswith("kernel ≥ 30× python: ")
    assert row[7] == "the same games on and off"


def test_a_depth_beyond_the_tables_is_refused() -> None:
    done = bench("--only", "perft", "--depth", "12")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.endswith(
        "error: --depth: from 1 to 11 under the default reading (the tables' last depth)\n"
    )


def test_another_board_and_jumps_are_counted_against_their_tables() -> None:
    done = bench("--only", "perft", "--rounds", "1", "--depth", "3", "--jumps", "bent",
                 "--board", "open")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[2].endswith("(depth 3, Board open, Jumps bent)")
    assert [line.split(" | ")[7] for line in lines if line.startswith("| mosona ")] == [
        "= the table"
    ]
    refused = bench("--only", "perft", "--depth", "7", "--jumps", "bent")
    assert refused.returncode == 2
    assert refused.stderr.endswith(
        "error: --depth: from 1 to 6 under Board lined, Jumps bent (the tables' last depth)\n"
    )
