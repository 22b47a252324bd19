"""The random player's DurationTurns, Drawishness, Completion and BranchingFactor from
``zrec study`` against an independent count: random games played here with the
deliberately naive move generator for Mosona and Kolowis that the perft test uses
(tests/naive_serpent.py, written from docs/rules.md), with its own random generator and
its own normal-approximation intervals.  The two estimates must agree within their intervals
(the intervals overlap)."""

from __future__ import annotations

import math
import random

import pytest

from naive_serpent import Naive
from zrec.research.metrics_ci import reading_metrics
from zrec.research.study import study_readings
from zrec.research.study_runs import run_study
from zrec.rules import find_game


class Player(Naive):
    """Mosona (``n`` 8) or Kolowis (16) on the lined board with straight jumps, played
    at random."""

    def play(self, rng: random.Random, cap: int) -> tuple[int, str, list[int]]:
        """One random game: plies, ``win``/``draw``/``cut`` and the legal moves of each
        position played.  No pieces: lost; no move: more pieces win, equal draw."""
        board, side, plies = self.start(), "W", 0
        legal: list[int] = []
        while True:
            mine = sum(v == side for v in board.values())
            theirs = sum(v not in ("", side) for v in board.values())
            if not mine:
                return plies, "win", legal
            moves = self.moves(board, side)
            if not moves:
                return plies, "win" if mine != theirs else "draw", legal
            if plies >= cap:
                return plies, "cut", legal
            legal.append(len(moves))
            board = rng.choice(moves)
            side = "B" if side == "W" else "W"
            plies += 1


def interval(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    half = 1.96 * sd / math.sqrt(len(values))
    return mean - half, mean + half


@pytest.mark.parametrize("n", [8, 16])
def test_the_naive_generator_counts_the_ruled_perft(n: int) -> None:
    naive = Naive(n)
    assert [naive.perft(naive.start(), "W", d) for d in range(1, 6)] == [3, 4, 9, 23, 76]


@pytest.mark.parametrize(
    ("game", "n", "games", "naive_games"), [("mosona", 8, 1500, 300), ("kolowis", 16, 500, 150)]
)
def test_random_play_metrics_agree_with_a_naive_count(
    game: str, n: int, games: int, naive_games: int
) -> None:
    rules = find_game(game)
    [summary] = run_study(rules, study_readings([]), games, 7, 300, kinds=frozenset({"legal"}))
    got = reading_metrics(
        summary, ("DurationTurns", "Drawishness", "Completion", "BranchingFactor")
    )
    naive, rng = Player(n), random.Random(2026)
    played = [naive.play(rng, 300) for _ in range(naive_games)]
    plies = [float(p) for p, _, _ in played]
    draws = [float(end == "draw") for _, end, _ in played]
    wins = [float(end == "win") for _, end, _ in played]
    # per game: legal moves summed, so the pooled ratio's interval is a ratio estimate's
    legal = [float(sum(moves)) for _, _, moves in played]
    counts = [float(len(moves)) for _, _, moves in played]
    bf = sum(legal) / sum(counts)
    residuals = [x - bf * n for x, n in zip(legal, counts, strict=True)]
    bf_half = 1.96 * math.sqrt(sum(r * r for r in residuals) / (len(residuals) - 1))
    bf_half /= math.sqrt(len(residuals)) * (sum(counts) / len(counts))
    naive_intervals = {
        "DurationTurns": interval(plies),
        "Drawishness": interval(draws) if any(draws) else (0.0, 3 / len(draws)),
        "Completion": interval(wins) if not all(wins) else (1 - 3 / len(wins), 1.0),
        "BranchingFactor": (bf - bf_half, bf + bf_half),
    }
    for name, (low, high) in naive_intervals.items():
        mine = got[name]
        assert mine.low is not None and mine.high is not None
        assert mine.low <= high and low <= mine.high, (name, mine, (low, high))
    # and neither is trivially wide
    duration = got["DurationTurns"]
    assert duration.high is not None and duration.low is not None
    assert duration.high - duration.low < 20
    assert naive_intervals["DurationTurns"][1] - naive_intervals["DurationTurns"][0] < 40
