"""benchmarks/ludii_compare.py without a Ludii build says so and compares nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_without_a_ludii_build_the_comparison_says_so_and_stops(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ludii_compare.py"), "--ludii", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        f"ludii_compare: no Ludii build at {tmp_path} (classes/other/GameLoader.class "
        "and java are needed): nothing compared\n"
    )
