"""Does each speed trick still earn its place?

zrec keeps two: the reader's (``zrec.notation._fast.plain_move``: a move of the record
model made with slot setters) and the Stone Warriors engine's
(``zrec.rules.stonewarriors._fast.new_position``: a position made the same way), each in
its layer's one ``_fast.py``.  A trick stays only if it buys at least 10% of
whole-process ``zrec validate``.  For each benchmark archive (made once by
``benchmarks/throughput.py``'s builder, kept in benchmarks/data/), this times,
interleaved, ``zrec validate FILE`` as a whole process as shipped, and the same
process with each trick replaced by the plain code it stands for (its
``..._slowly`` twin: the class's own constructor).  The reports must be the same,
byte for byte.

With ``--callgrind`` it counts instructions under valgrind instead of seconds (on the
first ``--kb`` kilobytes of each archive): the same count on every run, whatever else
the machine is doing.  Usage::

    python benchmarks/fast.py [--rounds 5] [--game mosona ...] [--callgrind --kb 400]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

#: the ``zrec`` command, with a trick replaced by its plain code when asked (before the
#: modules that use it are imported)
RUN = """
import sys
if sys.argv[1] == "no-move-trick":
    import zrec.notation._fast as fast
    fast.plain_move = fast.plain_move_slowly
if sys.argv[1] == "no-position-trick":
    import zrec.rules.stonewarriors._fast as fast
    fast.new_position = fast.new_position_slowly
from zrec.cli import main
sys.argv = ["zrec", "validate", sys.argv[2]]
main()
"""


def command(which: str, path: Path) -> list[str]:
    return [sys.executable, "-c", RUN, which, str(path)]


def seconds(which: str, path: Path) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command(which, path), capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr[-2000:])
    return time.perf_counter() - start, done.stdout


def instructions(which: str, path: Path) -> int:
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command(which, path)],
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind said:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def head(path: Path, kb: int) -> Path:
    """The first ``kb`` kilobytes of an archive, cut before a game."""
    data = path.read_bytes()
    cut = data.index(b"\n\n[Game", kb * 1000) + 1
    out = Path(tempfile.mkdtemp()) / path.name
    out.write_bytes(data[:cut])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--mb", type=float, default=15)
    parser.add_argument("--game", action="append", help="mosona, kolowis, stone-warriors")
    parser.add_argument("--callgrind", action="store_true", help="count instructions")
    parser.add_argument("--kb", type=int, default=400, help="with --callgrind: how much")
    args = parser.parse_args()
    from throughput import build_archive

    for game in args.game or ["mosona", "kolowis", "stone-warriors"]:
        path = build_archive(game, int(args.mb * 1e6), 1)
        tricks = ["no-move-trick", *(["no-position-trick"] if game == "stone-warriors" else [])]
        if args.callgrind:
            part = head(path, args.kb)
            counted = instructions("shipped", part)
            for trick in tricks:
                more = instructions(trick, part)
                print(
                    f"{game} ({args.kb} KB): {counted:,} instructions as shipped, {more:,} "
                    f"{trick}: the trick saves {1 - counted / more:.1%}"
                )
            continue
        times: dict[str, list[float]] = {w: [] for w in ("shipped", *tricks)}
        outputs: dict[str, str] = {}
        for _ in range(args.rounds):
            for which in times:
                took, out = seconds(which, path)
                times[which].append(took)
                outputs.setdefault(which, out)
        if len(set(outputs.values())) != 1:
            raise SystemExit(f"{game}: the reports differ")
        shipped = statistics.median(times["shipped"])
        for trick in tricks:
            without = statistics.median(times[trick])
            print(
                f"{game} ({args.mb:g} MB, median of {args.rounds}): {shipped:.2f} s as shipped, "
                f"{without:.2f} s {trick}: the trick saves {1 - shipped / without:.1%}"
            )


if __name__ == "__main__":
    main()
