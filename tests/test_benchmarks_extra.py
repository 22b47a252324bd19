"""The benchmarks that time zrec beside python-chess say which extra to install when
python-chess is missing, instead of ending in a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("script", ["bench.py", "throughput.py"])
def test_a_benchmark_without_python_chess_names_the_extra(script: str, tmp_path: Path) -> None:
    # a python-chess that is not there: importing it fails as a missing module does
    (tmp_path / "chess").mkdir()
    (tmp_path / "chess" / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'chess'\", name='chess')\n"
    )
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        f"{script}: python-chess is not installed; it comes with zrec's bench extra: "
        "install it with: pip install '.[bench]' (in zrec's checkout)\n"
    )
