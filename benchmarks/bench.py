"""Throughput of reading and validating a large archive, beside python-chess.

Builds (once, cached in benchmarks/data/) an archive of random legal games written by
``zrec random`` and a PGN file of about the same size of random legal chess games
written by python-chess, then, in the same run, times:

* ``parse``: reading every game of the archive with zrec's reader, against
  ``chess.pgn.read_game`` over the PGN file;
* ``validate``: reading and replaying every game through its rules (what
  ``zrec validate`` does), against the same ``read_game`` loop.

The timings are interleaved in ``--repeat`` rounds and the best of each is kept.  Usage::

    python benchmarks/bench.py [--games 5000] [--game mosona] [--repeat 3]

python-chess is a benchmark-only extra: ``pip install .[bench]``.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from _needs import need_chess

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def build_archive(game: str, count: int, seed: int, options: dict[str, str]) -> Path:
    """The archive of random games, made once and kept."""
    from zrec.notation.writer import write_games
    from zrec.play.selfplay import random_games
    from zrec.rules import find_game

    suffix = "".join(f"-{k}{v}" for k, v in sorted(options.items()))
    path = DATA / f"{game}{suffix}-{count}-{seed}.zrec"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        games = random_games(find_game(game), options, count, seed, max_plies=300)
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as out:
            for text in write_games(games):
                out.write(text)
        tmp.replace(path)
    return path


def build_pgn(size: int, seed: int) -> Path:
    """A PGN file of random legal chess games at least ``size`` bytes long."""
    import chess
    import chess.pgn

    path = DATA / f"chess-{size}-{seed}.pgn"
    if path.exists():
        return path
    rng = random.Random(seed)
    parts: list[str] = []
    total = 0
    number = 0
    while total < size:
        number += 1
        board = chess.Board()
        game = chess.pgn.Game()
        game.headers["Event"] = "random"
        game.headers["Round"] = str(number)
        node: chess.pgn.GameNode = game
        for _ in range(rng.randint(20, 160)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
        game.headers["Result"] = board.result(claim_draw=False)
        text = str(game) + "\n\n"
        parts.append(text)
        total += len(text.encode())
    DATA.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(parts), encoding="utf-8")
    return path


def best_of(repeat: int, work: Callable[[], int]) -> tuple[float, int]:
    """The fastest of ``repeat`` runs of ``work`` and what it counted."""
    best = float("inf")
    count = 0
    for _ in range(repeat):
        start = time.perf_counter()
        count = work()
        best = min(best, time.perf_counter() - start)
    return best, count


def time_chess(pgn: bytes, repeat: int) -> tuple[float, int]:
    import chess.pgn

    def work() -> int:
        stream = io.StringIO(pgn.decode("utf-8"))
        count = 0
        while chess.pgn.read_game(stream) is not None:
            count += 1
        return count

    return best_of(repeat, work)


def time_parse(data: bytes, repeat: int) -> tuple[float, int]:
    from zrec.notation.reader import read_records

    def work() -> int:
        count = 0
        for record in read_records(io.BytesIO(data), "bench"):
            if record.game is None:
                raise SystemExit(f"benchmark archive is broken: {record.problem}")
            count += 1
        return count

    return best_of(repeat, work)


def time_validate(data: bytes, repeat: int) -> tuple[float, int, int]:
    from zrec.check.diagnostics import Totals
    from zrec.check.validate import validate_records
    from zrec.notation.reader import read_records

    plies = 0

    def work() -> int:
        nonlocal plies
        summary = Totals()
        for report in validate_records(read_records(io.BytesIO(data), "bench"), "bench"):
            summary.add(report)
        if summary.invalid:
            raise SystemExit(f"benchmark archive has {summary.invalid} invalid games")
        plies = summary.plies
        return summary.games

    seconds, games = best_of(repeat, work)
    return seconds, games, plies


def main(argv: list[str] | None = None) -> int:
    need_chess()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000, help="games in the archive")
    parser.add_argument("--game", default="mosona", help="which game to archive")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (best kept)")
    parser.add_argument("-O", "--option", action="append", default=[], help="Tag=value")
    parser.add_argument(
        "--only", choices=["parse", "validate"], help="run one benchmark (default: both)"
    )
    args = parser.parse_args(argv)
    options = dict(item.split("=", 1) for item in args.option)

    archive = build_archive(args.game, args.games, args.seed, options)
    data = archive.read_bytes()
    pgn = build_pgn(len(data), args.seed).read_bytes()
    mb, chess_mb = len(data) / 1e6, len(pgn) / 1e6
    print(f"archive: {archive.name}: {args.games} games, {mb:.2f} MB")
    print(f"pgn:     {len(pgn) / 1e6:.2f} MB of random chess games")

    # Rounds interleave the timings, so that each kind meets the same machine
    # conditions; the best of each kind over all rounds is kept.
    chess_s = parse_s = validate_s = float("inf")
    chess_games = games = plies = 0
    for _ in range(args.repeat):
        seconds, chess_games = time_chess(pgn, 1)
        chess_s = min(chess_s, seconds)
        if args.only in (None, "parse"):
            seconds, games = time_parse(data, 1)
            parse_s = min(parse_s, seconds)
        if args.only in (None, "validate"):
            seconds, games, plies = time_validate(data, 1)
            validate_s = min(validate_s, seconds)
    chess_rate = chess_mb / chess_s
    print(
        f"python-chess read_game: {chess_s:.2f} s, {chess_rate:.3f} MB/s, "
        f"{chess_games / chess_s:.0f} games/s"
    )
    if args.only in (None, "parse"):
        rate = mb / parse_s
        print(
            f"zrec read:              {parse_s:.2f} s, {rate:.3f} MB/s, "
            f"{games / parse_s:.0f} games/s; ratio {rate / chess_rate:.2f}x python-chess"
        )
    if args.only in (None, "validate"):
        rate = mb / validate_s
        print(
            f"zrec validate:          {validate_s:.2f} s, {rate:.3f} MB/s, "
            f"{games / validate_s:.0f} games/s, {plies / validate_s:.0f} plies/s; "
            f"ratio {rate / chess_rate:.2f}x python-chess"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
