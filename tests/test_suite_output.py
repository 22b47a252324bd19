"""The test suite tells its reader where it is and what is slow: pytest shows each test
file with its progress (not bare dots) and the slowest tests, and the README says how
long the whole run takes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_pytest_shows_progress_per_file_and_the_slowest_tests() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/test_validate_docs.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    progress = re.search(r"^tests/test_validate_docs\.py \.\s+\[100%\]$", done.stdout, re.M)
    assert progress, done.stdout
    assert "slowest 10 durations" in done.stdout


def test_the_readme_says_how_long_the_tests_take() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("To run the tests") :]
    section = section[: section.index("\n## ")]
    assert "scripts/test" in section
    assert re.search(r"\d+ minutes", section), section


def test_the_readme_gives_speed_as_a_short_table_and_links_the_notes() -> None:
    """A newcomer reads the key figures in one table; every measurement, with its
    command, is in docs/speed.md, and every benchmark script the README names is
    there too."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("\n## Speed\n") :]
    section = section[: section.index("\n## ", 1)]
    assert "(docs/speed.md)" in section
    assert len(section.splitlines()) <= 25
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    assert len(rows) >= 8
    notes = (ROOT / "docs" / "speed.md").read_text(encoding="utf-8")
    for script in ("bench.py", "throughput.py", "startup.py", "pages_bench.py",
                   "archive_bench.py", "serve_load.py", "selfplay_speed.py"):
        assert f"benchmarks/{script}" in notes, script
    # the test count is stated so that it does not go stale: "over N", not an exact count
    tests = readme[readme.index("To run the tests") :]
    assert re.search(r"over [\d,]+\s+tests", tests)
