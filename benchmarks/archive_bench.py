"""The archive at size: import speed, and search latency for a player, a move prefix
and an exact position.

Builds (once, cached in benchmarks/data/) a file of random legal Mosona games with
tournament-like tags (500 players, 200 events, 9 rounds, dates), then, in one run:

* ``validate``: the whole ``zrec validate`` of the file (the reference: an import does
  this and more);
* ``import``: ``zrec archive import`` of the file into a new archive, with ``--jobs 1``
  and with ``--jobs 2`` (whole process, as a user sees it), with its peak memory (the
  largest process, as ``/usr/bin/time -v`` gives it, and the whole process tree,
  sampled) and its CPU time (all its processes: the games per CPU-second are the
  rate per core), beside its peer: a plain SQLite insert of the same rows (every row of
  the archive zrec made, read back and inserted with ``executemany`` into a new file
  with the same tables), interleaved round by round (``--rounds``, medians);
* ``size``: the archive's size beside the size of the games' text;
* ``search``: the library's search for one player, for a three-ply and a six-ply
  opening (the first plies of the first game: the three-ply one is shared by a third
  of the games), and for the position after ply 8 of a stored game (each hit confirmed
  by replay): the first page and how many games match in all, as the command shows
  them; the median of ``--repeat`` runs, and the same through the command line.

Usage::

    python benchmarks/archive_bench.py [--games 100000] [--repeat 5] [--rounds 1] [--db URL]

``--db postgresql://...`` imports into that (empty) PostgreSQL database instead of a
new SQLite file (the peer is then left out).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import subprocess
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
ZREC = [sys.executable, "-c", "from zrec.cli import main; main()"]
# the commands keep their compiled bytecode, as an installed zrec does (with
# PYTHONDONTWRITEBYTECODE set, every run would compile zrec again: ~65 ms a command)
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


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
    """The wall time of a command, run plainly (:func:`measured` polls its process tree
    every 0.1 s, which would round a short command up to the next poll)."""
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def _tree_rss(pid: int) -> int:
    """The resident memory of a process and its descendants, in kB (from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as status:
                fields = dict(
                    line.split(":", 1) for line in status.read().splitlines() if ":" in line
                )
        except OSError:
            continue
        parent = int(fields.get("PPid", "0").strip() or 0)
        children.setdefault(parent, []).append(int(entry))
        rss[int(entry)] = int(fields.get("VmRSS", "0 kB").split()[0])
    total, todo = 0, [pid]
    while todo:
        one = todo.pop()
        total += rss.get(one, 0)
        todo.extend(children.get(one, ()))
    return total


def measured(command: list[str]) -> tuple[float, float, float, float]:
    """Run a command: (seconds, peak MB of its largest process as /usr/bin/time -v
    gives it, peak MB of its whole process tree sampled every 0.1 s, CPU seconds of
    all its processes)."""
    timer = ["/usr/bin/time", "-v"] if os.path.exists("/usr/bin/time") else []
    start = time.perf_counter()
    process = subprocess.Popen(
        [*timer, *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    tree = 0
    while process.poll() is None:
        tree = max(tree, _tree_rss(process.pid))
        time.sleep(0.1)
    elapsed = time.perf_counter() - start
    err = process.stderr.read() if process.stderr else ""
    if process.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed:\n{err}")
    largest = cpu = 0.0
    for line in err.splitlines():
        if "Maximum resident set size" in line:
            largest = int(line.split(":")[1]) / 1024
        if "User time (seconds)" in line or "System time (seconds)" in line:
            cpu += float(line.split(":")[1])
    return elapsed, largest, tree / 1024, cpu


def _peer(source: str, target: str) -> None:
    """The peer of an import: every row of an archive, inserted with plain SQLite into a
    new file with the same tables (the same pragmas as zrec's), in one transaction a
    table."""
    import sqlite3

    src = sqlite3.connect(source)
    dst = sqlite3.connect(target, isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "cache_size=-65536"):
        dst.execute(f"PRAGMA {pragma}")
    tables = src.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL "
        "AND name NOT LIKE 'sqlite_%'"
    ).fetchall()
    for _, sql in tables:
        dst.execute(sql)
    for (sql,) in src.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
    ).fetchall():
        dst.execute(sql)
    for name, _ in tables:
        columns = len(src.execute(f"SELECT * FROM {name} LIMIT 0").description)
        dst.execute("BEGIN")
        dst.executemany(
            f"INSERT INTO {name} VALUES ({', '.join('?' * columns)})",
            src.execute(f"SELECT * FROM {name}"),
        )
        dst.execute("COMMIT")
    dst.close()
    src.close()


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
    from zrec.archive.store import search as searching
    from zrec.archive.store.search import Query, search

    def search_page(archive: Any, query: Any) -> tuple[list[int], int]:
        paged = searching.__dict__.get("search_page")
        if paged is not None:
            return paged(archive, query)  # type: ignore[no-any-return]
        # a zrec from before pages: every game found, then counted
        found = list(search(archive, dataclasses.replace(query, limit=None)))
        return found[: query.limit], len(found)
    from zrec.notation.reader import read_records
    from zrec.notation.writer import move_text

    first = next(iter(read_records(source)))
    assert first.game is not None
    short = " ".join(move_text(node) for node in first.game.line.moves[:3])
    longer = " ".join(move_text(node) for node in first.game.line.moves[:6])
    queries = {
        "player": Query(players=["Player 17"]),
        "prefix-3": Query(moves=short, limit=50),
        "prefix-6": Query(moves=longer, limit=50),
        "position": Query(position_of=(first.game, 8), limit=50),
    }
    flags = {
        "player": ["--player", "Player 17"],
        "prefix-3": ["--moves", short],
        "prefix-6": ["--moves", longer],
        "position": ["--position-after", f"{source}:8"],
    }
    with Archive.open(db) as archive:
        for name, query in queries.items():
            times, hits, shown = [], 0, 0
            for _ in range(repeat):
                start = time.perf_counter()
                if name == "player":  # not paged: every game
                    hits = shown = sum(1 for _ in search(archive, query))
                else:  # the first page and how many in all, as the command shows them
                    page, hits = search_page(archive, query)
                    shown = len(page)
                times.append(time.perf_counter() - start)
            cli = statistics.median(
                timed([*ZREC, "archive", "search", "--db", db, *flags[name], "--format", "ids"])
                for _ in range(repeat)
            )
            library = statistics.median(times) * 1e3
            print(
                f"  search {name:<9} {hits:>7} games ({shown:>4} shown)  library "
                f"{library:7.1f} ms  command line {cli * 1e3:7.1f} ms"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=1, help="imports of each kind")
    parser.add_argument("--peer", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--db", help="an empty PostgreSQL database URL (default: SQLite)")
    parser.add_argument("--jobs", type=int, nargs="*", default=[1, 2])
    parser.add_argument(
        "--no-validate", action="store_true", help="skip the zrec validate reference"
    )
    args = parser.parse_args()
    if args.peer:
        _peer(*args.peer)
        return

    source = build(args.games, args.seed)
    size = source.stat().st_size / 1e6
    print(f"{args.games} games, {size:.1f} MB: {source}")
    if not args.no_validate:
        elapsed = timed([*ZREC, "validate", str(source)])
        print(f"  validate          {elapsed:7.1f} s  {args.games / elapsed:7.0f} games/s")
    db = ""
    rows: dict[str, list[tuple[float, float, float, float]]] = {}
    for _ in range(args.rounds):
        for jobs in args.jobs:
            db = fresh(args.db, f"archive-{args.games}-jobs{jobs}.sqlite")
            command = ["archive", "import", "--db", db, "-q", "--jobs", str(jobs), str(source)]
            rows.setdefault(f"import --jobs {jobs}", []).append(measured([*ZREC, *command]))
        if not args.db:
            peer = fresh(None, f"peer-{args.games}.sqlite")
            rows.setdefault("plain SQLite insert", []).append(
                measured(
                    [sys.executable, __file__, "--peer", db, peer, "--games", str(args.games)]
                )
            )
    for label, found in rows.items():
        elapsed = statistics.median(r[0] for r in found)
        largest = statistics.median(r[1] for r in found)
        tree = statistics.median(r[2] for r in found)
        cpu = statistics.median(r[3] for r in found)
        print(
            f"  {label:<20} {elapsed:7.1f} s  {args.games / elapsed:7.0f} games/s"
            f"  {args.games / cpu if cpu else 0:6.0f} games/CPU-s"
            f"  peak {largest:5.0f} MB (largest process), {tree:5.0f} MB (all processes)"
        )
    if not args.db:
        mb = Path(db).stat().st_size / 1e6
        print(f"  archive size      {mb:7.0f} MB ({mb / size:.2f}x the text)")
    searches(db, source, args.repeat)


if __name__ == "__main__":
    main()
