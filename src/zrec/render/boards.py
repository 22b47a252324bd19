"""Geometry of the boards zrec draws, for :mod:`zrec.render.diagram`.

Where each point or square stands on the picture, the picture of the empty board
(lines, squares, trails, coordinates), and the route a moving piece takes (each kind a
:class:`~zrec.render.board_base.Board`).  Two kinds of board are known, as an engine's
view declares them
(:class:`~zrec.rules.base.BoardSpec`): a ``lattice`` of points joined by lines, with
curved ends, and a ``grid`` of squares of any shape, each shaded by its region.  A grid
whose regions are kinds of ground (``open``, ``forest``, ``water``...; see
:data:`zrec.render.pieces.TERRAINS`) is a *map* (:class:`MapBoard`): its squares are
smaller, each ground has a texture, and a legend stands under it.
Everything is derived from the point and square names (``b6``, ``g14``); the rules
modules hold no drawing geometry.  All lengths are in the picture's own units (px at
the natural size).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from itertools import pairwise

from zrec.render import legend as _legend
from zrec.render.board_base import CELL, GAP, MAP_WIDTH, SPAN, Board, DrawingError, split_name
from zrec.render.pieces import TERRAINS, terrain_marks
from zrec.render.routes import Point, Segment, path_data, sweep_flag, trim_end
from zrec.render.svg import MAP_CSS, POINTS_CSS, element, label, num
from zrec.rules.base import BoardSpec, View

__all__ = [
    "GridBoard",
    "LatticeBoard",
    "MapBoard",
    "Point",
    "PointBoard",
    "Segment",
    "board_for",
    "element",
    "label",
    "num",
    "path_data",
    "trim_end",
]

def board_for(
    spec: BoardSpec, *, flip: bool = False, coordinates: bool = True, legend: View | None = None
) -> Board:
    """The drawing of a board an engine's view describes, seen from the first seat's
    side or, with ``flip``, from the other.  A map's legend names the seats of
    ``legend`` (the view of a start position), when it is given."""
    if spec.kind == "lattice":
        return LatticeBoard(spec.cells, spec.lines, spec.jumps, flip=flip, coordinates=coordinates)
    if spec.kind == "grid" and any(kind in TERRAINS for kind in spec.regions.values()):
        return MapBoard(
            spec.cells, spec.regions, flip=flip, coordinates=coordinates, legend=legend
        )
    if spec.kind == "grid":
        return GridBoard(spec.cells, spec.regions, flip=flip, coordinates=coordinates)
    if spec.kind == "points":
        return PointBoard(spec.cells, flip=flip, coordinates=coordinates)
    raise DrawingError(f"zrec cannot draw a board of kind {spec.kind!r}")


class LatticeBoard(Board):
    """The serpent lattice: rows a (south), b (middle), c (north) with curved ends.

    ``b_k`` stands at x = 2(k-1), ``a_k`` and ``c_k`` at x = 2k-1 (in units of
    :data:`SPAN`); the two end diagonals at each end are drawn as one half circle
    through the end of the middle row.
    """

    radius = 15.0

    def __init__(
        self,
        points: Sequence[str],
        lines: Sequence[tuple[str, str]],
        jumps: Sequence[tuple[str, str, str]] = (),
        *,
        flip: bool,
        coordinates: bool,
    ) -> None:
        self.jumps = frozenset(jumps)
        self.n = sum(1 for p in points if p[0] == "a")
        self.flip, self.coordinates = flip, coordinates
        pad = self.radius + 5
        self.left = pad + (GAP + 2 if coordinates else 0)
        self.top = pad + (GAP if coordinates else 0)
        self.width = self.left + 2 * self.n * SPAN + pad
        self.height = 2 * self.top + 2 * SPAN
        self.centres = {p: self.at(*self._raw(p)) for p in points}
        self.pivot = (self.left + self.n * SPAN, self.top + SPAN)
        self.lines = tuple(lines)
        self.adjacent = {frozenset(line) for line in lines}
        #: The middle row's points: n + 1, or n on a board without an east end point.
        self.middle = sum(1 for p in points if p[0] == "b")
        #: The end lines, each -> the centre of its half circle.  A board without an
        #: east end point (Ludii's 48-point board) has no curved ends: its end lines
        #: are straight, and no jump goes round an end.
        self.curves: dict[frozenset[str], Point] = {}
        for end, a, c in self._ends():
            mid = self._mid(a, c)
            for outer in (a, c):
                if frozenset((end, outer)) in self.adjacent:
                    self.curves[frozenset((end, outer))] = mid

    def _ends(self) -> tuple[tuple[str, str, str], ...]:
        """The curved ends (end of the middle row, a-row point, c-row point)."""
        if self.middle == self.n:
            return ()
        return (("b1", "a1", "c1"), (f"b{self.n + 1}", f"a{self.n}", f"c{self.n}"))

    def _raw(self, name: str) -> Point:
        row, k = split_name(name)
        if row == "b":
            return 2 * (k - 1) * SPAN, SPAN
        return (2 * k - 1) * SPAN, 2 * SPAN if row == "a" else 0.0

    def at(self, x: float, y: float) -> Point:
        """Raw lattice coordinates (x east, y down from row c) to the picture."""
        if self.flip:
            x, y = 2 * self.n * SPAN - x, 2 * SPAN - y
        return self.left + x, self.top + y

    def _mid(self, p: str, q: str) -> Point:
        (x1, y1), (x2, y2) = self.centres[p], self.centres[q]
        return (x1 + x2) / 2, (y1 + y2) / 2

    def draw(self) -> list[ET.Element]:
        out: list[ET.Element] = []
        for p, q in self.lines:
            if frozenset((p, q)) in self.curves:
                continue
            kind = "middle" if p[0] == q[0] == "b" else "outer" if p[0] == q[0] else "diagonal"
            (x1, y1), (x2, y2) = self.centres[p], self.centres[q]
            out.append(element("line", f"line {kind}", x1=x1, y1=y1, x2=x2, y2=y2))
        for end, a, c in self._ends():
            parts = [self.segment(a, end), self.segment(end, c)]
            if all(s.centre is not None for s in parts):
                out.append(element("path", "line curve", d=path_data(self.centres[a], parts)))
        out += [
            element("circle", "point", cx=x, cy=y, r=3.2, data_point=name)
            for name, (x, y) in self.centres.items()
        ]
        if self.coordinates:
            out += self._labels()
        return out

    def _labels(self) -> list[ET.Element]:
        """The row letters at the west edge, and each point's number beside its own
        point: an outer row's in the margin beyond it (above the top row, below the
        bottom one), the middle row's just below its points, inside the board."""
        out = []
        for row in "cba":
            y = self.centres[f"{row}1"][1]
            out.append(label(row, self.left - self.radius - GAP + 2, y))
        middle = self.centres["b1"][1]
        for row in "ca":
            for k in range(1, self.n + 1):
                x, y = self.centres[f"{row}{k}"]
                out.append(label(str(k), x, y + math.copysign(self.radius + 10, y - middle)))
        for k in range(1, self.middle + 1):
            x, y = self.centres[f"b{k}"]
            out.append(label(str(k), x, y + self.radius + 12, "coord middle"))
        return out

    def segment(self, p: str, r: str) -> Segment:
        """The drawn line from ``p`` to its neighbour ``r`` (an arc on a curved end)."""
        end = self.centres[r]
        centre = self.curves.get(frozenset((p, r)))
        if centre is None:
            return Segment(end)
        return Segment(end, centre, sweep_flag(centre, self.centres[p], end))

    def route(self, path: Sequence[str], captured: Sequence[str]) -> list[Segment]:
        out: list[Segment] = []
        overs = self._jumped(tuple(path), frozenset(captured))
        for (p, r), q in zip(pairwise(path), overs, strict=True):
            if q is None:
                out.append(
                    self.segment(p, r)
                    if frozenset((p, r)) in self.adjacent
                    else Segment(self.centres[r])
                )
            else:
                out += [self.segment(p, q), self.segment(q, r)]
        return out

    def _jumps(self, p: str, q: str, r: str) -> bool:
        """Whether a piece on ``p`` can jump ``q`` to land on ``r`` on this board (without
        a table of jumps: over a neighbour to one of its neighbours)."""
        if self.jumps:
            return (p, q, r) in self.jumps
        return p != r and {frozenset((p, q)), frozenset((q, r))} <= self.adjacent

    def _jumped(self, path: tuple[str, ...], captured: frozenset[str]) -> list[str | None]:
        """The point each hop of ``path`` jumps (``None`` for a step), chosen so that every
        hop is a jump of the board and each captured point is jumped once."""

        def search(i: int, left: frozenset[str]) -> list[str | None] | None:
            if i == len(path) - 1:
                return [] if not left else None
            p, r = path[i], path[i + 1]
            # a jump first: under bent jumps a hop between two neighbours (c3 to b3 over
            # c2) is a jump too, and only a hop that jumps nothing is a step
            for q in sorted(left):
                if self._jumps(p, q, r):
                    rest = search(i + 1, left - {q})
                    if rest is not None:
                        return [q, *rest]
            if frozenset((p, r)) in self.adjacent:
                rest = search(i + 1, left)
                return None if rest is None else [None, *rest]
            return None

        found = search(0, captured)
        return found if found is not None else [None] * (len(path) - 1)


class GridBoard(Board):
    """A board of squares of any shape, with the two diagonals (trails) of each; each
    square is classed by its region."""

    radius = 12.5
    cell = CELL  # the side of a square

    def __init__(
        self,
        squares: Sequence[str],
        regions: Mapping[str, str],
        *,
        flip: bool,
        coordinates: bool,
    ) -> None:
        self.squares = tuple(squares)
        self.kinds = {s: regions.get(s, "plain") for s in self.squares}
        cells = [(ord(s[0]) - ord("a"), split_name(s)[1] - 1) for s in self.squares]
        self.files = max(f for f, _ in cells) + 1
        self.ranks = max(r for _, r in cells) + 1
        self.cells = dict(zip(self.squares, cells, strict=True))
        self.taken = set(cells)
        self.flip, self.coordinates = flip, coordinates
        self.setup()
        cell, pad = self.cell, 6.0
        self.left = pad + (GAP + 4 if coordinates else 0)
        self.top = pad
        self.width = self.left + self.files * cell + pad
        self.height = self.top + self.ranks * cell + pad + (GAP + 2 if coordinates else 0)
        self.centres = {s: self.corner(f + 0.5, r + 0.5) for s, (f, r) in self.cells.items()}
        self.pivot = (self.left + self.files * cell / 2, self.top + self.ranks * cell / 2)

    def setup(self) -> None:
        """Sizes that depend on the board's shape (a map's square), set before the rest."""

    def corner(self, f: float, r: float) -> Point:
        """Grid coordinates (file and rank from 0, corners on whole numbers) to the picture."""
        x, y = f * self.cell, (self.ranks - r) * self.cell
        if self.flip:
            x, y = self.files * self.cell - x, self.ranks * self.cell - y
        return self.left + x, self.top + y

    def square_box(self, square: str) -> tuple[float, float]:
        """The top left corner of a square on the picture."""
        f, r = self.cells[square]
        (x1, y1), (x2, y2) = self.corner(f, r), self.corner(f + 1, r + 1)
        return min(x1, x2), min(y1, y2)

    def draw(self) -> list[ET.Element]:
        out: list[ET.Element] = []
        trails = []
        for square in self.squares:
            f, r = self.cells[square]
            (x1, y1), (x2, y2) = self.corner(f, r), self.corner(f + 1, r + 1)
            x, y = min(x1, x2), min(y1, y2)
            out.append(
                element(
                    "rect",
                    f"square {self.kinds[square]}",
                    x=x,
                    y=y,
                    width=self.cell,
                    height=self.cell,
                    data_point=square,
                )
            )
            trails.append(f"M{num(x1)} {num(y1)}L{num(x2)} {num(y2)}")
            trails.append(f"M{num(x1)} {num(y2)}L{num(x2)} {num(y1)}")
        out.append(element("path", "trail", d="".join(trails)))
        out.append(element("path", "border", d=self._border()))
        if self.coordinates:
            out += self._labels()
        return out

    def _border(self) -> str:
        """The path data of the board's outline (every side of a square on the edge)."""
        border = []
        for square in self.squares:
            f, r = self.cells[square]
            for df, dr, a, b in (
                (0, -1, (0, 0), (1, 0)),
                (1, 0, (1, 0), (1, 1)),
                (0, 1, (1, 1), (0, 1)),
                (-1, 0, (0, 1), (0, 0)),
            ):
                if (f + df, r + dr) not in self.taken:
                    (u1, v1), (u2, v2) = (
                        self.corner(f + a[0], r + a[1]),
                        self.corner(f + b[0], r + b[1]),
                    )
                    border.append(f"M{num(u1)} {num(v1)}L{num(u2)} {num(v2)}")
        return "".join(border)

    def _labels(self) -> list[ET.Element]:
        out = []
        bottom = self.top + self.ranks * self.cell + GAP - 2
        for f in range(self.files):
            out.append(label(chr(ord("a") + f), self.corner(f + 0.5, 0)[0], bottom))
        for r in range(self.ranks):
            out.append(label(str(r + 1), self.left - GAP / 2 - 4, self.corner(0, r + 0.5)[1]))
        return out

    def captured_mark(self, square: str) -> list[ET.Element]:
        x, y = self.centres[square]
        h = self.cell / 2 - 2.5
        return [element("rect", "captured", x=x - h, y=y - h, width=2 * h, height=2 * h)]


class PointBoard(GridBoard):
    """The points of a board of squares with both diagonals: the corners of the
    squares and their centres, where pieces stand.

    The points lie in rows numbered from 1 (south): odd rows are the lines of the grid
    (corners), even rows run through the centres.  A point takes the letter of the
    vertical line it stands on (a corner) or of the line just west of it (a centre):
    ``f8`` is the centre of the square whose corners are ``f7``, ``g7``, ``f9`` and
    ``g9``.  The squares drawn are those whose centre is a point.
    """

    radius = 11.0
    cell = 46.0
    css = POINTS_CSS

    def __init__(self, points: Sequence[str], *, flip: bool, coordinates: bool) -> None:
        self.points = tuple(points)
        coords = {p: self.coords(p) for p in self.points}
        squares = [
            f"{chr(ord('a') + int(x))}{int(y) + 1}"
            for (x, y) in coords.values()
            if x != int(x)
        ]
        super().__init__(squares, {}, flip=flip, coordinates=coordinates)
        # room for the pieces on the outer points
        extra = self.radius
        self.left, self.top = self.left + extra, self.top + extra
        self.width, self.height = self.width + 2 * extra, self.height + 2 * extra
        half = self.cell / 2
        self.pivot = (self.left + self.files * half, self.top + self.ranks * half)
        # the east line of the last file is a line of points too
        self.lines_x = max(int(x) for x, _ in coords.values()) + 1
        self.centres = {p: self.corner(x, y) for p, (x, y) in coords.items()}

    @staticmethod
    def coords(point: str) -> tuple[float, float]:
        """A point's grid coordinates (corners on whole numbers)."""
        letter, n = split_name(point)
        x = ord(letter) - ord("a")
        if n % 2 == 0:
            return x + 0.5, n / 2 - 0.5
        return float(x), (n - 1) / 2

    def draw(self) -> list[ET.Element]:
        out: list[ET.Element] = []
        lines = []
        for square in self.squares:
            f, r = self.cells[square]
            (x1, y1), (x2, y2) = self.corner(f, r), self.corner(f + 1, r + 1)
            x, y = min(x1, x2), min(y1, y2)
            out.append(element("rect", "square plain", x=x, y=y, width=self.cell,
                               height=self.cell))
            lines.append(f"M{num(x1)} {num(y1)}L{num(x2)} {num(y2)}")
            lines.append(f"M{num(x1)} {num(y2)}L{num(x2)} {num(y1)}")
        out.append(element("path", "line diagonal", d="".join(lines)))
        out.append(element("path", "border", d=self._border()))
        out += [
            element("circle", "point", cx=x, cy=y, r=2.6, data_point=name)
            for name, (x, y) in self.centres.items()
        ]
        if self.coordinates:
            out += self._labels()
        return out

    def _labels(self) -> list[ET.Element]:
        """The line letters under the board, each under its line, and the row numbers
        at the west edge, each level with its row."""
        out = []
        bottom = self.top + self.ranks * self.cell + GAP - 2
        for f in range(self.lines_x):
            out.append(label(chr(ord("a") + f), self.corner(f, 0)[0], bottom))
        for n in range(1, 2 * self.ranks + 2):
            y = self.corner(0, (n - 1) / 2)[1]
            out.append(label(str(n), self.left - GAP / 2 - 4, y, "coord row"))
        return out

    def captured_mark(self, square: str) -> list[ET.Element]:
        x, y = self.centres[square]
        h = self.radius + 2.5
        return [element("rect", "captured", x=x - h, y=y - h, width=2 * h, height=2 * h)]


class MapBoard(GridBoard):
    """A map of terrain: a grid whose regions are kinds of ground.

    Its squares are as large as lets the map be about :data:`MAP_WIDTH` wide (24 to
    36 px); each square is filled by its ground and the ground's texture drawn over it
    (:func:`zrec.render.pieces.terrain_marks`, one path per kind); there are no
    trails; the legend stands under the map (its seats those of ``legend``, if given).
    The pieces are tokens of :mod:`zrec.render.pieces`.
    """

    css = MAP_CSS

    def __init__(
        self,
        squares: Sequence[str],
        regions: Mapping[str, str],
        *,
        flip: bool,
        coordinates: bool,
        legend: View | None = None,
    ) -> None:
        super().__init__(squares, regions, flip=flip, coordinates=coordinates)
        self.unit = self.cell / 32
        self.radius = 12 * self.unit  # a shepherd's token
        self.legend = _legend.sections(sorted(set(self.kinds.values())), legend)
        self.legend_top = self.height + 14
        self.height = self.legend_top + _legend.height(self.legend) + 6

    def setup(self) -> None:
        self.cell = max(24.0, min(36.0, float(int(MAP_WIDTH / max(self.files, self.ranks)))))

    def draw(self) -> list[ET.Element]:
        out: list[ET.Element] = []
        marks: dict[str, list[str]] = {}
        for square in self.squares:
            x, y = self.square_box(square)
            kind = self.kinds[square]
            out.append(
                element("rect", f"square {kind}", x=x, y=y, width=self.cell, height=self.cell,
                        data_point=square)
            )
            marks.setdefault(kind, []).append(terrain_marks(kind, x, y, self.cell))
        for kind in sorted(marks):
            if any(marks[kind]):
                out.append(element("path", f"terrain {kind}", d="".join(marks[kind])))
        out.append(element("path", "border", d=self._border()))
        if self.coordinates:
            out += self._labels()
        width = self.files * self.cell
        legend = element("g", "legend")
        legend.extend(_legend.draw(self.legend, self.left, self.legend_top, width))
        out.append(legend)
        return out
