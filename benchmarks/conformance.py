"""The full random-game conformance run: 10,000 games per game, board and jump rule.

Each configuration's games are generated with a fixed seed, written as text, read
back and validated; every game must be valid with no diagnostic.  Configurations run
in parallel (one process a core).  Usage::

    python benchmarks/conformance.py [--games 10000] [--game awethi ...]
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from concurrent.futures import ProcessPoolExecutor

CONFIGS: list[tuple[str, dict[str, str]]] = [
    ("mosona", {"Board": "lined", "Jumps": "line"}),
    ("mosona", {"Board": "open", "Jumps": "line"}),
    ("mosona", {"Board": "lined", "Jumps": "bent"}),
    ("mosona", {"Board": "open", "Jumps": "bent"}),
    ("kolowis", {"Board": "lined", "Jumps": "line"}),
    ("kolowis", {"Board": "open", "Jumps": "line"}),
    ("kolowis", {"Board": "lined", "Jumps": "bent"}),
    ("kolowis", {"Board": "open", "Jumps": "bent"}),
    ("stone-warriors", {"Ruleset": "default"}),
    ("stone-warriors", {"Ruleset": "culin"}),
    *(("awethi", {"Seats": str(n)}) for n in (1, 2, 3, 4)),
]


def run(config: tuple[str, dict[str, str]], count: int) -> str:
    from zrec.check.diagnostics import Totals
    from zrec.check.validate import validate_records
    from zrec.notation.reader import read_records
    from zrec.notation.writer import write_games
    from zrec.play.selfplay import random_games
    from zrec.rules import find_game

    game, tags = config
    start = time.perf_counter()
    options = {k: v for k, v in tags.items() if k != "Seats"}
    seats = int(tags["Seats"]) if "Seats" in tags else None
    games = list(random_games(find_game(game), options, count, seed=10_000, seats=seats))
    endings: dict[str, int] = {}
    for record in games:
        endings[record.result] = endings.get(record.result, 0) + 1
    text = "".join(write_games(games))
    summary = Totals()
    for report in validate_records(read_records(io.BytesIO(text.encode()), "run"), "run"):
        summary.add(report)
    seconds = time.perf_counter() - start
    clean = summary.valid == count and summary.errors == 0 and summary.warnings == 0
    label = f"{game} " + " ".join(f"{k}={v}" for k, v in tags.items())
    return (
        f"{'ok  ' if clean else 'FAIL'} {label}: {summary.line()}; "
        f"{summary.plies} plies; results "
        + ", ".join(f"{k} {v}" for k, v in sorted(endings.items()))
        + f"; {seconds:.0f} s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument(
        "--game",
        action="append",
        choices=sorted({game for game, _ in CONFIGS}),
        help="only this game's configurations (repeatable; default: every game)",
    )
    args = parser.parse_args(argv)
    configs = [c for c in CONFIGS if not args.game or c[0] in args.game]
    failed = False
    with ProcessPoolExecutor() as pool:
        for line in pool.map(run, configs, [args.games] * len(configs)):
            print(line, flush=True)
            failed |= line.startswith("FAIL")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
