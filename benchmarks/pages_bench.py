"""Pages and pictures at size: peak memory and output size beside the record's own.

In one run, each as a whole ``zrec`` process under ``/usr/bin/time -v`` (its "Maximum
resident set size" is the peak memory), with the size of what it wrote beside the
size of the record it drew (the peer: a page should cost about what its record
costs), and, run just before it on the same file, ``zrec validate`` (what reading
and replaying the records costs, in time and memory, before anything is drawn):

* ``html-1000``, ``html-10000``: ``zrec html`` of 1,000 and 10,000 random Mosona games
  (one page), and ``folder-10000``: the same 10,000 into a folder (``-o DIR/``);
* ``ply-100000``, ``ply-1000000``: ``zrec html`` of one Mosona game of 100,000 and of
  1,000,000 plies (an opening, then a 4-ply cycle);
* ``strip``: ``zrec diagram --strip`` of the first 1,000 plies of the 100,000-ply
  game (the most one strip holds), and ``strip-refused``: the whole game, refused;
* ``publish``: ``zrec archive publish`` of an event of 40 random games and one of
  100,000 plies (the archive is built first, not timed).

The data is made once and kept in benchmarks/data/.  Usage::

    python benchmarks/pages_bench.py [--only NAME ...] [--python PYTHON]

``--python`` runs the commands with another environment's interpreter (such as an
older checkout's, for figures before a change); the data is the same.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
SCRATCH = DATA / "pages-out"

#: the first 28 plies of a Mosona game, then a 4-ply cycle that can repeat for ever
OPENING = (
    "a5-b5 c6xa5 b5-b6 a5xc6 b7-b6 c6xa5 a7-b7 c8xa7xc6 b9-c8 a5xa7 a8xa6 c5-b5 a4xc5 "
    "b4-b5 c5xa4 c7-b8 c8xa7 c6-c7 a7-a8 c4-b4 a3xc4 c3xc5 a2xc3 c2xc4 a1xc2 c1xc3"
)
CYCLE = "a4-a3 b1-a1 a3-a4 a1-b1"


def long_game(plies: int, tags: str = "") -> str:
    """A valid Mosona game of ``plies`` plies, as text."""
    turns = OPENING.split()
    while len(turns) < plies:
        turns.extend(CYCLE.split())
    moves = " ".join(
        f"{i // 2 + 1}. {turn}" if i % 2 == 0 else turn for i, turn in enumerate(turns[:plies])
    )
    return f'[Game "mosona"]\n{tags}\n{moves} *\n'


def random_file(count: int, event: str | None = None) -> str:
    """``count`` random Mosona games as text (with an event, rounds and results when
    ``event`` is given)."""
    from zrec.notation.writer import write_game
    from zrec.play.selfplay import random_game
    from zrec.rules import find_game

    rules = find_game("mosona")
    rng = random.Random(count)
    out = []
    for i in range(count):
        tags = {"White": f"Player {2 * i}", "Black": f"Player {2 * i + 1}"}
        if event is not None:
            tags.update(Event=event, Round=f"1.{i + 1}")
        out.append(write_game(random_game(rules, tags, rng, 300, 1)))
    return "\n".join(out) + "\n"


def made(name: str, make: Callable[[], str]) -> Path:
    path = DATA / name
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(make(), encoding="utf-8")
        tmp.replace(path)
    return path


def zrec(python: str, args: list[str]) -> tuple[float, float, str]:
    """Run ``zrec ARGS`` under /usr/bin/time -v: (seconds, peak MB, standard error)."""
    command = ["/usr/bin/time", "-v", python, "-m", "zrec", *args]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    assert peak is not None, done.stderr
    return seconds, int(peak.group(1)) / 1024, done.stderr.split("\tCommand being timed")[0]


def size(path: Path) -> int:
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return path.stat().st_size if path.exists() else 0


def publish_case(python: str, event_file: Path) -> tuple[list[str], Path]:
    db = SCRATCH / "publish.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    done = subprocess.run(
        [python, "-m", "zrec", "archive", "import", str(event_file), "--db", str(db), "-q"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode:
        raise SystemExit(f"import failed: {done.stderr}")
    site = SCRATCH / "site"
    return ["archive", "publish", "Long Open", "--db", str(db), "-o", str(site), "-q"], site


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="only these cases")
    parser.add_argument("--python", default=sys.executable, help="the interpreter to run")
    args = parser.parse_args()
    python = args.python
    games_1k = made("pages-1000.zrec", lambda: random_file(1000))
    games_10k = made("pages-10000.zrec", lambda: random_file(10000))
    ply_100k = made("pages-ply-100000.zrec", lambda: long_game(100_000))
    ply_1m = made("pages-ply-1000000.zrec", lambda: long_game(1_000_000))
    event = made(
        "pages-event.zrec",
        lambda: random_file(40, "Long Open")
        + "\n"
        + long_game(100_000, '[Event "Long Open"]\n[Round "1.41"]\n[White "Long A"]\n'
                    '[Black "Long B"]\n'),
    )  # fmt: skip
    shutil.rmtree(SCRATCH, ignore_errors=True)
    SCRATCH.mkdir(parents=True)
    out = SCRATCH / "out.html"
    folder = SCRATCH / "folder"
    strip = SCRATCH / "strip.svg"
    cases: dict[str, tuple[Path, list[str], Path]] = {
        "html-1000": (games_1k, ["html", str(games_1k), "-o", str(out)], out),
        "html-10000": (games_10k, ["html", str(games_10k), "-o", str(out)], out),
        "folder-10000": (games_10k, ["html", str(games_10k), "-o", f"{folder}/"], folder),
        "ply-100000": (ply_100k, ["html", str(ply_100k), "-o", str(out)], out),
        "ply-1000000": (ply_1m, ["html", str(ply_1m), "-o", str(out)], out),
        "strip": (ply_100k, ["diagram", str(ply_100k), "--strip", "--to", "999", "-o",
                             str(strip)], strip),
        "strip-refused": (ply_100k, ["diagram", str(ply_100k), "--strip", "-o", str(strip)],
                          strip),
    }  # fmt: skip
    names = args.only or [*cases, "publish"]
    print(
        f"{'case':<14} {'seconds':>8} {'peak MB':>8} {'record':>10} {'output':>11} {'×':>6}"
        f" {'validate s':>11} {'MB':>7}"
    )
    for name in names:
        if name == "publish":
            command, target = publish_case(python, event)
            source = event
        else:
            source, command, target = cases[name]
        for old in (out, strip):
            old.unlink(missing_ok=True)
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(SCRATCH / "site", ignore_errors=True)
        checked, checked_peak, _ = zrec(python, ["validate", str(source)])
        seconds, peak, errors = zrec(python, command)
        record, output = size(source), size(target)
        ratio = f"{output / record:.2f}" if output else "-"
        print(
            f"{name:<14} {seconds:>8.1f} {peak:>8.1f} {record / 1e6:>8.2f}MB "
            f"{output / 1e6:>9.2f}MB {ratio:>6} {checked:>11.1f} {checked_peak:>7.1f}",
            flush=True,
        )
        if errors.strip():
            print("   ", errors.strip().splitlines()[-1][:160])
        if name == "publish" and target.exists():
            pages = sorted(target.rglob("game-*.html"), key=lambda p: p.stat().st_size)
            print(f"    largest game page {pages[-1].stat().st_size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
