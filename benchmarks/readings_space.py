"""How long ``zrec readings``, ``readings --fit`` and ``study --rank`` take as the
reading space grows, with timings.

The space of each serpent game is widened, in this process only, by options that the
engine is given but does not read (``--widen``: values per extra option, 2,3,3,2,2 by
default: 72 times today's space, the size the options of issue 37 give).  Every
combination still builds its own engine (the options are part of the engine's key), so
the work per combination is today's; only the answers repeat.  Printed: the
combinations of each game, then the wall-clock seconds of

- ``readings``: every reading of each serpent sample (``game_readings``);
- ``fit``: ``fit_records`` over every sample (the ``readings --fit samples/*.zrec``
  table);
- ``rank``: ``rank_readings`` of one summary per Mosona combination (the ranking step
  of ``study --rank``; the games it plays grow with the readings, one by one).

Usage::

    python benchmarks/readings_space.py [--widen 2,3,3,2,2] [--repeat 3] [--only fit]

Each run after the first finds the engines of the first already built (one process
keeps them): a single command is the first run, so time one measurement a process
(``--only``, ``--repeat 1``) to see what a command costs.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType

from zrec.check.readings import combinations, game_readings
from zrec.notation.model import Game
from zrec.notation.reader import read_records
from zrec.research.fit import fit_records
from zrec.rules import all_games, find_game
from zrec.rules.base import OptionSpec

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def widen(sizes: list[int]) -> None:
    """Give every serpent game extra options of ``sizes`` values each (this process)."""
    for name in ("mosona", "kolowis"):
        rules = find_game(name)
        specs = dict(rules.options)
        for k, size in enumerate(sizes, 1):
            values = tuple(f"v{i}" for i in range(size))
            specs[f"Extra{k}"] = OptionSpec(values[0], values, "an option no engine reads")
        rules.options = MappingProxyType(specs)  # type: ignore[misc]


def records() -> list[Game]:
    games = []
    for path in sorted(SAMPLES.glob("*.zrec")):
        games += [r.game for r in read_records(str(path)) if r.game is not None]
    return games


def timed(work: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def rank_many(n: int) -> None:
    """The metrics and ranking of ``n`` readings' summaries (40 games each), as
    ``study --rank`` measures and ranks them once the games are played."""
    from zrec.research.metrics_ci import kinds_for, reading_metrics
    from zrec.research.ranking import NEEDED, Playability, rank_readings
    from zrec.research.study import Reading
    from zrec.research.study_runs import run_study

    rules = find_game("mosona")
    [summary] = run_study(rules, [Reading(())], 40, 0, kinds=kinds_for(NEEDED))
    summaries = [summary] * n
    measured = [reading_metrics(s, NEEDED) for s in summaries]
    rank_readings(summaries, measured, Playability())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--widen", default="2,3,3,2,2", help="Values per extra option.")
    parser.add_argument("--repeat", type=int, default=3, help="Runs of each; the best.")
    parser.add_argument("--only", choices=("readings", "fit", "rank"), help="Only this.")
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.widen.split(",") if x.strip()]
    if sizes:
        widen(sizes)
    for rules in all_games():
        print(f"{rules.name:<16} {sum(1 for _ in combinations(rules)):>6} combinations")
    games = records()
    serpent = [g for g in games if g.game_type in ("mosona", "kolowis")]
    if args.only in (None, "readings"):
        seconds = timed(lambda: [game_readings(g) for g in serpent], args.repeat)
        print(f"readings of {len(serpent)} serpent samples: {seconds:8.2f} s")
    if args.only in (None, "fit"):
        seconds = timed(lambda: fit_records(games), args.repeat)
        print(f"fit of {len(games)} samples:            {seconds:8.2f} s")
    if args.only in (None, "rank"):
        n = sum(1 for _ in combinations(find_game("mosona")))
        seconds = timed(lambda: rank_many(n), args.repeat)
        print(f"rank of {n} Mosona readings:         {seconds:8.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
