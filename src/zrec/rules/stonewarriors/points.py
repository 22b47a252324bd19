"""The point board of Ludii's Awithlaknakwe (``[Ruleset "ludii"]``): its points, names
and lines.

Ludii plays the game on the *points* of the cross board of :mod:`.board`: the corners
of its 168 squares and the centre of each square (the squares are drawn with both
diagonals, and the diagonals cross at the centre), 365 points in all.  Two points are
neighbours when a line of the drawing joins them with no point between: two corners
along a side of a square, or a corner and the centre of a square it belongs to.  Every
direction of the compass runs along these lines: north, east, south and west from a
corner to the next corner, the four diagonal directions from a corner to a centre or
from a centre to a corner.  A centre has no neighbour north, east, south or west.

Names (docs/notation.md, "Stone Warriors under Ludii's rules"): the points lie in 29
rows, numbered 1 (south) to 29 (north); odd rows are the lines of the grid (corners),
even rows run through the centres of the squares.  In a row a point takes the letter
of the vertical line it stands on (a corner) or the line just west of it (a centre):
``a`` for the west edge of the board, ``o`` for the east edge.  So the centre of the
square named ``f4`` on the square board is ``f8``, and its corners are ``f7``,
``g7``, ``f9`` and ``g9``.

Internally a point is an index into :data:`POINTS` (rank 1 first, west to east), with
doubled coordinates ``(x, y)``: a corner has both even, a centre both odd.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from zrec.rules.base import BoardSpec
from zrec.rules.stonewarriors.board import _kind_at

#: The letters of the vertical lines, west to east (15 lines).
LETTERS = "abcdefghijklmno"
#: Directions, clockwise from north, as (x step, y step) in doubled coordinates for a
#: unit step; the diagonal directions step half a square, the others a whole one.
N, NE, E, SE, S, SW, W, NW = range(8)
_UNIT = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
DIRECTION_NAMES = ("north", "north-east", "east", "south-east", "south", "south-west",
                   "west", "north-west")


def _square(x: int, y: int) -> bool:
    """Whether the square whose centre has doubled coordinates (x, y) is on the board."""
    return x % 2 == 1 and y % 2 == 1 and _kind_at(x // 2, y // 2) is not None


def _corner(x: int, y: int) -> bool:
    """Whether (x, y), both even, is a corner of a square of the board."""
    return any(_square(x + dx, y + dy) for dx in (-1, 1) for dy in (-1, 1))


def _exists(x: int, y: int) -> bool:
    if x % 2 == 0 and y % 2 == 0:
        return _corner(x, y)
    return _square(x, y)


#: Every point's doubled coordinates, rank 1 first, west to east within a row.
COORDS = tuple((x, y) for y in range(29) for x in range(29) if _exists(x, y))
#: Every point's name, in the same order (365 names).
POINTS = tuple(f"{LETTERS[x // 2]}{y + 1}" for x, y in COORDS)
INDEX: Mapping[str, int] = MappingProxyType({name: i for i, name in enumerate(POINTS)})
_AT = {xy: i for i, xy in enumerate(COORDS)}
#: Whether each point is the centre of a square.
CENTRE = tuple(x % 2 == 1 for x, _ in COORDS)


def _step(i: int, d: int) -> int:
    x, y = COORDS[i]
    dx, dy = _UNIT[d]
    if d % 2 == 0:  # north, east, south, west: corner to corner along a side
        if CENTRE[i]:
            return -1
        tx, ty = x + 2 * dx, y + 2 * dy
        # a side of a square: one of the two squares beside it is on the board
        side = (x + dx + dy, y + dy + dx), (x + dx - dy, y + dy - dx)
        if (tx, ty) not in _AT or not any(_square(*c) for c in side):
            return -1
        return _AT[tx, ty]
    target = (x + dx, y + dy)  # corner to centre or centre to corner
    centre = (x, y) if CENTRE[i] else target
    return _AT[target] if target in _AT and _square(*centre) else -1


#: ``STEP[d][i]``: the neighbour of point ``i`` in direction ``d``, or -1.
STEP = tuple(tuple(_step(i, d) for i in range(len(POINTS))) for d in range(8))
#: ``(from, to)`` -> direction, for every pair of neighbours.
DIRECTION: Mapping[tuple[int, int], int] = MappingProxyType(
    {(i, STEP[d][i]): d for i in range(len(POINTS)) for d in range(8) if STEP[d][i] >= 0}
)
#: Every line between two neighbours, once, as point names.
LINES = tuple((POINTS[a], POINTS[b]) for (a, b) in DIRECTION if a < b)


def _centre_of(file: int, rank: int) -> int:
    """The centre point of the square at ``file`` (0 = a) and ``rank`` (1-14)."""
    return _AT[2 * file + 1, 2 * rank - 1]


#: The centres of each arm's six squares, west to east or south to north (the
#: warriors' start points).
ARM_CENTRES: Mapping[str, tuple[int, ...]] = MappingProxyType({
    "south": tuple(_centre_of(f, 1) for f in range(4, 10)),
    "north": tuple(_centre_of(f, 14) for f in range(4, 10)),
    "west": tuple(_centre_of(0, r) for r in range(5, 11)),
    "east": tuple(_centre_of(13, r) for r in range(5, 11)),
})

#: The board for drawing: every point and every line.
BOARD = BoardSpec("points", cells=POINTS, lines=LINES)


def sort_key(i: int) -> tuple[int, int]:
    """Order points by letter, then row number (the order captures are written in)."""
    x, y = COORDS[i]
    return (x // 2, y)
