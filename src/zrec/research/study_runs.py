"""Running a study: every reading's games, in one process or several.

The games of each reading are cut into pieces of :data:`GAMES_PER_PIECE` games; a piece is played
by a worker process (``jobs`` above 1) or here, and the pieces are put back in order,
so the statistics are the same, byte for byte, whatever the number of processes:
each game plays with its own generator (:func:`zrec.research.study.game_rng`).
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import signal
import sys
from collections.abc import Callable, Sequence

from zrec.research.study import (
    GameResult,
    Reading,
    StudyError,
    Summary,
    game_rng,
    play_games,
    prepare_reading,
    seat_players,
    summarize,
)
from zrec.rules import find_game
from zrec.rules.base import GameRules

__all__ = ["GAMES_PER_PIECE", "check", "run_study"]

#: games in one piece of work
GAMES_PER_PIECE = 100

#: what a worker needs to play a piece: the game's name, the reading, the seed, the
#: first game and the one after the last, the cap of plies, the seats and the kinds of
#: record the metrics need (:mod:`zrec.research.metrics_trace`)
Task = tuple[str, Reading, int, int, int, int, "int | None", frozenset[str]]


def check(
    rules: GameRules, readings: Sequence[Reading], games: int, seed: int, seats: int | None
) -> None:
    """Make the first game of every reading, so that a bad tag, a bad number of seats
    or players is reported before any game is played.  Raises
    :class:`~zrec.errors.ZrecError`."""
    if games < 1:
        raise StudyError(f"a study needs at least one game, not {games}")
    for reading in readings:
        replay = prepare_reading(rules, reading, game_rng(seed, 0), seats)
        seat_players(replay.engine, reading.players)


def _work(task: Task) -> list[GameResult]:
    name, reading, seed, start, stop, max_plies, seats, kinds = task
    return play_games(find_game(name), reading, seed, start, stop, max_plies, seats, kinds)


def run_study(
    rules: GameRules,
    readings: Sequence[Reading],
    games: int,
    seed: int,
    max_plies: int = 300,
    seats: int | None = None,
    jobs: int = 1,
    tick: Callable[[int], None] | None = None,
    kinds: frozenset[str] = frozenset(),
    cluster: str | None = None,
) -> list[Summary]:
    """The statistics of every reading, in order (``tick`` is told of each piece of
    games played; ``kinds``: what to record of each game for the metrics); with
    ``cluster``, a Dask scheduler's ``tcp://HOST:PORT``, the pieces are played by its
    workers (``jobs`` is not used).  Raises
    :class:`~zrec.errors.ZrecError`."""
    check(rules, readings, games, seed, seats)
    tasks: list[Task] = [
        (
            rules.name,
            reading,
            seed,
            start,
            min(start + GAMES_PER_PIECE, games),
            max_plies,
            seats,
            kinds,
        )
        for reading in readings
        for start in range(0, games, GAMES_PER_PIECE)
    ]
    if cluster is not None:
        from zrec.research.cluster import run_on_cluster

        def told(task: Task) -> None:
            if tick is not None:
                tick(task[4] - task[3])

        done = run_on_cluster(cluster, _work, tasks, told)
    elif jobs <= 1 or len(tasks) == 1:
        done = []
        for task in tasks:
            done.append(_work(task))
            if tick is not None:
                tick(task[4] - task[3])
    else:
        done = _in_workers(tasks, jobs, tick)
    per_reading = len(tasks) // len(readings)
    out = []
    for i, reading in enumerate(readings):
        pieces = done[i * per_reading : (i + 1) * per_reading]
        results = [r for piece in pieces for r in piece]
        out.append(summarize(rules, reading, results, seed, max_plies, seats))
    return out


def _in_workers(
    tasks: list[Task], jobs: int, tick: Callable[[int], None] | None
) -> list[list[GameResult]]:
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = context.Pool(jobs, initializer=_worker_start)
    try:
        done = []
        for task, piece in zip(tasks, pool.imap(_work, tasks), strict=True):
            done.append(piece)
            if tick is not None:
                tick(task[4] - task[3])
    except BaseException:
        pool.terminate()  # interrupted or failed: the pieces being played are dropped
        raise
    pool.close()
    pool.join()
    return done


def _worker_start() -> None:
    """A worker ends with the study: SIGTERM and SIGINT act as usual (not zrec's
    handlers, inherited), and on Linux the worker is killed when the study is."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the studying process decides
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
