"""Perft for the serpent games: the engine against tests/data/perft-serpent.json and
against a second, deliberately naive move generator written here from docs/rules.md
(Awithlaknannai Mosona).

The naive generator shares nothing with the engine: it names points by strings, lists
the lines with plain loops, finds the straight jumps as collinear triples of drawing
coordinates (the two curved end lines are listed by hand), keeps the board in a dict
and searches capture chains recursively.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zrec.rules.serpent.rules import KOLOWIS, MOSONA, SerpentEngine, SerpentPosition

DATA = Path(__file__).resolve().parents[1] / "data" / "perft-serpent.json"
GAMES = {"mosona": MOSONA, "kolowis": KOLOWIS}

Board = dict[str, str]  # point -> "W", "B" or "" (empty)


class Naive:
    """The rules of docs/rules.md (Awithlaknannai Mosona) in the plainest form."""

    def __init__(self, n: int, lined: bool, bent: bool):
        self.n = n
        a = [f"a{i}" for i in range(1, n + 1)]
        b = [f"b{i}" for i in range(1, n + 2)]
        c = [f"c{i}" for i in range(1, n + 1)]
        self.xy = {p: (2 * i, 0) for i, p in enumerate(b)}
        self.xy |= {p: (2 * i + 1, -1) for i, p in enumerate(a)}
        self.xy |= {p: (2 * i + 1, 1) for i, p in enumerate(c)}
        lines = [(b[i], b[i + 1]) for i in range(n)]
        for i in range(n):
            lines += [(a[i], b[i]), (a[i], b[i + 1]), (c[i], b[i]), (c[i], b[i + 1])]
        if lined:
            lines += [(a[i], a[i + 1]) for i in range(n - 1)]
            lines += [(c[i], c[i + 1]) for i in range(n - 1)]
        self.lines = lines
        self.nbrs: dict[str, set[str]] = {p: set() for p in self.xy}
        for x, y in lines:
            self.nbrs[x].add(y)
            self.nbrs[y].add(x)
        jumps = set()
        for q in self.xy:
            for p in self.nbrs[q]:
                for r in self.nbrs[q]:
                    if r == p:
                        continue
                    (px, py), (qx, qy), (rx, ry) = self.xy[p], self.xy[q], self.xy[r]
                    if bent or (qx - px, qy - py) == (rx - qx, ry - qy):
                        jumps.add((p, q, r))
        if not bent:
            for p, q, r in [(a[0], b[0], c[0]), (a[-1], b[-1], c[-1])]:
                jumps |= {(p, q, r), (r, q, p)}
        self.jumps = jumps

    def start(self) -> Board:
        n = self.n
        board = {p: "" for p in self.xy}
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

        for p in self.xy:
            if board[p] == side:
                jump(board, p, (p,), frozenset())
        if chains:
            return list(chains.values())
        steps = []
        for p in self.xy:
            for r in self.nbrs[p]:
                if board[p] == side and board[r] == "":
                    after = dict(board)
                    after[p], after[r] = "", side
                    steps.append(after)
        return steps

    def perft(self, board: Board, side: str, depth: int) -> int:
        if depth == 0:
            return 1
        other = "B" if side == "W" else "W"
        return sum(self.perft(b, other, depth - 1) for b in self.moves(board, side))


def perft(v: SerpentEngine, pos: SerpentPosition, depth: int) -> int:
    moves = v.legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(v, v.apply(pos, m)[0], depth - 1) for m in moves)


def tables() -> list[tuple[str, str, str, list[int]]]:
    data = json.loads(DATA.read_text())
    return [(t["game"], t["board"], t["jumps"], t["counts"]) for t in data["tables"]]


def test_the_data_file_has_every_table_and_the_ruled_counts() -> None:
    keys = {(g, b, j) for g, b, j, _ in tables()}
    assert keys == {(g, b, j) for g in GAMES for b in ("lined", "open") for j in ("line", "bent")}
    ruled = next(c for g, b, j, c in tables() if (g, b, j) == ("mosona", "lined", "line"))
    assert ruled[:9] == [3, 4, 9, 23, 76, 233, 636, 2177, 7943]
    assert all(len(c) >= 6 for *_, c in tables())


# Each run checks the depths whose counts stay under these budgets (the naive generator
# is slow, so it stops earlier); docs/perft.md says how the deeper counts were made.
ENGINE_BUDGET = 40_000
NAIVE_BUDGET = 2_500


@pytest.mark.parametrize(
    ("game", "board", "jumps", "counts"), tables(), ids=[f"{g}-{b}-{j}" for g, b, j, _ in tables()]
)
def test_perft(game: str, board: str, jumps: str, counts: list[int]) -> None:
    v = GAMES[game].engine(Board=board, Jumps=jumps)
    depth = max(d for d in range(1, len(counts) + 1) if counts[d - 1] <= ENGINE_BUDGET)
    assert [perft(v, v.start(), d) for d in range(1, depth + 1)] == counts[:depth]
    naive = Naive(v.lattice.n, board == "lined", jumps == "bent")
    depth = max(d for d in range(1, len(counts) + 1) if counts[d - 1] <= NAIVE_BUDGET)
    assert [naive.perft(naive.start(), "W", d) for d in range(1, depth + 1)] == counts[:depth]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("board", ["lined", "open"])
@pytest.mark.parametrize("jumps", ["line", "bent"])
def test_naive_board_matches_the_engine_tables(game: str, board: str, jumps: str) -> None:
    v = GAMES[game].engine(Board=board, Jumps=jumps)
    naive = Naive(v.lattice.n, board == "lined", jumps == "bent")
    assert {frozenset(line) for line in naive.lines} == {frozenset(line) for line in v.lines}
    assert naive.jumps == set(v.jumps)
    assert v.pieces(v.start()) == {p: x for p, x in naive.start().items() if x}
