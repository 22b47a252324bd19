"""Perft for the serpent games: the engine against tests/data/perft-serpent.json and
against a second, deliberately naive move generator written from docs/rules.md
(Awithlaknannai Mosona), which shares nothing with the engine (tests/naive_serpent.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from naive_serpent import Naive
from zrec.rules.serpent.rules import KOLOWIS, MOSONA, SerpentEngine, SerpentPosition

DATA = Path(__file__).resolve().parents[1] / "data" / "perft-serpent.json"
GAMES = {"mosona": MOSONA, "kolowis": KOLOWIS}

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
    assert set(naive.jumps) == set(v.jumps)
    assert v.pieces(v.start()) == {p: x for p, x in naive.start().items() if x}
