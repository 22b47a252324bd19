"""What each rules engine costs per ply, as ``zrec validate`` pays it.

For each game, ``--games`` random legal games (fixed seed) are generated, written as
text and read back once, outside the timings.  Then, in-process, the pre-parsed games
are replayed ``--repeat`` times and the median is kept:

* ``validate``: :func:`zrec.check.validate.validate_game` on every game: reading
  each written move (the engine's ``resolve``, which runs the end test and the legal
  move checks), ``apply``, the move-number checks and the end of game judgement;
* ``walk``: the play layer's :func:`zrec.play.walk` alone with a visitor that
  checks nothing (``resolve`` + ``apply`` per ply, the same walk the validator makes).

Times are microseconds per ply (turns and priest entries alike: every move the
walker plays).  Usage::

    python benchmarks/engines.py [--games 300] [--repeat 5] [--game stone-warriors]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from zrec.notation.model import Game

#: (label, game name, tags) of each configuration timed.
CONFIGS: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("Mosona", "mosona", {}),
    ("Kolowis", "kolowis", {}),
    ("Stone Warriors", "stone-warriors", {}),
    ("Awéthi", "awethi", {}),
)


def prepared_games(name: str, tags: dict[str, str], count: int, seed: int) -> list[Game]:
    """``count`` random games, written as text and read back."""
    from zrec.notation.reader import read_records
    from zrec.notation.writer import write_games
    from zrec.play.selfplay import random_games
    from zrec.rules import find_game

    text = "".join(write_games(random_games(find_game(name), tags, count, seed)))
    games: list[Game] = []
    for record in read_records(io.BytesIO(text.encode()), "bench"):
        if record.game is None:
            raise SystemExit(f"the benchmark games do not read back: {record.problem}")
        games.append(record.game)
    return games


def moves_played(games: Sequence[Game]) -> int:
    """Every move the walker plays over ``games`` (turns and moves that are not turns)."""
    return sum(len(game.line.moves) for game in games)


def median_seconds(repeat: int, work: Callable[[], None]) -> float:
    """The median of ``repeat`` timed runs of ``work``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def time_validate(games: Sequence[Game], repeat: int) -> float:
    from zrec.check.validate import validate_game

    def work() -> None:
        for number, game in enumerate(games, 1):
            report = validate_game(game, "bench", number)
            if not report.valid or report.diagnostics:
                raise SystemExit(f"benchmark game {number} is not clean: {report.diagnostics}")

    return median_seconds(repeat, work)


def time_walk(games: Sequence[Game], repeat: int) -> float:
    from zrec.play import Visitor, prepare, walk

    class Quiet(Visitor):
        every_step = False

    replays = [prepare(game, game.tag_map()) for game in games]
    lines = [game.line for game in games]

    def work() -> None:
        visitor = Quiet()
        for replay, line in zip(replays, lines, strict=True):
            walk(replay, line, visitor)

    return median_seconds(repeat, work)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="random games per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="runs per timing (median kept)")
    parser.add_argument("--game", action="append", help="only this game (by name); repeatable")
    args = parser.parse_args(argv)

    print(f"{'game':<16} {'games':>6} {'plies':>7} {'validate µs/ply':>16} {'walk µs/ply':>12}")
    for label, name, tags in CONFIGS:
        if args.game and name not in args.game:
            continue
        games = prepared_games(name, tags, args.games, args.seed)
        plies = moves_played(games)
        validate = time_validate(games, args.repeat) / plies * 1e6
        walked = time_walk(games, args.repeat) / plies * 1e6
        print(f"{label:<16} {len(games):>6} {plies:>7} {validate:>16.1f} {walked:>12.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
