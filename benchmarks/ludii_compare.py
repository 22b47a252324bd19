"""zrec beside Ludii on Ludii's own rules of the serpent games: perft counts, random-play
metrics and Ludii's trials validated, side by side, in one run.

Ludii (the Digital Ludeme Project's general game system, v1.3.13) is not part of zrec
and is not in its checkout: ``--ludii`` (default ``$LUDII`` or ``/work/ludii/build``)
is a folder that holds Ludii's compiled classes (``classes/``), its resources
(``res/``, with ``res/lud`` and ``res/def``), its jars (``lib/``) and zrec's driver
``benchmarks/ludii/ZrecLudii.java`` compiled (``driver/``; compiled here with ``javac``
when missing).  Without it the script says so and exits with code 0, doing nothing.

For each of Awithlaknan Mosona and Kolowis Awithlaknannai it prints:

- perft, depths 1..``--depth``: Ludii's count (its legal moves as it lists them, from
  its start) beside ``zrec perft`` under zrec's reading of Ludii's rules;
- ``--games`` random games each side: Ludii's random playouts (the driver's ``trials``)
  and ``zrec study`` with ``--max-plies`` at Ludii's turn limit (2500 turns), the
  metrics DurationTurns, BranchingFactor, AdvantageP1 and Balance with 95% intervals
  (percentile bootstrap, 200 resamples, as ``zrec study``) and whether they overlap;
- Ludii's trials converted (``zrec convert --from ludii``) and validated (``zrec
  validate``): how many are legal records.

For Ludii's Awithlaknakwe (Stone Warriors under ``Ruleset "ludii"``: four seats in two
teams) it prints the perft counts and Ludii's trials validated, not the metrics.

zrec's reading of Ludii's rules is ``-O Reading=ludii`` when the game declares that
named reading; else the options of that reading one by one (Board lined, Jumps line,
Middle left, First White, Captures optional, Chains one, Blocked loses, EndRule
majority, NoCapture off, Repetition off, and Lattice 48 for Kolowis), leaving out, and
naming, each tag this zrec does not know: zrec can then agree with Ludii only once it
has them all.  Usage::

    python benchmarks/ludii_compare.py [--ludii DIR] [--depth 7] [--games 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from zrec.rules import find_game

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "ludii" / "ZrecLudii.java"

#: zrec's game, Ludii's .lud (under res/lud) and the options of Ludii's reading.
LUDII_READING = {
    "Board": "lined",
    "Jumps": "line",
    "Middle": "left",
    "First": "White",
    "Captures": "optional",
    "Chains": "one",
    "Blocked": "loses",
    "EndRule": "majority",
    "NoCapture": "off",
    "Repetition": "off",
}
GAMES: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("mosona", "board/war/leaping/lines/Awithlaknan Mosona.lud", {}),
    ("kolowis", "board/war/leaping/lines/Kolowis Awithlaknannai.lud", {"Lattice": "48"}),
    ("stone-warriors", "board/war/custodial/Awithlaknakwe.lud", {"Ruleset": "ludii"}),
)
#: The games whose random-play metrics are compared: Ludii's Awithlaknakwe has four
#: seats in two teams, which the two-seat metrics here do not fit.
TWO_SEATS = ("mosona", "kolowis")
METRICS = ("DurationTurns", "BranchingFactor", "AdvantageP1", "Balance")
TURN_LIMIT = 2500  # Ludii: 1250 turns a player, 2 players


def zrec(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run ``zrec`` (this interpreter's) and return what it printed."""
    done = subprocess.run(
        [sys.executable, "-m", "zrec", *args], capture_output=True, text=True, check=False
    )
    if check and done.returncode not in (0, 1):
        raise SystemExit(f"zrec {args[0]} failed:\n{done.stderr}")
    return done


class Ludii:
    """The built Ludii and the driver, run with ``java``."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.classpath = os.pathsep.join(
            str(folder / p) for p in ("driver", "classes", "res", "lib/*")
        )

    @staticmethod
    def find(folder: Path) -> Ludii | None:
        if not (folder / "classes" / "other" / "GameLoader.class").is_file():
            return None
        if shutil.which("java") is None:
            return None
        ludii = Ludii(folder)
        if not (folder / "driver" / "ZrecLudii.class").is_file():
            subprocess.run(
                [
                    "javac",
                    "-nowarn",
                    "-cp",
                    ludii.classpath,
                    "-d",
                    str(folder / "driver"),
                    *[str(DRIVER)],
                ],
                check=True,
            )
        return ludii

    def run(self, *args: str) -> list[str]:
        done = subprocess.run(
            ["nice", "java", "-Xmx1g", "-cp", self.classpath, "ZrecLudii", *args],
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.splitlines()

    def lud(self, name: str) -> str:
        return str(self.folder / "res" / "lud" / name)


@dataclass
class Reading:
    """zrec's options for Ludii's reading of one game, and the tags zrec lacks."""

    options: dict[str, str]
    missing: list[str]

    def flags(self) -> list[str]:
        return [f"-O{k}={v}" for k, v in self.options.items()]


def reading_of(name: str, extra: dict[str, str]) -> Reading:
    game = find_game(name)
    readings = getattr(game, "readings", {})
    if "ludii" in readings:
        return Reading({"Reading": "ludii"}, [])
    wanted = {**(LUDII_READING if name in TWO_SEATS else {}), **extra}
    known = {k: v for k, v in wanted.items() if k in game.options and v in game.options[k].values}
    return Reading(known, [f"{k} {v}" for k, v in wanted.items() if k not in known])


def bootstrap(
    rows: Sequence[tuple[int, int, int, int]],
    metric: Callable[[Sequence[tuple[int, int, int, int]]], float],
    seed: int,
) -> tuple[float, float, float]:
    """The metric and its 95% percentile-bootstrap interval (200 resamples)."""
    value = metric(rows)
    rng = random.Random(seed)
    samples = sorted(metric([rng.choice(rows) for _ in rows]) for _ in range(200))
    low, high = samples[4], samples[194]
    return value, min(low, value), max(high, value)


# a Ludii trial row: (length, winner, legal moves summed, decisions)
def _duration(rows: Sequence[tuple[int, int, int, int]]) -> float:
    return sum(r[0] for r in rows) / len(rows)


def _branching(rows: Sequence[tuple[int, int, int, int]]) -> float:
    return sum(r[2] for r in rows) / max(1, sum(r[3] for r in rows))


def _advantage(rows: Sequence[tuple[int, int, int, int]]) -> float:
    return sum(r[1] == 1 for r in rows) / len(rows)


def _balance(rows: Sequence[tuple[int, int, int, int]]) -> float:
    return 1 - abs(sum(r[1] == 1 for r in rows) - sum(r[1] == 2 for r in rows)) / len(rows)


LUDII_METRICS = {
    "DurationTurns": _duration,
    "BranchingFactor": _branching,
    "AdvantageP1": _advantage,
    "Balance": _balance,
}


@dataclass
class Side:
    """One side's random games: the metrics (value, low, high) and the counts."""

    metrics: dict[str, tuple[float, float, float]]
    games: int
    draws: int
    turn_limit: int


def ludii_trials(ludii: Ludii, lud: str, games: int, seed: int, folder: Path) -> Side:
    rows: list[tuple[int, int, int, int]] = []
    limit = draws = 0
    for line in ludii.run("trials", lud, str(games), str(seed), str(folder)):
        f = line.split()
        if not f or f[0] != "trial":
            continue
        length, winner, endtype, legal, decisions = (
            int(f[1]),
            int(f[3]),
            f[4],
            int(f[5]),
            int(f[6]),
        )
        limit += endtype == "TurnLimit"
        draws += winner == 0 and endtype != "TurnLimit"
        rows.append((length, winner, legal, decisions))
    metrics = {m: bootstrap(rows, fn, seed) for m, fn in LUDII_METRICS.items()}
    return Side(metrics, len(rows), draws, limit)


def zrec_study(name: str, reading: Reading, games: int, seed: int) -> Side:
    done = zrec(
        "study",
        "--game",
        name,
        *reading.flags(),
        "--games",
        str(games),
        "--seed",
        str(seed),
        "--max-plies",
        str(TURN_LIMIT),
        "--metrics",
        ",".join(METRICS),
        "--format",
        "json",
        "-q",
    )
    (study,) = json.loads(done.stdout)
    metrics = {
        m: (v["value"], v["low"], v["high"]) for m, v in study["metrics"].items() if v is not None
    }
    results = study["results"]
    return Side(metrics, study["games"], results["drawn"], results["unfinished"])


def validate_trials(folder: Path, reading: Reading, count: int) -> str:
    trials = sorted(folder.glob("RandomTrial_*.txt"), key=lambda p: int(p.stem.split("_")[1]))
    trials = trials[:count]
    out = folder / "trials.zrec"
    done = zrec(
        "convert",
        "--from",
        "ludii",
        *map(str, trials),
        "--to",
        "zrec",
        "-o",
        str(out),
        check=False,
    )
    if done.returncode == 2:
        return "not converted: this zrec has no convert --from ludii"
    if done.returncode != 0:
        return f"not converted: {done.stderr.strip()}"
    if "Reading" not in reading.options:  # this zrec has no named reading: spell it out
        tags = "".join(f'[{k} "{v}"]\n' for k, v in reading.options.items())
        out.write_text(out.read_text().replace('[Reading "ludii"]\n', tags))
    done = zrec("validate", str(out))
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
    first = re.search(r"error\[[^\]]+\][^\n]*", done.stdout)
    return last + (f"\n    first error: {first.group(0)}" if first else "")


def fmt(value: tuple[float, float, float]) -> str:
    v, lo, hi = value
    digits = 1 if max(abs(v), abs(hi)) >= 10 else 3
    return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = os.environ.get("LUDII", "/work/ludii/build")
    parser.add_argument("--ludii", type=Path, default=Path(default), help="Ludii's build.")
    parser.add_argument("--depth", type=int, default=7, help="Perft depths 1..N.")
    parser.add_argument("--games", type=int, default=1000, help="Random games each side.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--validate", type=int, default=200, help="Ludii trials validated.")
    parser.add_argument(
        "--game", action="append", default=[], help="mosona, kolowis or stone-warriors."
    )
    args = parser.parse_args(argv)
    ludii = Ludii.find(args.ludii)
    if ludii is None:
        print(
            f"ludii_compare: no Ludii build at {args.ludii} (classes/other/GameLoader.class "
            "and java are needed): nothing compared"
        )
        return 0
    differ = 0
    for name, lud, extra in GAMES:
        if args.game and name not in args.game:
            continue
        reading = reading_of(name, extra)
        flags = " ".join(reading.flags())
        print(f"== {find_game(name).title}: Ludii's {Path(lud).name} | zrec {flags}")
        if reading.missing:
            print(f"   this zrec lacks {', '.join(reading.missing)}: it cannot agree yet")
        ludii_counts = {
            int(f[1]): int(f[2])
            for f in (line.split() for line in ludii.run("perft", ludii.lud(lud), str(args.depth)))
            if f and f[0] == "perft"
        }
        done = zrec(
            "perft",
            "--game",
            name,
            *reading.flags(),
            "--depth",
            str(args.depth),
            "--format",
            "json",
            check=False,
        )
        zrec_counts = json.loads(done.stdout) if done.returncode == 0 else []
        if done.returncode != 0:
            print(f"   zrec perft: {done.stderr.strip()}")
        print(f"{'depth':>5} {'Ludii':>12} {'zrec':>12}")
        for d in range(1, args.depth + 1):
            z = zrec_counts[d - 1] if d <= len(zrec_counts) else None
            same = "" if z == ludii_counts.get(d) else "  differs"
            differ += bool(same)
            print(f"{d:>5} {ludii_counts.get(d, '-'):>12} {z if z is not None else '-':>12}{same}")
        with tempfile.TemporaryDirectory(prefix="ludii-trials-") as tmp:
            if name not in TWO_SEATS:  # its trials validated only
                ludii_trials(ludii, ludii.lud(lud), args.validate, args.seed, Path(tmp))
                checked = validate_trials(Path(tmp), reading, args.validate)
                print(f"Ludii's trials as zrec records: {checked}")
                continue
            theirs = ludii_trials(ludii, ludii.lud(lud), args.games, args.seed, Path(tmp))
            ours = zrec_study(name, reading, args.games, args.seed)
            print(f"{'metric':<16} {'Ludii':>26} {'zrec':>26}")
            for m in METRICS:
                a = theirs.metrics[m]
                b = ours.metrics.get(m)
                overlap = b is not None and a[1] <= b[2] and b[1] <= a[2]
                differ += not overlap
                mark = "" if overlap else "  apart"
                print(f"{m:<16} {fmt(a):>26} {fmt(b) if b else '-':>26}{mark}")
            for key in ("games", "draws", "turn_limit"):
                print(f"{key:<16} {getattr(theirs, key):>26} {getattr(ours, key):>26}")
            checked = validate_trials(Path(tmp), reading, args.validate)
            print(f"Ludii's trials as zrec records: {checked}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
