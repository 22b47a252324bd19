"""What every board zrec draws gives the diagram: its size, the centre of each point or
square, the picture of the empty board, the route a moving piece takes.

:class:`Board` is the base of the kinds of board in :mod:`zrec.render.boards`, with
the sizes they share; all lengths are in the picture's own units (px at the natural
size).
"""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from zrec.errors import ZrecError
from zrec.render.routes import Point, Segment

__all__ = ["CELL", "GAP", "MAP_WIDTH", "SPAN", "Board", "DrawingError", "split_name"]

SPAN = 40.0  # lattice: from a middle point to the next outer point, and between rows
CELL = 36.0  # cross board: the side of a square
MAP_WIDTH = 800.0  # a map: the width of its squares together (within limits of a square)
GAP = 14.0  # room for a coordinate label


class DrawingError(ZrecError, ValueError):
    """An engine whose board zrec cannot draw."""


def split_name(name: str) -> tuple[str, int]:
    """``"b12"`` -> ``("b", 12)``."""
    return name[0], int(name[1:])


class Board:
    """What every board gives the diagram: size, centres, the empty board, routes."""

    width: float
    height: float
    radius: float  # of a piece
    centres: dict[str, Point]
    pivot: Point  # the flipped board is the board turned half round this point
    #: The board's own stylesheet, beyond the default one ("" for none).
    css: str = ""

    _drawn: tuple[ET.Element, ...] | None = None

    def background(self, *, style: bool = True) -> list[ET.Element]:
        """The empty board, new elements each call (it is drawn once per board).  A
        board with a stylesheet of its own (:attr:`css`) starts with it as a ``<style>``
        (a page that shows the board needs it), unless ``style`` is false (a diagram
        puts it in its head once)."""
        if self._drawn is None:
            self._drawn = tuple(self.draw())
        out = []
        if style and self.css:
            sheet = ET.Element("style")
            sheet.text = "\n" + self.css
            out.append(sheet)
        return out + [copy.deepcopy(e) for e in self._drawn]

    def draw(self) -> list[ET.Element]:
        """The elements of the empty board (:meth:`background` keeps them)."""
        raise NotImplementedError

    def route(self, path: Sequence[str], captured: Sequence[str]) -> list[Segment]:
        """The segments from ``path[0]`` through every landing point."""
        return [Segment(self.centres[p]) for p in path[1:]]

    def captured_mark(self, square: str) -> list[ET.Element]:
        """Extra marks on the square of a captured piece (its ghost is drawn anyway)."""
        return []
