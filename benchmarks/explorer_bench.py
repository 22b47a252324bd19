"""The opening explorer of ``zrec serve`` at size: ``GET /api/tree``, the page
``/explorer`` and its board ``/explorer/board.svg``, through the application
(FastAPI's TestClient: routing, the archive opened for the request, the tree, the
page's template and the search of the games at the position), on an archive of random
Mosona games (benchmarks/archive_bench.py makes the file, cached in benchmarks/data/).

Positions: the start, after 1, 3 and 6 plies of the first game (within the opening
lines) and after 22 plies (past them: replayed).  Each request is made ``--repeat``
times; the median wall and CPU time of one request is printed (the goal: the
explorer answers in 100 ms or less at 100,000 games).

Usage::

    python benchmarks/explorer_bench.py [--games 100000] [--db ARCHIVE] [--repeat 7]

``--db`` names an archive of those games made already (else it is imported here, into
a temporary folder, with ``--jobs 2``: a few minutes at 100,000 games).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from archive_bench import build  # noqa: E402

os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def _numbered(moves: list[str]) -> str:
    return " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))


def _first_moves(db: str) -> tuple[str, list[str]]:
    """The game of the archive's first game, and its moves."""
    from zrec.archive import Archive
    from zrec.notation.reader import read_string
    from zrec.notation.writer import move_text

    with Archive.open(db, read_only=True) as archive:
        text = archive.text_of(1)
    assert text is not None
    game = next(iter(read_string(text, "first"))).game
    assert game is not None
    return game.tag("Game") or "?", [move_text(node) for node in game.line.moves]


def _timed(client: Any, url: str, params: dict[str, str], repeat: int) -> tuple[float, float]:
    """The median wall and CPU time of one request, in ms (one request first, not
    counted: the templates and rules load once a process)."""
    answer = client.get(url, params=params)
    assert answer.status_code == 200, answer.text[:500]
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        answer = client.get(url, params=params)
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
        assert answer.status_code == 200
    return 1000 * statistics.median(walls), 1000 * statistics.median(cpus)


def run(db: str, repeat: int) -> None:
    from fastapi.testclient import TestClient

    from zrec.serve import create_app

    name, moves = _first_moves(db)
    cases = [("start", "")] + [
        (f"after {n} plies", _numbered(moves[:n])) for n in (1, 3, 6, 22) if n < len(moves)
    ]
    print(f"{'position':<16} {'endpoint':<20} {'wall ms':>8} {'cpu ms':>8}")
    with TestClient(create_app(db)) as client:
        for label, line in cases:
            params = {"game": name, **({"moves": line} if line else {})}
            for url in ("/api/tree", "/explorer", "/explorer/board.svg"):
                wall, cpu = _timed(client, url, params, repeat)
                print(f"{label:<16} {url:<20} {wall:8.1f} {cpu:8.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="an archive of the games, made already")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    if args.db:
        run(args.db, args.repeat)
        return
    source = build(args.games, args.seed)
    with tempfile.TemporaryDirectory(prefix="zrec-explorer-") as folder:
        db = str(Path(folder) / "archive.sqlite")
        subprocess.run(
            [sys.executable, "-m", "zrec", "archive", "import", "--db", db, "-q",
             "--jobs", "2", str(source)],
            check=True,
        )
        run(db, args.repeat)


if __name__ == "__main__":
    main()
