"""The Awéthi board: squares, terrain, the map string, the districts and the herd tags.

The board is a 25×25 grid, files ``a``-``y`` (west to east), ranks ``1``-``25`` (south
to north).  Squares are numbered ``index = (rank - 1) * 25 + file`` with files
``a``-``y`` as 0-24, so rank 1 comes first.  *Map reading order* is rank 25 first, each
rank west to east.

A map is data (docs/rules.md, Awéthi: the board): the default map ships as
``default.map`` (25 lines, rank 25 first), and a record may carry its own in the ``Map``
string form of ``docs/notation.md`` section 5.4 (25 rows, rank 25 first, joined by
``/``; a number before a letter repeats it).  :func:`parse_map` checks every structural
condition a map must meet (docs/rules.md, Awéthi: the board) and raises
:class:`~zrec.rules.base.InputError` (code ``bad-map``) with the reason;
:func:`parse_herd` reads a ``HerdK`` tag (code ``bad-herd``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType

from zrec.rules.base import BoardSpec, InputError

SIZE = 25
FILES = "abcdefghijklmnopqrstuvwxy"
CELLS = SIZE * SIZE
TERRAINS = ".hfwLs"
OPEN, HERDING, FOREST, WATER, LAIR_LETTER, SHELTER = ".", "h", "f", "w", "L", "s"
REGION_WORDS = MappingProxyType(
    {
        OPEN: "open",
        HERDING: "herding",
        FOREST: "forest",
        WATER: "water",
        LAIR_LETTER: "lair",
        SHELTER: "shelter",
    }
)

# Directions as (file step, rank step); north is towards rank 25.
N, NE, E, SE, S, SW, W, NW = range(8)
DELTAS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
ORTHOGONAL = (N, E, S, W)
DIAGONAL = (NE, SE, SW, NW)

#: The name of each square by index.
NAME = tuple(f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(CELLS))
INDEX = MappingProxyType({name: i for i, name in enumerate(NAME)})
#: Every square, rank 1 first, west to east (the order of ``BoardSpec.cells``).
SQUARES = NAME


def _step(i: int, d: int) -> int:
    f, r = i % SIZE + DELTAS[d][0], i // SIZE + DELTAS[d][1]
    return r * SIZE + f if 0 <= f < SIZE and 0 <= r < SIZE else -1


#: ``STEP[d][i]``: the square next to ``i`` in direction ``d``, or -1 off the board.
STEP = tuple(tuple(_step(i, d) for i in range(CELLS)) for d in range(8))
#: The orthogonal neighbours of each square.
ORTH_NEIGHBOURS = tuple(
    tuple(STEP[d][i] for d in ORTHOGONAL if STEP[d][i] >= 0) for i in range(CELLS)
)
#: The 8 squares around each square.
AROUND = tuple(tuple(STEP[d][i] for d in range(8) if STEP[d][i] >= 0) for i in range(CELLS))

LAIR = INDEX["m13"]
#: The shelter square of each seat, Shepherd1 to Shepherd4 (a1, y25, y1, a25).
CORNERS = (INDEX["a1"], INDEX["y25"], INDEX["y1"], INDEX["a25"])
FOREST_DISTRICT = "i9-q17"


def reading_key(i: int) -> tuple[int, int]:
    """Map reading order: rank 25 first, each rank west to east."""
    return (-(i // SIZE), i % SIZE)


def in_forest_district(i: int) -> bool:
    """Whether a square lies in the centre district ``i9``-``q17``."""
    return 8 <= i % SIZE <= 16 and 8 <= i // SIZE <= 16


def distance(a: int, b: int) -> int:
    """Orthogonal steps between two squares (a diagonal step costs 2, so this is also
    what a shepherd pays)."""
    return abs(a % SIZE - b % SIZE) + abs(a // SIZE - b // SIZE)


@dataclass(frozen=True, slots=True)
class AwethiMap:
    """A checked map: ``terrain`` has one letter per square (index order, rank 1 first);
    ``herding`` the six squares of each seat's herding point (Shepherd1 to Shepherd4), in
    map reading order."""

    terrain: str
    herding: tuple[tuple[int, ...], ...] = field(compare=False)

    def rows(self) -> tuple[str, ...]:
        """The 25 rows, rank 25 first, each west to east."""
        t = self.terrain
        return tuple(t[r * SIZE : (r + 1) * SIZE] for r in range(SIZE - 1, -1, -1))

    def text(self) -> str:
        """The inline ``Map`` string (runs of a letter written with their length)."""
        return "/".join(
            "".join(
                f"{len(m.group())}{m.group()[0]}" if len(m.group()) > 1 else m.group()
                for m in re.finditer(r"(.)\1*", row)
            )
            for row in self.rows()
        )

    def region(self, i: int) -> str:
        return REGION_WORDS[self.terrain[i]]


def _bad(reason: str) -> InputError:
    return InputError(reason, code="bad-map")


def _expand(row: str, number: int) -> str:
    """One row of the Map string with its repeat counts expanded."""
    rank = SIZE + 1 - number
    out: list[str] = []
    count = ""
    for ch in row:
        if ch.isascii() and ch.isdigit():
            count += ch
            continue
        if ch not in TERRAINS:
            raise _bad(
                f"row {number} (rank {rank}): {ch!r} is not a terrain letter "
                "(. open, h herding point, f forest, w water, L Lair, s shelter)"
            )
        times = int(count) if count else 1
        if times == 0:
            raise _bad(f"row {number} (rank {rank}): a repeat count must be 1 or more")
        out.append(ch * times)
        count = ""
    if count:
        raise _bad(f"row {number} (rank {rank}) ends with the number {count}: a letter follows it")
    return "".join(out)


def map_from_rows(rows: list[str]) -> AwethiMap:
    """A map from its 25 expanded rows (rank 25 first); checks every condition."""
    if len(rows) != SIZE:
        raise _bad(
            f"the map has {len(rows)} row{'s' if len(rows) != 1 else ''}; it needs 25, from "
            "rank 25 down to rank 1, joined by /"
        )
    for number, row in enumerate(rows, 1):
        if len(row) != SIZE:
            raise _bad(
                f"row {number} (rank {SIZE + 1 - number}) has {len(row)} squares; "
                "every row needs 25 (files a-y)"
            )
    terrain = "".join(reversed(rows))
    return _checked(terrain)


def _checked(terrain: str) -> AwethiMap:
    for seat, corner in enumerate(CORNERS):
        if terrain[corner] != SHELTER:
            raise _bad(
                f"{NAME[corner]} must be a shelter (s): each corner holds one "
                f"(Shepherd{seat + 1}'s)"
            )
    for i, letter in enumerate(terrain):
        if letter == SHELTER and i not in CORNERS:
            raise _bad(f"{NAME[i]} is a shelter (s): shelters stand only on the four corners")
    if terrain[LAIR] != LAIR_LETTER:
        raise _bad("m13 must be the Lair (L)")
    for i, letter in enumerate(terrain):
        if letter == LAIR_LETTER and i != LAIR:
            raise _bad(f"{NAME[i]} is marked L: the Lair is m13 alone")
        if letter == WATER and in_forest_district(i):
            raise _bad(
                f"{NAME[i]} is water in the forest district {FOREST_DISTRICT}: "
                "the forest has no water"
            )
    points: list[list[int]] = [[], [], [], []]
    for i in sorted((i for i, t in enumerate(terrain) if t == HERDING), key=reading_key):
        near = sorted((distance(i, c), seat) for seat, c in enumerate(CORNERS))
        if near[0][0] == near[1][0]:
            a, b = sorted((near[0][1], near[1][1]))
            raise _bad(
                f"the herding square {NAME[i]} is as near to {NAME[CORNERS[a]]} as to "
                f"{NAME[CORNERS[b]]}: each h square belongs to the shelter nearest to it"
            )
        points[near[0][1]].append(i)
    for seat, squares in enumerate(points):
        if len(squares) != 6:
            raise _bad(
                f"the herding point of Shepherd{seat + 1} (the h squares nearest to "
                f"{NAME[CORNERS[seat]]}) has {len(squares)} squares; it needs 6"
            )
    return AwethiMap(terrain, tuple(tuple(p) for p in points))


def parse_map(text: str) -> AwethiMap:
    """The map a ``Map`` tag names: ``default`` or an inline map string."""
    value = text.strip()
    if value.lower() == "default":
        return default_map()
    return map_from_rows([_expand(row.strip(), n) for n, row in enumerate(value.split("/"), 1)])


@cache
def default_map() -> AwethiMap:
    """The map zrec ships (``default.map``, beside this module)."""
    text = resources.files("zrec.rules.awethi").joinpath("default.map").read_text(encoding="utf-8")
    return map_from_rows(text.splitlines())


@cache
def board_spec(amap: AwethiMap) -> BoardSpec:
    """The board of a map for drawing, made once per map."""
    regions = MappingProxyType({NAME[i]: amap.region(i) for i in range(CELLS)})
    return BoardSpec("grid", cells=SQUARES, regions=regions)


# -- herds -------------------------------------------------------------------------------

CALF, COW, BULL = 0, 1, 2
KIND_LETTERS = "cwb"
KIND_WORDS = ("calf", "cow", "bull")
KIND_PLURALS = ("calves", "cows", "bulls")
HERD_COUNTS = (3, 2, 1)
_HERD_RULE = "a herd has 6 animals: 3 calves (c), 2 cows (w) and 1 bull (b)"


def parse_herd(text: str) -> str:
    """A ``HerdK`` tag: the six animals of a herding point in map reading order."""
    value = text.strip()
    for ch in value:
        if ch not in KIND_LETTERS:
            raise InputError(
                f"{value!r}: {ch!r} is not an animal (c calf, w cow, b bull)", code="bad-herd"
            )
    counts = tuple(value.count(k) for k in KIND_LETTERS)
    if len(value) != 6 or counts != HERD_COUNTS:
        found = ", ".join(
            f"{n} {KIND_WORDS[k] if n == 1 else KIND_PLURALS[k]}" for k, n in enumerate(counts)
        )
        raise InputError(f"{value!r} has {found}; {_HERD_RULE}", code="bad-herd")
    return value
