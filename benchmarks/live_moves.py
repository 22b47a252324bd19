"""The archive's part of a live move: moves of live games made through
:func:`zrec.archive.live.move` and answered as JSON, in one process, without HTTP.

Makes ``--games`` live Mosona games in a new archive (``--db``: an empty SQLite file to
make, default a new one in a temporary folder, or an empty PostgreSQL database) and
plays ``--plies`` moves in each, a ply of every game in turn (so that a game's next move
does not find it as it left it in the CPU's caches); prints the moves made and the CPU
and wall time a move (``state.to_json()`` included: what the move's answer and its
streams send).

Usage::

    python benchmarks/live_moves.py [--games 20] [--plies 30] [--db PATH|postgresql://...]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from live_load import games_to_play
from zrec.archive import Archive, live


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--plies", type=int, default=30)
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    db = args.db or str(Path(tempfile.mkdtemp(prefix="zrec-live-moves-")) / "live.sqlite")
    moves = games_to_play(args.games, args.plies)
    with Archive.open(db, create=True) as archive:
        gids = [live.create(archive, f"u{2 * i}", "mosona", {}, {
            "White": f"u{2 * i}", "Black": f"u{2 * i + 1}"}) for i in range(args.games)]
        cpu, wall = time.process_time(), time.perf_counter()
        for ply in range(args.plies):
            for i, gid in enumerate(gids):
                live.move(archive, gid, f"u{2 * i + ply % 2}", moves[i][ply]).to_json()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    made = args.games * args.plies
    print(json.dumps({"moves": made, "cpu_ms_a_move": round(1000 * cpu / made, 3),
                      "wall_ms_a_move": round(1000 * wall / made, 3),
                      "db": "postgresql" if db.startswith("postgresql") else "sqlite"}))


if __name__ == "__main__":
    main()
