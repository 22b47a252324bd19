"""Does each speed trick of ``_fast.py`` still earn its place?

A trick stays only if it buys at least 10% of whole-process ``zrec validate``.  For
each benchmark archive (made once by ``benchmarks/throughput.py``'s builder, kept in
benchmarks/data/), this times, interleaved, ``zrec validate FILE`` as a whole process
as shipped, and the same process with the trick replaced by the plain code it stands
for (``zrec.notation._fast.plain_move`` by ``plain_move_slowly``: the record model's own
constructor).  The reports of both must be the same, byte for byte.

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

#: the ``zrec`` command, with the trick replaced by its plain code when asked
RUN = """
import sys
if sys.argv[1] == "plain":
    import zrec.notation._fast as fast
    fast.plain_move = fast.plain_move_slowly
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
        if args.callgrind:
            part = head(path, args.kb)
            counted, plain_count = instructions("shipped", part), instructions("plain", part)
            print(
                f"{game} ({args.kb} KB): {counted:,} instructions as shipped, {plain_count:,} "
                f"with the plain constructor: the trick saves {1 - counted / plain_count:.1%}"
            )
            continue
        times: dict[str, list[float]] = {"shipped": [], "plain": []}
        outputs: dict[str, str] = {}
        for _ in range(args.rounds):
            for which in times:
                took, out = seconds(which, path)
                times[which].append(took)
                outputs.setdefault(which, out)
        if outputs["shipped"] != outputs["plain"]:
            raise SystemExit(f"{game}: the reports differ")
        shipped, plain = (statistics.median(times[w]) for w in ("shipped", "plain"))
        print(
            f"{game} ({args.mb:g} MB, median of {args.rounds}): {shipped:.2f} s as shipped, "
            f"{plain:.2f} s with the plain constructor: the trick saves {1 - shipped / plain:.1%}"
        )


if __name__ == "__main__":
    main()
