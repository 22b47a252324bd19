"""What a user sees: ``zrec validate`` as a whole process, beside python-chess.

For each game, an archive of about ``--mb`` megabytes of random legal games (made
once by ``zrec random``'s player and kept in benchmarks/data/) and a PGN file of
random legal chess games of the same size.  Each round times, interleaved:

* **whole process**: ``zrec validate FILE`` (and ``--jobs N`` when asked), started
  as a user starts it, against a Python process that reads the PGN file with
  ``chess.pgn.read_game`` (which replays every move on a board, as validation does);
* **in process**: zrec's reader and validator over the file's bytes, against the
  same ``read_game`` loop, without the start-up.

The figures are medians over ``--rounds`` rounds (at least 5), per MB and per ply
(a ply being one move of one side; python-chess's plies are the moves of its games).
Usage::

    python benchmarks/throughput.py [--mb 15] [--rounds 5] [--game mosona ...] [--jobs 2]
        [--baseline OLD/src]

``--baseline`` also times another version of zrec (``git worktree add OLD REV``, then
its ``src``), interleaved, and says whether both print the same report.

python-chess is a benchmark-only extra: ``pip install .[bench]``.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from _needs import need_chess

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
GAMES = ("mosona", "kolowis", "stone-warriors", "awethi")

#: the python-chess side of the whole-process timing: read every game, count plies
CHESS_READER = """
import sys
import chess.pgn
games = plies = 0
with open(sys.argv[1], encoding="utf-8") as stream:
    while (game := chess.pgn.read_game(stream)) is not None:
        games += 1
        plies += sum(1 for _ in game.mainline_moves())
print(games, plies)
"""


def build_archive(game: str, size: int, seed: int) -> Path:
    """Random legal games of ``game``, at least ``size`` bytes, made once and kept."""
    from zrec.notation.writer import write_games
    from zrec.play.selfplay import random_games
    from zrec.rules import find_game

    path = DATA / f"{game}-{size // 1_000_000}mb-{seed}.zrec"
    if path.exists():
        return path
    DATA.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    written, batch = 0, 0
    with open(tmp, "w", encoding="utf-8") as out:
        while written < size:
            games = random_games(find_game(game), {}, 500, seed + batch, max_plies=300)
            for text in write_games(games):
                out.write(text)
                written += len(text.encode())
            batch += 1
    tmp.replace(path)
    return path


def build_pgn(size: int, seed: int) -> Path:
    sys.path.insert(0, str(HERE))
    from bench import build_pgn as make

    return make(size, seed)


#: the CPU seconds (user + system) of each whole-process run, by the run's name: on a
#: shared machine the wall-clock time of a run depends on the load, its CPU time less
CPU: dict[str, list[float]] = {}


def whole(
    command: Sequence[str], env: dict[str, str] | None = None, name: str = ""
) -> tuple[float, str]:
    """Seconds of one run of ``command`` as a process, and what it printed (its CPU
    seconds kept in :data:`CPU` under ``name``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if name:
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        CPU.setdefault(name, []).append(cpu)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout[-2000:]}{done.stderr}")
    return seconds, done.stdout


def zrec_plies(data: bytes) -> tuple[int, int, Callable[[], None], Callable[[], None]]:
    """The archive's games and plies, and in-process read and validate runs."""
    from zrec.check.diagnostics import Totals
    from zrec.check.validate import validate_records
    from zrec.notation.reader import read_records

    def read() -> None:
        for record in read_records(io.BytesIO(data), "bench"):
            if record.game is None:
                raise SystemExit(f"benchmark archive is broken: {record.problem}")

    def validate() -> Totals:
        summary = Totals()
        for report in validate_records(read_records(io.BytesIO(data), "bench"), "bench"):
            summary.add(report)
        if summary.invalid:
            raise SystemExit(f"benchmark archive has {summary.invalid} invalid games")
        return summary

    def validate_only() -> None:
        validate()

    counted = validate()
    return counted.games, counted.plies, read, validate_only


def chess_in_process(pgn: bytes) -> Callable[[], None]:
    import chess.pgn

    def work() -> None:
        stream = io.StringIO(pgn.decode("utf-8"))
        while chess.pgn.read_game(stream) is not None:
            pass

    return work


def timed(work: Callable[[], None]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def run_game(game: str, args: argparse.Namespace, pgn: Path) -> list[str]:
    archive = build_archive(game, int(args.mb * 1e6), args.seed)
    data = archive.read_bytes()
    pgn_bytes = pgn.read_bytes()
    games, plies, read, validate = zrec_plies(data)
    chess_games, chess_plies = (int(x) for x in whole(
        [sys.executable, "-c", CHESS_READER, str(pgn)])[1].split())
    chess_work = chess_in_process(pgn_bytes)
    # the console script a user runs, beside this interpreter
    zrec = [str(Path(sys.executable).with_name("zrec")), "validate", str(archive)]
    # another version of zrec, from its source folder, run by this same interpreter
    baseline = [sys.executable, "-m", "zrec", "validate", str(archive)]
    baseline_env = {**os.environ, "PYTHONPATH": str(args.baseline)} if args.baseline else None
    times: dict[str, list[float]] = {k: [] for k in (
        "chess process", "zrec process", "chess in", "zrec read in", "zrec validate in",
        *(f"zrec process jobs {n}" for n in args.jobs),
        *(["baseline process"] if args.baseline else []))}
    reports: set[str] = set()
    for _ in range(args.rounds):
        chess_run = [sys.executable, "-c", CHESS_READER, str(pgn)]
        times["chess process"].append(whole(chess_run, name=f"{game} chess")[0])
        took, report = whole(zrec, name=f"{game} zrec")
        times["zrec process"].append(took)
        reports.add(report)
        if baseline_env is not None:
            took, report = whole(baseline, baseline_env, name=f"{game} baseline")
            times["baseline process"].append(took)
            reports.add(report)
        for n in args.jobs:
            times[f"zrec process jobs {n}"].append(whole([*zrec, "--jobs", str(n)])[0])
        if not args.whole_only:
            times["chess in"].append(timed(chess_work))
            times["zrec read in"].append(timed(read))
            times["zrec validate in"].append(timed(validate))
    mb, chess_mb = len(data) / 1e6, len(pgn_bytes) / 1e6
    med = {k: statistics.median(v) for k, v in times.items() if v}
    out = [
        f"## {game}: {archive.name}, {mb:.1f} MB, {games} games, {plies} plies "
        f"(python-chess: {chess_mb:.1f} MB, {chess_games} games, {chess_plies} plies); "
        f"medians of {args.rounds} rounds",
        "",
        "| run | median s | MB/s | plies/s | × python-chess per MB | × per ply |",
        "|---|---:|---:|---:|---:|---:|",
    ]

    def line(name: str, seconds: float, size: float, count: int, base: str | None) -> None:
        ratio_mb = ratio_ply = ""
        if base is not None:
            ratio_mb = f"{(size / seconds) / (chess_mb / med[base]):.2f}"
            ratio_ply = f"{(count / seconds) / (chess_plies / med[base]):.2f}"
        out.append(
            f"| {name} | {seconds:.2f} | {size / seconds:.2f} | {count / seconds:,.0f} | "
            f"{ratio_mb} | {ratio_ply} |"
        )

    line("python-chess read_game, whole process", med["chess process"], chess_mb,
         chess_plies, None)
    line("zrec validate, whole process", med["zrec process"], mb, plies, "chess process")
    if args.baseline:
        line(f"baseline ({args.baseline}) validate, whole process", med["baseline process"],
             mb, plies, "chess process")
        same = "the same" if len(reports) == 1 else "DIFFERENT"
        out.append(f"\nzrec / baseline: {med['zrec process'] / med['baseline process']:.3f} "
                   f"of the time; reports {same}")
    cpu = {k: statistics.median(v) for k, v in CPU.items() if k.startswith(f"{game} ")}
    chess_cpu = cpu[f"{game} chess"]
    out.append("\nCPU time (user + system) of the whole processes, medians: python-chess "
               f"{chess_cpu:.2f} s ({chess_plies / chess_cpu:,.0f} plies/s)")
    for name in ("zrec", "baseline"):
        if f"{game} {name}" in cpu:
            seconds = cpu[f"{game} {name}"]
            ratio = (plies / seconds) / (chess_plies / chess_cpu)
            out.append(f"- {name} validate: {seconds:.2f} s ({plies / seconds:,.0f} plies/s), "
                       f"{ratio:.2f}× python-chess per ply")
    for n in args.jobs:
        line(f"zrec validate --jobs {n}, whole process", med[f"zrec process jobs {n}"], mb,
             plies, "chess process")
    if not args.whole_only:
        line("python-chess read_game, in process", med["chess in"], chess_mb, chess_plies,
             None)
        line("zrec read, in process", med["zrec read in"], mb, plies, "chess in")
        line("zrec validate, in process", med["zrec validate in"], mb, plies, "chess in")
    return out


def main(argv: list[str] | None = None) -> int:
    need_chess()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=15.0, help="size of each archive")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (≥ 5)")
    parser.add_argument("--game", action="append", choices=GAMES, help="(default: all)")
    parser.add_argument("--jobs", type=int, action="append", default=[],
                        help="also time zrec validate --jobs N (repeatable)")
    parser.add_argument("--whole-only", action="store_true", help="skip in-process runs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", type=Path, metavar="SRC",
                        help="also time the zrec whose package is in SRC (e.g. a worktree's "
                        "src/ at an older commit), interleaved, and compare the reports")
    args = parser.parse_args(argv)
    if args.rounds < 5:
        parser.error("--rounds: medians need at least 5 rounds")
    pgn = build_pgn(int(args.mb * 1e6), args.seed)
    print(f"# zrec validate throughput, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs\n")
    for game in args.game or GAMES:
        print("\n".join(run_game(game, args, pgn)) + "\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
