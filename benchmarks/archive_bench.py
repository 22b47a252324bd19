"""The archive at size: import speed, and search latency for a player, a move prefix
and an exact position.

Builds (once, cached in benchmarks/data/) a file of random legal Mosona games with
tournament-like tags (500 players, 200 events, 9 rounds, dates), then, in one run:

* ``validate``: the whole ``zrec validate`` of the file (the reference: an import does
  this and more);
* ``import``: ``zrec archive import`` of the file into a new archive, with ``--jobs 1``
  and with ``--jobs 2`` (whole process, as a user sees it);
* ``search``: the library's search for one player, for a three-ply and a six-ply
  opening (the first plies of the first game: the three-ply one is shared by a third
  of the games), and for
  the position after ply 8 of a stored game (each hit confirmed by replay), the median
  of ``--repeat`` runs, and the same through the command line.

Usage::

    python benchmarks/archive_bench.py [--games 100000] [--repeat 5] [--db URL]

``--db postgresql://...`` imports into that (empty) PostgreSQL database instead of a
new SQLite file.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from multiprocessing import Pool
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
ZREC = [sys.executable, "-c", "from zrec.cli import main; main()"]


def _games(task: tuple[int, int, int]) -> str:
    """``count`` random games from ``start`` (seeded by ``seed``), as text."""
    from zrec.notation.writer import write_game
    from zrec.play.selfplay import random_game
    from zrec.rules import find_game

    start, count, seed = task
    rules = find_game("mosona")
    out = []
    for i in range(start, start + count):
        rng = random.Random(seed * 1_000_003 + i)
        event = rng.randrange(200)
        tags = {
            "Event": f"Open {event}",
            "Site": f"Zuni {event % 7}",
            "Date": f"{2000 + event % 25}.{1 + event % 12:02d}.??",
            "Round": str(1 + rng.randrange(9)),
            "White": f"Player {rng.randrange(500)}",
            "Black": f"Player {rng.randrange(500)}",
        }
        out.append(write_game(random_game(rules, tags, rng, 300, 1)))
    return "\n".join(out) + "\n"


def build(count: int, seed: int) -> Path:
    path = DATA / f"archive-mosona-{count}-{seed}.zrec"
    if path.exists():
        return path
    DATA.mkdir(parents=True, exist_ok=True)
    step = 1000
    tasks = [(start, min(step, count - start), seed) for start in range(0, count, step)]
    tmp = path.with_suffix(".tmp")
    with Pool(os.cpu_count() or 1) as pool, open(tmp, "w", encoding="utf-8") as out:
        for i, text in enumerate(pool.imap(_games, tasks)):
            out.write(("\n" if i else "") + text)
    tmp.replace(path)
    return path


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    return elapsed


def fresh(db: str | None, name: str) -> str:
    if db is not None:
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute("DROP SCHEMA public CASCADE")
            conn.execute("CREATE SCHEMA public")
        return db
    path = DATA / name
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    return str(path)


def searches(db: str, source: Path, repeat: int) -> None:
    from zrec.archive import Archive
    from zrec.archive.store.search import Query, search
    from zrec.notation.reader import read_records
    from zrec.notation.writer import move_text

    first = next(iter(read_records(source)))
    assert first.game is not None
    short = " ".join(move_text(node) for node in first.game.line.moves[:3])
    longer = " ".join(move_text(node) for node in first.game.line.moves[:6])
    queries = {
        "player": Query(players=["Player 17"]),
        "prefix-3": Query(moves=short),
        "prefix-6": Query(moves=longer),
        "position": Query(position_of=(first.game, 8)),
    }
    flags = {
        "player": ["--player", "Player 17"],
        "prefix-3": ["--moves", short],
        "prefix-6": ["--moves", longer],
        "position": ["--position-after", f"{source}:8"],
    }
    with Archive.open(db) as archive:
        for name, query in queries.items():
            times, hits = [], 0
            for _ in range(repeat):
                start = time.perf_counter()
                hits = sum(1 for _ in search(archive, query))
                times.append(time.perf_counter() - start)
            cli = statistics.median(
                timed([*ZREC, "archive", "search", "--db", db, *flags[name], "--format", "ids"])
                for _ in range(repeat)
            )
            library = statistics.median(times) * 1e3
            print(
                f"  search {name:<9} {hits:>6} games  library {library:7.1f} ms"
                f"  command line {cli * 1e3:7.1f} ms"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--db", help="an empty PostgreSQL database URL (default: SQLite)")
    parser.add_argument("--jobs", type=int, nargs="*", default=[1, 2])
    parser.add_argument(
        "--no-validate", action="store_true", help="skip the zrec validate reference"
    )
    args = parser.parse_args()

    source = build(args.games, args.seed)
    size = source.stat().st_size / 1e6
    print(f"{args.games} games, {size:.1f} MB: {source}")
    if not args.no_validate:
        elapsed = timed([*ZREC, "validate", str(source)])
        print(f"  validate          {elapsed:7.1f} s  {args.games / elapsed:7.0f} games/s")
    db = ""
    for jobs in args.jobs:
        db = fresh(args.db, f"archive-{args.games}-jobs{jobs}.sqlite")
        elapsed = timed(
            [*ZREC, "archive", "import", "--db", db, "-q", "--jobs", str(jobs), str(source)]
        )
        rate = args.games / elapsed
        print(f"  import --jobs {jobs}   {elapsed:7.1f} s  {rate:7.0f} games/s")
    if not args.db:
        print(f"  archive size      {Path(db).stat().st_size / 1e6:7.0f} MB")
    searches(db, source, args.repeat)


if __name__ == "__main__":
    main()
