"""Perft against the whole reference tables of ``docs/perft.md``, with timings.

For every table of ``tests/data/perft-serpent.json`` (game, board, jumps), the library's
:func:`zrec.research.perft.perft` counts the move sequences from the standard start to the
table's last depth (or to the last depth whose count is at most ``--max-count``), the
counts are compared with the table, and the time (wall clock and processor) and the
leaves (sequences of the last depth) per processor second are printed.  The test
suite checks the same tables at the depths that run in a few seconds; this script
checks them whole.  Exit code 1 when a count differs.  Usage::

    python benchmarks/perft.py [--max-count 30000000] [--table mosona-lined-bent]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from zrec.research.perft import perft
from zrec.rules import find_game

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "perft-serpent.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--max-count", type=int, default=None, help="Stop each table before a larger count."
    )
    parser.add_argument(
        "--table", action="append", default=[], help="Only this table (game-board-jumps)."
    )
    args = parser.parse_args(argv)
    tables = json.loads(DATA.read_text(encoding="utf-8"))["tables"]
    wrong = 0
    total = 0.0
    head = f"{'table':<22} {'depth':>5} {'leaves':>12} {'seconds':>9} {'cpu s':>9}"
    print(f"{head} {'leaves/s':>10}  result")
    for table in tables:
        name = f"{table['game']}-{table['board']}-{table['jumps']}"
        if args.table and name not in args.table:
            continue
        counts: list[int] = table["counts"]
        limit = args.max_count
        depth = max(
            d for d in range(1, len(counts) + 1) if limit is None or counts[d - 1] <= limit
        )
        options = {"Board": table["board"], "Jumps": table["jumps"]}
        start, cpu = time.perf_counter(), time.process_time()
        found = perft(find_game(table["game"]), options, depth)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        total += seconds
        ok = found == counts[:depth]
        wrong += not ok
        rate = found[-1] / cpu if cpu else 0.0
        verdict = "ok" if ok else f"DIFFERS: {found}"
        row = f"{name:<22} {depth:>5} {found[-1]:>12,} {seconds:>9.2f} {cpu:>9.2f}"
        print(f"{row} {rate:>10,.0f}  {verdict}")
        sys.stdout.flush()
    print(
        f"total {total:.1f} s; {'every count agrees' if not wrong else f'{wrong} tables differ'}"
    )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
