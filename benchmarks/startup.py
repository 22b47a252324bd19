"""Start-up: how long short zrec commands take as whole processes, beside the floor of a
bare typer application.

In one run, round by round and in a new order each round, it starts:

* ``python -c pass``: the interpreter alone;
* the floor: a script defining a typer application with one command that prints a
  word, run the same way as zrec (what any typer command pays);
* ``zrec --version``;
* ``zrec validate one.zrec``: one random Mosona game of plain moves (the common case);
* ``zrec validate`` of ``samples/culin-opening.zrec``: comments and variations, read
  with Lark from its cache (warmed first);
* ``zrec archive search --player NAME`` on a small SQLite archive (500 games, made by
  the script with ``zrec archive import``).

It prints the median and the fastest of each in milliseconds and the median's ratio to
the floor's.  ``--baseline SRC`` also times the zrec of another source folder (say a
checkout of main, ``git archive main src | tar -x -C /tmp/before``) in the same rounds,
for a before-and-after comparison.

Usage::

    python benchmarks/startup.py [--rounds 40] [--baseline /tmp/before/src]

Files go in benchmarks/data/startup/ (the grammar cache included).  Each command runs
once before the timed rounds, so that Python's bytecode caches are written and used,
as in an installed zrec (``PYTHONDONTWRITEBYTECODE`` is ignored here).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "startup"
SAMPLE = HERE.parent / "samples" / "culin-opening.zrec"

FLOOR = '''"""A bare typer application with one command."""
import typer

app = typer.Typer()


@app.command()
def hello() -> None:
    print("hello")


app()
'''


def games(count: int, players: int, seed: int) -> str:
    """``count`` random Mosona games of plain moves, with players, as text."""
    from zrec.notation.writer import write_game
    from zrec.play.selfplay import random_game
    from zrec.rules import find_game

    rules = find_game("mosona")
    out = []
    for i in range(count):
        rng = random.Random(seed * 1_000_003 + i)
        tags = {
            "Event": f"Club {i % 10}",
            "Date": f"2026.{1 + i % 12:02d}.??",
            "Round": str(1 + i % 9),
            "White": f"Player {rng.randrange(players)}",
            "Black": f"Player {rng.randrange(players)}",
        }
        out.append(write_game(random_game(rules, tags, rng, 300, 1)))
    return "\n".join(out) + "\n"


def zrec_command() -> list[str]:
    """The ``zrec`` console script beside this interpreter, else ``python -m zrec``."""
    script = Path(sys.executable).parent / "zrec"
    return [str(script)] if script.exists() else [sys.executable, "-m", "zrec"]


def run(command: list[str], env: dict[str, str]) -> float:
    """Wall time of one whole process; it must succeed."""
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr!r}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--games", type=int, default=500, help="games in the archive")
    parser.add_argument("--baseline", type=Path, help="also time the zrec of this src/")
    args = parser.parse_args()

    DATA.mkdir(parents=True, exist_ok=True)
    floor = DATA / "floor.py"
    floor.write_text(FLOOR, encoding="utf-8")
    one = DATA / "one.zrec"
    one.write_text(games(1, 2, seed=7), encoding="utf-8")
    many = DATA / f"archive-{args.games}.zrec"
    if not many.exists():
        many.write_text(games(args.games, 50, seed=1), encoding="utf-8")

    env = {**os.environ, "XDG_CACHE_HOME": str(DATA / "cache")}
    env.pop("PYTHONPATH", None)
    # as installed: modules read from their bytecode caches (written by the first run)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    zrec = zrec_command()
    variants = {"": env}
    if args.baseline is not None:
        variants[" (baseline)"] = {**env, "PYTHONPATH": str(args.baseline.resolve())}

    commands: dict[str, tuple[list[str], dict[str, str]]] = {
        "python -c pass": ([sys.executable, "-c", "pass"], env),
        "typer floor": ([sys.executable, str(floor)], env),
    }
    for label, variant in variants.items():
        db = DATA / f"archive-{args.games}{label.strip(' ()')}.sqlite"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        run([*zrec, "archive", "import", "--db", str(db), "-q", str(many)], variant)
        run([*zrec, "validate", str(SAMPLE)], variant)  # Lark's cache, made once
        commands[f"zrec --version{label}"] = ([*zrec, "--version"], variant)
        commands[f"zrec validate one.zrec{label}"] = ([*zrec, "validate", str(one)], variant)
        commands[f"zrec validate culin-opening{label}"] = (
            [*zrec, "validate", str(SAMPLE)],
            variant,
        )
        commands[f"zrec archive search --player{label}"] = (
            [*zrec, "archive", "search", "--db", str(db), "--player", "Player 7"],
            variant,
        )

    for command, variant in commands.values():  # a first run writes the caches
        run(command, variant)
    times: dict[str, list[float]] = {name: [] for name in commands}
    order = list(commands)
    shuffle = random.Random(0)
    for _ in range(args.rounds):
        shuffle.shuffle(order)
        for name in order:
            command, variant = commands[name]
            times[name].append(run(command, variant))

    floor_median = statistics.median(times["typer floor"])
    print(f"{args.rounds} rounds, interleaved; milliseconds, whole process")
    print(f"{'':40} {'median':>8} {'fastest':>8} {'x floor':>8}")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(
            f"{name:40} {median * 1e3:8.1f} {min(samples) * 1e3:8.1f}"
            f" {median / floor_median:8.2f}"
        )


if __name__ == "__main__":
    main()
