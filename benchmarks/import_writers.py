"""How long another writer waits for SQLite's write lock while ``zrec archive import``
runs, and how long the import takes.

A file of random games is imported into a SQLite archive by ``zrec archive import`` in
a process of its own; meanwhile this process writes to the same archive every 0.2 s
(one small transaction, as a login does) and times how long each write waited for the
lock.  It prints the import's time and the writes' waits (median, 99th percentile,
largest) as JSON.

    python benchmarks/import_writers.py --count 4000 [--jobs 2] [--batch N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from zrec.archive import Archive


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=4000, help="random games imported")
    parser.add_argument("--game", default="mosona")
    parser.add_argument("--jobs", type=int, default=1, help="the import's --jobs")
    parser.add_argument("--batch", type=int, default=None, help="the import's --batch")
    parser.add_argument("--base", type=int, default=0,
                        help="random games imported before (a larger archive)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        games, db = Path(folder) / "games.zrec", str(Path(folder) / "a.sqlite")
        zrec = [sys.executable, "-m", "zrec"]
        if args.base:
            base = Path(folder) / "base.zrec"
            subprocess.run([*zrec, "random", "--game", args.game, "--count", str(args.base),
                            "--seed", "2", "-o", str(base)], check=True)
            subprocess.run([*zrec, "archive", "import", "-q", "--jobs", "2", "--db", db,
                            str(base)], check=True)
        subprocess.run([*zrec, "random", "--game", args.game, "--count", str(args.count),
                        "--seed", "1", "-o", str(games)], check=True)
        with Archive.open(db, create=True):
            pass
        command = [*zrec, "archive", "import", "-q", "--jobs", str(args.jobs), "--db", db,
                   str(games)]
        if args.batch is not None:
            command[4:4] = ["--batch", str(args.batch)]
        started = time.monotonic()
        importing = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        waits = []
        with Archive.open(db) as archive:
            while importing.poll() is None:
                asked = time.monotonic()
                with archive.db.transaction(lock=True):
                    archive.db.execute("INSERT INTO meta (name, value) VALUES ('probe', '1') "
                                       "ON CONFLICT (name) DO UPDATE SET value = '1'")
                waits.append(time.monotonic() - asked)
                time.sleep(0.2)
        took = time.monotonic() - started
        waits.sort()
        print(json.dumps({
            "games": args.count, "base": args.base, "jobs": args.jobs, "batch": args.batch,
            "import_seconds": round(took, 2), "exit": importing.returncode,
            "writes": len(waits),
            "wait_p50": round(statistics.median(waits), 3) if waits else None,
            "wait_p99": round(waits[int(0.99 * (len(waits) - 1))], 3) if waits else None,
            "wait_max": round(waits[-1], 3) if waits else None,
        }))


if __name__ == "__main__":
    main()
