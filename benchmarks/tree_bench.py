"""The opening tree at size: ``zrec archive tree`` in the library, the archive's size
with and without the opening lines, and the import's time with and without them.

* ``tree``: :func:`zrec.archive.store.tree.tree` of an archive of random Mosona games
  (benchmarks/archive_bench.py makes the file, cached in benchmarks/data/), at the
  start, after 1, 3 and 6 plies of its first game (the three-ply opening is shared by
  a third of the games), after 22 plies (past the opening lines: replayed) and at the
  position after ply 8 of its first game: the median of ``--repeat`` runs in this
  process, wall and CPU time;
* ``size``: the archive's bytes a game, as it is and with ``tree_lines`` dropped
  (a copy, vacuumed: what schema 4 kept), beside the games' text;
* ``import`` (with ``--before SRC``, the ``src`` folder of an older zrec, such as
  ``git archive main src | tar -x -C /tmp/zrec-main``): ``zrec archive import --jobs 1``
  of the first ``--import-games`` games, by that zrec and by this one, interleaved
  round by round (``--rounds``): CPU time of each (the medians).

Usage::

    python benchmarks/tree_bench.py [--games 100000] [--source FILE] [--db ARCHIVE] [--repeat 5]
        [--before SRC --import-games 20000 --rounds 2]

``--db`` names an archive of those games made already (else it is made here, in
benchmarks/data/, with ``--jobs 2``).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from archive_bench import DATA, build  # noqa: E402

ZREC = [sys.executable, "-c", "from zrec.cli import main; main()"]
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def _cases(archive: Any) -> list[tuple[str, dict[str, Any]]]:
    from zrec.notation.reader import read_string
    from zrec.notation.writer import move_text
    from zrec.play import positions, prepare

    text = archive.text_of(1)
    assert text is not None
    game = next(iter(read_string(text, "first"))).game
    assert game is not None
    moves = [move_text(node) for node in game.line.moves]
    replay = prepare(game, game.tag_map())
    after = positions(replay, game.line, 8)[-1].after
    setup = replay.engine.setup_text(after)
    return [
        ("start", {"game": "mosona"}),
        *((f"{n}-ply", {"game": "mosona", "moves": " ".join(moves[:n])}) for n in (1, 3, 6, 22)),
        ("position (ply 8)", {"game": "mosona", "position": setup}),
    ]


def trees(db: str, repeat: int) -> None:
    from zrec.archive import Archive
    from zrec.archive.store.tree import tree

    with Archive.open(db, read_only=True) as archive:
        print(f"tree, {archive.count()} games (median of {repeat}):")
        for label, kwargs in _cases(archive):
            walls, cpus = [], []
            for _ in range(repeat):
                wall, cpu = time.perf_counter(), time.process_time()
                found = tree(archive, **kwargs)
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
            games = sum(b.games for b in found)
            print(
                f"  {label:17} {1000 * statistics.median(walls):7.1f} ms wall "
                f"{1000 * statistics.median(cpus):7.1f} ms CPU  {len(found)} moves, {games} games"
            )


def sizes(db: str, source: Path) -> None:
    games = sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone()[0]
    text = source.stat().st_size * games / max(1, source.read_text().count('[Game "'))
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "copy.sqlite"
        shutil.copy(db, copy)
        conn = sqlite3.connect(copy)
        conn.execute("VACUUM")
        whole = copy.stat().st_size
        conn.execute("DROP TABLE tree_lines")
        conn.commit()
        conn.execute("VACUUM")
        conn.close()
        without = copy.stat().st_size
    print(f"size, {games} games ({text / games:.0f} bytes of text a game):")
    for label, size in (("without tree_lines", without), ("with tree_lines", whole)):
        print(f"  {label:19} {size / games:7.1f} bytes a game, {size / text:.3f}x the text")
    print(f"  tree_lines: {(whole - without) / games:.1f} bytes a game")


def _import_cpu(source: Path, src: str | None) -> float:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    with tempfile.TemporaryDirectory() as folder:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            [*ZREC, "archive", "import", "--db", f"{folder}/a.sqlite", "--jobs", "1", "-q",
             str(source)],
            env=env, check=True, stdout=subprocess.DEVNULL,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def imports(source: Path, count: int, before: str, rounds: int) -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    part = DATA / f"tree-bench-{count}.zrec"
    with source.open(encoding="utf-8") as full, part.open("w", encoding="utf-8") as out:
        seen = 0
        for line in full:
            if line.startswith('[Game "'):
                seen += 1
                if seen > count:
                    break
            out.write(line)
    times: dict[str, list[float]] = {"before": [], "now": []}
    for _ in range(rounds):
        times["before"].append(_import_cpu(part, before))
        times["now"].append(_import_cpu(part, None))
    print(f"import of {count} games, --jobs 1, CPU (median of {rounds}, interleaved):")
    for label, found in times.items():
        each = ", ".join(f"{t:.1f}" for t in found)
        print(f"  {label:7} {statistics.median(found):7.1f} s  ({each})")
    part.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--source", help="the games' file (default: made as archive_bench does)")
    parser.add_argument("--db", help="an archive of those games, made already")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--before", help="the src folder of the zrec to compare imports with")
    parser.add_argument("--import-games", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    source = Path(args.source) if args.source else build(args.games, args.seed)
    db = args.db
    if db is None:
        db = str(DATA / f"tree-{args.games}-{args.seed}.sqlite")
        if not Path(db).exists():
            subprocess.run([*ZREC, "archive", "import", "--db", db, "--jobs", "2", "-q",
                            str(source)], check=True)
    trees(db, args.repeat)
    sizes(db, source)
    if args.before:
        imports(source, args.import_games, args.before, args.rounds)


if __name__ == "__main__":
    main()
