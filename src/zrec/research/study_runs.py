"""Running a study: every reading's games, in one process or several.

The games of each reading are cut into pieces of :data:`GAMES_PER_PIECE` games; a piece is played
here, by a worker process (``jobs`` above 1) or by a Dask cluster's worker
(:mod:`zrec.research.pieces`), and the pieces are put back in order,
so the statistics are the same, byte for byte, whatever the number of processes:
each game plays with its own generator (:func:`zrec.research.study.game_rng`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from zrec.research.pieces import run_pieces
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

    def told(task: Task) -> None:
        if tick is not None:
            tick(task[4] - task[3])

    done = run_pieces(_work, tasks, jobs, cluster, told)
    per_reading = len(tasks) // len(readings)
    out = []
    for i, reading in enumerate(readings):
        pieces = done[i * per_reading : (i + 1) * per_reading]
        results = [r for piece in pieces for r in piece]
        out.append(summarize(rules, reading, results, seed, max_plies, seats))
    return out
