"""The cross-shaped board of Awithlaknakwe (Stone Warriors) and its Setup string.

Geometry only, no rules: the 168 squares (a 12×12 main grid ``b2``–``m13`` with an arm
of 6 squares centred on each side), the kind of every square, the neighbour tables, the
``Setup`` board string (read and written rank by rank) and the text drawing.  The rules
engine in :mod:`zrec.rules.stonewarriors` works on the flat cell string defined here.

Squares are numbered on a 14×14 grid, ``index = (rank - 1) * 14 + file`` with files
``a``–``n`` as 0–13; a *cell string* has one character per grid point: ``"."`` for an
empty square, ``" "`` for a grid point outside the cross, else a piece letter
(``W``/``P`` White warrior/priest, ``w``/``p`` Black warrior/priest).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from zrec.rules.base import SetupError

WIDTH = 14
FILES = "abcdefghijklmn"
EMPTY = "."
OUTSIDE = " "
PIECE_LETTERS = "WPwp"

# Directions as (file step, rank step); "north" is towards rank 14.
N, NE, E, SE, S, SW, W, NW = range(8)
DELTAS: tuple[tuple[int, int], ...] = (
    (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)
)  # fmt: skip
ORTHOGONAL = (N, E, S, W)
DIAGONAL = (NE, SE, SW, NW)


def _kind_at(f: int, r: int) -> str | None:
    """The kind of the grid point (0-based file and rank), or None outside the cross."""
    if 1 <= f <= 12 and 1 <= r <= 12:
        return "main"
    if 4 <= f <= 9 and r in (0, 13):
        return "south" if r == 0 else "north"
    if 4 <= r <= 9 and f in (0, 13):
        return "west" if f == 0 else "east"
    return None


_KINDS: list[str | None] = [_kind_at(i % WIDTH, i // WIDTH) for i in range(WIDTH * WIDTH)]

#: Every square index, rank 1 first, west to east within a rank.
INDICES: tuple[int, ...] = tuple(i for i, k in enumerate(_KINDS) if k is not None)
#: The name of a grid point (``""`` outside the cross).
NAME: tuple[str, ...] = tuple(
    f"{FILES[i % WIDTH]}{i // WIDTH + 1}" if k is not None else "" for i, k in enumerate(_KINDS)
)
#: Square name -> index.
INDEX: Mapping[str, int] = MappingProxyType({NAME[i]: i for i in INDICES})
#: Every square name, rank 1 first, west to east within a rank (168 names).
SQUARES: tuple[str, ...] = tuple(NAME[i] for i in INDICES)
#: Square name -> ``"main"``, ``"south"``, ``"north"``, ``"west"`` or ``"east"``.
SQUARE_KINDS: Mapping[str, str] = MappingProxyType(
    {NAME[i]: k for i, k in enumerate(_KINDS) if k is not None}
)
#: Arm name -> its six squares (indices), west to east or south to north.
ARMS: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {arm: tuple(i for i in INDICES if _KINDS[i] == arm) for arm in ("south", "north", "west", "east")}
)


def _step(i: int, d: int) -> int:
    f, r = i % WIDTH + DELTAS[d][0], i // WIDTH + DELTAS[d][1]
    if 0 <= f < WIDTH and 0 <= r < WIDTH and _KINDS[r * WIDTH + f] is not None:
        return r * WIDTH + f
    return -1


#: ``STEP[d][i]``: the square next to ``i`` in direction ``d``, or -1 off the board.
STEP: tuple[tuple[int, ...], ...] = tuple(
    tuple(_step(i, d) if _KINDS[i] is not None else -1 for i in range(WIDTH * WIDTH))
    for d in range(8)
)
#: ``(from, to)`` -> direction, for every pair of neighbouring squares.
DIRECTION: Mapping[tuple[int, int], int] = MappingProxyType(
    {(i, STEP[d][i]): d for i in INDICES for d in range(8) if STEP[d][i] >= 0}
)

EMPTY_CELLS = "".join(EMPTY if k is not None else OUTSIDE for k in _KINDS)


def sort_key(i: int) -> tuple[int, int]:
    """Order squares by file, then rank (the order captures are written in)."""
    return (i % WIDTH, i // WIDTH)


def arm_text(arm: str) -> str:
    """An arm written as a range, e.g. ``"e1-j1"``."""
    squares = ARMS[arm]
    return f"{NAME[squares[0]]}-{NAME[squares[-1]]}"


def _rank_indices(rank: int) -> list[int]:
    return [i for i in INDICES if i // WIDTH == rank]


_RANK_INDICES: tuple[tuple[int, ...], ...] = tuple(tuple(_rank_indices(r)) for r in range(WIDTH))
_RUN = re.compile(r"[0-9]+|.")


def board_text(cells: str) -> str:
    """The board field of a Setup string: ranks 14 to 1, ``/`` between them."""
    ranks = []
    for rank in reversed(range(WIDTH)):
        out, run = [], 0
        for i in _RANK_INDICES[rank]:
            if cells[i] == EMPTY:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(cells[i])
        if run:
            out.append(str(run))
        ranks.append("".join(out))
    return "/".join(ranks)


def parse_board(text: str) -> str:
    """The cell string of a Setup board field; raises :class:`SetupError`."""
    rows = text.split("/")
    if len(rows) != WIDTH:
        raise SetupError(
            f"the board has {len(rows)} ranks separated by '/'; it needs 14 (rank 14 first)"
        )
    cells = list(EMPTY_CELLS)
    for row, rank in zip(rows, reversed(range(WIDTH))):
        squares = _RANK_INDICES[rank]
        found: list[str] = []
        for token in _RUN.findall(row):
            if token.isdigit() and not token.startswith("0"):
                found.extend(EMPTY * int(token))
            elif token in PIECE_LETTERS:
                found.append(token)
            else:
                raise SetupError(
                    f"rank {rank + 1} has {token!r}: use W, P, w, p and a number (1 or more) "
                    "for each run of empty squares"
                )
        if len(found) != len(squares):
            raise SetupError(
                f"rank {rank + 1} describes {len(found)} squares; it has {len(squares)} "
                f"({NAME[squares[0]]}-{NAME[squares[-1]]})"
            )
        for i, letter in zip(squares, found):
            cells[i] = letter
    return "".join(cells)


def draw(cells: str) -> list[str]:
    """The board as lines of text: rank 14 at the top, file letters above and below."""
    files = "    " + " ".join(FILES)
    lines = [files]
    for rank in reversed(range(WIDTH)):
        row = " ".join(cells[rank * WIDTH + f] for f in range(WIDTH))
        lines.append(f"{rank + 1:>2}  {row}".rstrip())
    lines.append(files)
    return lines
