"""The random player's DurationTurns, Drawishness, Completion and BranchingFactor from
``zrec study`` against an independent count: random games played here with a
deliberately naive move generator for Mosona and Kolowis, written from docs/rules.md as
the perft test does (tests/rules/test_serpent_perft.py), with its own random generator and
its own normal-approximation intervals.  The two estimates must agree within their intervals
(the intervals overlap)."""

from __future__ import annotations

import math
import random

import pytest

from zrec.research.metrics_ci import reading_metrics
from zrec.research.study import study_readings
from zrec.research.study_runs import run_study
from zrec.rules import find_game

Board = dict[str, str]  # point -> "W", "B" or "" (empty)


class Naive:
    """Mosona (``n`` 8) or Kolowis (16) on the lined board with straight jumps, in the
    plainest form."""

    def __init__(self, n: int) -> None:
        a = [f"a{i}" for i in range(1, n + 1)]
        b = [f"b{i}" for i in range(1, n + 2)]
        c = [f"c{i}" for i in range(1, n + 1)]
        self.n = n
        xy = {p: (2 * i, 0) for i, p in enumerate(b)}
        xy |= {p: (2 * i + 1, -1) for i, p in enumerate(a)}
        xy |= {p: (2 * i + 1, 1) for i, p in enumerate(c)}
        self.points = list(xy)
        lines = [(b[i], b[i + 1]) for i in range(n)]
        for i in range(n):
            lines += [(a[i], b[i]), (a[i], b[i + 1]), (c[i], b[i]), (c[i], b[i + 1])]
        lines += [(a[i], a[i + 1]) for i in range(n - 1)]
        lines += [(c[i], c[i + 1]) for i in range(n - 1)]
        self.nbrs: dict[str, set[str]] = {p: set() for p in xy}
        for x, y in lines:
            self.nbrs[x].add(y)
            self.nbrs[y].add(x)
        jumps = set()
        for q in xy:
            for p in self.nbrs[q]:
                for r in self.nbrs[q]:
                    (px, py), (qx, qy), (rx, ry) = xy[p], xy[q], xy[r]
                    if r != p and (qx - px, qy - py) == (rx - qx, ry - qy):
                        jumps.add((p, q, r))
        for p, q, r in [(a[0], b[0], c[0]), (a[-1], b[-1], c[-1])]:
            jumps |= {(p, q, r), (r, q, p)}
        self.jumps = sorted(jumps)

    def start(self) -> Board:
        n = self.n
        board = {p: "" for p in self.points}
        for i in range(1, n + 1):
            board[f"a{i}"], board[f"c{i}"] = "W", "B"
        for i in range(1, n // 2 + 1):
            board[f"b{i}"], board[f"b{n + 2 - i}"] = "B", "W"
        return board

    def moves(self, board: Board, side: str) -> list[Board]:
        """The positions after each legal move (each whole chain once)."""
        enemy = "B" if side == "W" else "W"
        chains: dict[tuple[tuple[str, ...], frozenset[str]], Board] = {}

        def jump(board: Board, at: str, path: tuple[str, ...], taken: frozenset[str]) -> None:
            went_on = False
            for p, q, r in self.jumps:
                if p == at and board[q] == enemy and board[r] == "":
                    went_on = True
                    after = dict(board)
                    after[p], after[q], after[r] = "", "", side
                    jump(after, r, (*path, r), taken | {q})
            if not went_on and taken:
                chains[path, taken] = board

        for p in self.points:
            if board[p] == side:
                jump(board, p, (p,), frozenset())
        if chains:
            return list(chains.values())
        steps = []
        for p in self.points:
            for r in sorted(self.nbrs[p]):
                if board[p] == side and board[r] == "":
                    after = dict(board)
                    after[p], after[r] = "", side
                    steps.append(after)
        return steps

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

    def perft(board: Board, side: str, depth: int) -> int:
        if depth == 0:
            return 1
        other = "B" if side == "W" else "W"
        return sum(perft(b, other, depth - 1) for b in naive.moves(board, side))

    assert [perft(naive.start(), "W", d) for d in range(1, 6)] == [3, 4, 9, 23, 76]


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
    naive, rng = Naive(n), random.Random(2026)
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
