"""The compiled rules kernel beside the Python engines and beside the floor, in one run.

The figures of issue 38's "Done when", each beside its peer, interleaved round by round
(each round runs its contenders in a rotated order, so that none always goes first):

* ``perft``: nodes per CPU second (every position reached, depths 1 to ``--depth``
  summed) of the serpent games' default reading (or ``--board``, ``--jumps``): the
  floor (``benchmarks/floor/mosona_floor.c``, a minimal C move generator compiled here
  with ``gcc -O2`` into a temporary folder), and :func:`zrec.research.perft.perft` in
  a process with ``ZREC_KERNEL=1`` (the kernel) and one with ``ZREC_KERNEL=0`` (the
  Python engines).  Every count is checked against tests/data/perft-serpent.json.
  Target: the kernel within 3× of the floor.
* ``selfplay``: random self-play plies per CPU second of every game
  (:func:`zrec.research.study.play_games` with the ``random`` player, as
  benchmarks/selfplay_speed.py plays them), kernel on and off, and the floor's own random
  games for the serpents.  Target: the kernel ≥ 30× the Python engines.  Both switches
  must play the same games (the same plies in each game of the seed).
* ``mcts``: the same for a search player (``--mcts``, ``mcts:16`` by default) in
  Kolowis, ``--mcts-games`` games a run.  Target: ≥ 10× (issue 38 asks it of a
  1,000-game study).
* ``validate``: ``zrec validate FILE`` as a whole process, plies per CPU second (user +
  system of the process), kernel on and off, beside a process reading a PGN file of the
  same size with python-chess (the archives and the reader of benchmarks/throughput.py).
  Targets: ≥ 8× python-chess per ply for the board games, ≥ 2× for Awéthi.

zrec's timings are taken in a child process per run (started with the kernel switch in
its environment), around the work alone, start-up left out, except ``validate``, which
is timed whole as a user runs it.  Each child says which kernel it ran on
(``zrec.rules.kernel.describe()``, or ``python`` where that module does not exist yet).
The tables give the best and the median of ``--rounds`` rounds.  Usage::

    python benchmarks/kernel_bench.py [--only perft|selfplay|mcts|validate]... [--rounds 5]
        [--depth 11] [--board lined|open] [--jumps line|bent] [--games 200]
        [--floor-games 20000] [--mcts mcts:16] [--mcts-games 3] [--mb 5] [--game G]...

``validate`` needs python-chess (``pip install '.[bench]'``); ``perft`` and the floor's
self-play need gcc (without it the floor's columns are left empty).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FLOOR_SOURCE = HERE / "floor" / "mosona_floor.c"
TABLES = HERE.parent / "tests" / "data" / "perft-serpent.json"
SERPENTS = ("mosona", "kolowis")
PARTS = ("perft", "selfplay", "mcts", "validate")
#: the kernel switch of each contender that runs zrec
SWITCHES = {"kernel": "1", "python": "0"}


# --- the child processes -------------------------------------------------------------

def kernel_name() -> str:
    """What ``zrec.rules.kernel`` says it is, or ``python`` where there is no such module."""
    try:
        kernel = importlib.import_module("zrec.rules.kernel")
    except ModuleNotFoundError as exc:
        if exc.name not in ("zrec.rules.kernel", "zrec.rules"):
            raise
        return "python"
    return str(kernel.describe())


def child(job: dict[str, Any]) -> dict[str, Any]:
    """One timed run in this process: a perft or a batch of games of one player."""
    from zrec.rules import find_game

    rules = find_game(job["game"])
    if job["part"] == "perft":
        from zrec.research.perft import perft

        start = time.process_time()
        counts = perft(rules, job["options"], job["depth"])
        cpu = time.process_time() - start
        return {"kernel": kernel_name(), "cpu": cpu, "count": sum(counts), "counts": counts}
    from zrec.research.study import Reading, parse_players, play_games

    reading = Reading((), parse_players(job["player"]))
    # start-up left out: one game outside the timed ones loads the kernel and builds the
    # engine (1.3 ms for Mosona, a quarter of 200 random games' CPU on the kernel)
    play_games(rules, reading, job["seed"], job["games"], job["games"] + 1, job["max_plies"])
    start = time.process_time()
    results = play_games(rules, reading, job["seed"], 0, job["games"], job["max_plies"])
    cpu = time.process_time() - start
    plies = [r.plies for r in results]
    return {"kernel": kernel_name(), "cpu": cpu, "count": sum(plies), "counts": plies}


def run_child(job: dict[str, Any], switch: str) -> dict[str, Any]:
    """:func:`child` in a new process with ``ZREC_KERNEL=switch``."""
    env = {**os.environ, "ZREC_KERNEL": switch}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(job)],
        capture_output=True, text=True, env=env, check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"kernel_bench: a child ({job}, ZREC_KERNEL={switch}) failed:\n"
                         f"{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


# --- the floor -----------------------------------------------------------------------

def build_floor(folder: Path) -> Path | None:
    """The floor compiled with ``gcc -O2`` into ``folder``; ``None`` without gcc."""
    if shutil.which("gcc") is None:
        return None
    binary = folder / "mosona_floor"
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(FLOOR_SOURCE)], check=True)
    return binary


def run_floor(binary: Path, args: Sequence[str]) -> tuple[float, int, list[int]]:
    """CPU seconds, nodes or plies, and (for perft) the counts of one floor run."""
    out = subprocess.run([str(binary), *args], capture_output=True, text=True, check=True)
    lines = out.stdout.split("\n")[:-1]
    last = lines[-1].split()
    fields = dict(zip(last[::2], last[1::2], strict=True))
    counts = [int(line.split()[1]) for line in lines[:-1]]
    amount = int(fields["nodes"] if "nodes" in fields else fields["plies"])
    return float(fields["seconds"]), amount, counts


def floor_args(part: str, game: str, args: argparse.Namespace) -> list[str]:
    serpent = ["--kolowis"] if game == "kolowis" else []
    if part == "perft":
        return ["perft", str(args.depth), "--board", args.board, "--jumps", args.jumps, *serpent]
    return ["selfplay", str(args.floor_games), str(args.seed),
            "--max-plies", str(args.max_plies), *serpent]


# --- one measurement, its rounds and its table ---------------------------------------

class Rates:
    """The rates (amount per CPU second) of each contender over the rounds."""

    def __init__(self) -> None:
        self.rates: dict[str, list[float]] = {}
        self.kernels: dict[str, set[str]] = {}
        self.counts: dict[str, set[tuple[int, ...]]] = {}

    def add(self, who: str, cpu: float, amount: int, kernel: str, counts: Sequence[int]) -> None:
        self.rates.setdefault(who, []).append(amount / cpu if cpu > 0 else float("inf"))
        self.kernels.setdefault(who, set()).add(kernel)
        self.counts.setdefault(who, set()).add(tuple(counts))

    def best(self, who: str) -> float:
        return max(self.rates[who]) if who in self.rates else float("nan")

    def median(self, who: str) -> float:
        return statistics.median(self.rates[who]) if who in self.rates else float("nan")

    def cell(self, who: str) -> str:
        if who not in self.rates:
            return "—"
        return f"{rate(self.best(who))} / {rate(self.median(who))}"


def rate(x: float) -> str:
    """A rate in a few significant figures, with M or k."""
    if x != x:
        return "—"
    if x >= 1e6:
        return f"{x / 1e6:.3g} M"
    return f"{x / 1e3:.3g} k" if x >= 1e3 else f"{x:.3g}"


def ratio(a: float, b: float) -> str:
    return "—" if a != a or b != b or b == 0 else f"{a / b:.2f}×"


def verdict(value: float, target: float, higher: bool) -> str:
    if value != value:
        return "—"
    return "met" if (value >= target if higher else value <= target) else "missed"


def perft_tables(args: argparse.Namespace) -> dict[str, list[int]]:
    """The counts of tests/data/perft-serpent.json of each serpent game under ``--board``
    and ``--jumps``."""
    return {t["game"]: t["counts"] for t in json.loads(TABLES.read_text())["tables"]
            if t["board"] == args.board and t["jumps"] == args.jumps}


def reading(args: argparse.Namespace) -> str:
    if (args.board, args.jumps) == ("lined", "line"):
        return "the default reading"
    return f"Board {args.board}, Jumps {args.jumps}"


def measure_engines(part: str, games: Sequence[str], args: argparse.Namespace,
                    floor: Path | None) -> list[str]:
    """Rounds of ``part`` (perft, selfplay or mcts) and their table."""
    tables = perft_tables(args)
    results = {game: Rates() for game in games}
    for round_number in range(args.rounds):
        for game in games:
            contenders = ["kernel", "python"]
            if floor is not None and game in SERPENTS and part != "mcts":
                contenders.append("floor")
            shift = round_number % len(contenders)
            for who in contenders[shift:] + contenders[:shift]:
                if who == "floor":
                    assert floor is not None
                    cpu, amount, counts = run_floor(floor, floor_args(part, game, args))
                    results[game].add(who, cpu, amount, "C", counts)
                    continue
                job = {"part": part, "game": game, "depth": args.depth,
                       "games": args.mcts_games if part == "mcts" else args.games,
                       "player": args.mcts if part == "mcts" else "random",
                       "seed": args.seed, "max_plies": args.max_plies,
                       "options": {"Board": args.board, "Jumps": args.jumps}}
                done = run_child(job, SWITCHES[who])
                results[game].add(who, done["cpu"], done["count"], done["kernel"],
                                  done["counts"])
            print(f"  {part} round {round_number + 1} {game} done", file=sys.stderr,
                  flush=True)
    unit = "nodes" if part == "perft" else "plies"
    out = [f"## {part}: {unit} per CPU second, best / median of {args.rounds} rounds"
           + {"perft": f" (depth {args.depth}, {reading(args)})",
              "selfplay": f" (random player, {args.games} games of zrec, {args.floor_games} "
                          f"of the floor, at most {args.max_plies} plies)",
              "mcts": f" ({args.mcts} player, {args.mcts_games} "
                      f"game{'' if args.mcts_games == 1 else 's'}, at most "
                      f"{args.max_plies} plies)"}[part], "",
           "| game | floor (C) | ZREC_KERNEL=1 | ZREC_KERNEL=0 | floor / kernel | "
           "kernel / python | target | counts | ran on (1 / 0) |",
           "|---|---:|---:|---:|---:|---:|---|---|---|"]
    for game in games:
        r = results[game]
        if part == "perft":
            target = verdict(r.best("floor") / r.best("kernel"), 3.0, higher=False)
            want = tables.get(game)
            seen = {c for who in r.counts for c in r.counts[who]}  # the floor's too
            good = want is not None and seen == {tuple(want[: args.depth])}
            check = "= the table" if good else f"DIFFER: {sorted(seen)}"
            target = f"kernel within 3× of the floor: {target}"
        else:
            goal = 30.0 if part == "selfplay" else 10.0
            target = f"kernel ≥ {goal:g}× python: " + verdict(
                r.best("kernel") / r.best("python"), goal, higher=True)
            # the same seed plays the same games with the kernel and without
            zrec_games = r.counts.get("kernel", set()) | r.counts.get("python", set())
            check = ("the same games on and off" if len(zrec_games) == 1 else
                     f"GAMES DIFFER on and off: {len(zrec_games)} kinds of plies")
        kernels = " / ".join(",".join(sorted(r.kernels.get(k, {"—"})))
                             for k in ("kernel", "python"))
        out.append(f"| {game} | {r.cell('floor')} | {r.cell('kernel')} | {r.cell('python')} | "
                   f"{ratio(r.best('floor'), r.best('kernel'))} | "
                   f"{ratio(r.best('kernel'), r.best('python'))} | {target} | {check} | "
                   f"{kernels} |")
    return out


def child_cpu(command: Sequence[str], env: dict[str, str]) -> tuple[float, str]:
    """CPU seconds (user + system) of ``command`` run as a whole process, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout[-2000:]}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done.stdout


def measure_validate(games: Sequence[str], args: argparse.Namespace) -> list[str]:
    """``zrec validate`` whole process, kernel on and off, beside python-chess, per ply."""
    from _needs import need_chess

    need_chess()
    from throughput import CHESS_READER, build_archive, build_pgn, zrec_plies

    size = int(args.mb * 1e6)
    pgn = build_pgn(size, args.seed)
    chess_plies = int(subprocess.run([sys.executable, "-c", CHESS_READER, str(pgn)],
                                     capture_output=True, text=True,
                                     check=True).stdout.split()[1])
    zrec = str(Path(sys.executable).with_name("zrec"))
    out = [f"## validate: plies per CPU second, whole process, best / median of "
           f"{args.rounds} rounds (archives of {args.mb:g} MB)", "",
           "| game | plies | python-chess | ZREC_KERNEL=1 | ZREC_KERNEL=0 | "
           "kernel × chess | python × chess | target |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    for game in games:
        archive = build_archive(game, size, args.seed)
        plies = zrec_plies(archive.read_bytes())[1]
        rates = Rates()
        reports: set[str] = set()
        for round_number in range(args.rounds):
            contenders = ["chess", "kernel", "python"]
            shift = round_number % 3
            for who in contenders[shift:] + contenders[:shift]:
                if who == "chess":
                    cpu, _ = child_cpu([sys.executable, "-c", CHESS_READER, str(pgn)],
                                       dict(os.environ))
                    rates.add(who, cpu, chess_plies, "python-chess", [])
                    continue
                env = {**os.environ, "ZREC_KERNEL": SWITCHES[who]}
                cpu, report = child_cpu([zrec, "validate", str(archive)], env)
                reports.add(report)
                rates.add(who, cpu, plies, "", [])
            print(f"  validate round {round_number + 1} {game} done", file=sys.stderr,
                  flush=True)
        goal = 2.0 if game == "awethi" else 8.0
        met = verdict(rates.best("kernel") / rates.best("chess"), goal, higher=True)
        same = "" if len(reports) == 1 else "; REPORTS DIFFER between the runs"
        out.append(f"| {game} | {plies:,} | {rates.cell('chess')} | {rates.cell('kernel')} | "
                   f"{rates.cell('python')} | {ratio(rates.best('kernel'), rates.best('chess'))}"
                   f" | {ratio(rates.best('python'), rates.best('chess'))} | "
                   f"≥ {goal:g}×: {met}{same} |")
    return out


def kernel_of(switch: str) -> str:
    """What a process started with ``ZREC_KERNEL=switch`` says its kernel is."""
    code = f"import sys; sys.path.insert(0, {str(HERE)!r}); import kernel_bench as k; " \
           "print(k.kernel_name())"
    env = {**os.environ, "ZREC_KERNEL": switch}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        print(json.dumps(child(json.loads(argv[1]))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=PARTS, help="(default: all)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--depth", type=int, default=11, help="perft depth (≤ the tables')")
    parser.add_argument("--board", choices=("lined", "open"), default="lined",
                        help="perft's board (Board)")
    parser.add_argument("--jumps", choices=("line", "bent"), default="line",
                        help="perft's jumps (Jumps)")
    parser.add_argument("--games", type=int, default=200, help="random games of zrec a run")
    parser.add_argument("--floor-games", type=int, default=20000, help="the floor's games")
    parser.add_argument("--mcts", default="mcts:16", help="the search player of mcts")
    parser.add_argument("--mcts-games", type=int, default=3, help="its games a run")
    parser.add_argument("--max-plies", type=int, default=300, help="cut a game off here")
    parser.add_argument("--mb", type=float, default=5.0, help="size of each validate archive")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    deepest = min(len(counts) for counts in perft_tables(args).values())
    if not 1 <= args.depth <= deepest:
        parser.error(f"--depth: from 1 to {deepest} under {reading(args)} (the tables' "
                     "last depth)")
    from zrec.rules import all_games

    every = [g.name for g in all_games()]
    for game in args.game or []:
        if game not in every:
            parser.error(f"--game: no game {game!r}; the games are {', '.join(every)}")
    parts = args.only or list(PARTS)
    print(f"# kernel_bench, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs; "
          f"ZREC_KERNEL=1 runs on {kernel_of('1')}, ZREC_KERNEL=0 on {kernel_of('0')}\n")
    with tempfile.TemporaryDirectory() as folder:
        floor = build_floor(Path(folder))
        if floor is None:
            print("(no gcc: the floor's columns are empty)\n")
        for part in parts:
            chosen = args.game or {"perft": list(SERPENTS), "mcts": ["kolowis"]}.get(part, every)
            if part == "perft":
                chosen = [g for g in chosen if g in SERPENTS]
            lines = (measure_validate(chosen, args) if part == "validate"
                     else measure_engines(part, chosen, args, floor))
            print("\n".join(lines) + "\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
