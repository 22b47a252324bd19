"""The ratings at size: :func:`zrec.tournament.ratings.compute.rate_pool` on made-up games
(no archive), and, with ``--db``, :func:`zrec.tournament.ratings.compute.rate` over an
archive (reading its games too).

* ``glicko2``: ``--games`` two-seat games (default 100,000) among ``--players``
  players, ``--per-period`` games a rating period (one round of an event each), the
  pairs and results drawn from a seeded generator;
* ``plackett-luce``: ``--multi`` three-seat games (default 10,000) among the same
  players, ranked at random, one period a day;
* ``archive``: every pool of ``--db`` (a SQLite file or a postgresql:// URL).

Wall and CPU time of one run each.  Usage::

    python benchmarks/ratings_bench.py [--games 100000] [--players 2000] [--per-period 500]
        [--multi 10000] [--db ARCHIVE]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from fractions import Fraction

from zrec.archive.rated import rate
from zrec.tournament.ratings.compute import rate_pool
from zrec.tournament.ratings.games import RatedGame

SCORES = [(Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)),
          (Fraction(1, 2), Fraction(1, 2))]


def two_seat(games: int, players: int, per_period: int, rng: random.Random) -> list[RatedGame]:
    out = []
    for gid in range(1, games + 1):
        a, b = rng.sample(range(1, players + 1), 2)
        period = (gid - 1) // per_period + 1
        out.append(RatedGame(gid, "bench", "", (a, b), rng.choice(SCORES),
                             f"2026.01.{1 + period % 28:02d}", "Bench", 1, period))
    return out


def three_seat(games: int, players: int, rng: random.Random) -> list[RatedGame]:
    out = []
    for gid in range(1, games + 1):
        seats = tuple(rng.sample(range(1, players + 1), 3))
        scores = tuple(Fraction(rng.choice((0, 1, 2))) for _ in seats)
        day = 1 + (gid // 100) % 28
        out.append(RatedGame(gid, "bench3", "", seats, scores, f"{2000 + gid // 2800}.01."
                             f"{day:02d}"))
    return out


def timed(label: str, run: Callable[[], object], count: int) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{label}: {count:,} games in {wall:.2f} s wall, {cpu:.2f} s CPU "
          f"({count / wall:,.0f} games/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--per-period", type=int, default=500)
    parser.add_argument("--multi", type=int, default=10_000)
    parser.add_argument("--db", help="an archive to rate as zrec archive ratings does")
    args = parser.parse_args()
    rng = random.Random(2026)
    games = two_seat(args.games, args.players, args.per_period, rng)
    timed("glicko2", lambda: rate_pool("bench", "", games), len(games))
    multi = three_seat(args.multi, args.players, rng)
    # (a name the registry does not know, played with three seats: Plackett-Luce)
    timed("plackett-luce", lambda: rate_pool("bench3", "", multi), len(multi))
    if args.db:
        from zrec.archive import Archive

        with Archive.open(args.db, read_only=True) as archive:
            count = archive.count()
            timed("archive", lambda: rate(archive), count)


if __name__ == "__main__":
    main()
