"""The cross board of Awithlaknakwe (Stone Warriors): its squares, neighbours and text.

Everything here is the same under every rule option: the 168 squares (the 12×12 main
grid ``b2``-``m13`` and an arm of 6 squares centred on each side), their neighbour
tables, the bits of the squares in a position's bitmasks, and the board field of a
``Setup`` string.  Positions and moves are in :mod:`.position`, the Setup string in
:mod:`.setup`, the end of the game in :mod:`.end`, the pictures in :mod:`.view`, how
pieces move and how written moves are read in :mod:`.tables` and :mod:`.rules`.

Squares are numbered on a 14×14 grid, ``index = (rank - 1) * 14 + file`` with files
``a``-``n`` as 0-13.  A position holds its pieces as bitmasks over these indices
(bit ``i`` is square ``i``), so that a move changes a few bits and copies no board.
Its *cells*, the board as text, have one character per grid point: ``"."`` an empty
square, ``" "`` a point outside the cross, else a piece: ``W``/``P`` White
warrior/priest, ``w``/``p`` Black warrior/priest.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType

from zrec.rules.base import BoardSpec, SetupError

WIDTH = 14
FILES = "abcdefghijklmn"
EMPTY, OUTSIDE = ".", " "
SIDES = ("White", "Black")
OWN = ("WP", "wp")  # warrior and priest letters of each side
HOME = ("south", "north")  # each side's home arm
#: Each piece letter's code (as :meth:`StoneWarriors.pieces` gives it).
CODES: Mapping[str, str] = MappingProxyType({"W": "W", "P": "WP", "w": "B", "p": "BP"})

# Directions as (file step, rank step); north is towards rank 14.
N, NE, E, SE, S, SW, W, NW = range(8)
DELTAS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
ORTHOGONAL, DIAGONAL = (N, E, S, W), (NE, SE, SW, NW)


def _kind_at(f: int, r: int) -> str | None:
    """The kind of the grid point (file and rank from 0), or None outside the cross."""
    if 1 <= f <= 12 and 1 <= r <= 12:
        return "main"
    if 4 <= f <= 9 and r in (0, 13):
        return "south" if r == 0 else "north"
    if 4 <= r <= 9 and f in (0, 13):
        return "west" if f == 0 else "east"
    return None


_KINDS = [_kind_at(i % WIDTH, i // WIDTH) for i in range(WIDTH * WIDTH)]
#: Every square index, rank 1 first, west to east within a rank.
INDICES = tuple(i for i, k in enumerate(_KINDS) if k is not None)
#: The name of each grid point (``""`` outside the cross).
NAME = tuple(f"{FILES[i % WIDTH]}{i // WIDTH + 1}" if k else "" for i, k in enumerate(_KINDS))
INDEX: Mapping[str, int] = MappingProxyType({NAME[i]: i for i in INDICES})
#: Every square name, rank 1 first, west to east within a rank (168 names).
SQUARES = tuple(NAME[i] for i in INDICES)
#: Square name -> ``"main"``, ``"south"``, ``"north"``, ``"west"`` or ``"east"``.
SQUARE_KINDS: Mapping[str, str] = MappingProxyType(
    {NAME[i]: k for i, k in enumerate(_KINDS) if k is not None}
)
#: Arm name -> its six squares (indices), west to east or south to north.
ARMS: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {a: tuple(i for i in INDICES if _KINDS[i] == a) for a in ("south", "north", "west", "east")}
)
#: The board for drawing: every square, each with its kind as its region.
BOARD = BoardSpec("grid", cells=SQUARES, regions=SQUARE_KINDS)


def _step(i: int, d: int) -> int:
    f, r = i % WIDTH + DELTAS[d][0], i // WIDTH + DELTAS[d][1]
    ok = 0 <= f < WIDTH and 0 <= r < WIDTH and _KINDS[i] and _KINDS[r * WIDTH + f]
    return r * WIDTH + f if ok else -1


#: ``STEP[d][i]``: the square next to ``i`` in direction ``d``, or -1 off the board.
STEP = tuple(tuple(_step(i, d) for i in range(WIDTH * WIDTH)) for d in range(8))
#: ``(from, to)`` -> direction, for every pair of neighbouring squares.
DIRECTION: Mapping[tuple[int, int], int] = MappingProxyType(
    {(i, STEP[d][i]): d for i in INDICES for d in range(8) if STEP[d][i] >= 0}
)
EMPTY_CELLS = "".join(EMPTY if k else OUTSIDE for k in _KINDS)
_RANKS = tuple(tuple(i for i in INDICES if i // WIDTH == r) for r in range(WIDTH))
_RUN = re.compile(r"[0-9]+|.")  # ASCII digits only: "²" or "８" is not a run


def sort_key(i: int) -> tuple[int, int]:
    """Order squares by file, then rank (the order captures are written in)."""
    return (i % WIDTH, i // WIDTH)


def arm_text(arm: str) -> str:
    """An arm written as a range, e.g. ``"e1-j1"``."""
    return f"{NAME[ARMS[arm][0]]}-{NAME[ARMS[arm][-1]]}"


def listing(squares: Sequence[str]) -> str:
    """Squares in words: ``"f7"``, ``"f7 and g6"``, ``"e6, f7 and g6"``."""
    if not squares:
        return "nothing"
    return squares[0] if len(squares) == 1 else f"{', '.join(squares[:-1])} and {squares[-1]}"


#: ``BIT[i]``: the bit of grid point ``i`` in a position's bitmasks.
BIT = tuple(1 << i for i in range(WIDTH * WIDTH))
#: Each side's home arm as a bitmask.
HOME_MASK = tuple(sum(BIT[i] for i in ARMS[HOME[side]]) for side in (0, 1))
#: ``OFF_TARGET[side]``: every square but the other side's home arm.  A side none of
#: whose pieces stands there has all of them on the enemy arm (the end test).
OFF_TARGET = tuple(sum(BIT[i] for i in INDICES) & ~HOME_MASK[1 - side] for side in (0, 1))


def squares_of(bits: int) -> Iterator[int]:
    """The grid points of a bitmask, lowest index first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def board_text(cells: str) -> str:
    """The board field of a Setup string: ranks 14 to 1, ``/`` between them."""
    ranks = []
    for squares in reversed(_RANKS):
        row = "".join(cells[i] for i in squares)
        ranks.append(re.sub(r"\.+", lambda run: str(len(run[0])), row))
    return "/".join(ranks)


def parse_board(text: str) -> str:
    """The cells a Setup board field describes; raises :class:`SetupError`."""
    rows = text.split("/")
    if len(rows) != WIDTH:
        raise SetupError(f"the board has {len(rows)} ranks; it needs 14, rank 14 first")
    cells = list(EMPTY_CELLS)
    for row, rank in zip(rows, range(WIDTH, 0, -1), strict=True):
        squares, found = _RANKS[rank - 1], list[str]()
        for token in _RUN.findall(row):
            if token[0] in "123456789":
                # a run longer than the rank is refused below; never build a huge one
                run = int(token) if len(token) <= 3 else len(squares) + 1
                found.extend(EMPTY * min(run, len(squares) + 1))
            elif token in "WPwp":
                found.append(token)
            else:
                raise SetupError(
                    f"rank {rank} has {token[:12]!r}: write W, P, w, p, and a number for each "
                    "run of empty squares"
                )
        if len(found) != len(squares):
            raise SetupError(
                f"rank {rank} describes {len(found)} squares; it has {len(squares)} "
                f"({NAME[squares[0]]}-{NAME[squares[-1]]})"
            )
        for i, letter in zip(squares, found, strict=True):
            cells[i] = letter
    return "".join(cells)
