"""What is drawn inside one square of a terrain map: its ground's texture, and the token
of each piece that stands there.

A map (a ``grid`` whose regions are kinds of ground, see :mod:`zrec.render.boards`)
is read in greyscale too, so nothing here is told by colour alone:

- each kind of ground has a fill *and* a texture (:func:`terrain_marks`): herding points
  are dotted, forest has small trees, water wavy lines, the lair a double frame and a
  shelter a bold frame;
- each kind of piece has its own shape (:data:`KINDS`): a shepherd a large disc, a calf
  a small disc, a cow a square, a bull a triangle, a wolf a dark head; a piece that is
  face down is a hatched tile that hides its kind;
- a piece's seat is its colour (``seat-1`` ... classes, see :data:`zrec.render.svg.MAP_CSS`)
  *and* its seat number written on it;
- a count above one is a small white badge; the animals in a shelter and the animals
  eaten are counters (a house, a dark diamond) that show their number, in the lower
  left corner of a square they share (:func:`slot`); a caught animal has a ring with
  four ticks round it.

Every token is one element classed ``piece`` that carries ``data-square`` and
``data-piece``, followed by its marks (text, badges, rings), which are not.  Lengths
are given for a square of 32 px and scaled by ``unit`` (the square's side / 32).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from zrec.render.svg import element, num
from zrec.rules.base import Piece

#: Each kind of ground a map knows, in legend order, with its name in the legend.
TERRAINS: dict[str, str] = {
    "open": "open ground",
    "herding": "herding point",
    "forest": "forest",
    "water": "water",
    "lair": "Lair",
    "shelter": "shelter",
}

#: Kinds of piece drawn as a counter: a token that shows its count, not its seat.
COUNTERS = ("sheltered", "eaten")


# -- ground ------------------------------------------------------------------------------


def _dot(cx: float, cy: float, r: float) -> str:
    arc = f"a{num(r)} {num(r)} 0 1 0"
    return f"M{num(cx - r)} {num(cy)}{arc} {num(2 * r)} 0{arc} {num(-2 * r)} 0"


def _tree(cx: float, cy: float, u: float) -> str:
    return (
        f"M{num(cx)} {num(cy - 4.5 * u)}L{num(cx + 3.5 * u)} {num(cy + 3 * u)}"
        f"L{num(cx - 3.5 * u)} {num(cy + 3 * u)}Z"
    )


def _frame(x: float, y: float, size: float, inset: float) -> str:
    a, b = x + inset, x + size - inset
    c, d = y + inset, y + size - inset
    return f"M{num(a)} {num(c)}H{num(b)}V{num(d)}H{num(a)}Z"


def _waves(x: float, y: float, size: float) -> str:
    out = []
    step, lift = size / 4, size * 0.09
    for at in (0.34, 0.72):
        out.append(f"M{num(x)} {num(y + at * size)}q{num(step / 2)} {num(-lift)} {num(step)} 0")
        out.append(f"t{num(step)} 0" * 3)
    return "".join(out)


def terrain_marks(kind: str, x: float, y: float, size: float) -> str:
    """The path data of the texture of a square of ``kind`` whose top left corner is
    (``x``, ``y``); ``""`` for a kind without one (open ground, an unknown region)."""
    u = size / 32
    if kind == "herding":
        return "".join(
            _dot(x + fx * size, y + fy * size, 1.5 * u)
            for fx, fy in ((0.18, 0.18), (0.82, 0.18), (0.18, 0.82), (0.82, 0.82), (0.5, 0.5))
        )
    if kind == "forest":
        trees = ((0.22, 0.26), (0.78, 0.76))
        return "".join(_tree(x + a * size, y + b * size, u) for a, b in trees)
    if kind == "water":
        return _waves(x, y, size)
    if kind == "lair":
        return _frame(x, y, size, 2.5 * u) + _frame(x, y, size, 5.5 * u)
    if kind == "shelter":
        return _frame(x, y, size, 2.5 * u)
    return ""


# -- pieces ------------------------------------------------------------------------------


Corners = tuple[tuple[float, float], ...]
Outline = Callable[[float, float, float], tuple[str, dict[str, str | float]]]


@dataclass(frozen=True)
class Shape:
    """A kind's token: its outline about (``x``, ``y``) for a ``unit``, and the size of the
    number written on it and how far below the centre it stands (0: no number)."""

    outline: Outline
    font: float
    text_dy: float = 0.0


def _disc(radius: float) -> Outline:
    def draw(x: float, y: float, u: float) -> tuple[str, dict[str, str | float]]:
        return "circle", {"cx": x, "cy": y, "r": radius * u}

    return draw


def _polygon(corners: Corners, *holes: Corners) -> Outline:
    """A closed outline, with ``holes`` cut out of it (under ``fill-rule: evenodd``)."""

    def draw(x: float, y: float, u: float) -> tuple[str, dict[str, str | float]]:
        return "path", {"d": "".join(_outline(c, x, y, u) for c in (corners, *holes))}

    return draw


def _outline(corners: Corners, x: float, y: float, u: float) -> str:
    (a, b), *rest = corners
    out = f"M{num(x + a * u)} {num(y + b * u)}"
    return out + "".join(f"L{num(x + a * u)} {num(y + b * u)}" for a, b in rest) + "Z"


#: The token of each kind of piece (sizes for a 32 px square); an unknown kind is a disc.
#: Each outline's box is centred on its token's centre (the replay page turns a token
#: about the centre of its box to show it the right way up on a flipped board).
KINDS: dict[str, Shape] = {
    "shepherd": Shape(_disc(12), 12),
    "calf": Shape(_disc(7.5), 9),
    "cow": Shape(_polygon(((-8, -8), (8, -8), (8, 8), (-8, 8))), 10),
    "bull": Shape(_polygon(((0, -11), (11, 10), (-11, 10))), 9, 3.5),
    "wolf": Shape(
        _polygon(
            ((-11, -12), (-4, -5), (4, -5), (11, -12), (11, 1), (0, 12), (-11, 1)),
            ((-7.5, -2), (-2.5, -0.5), (-6, 2)),
            ((7.5, -2), (2.5, -0.5), (6, 2)),
            ((-2, 6), (2, 6), (0, 8.5)),
        ),
        0,
    ),
    "sheltered": Shape(_polygon(((-8, -0.5), (0, -8), (8, -0.5), (8, 8), (-8, 8))), 9, 3),
    "eaten": Shape(_polygon(((0, -9.5), (9.5, 0), (0, 9.5), (-9.5, 0))), 9),
}
PLAIN = Shape(_disc(10), 10)
FACE_DOWN = Shape(_polygon(((-10, -10), (10, -10), (10, 10), (-10, 10))), 9)


def seat_class(piece: Piece, seats: Sequence[str]) -> str:
    """``"<seat name> seat-<number>"``, or ``"other"`` for a piece of nobody's."""
    if piece.owner is None:
        return "other"
    return f"{seats[piece.owner].lower()} seat-{piece.owner + 1}"


def _text(text: str, x: float, y: float, size: float, cls: str) -> ET.Element:
    # the baseline is set by hand: renderers disagree on dominant-baseline
    node = element("text", cls, x=x, y=y + 0.36 * size, font_size=size)
    node.text = text
    return node


def token(
    piece: Piece,
    seats: Sequence[str],
    x: float,
    y: float,
    unit: float,
    *,
    role: str = "piece",
) -> list[ET.Element]:
    """The token of ``piece`` centred on (``x``, ``y``), then its marks.

    ``role`` is ``piece`` (a piece on the board: it carries ``data-square`` and
    ``data-piece``), ``ghost`` (a piece just taken off: its outline alone, faint) or
    ``sample`` (a legend's picture of a kind: like a piece, without its data).
    """
    side = seat_class(piece, seats)
    if piece.hidden:
        shape, what = FACE_DOWN, "face-down"
    else:
        shape, what = KINDS.get(piece.kind, PLAIN), piece.kind or "plain"
    tag, attrs = shape.outline(x, y, unit)
    if role == "ghost":
        return [element(tag, f"ghost token {what} {side}", **attrs)]
    state = f" {piece.state}" if piece.state else ""
    if role == "piece":
        attrs = {**attrs, "data_square": piece.square, "data_piece": piece.code}
    out = [element(tag, f"{role} token {what} {side}{state}", **attrs)]
    if piece.hidden:
        out.append(element("path", "face-down-mark", d=_hatch(x, y, unit)))
    number = _number(piece, what)
    if number and shape.font:
        size = shape.font * unit
        out.append(_text(number, x, y + shape.text_dy * unit, size, f"glyph-text {what} {side}"))
    if piece.count > 1 and what not in COUNTERS:
        out += badge(piece.count, x + 11 * unit, y - 11 * unit, unit)
    if piece.state == "caught":
        out += _caught(x, y, unit)
    return out


def badge(count: int, x: float, y: float, unit: float) -> list[ET.Element]:
    """The small white badge of how many pieces stand together, centred on (x, y)."""
    return [
        element("circle", "count-badge", cx=x, cy=y, r=6.5 * unit),
        _text(str(count), x, y, 9 * unit, "count-text"),
    ]


def _number(piece: Piece, what: str) -> str:
    """What a token has written on it: a counter its count, another piece its seat number."""
    if what in COUNTERS:
        return str(piece.count)
    return "" if piece.owner is None else str(piece.owner + 1)


def _hatch(x: float, y: float, u: float) -> str:
    """Diagonal lines across two corners of a face-down tile (its middle holds the
    seat number)."""
    out, h = [], 8.0
    for k in (-13.0, -9.5, 9.5, 13.0):
        lo, hi = max(-h, k - h), min(h, k + h)
        start, end = (x + lo * u, y + (k - lo) * u), (x + hi * u, y + (k - hi) * u)
        out.append(f"M{num(start[0])} {num(start[1])}L{num(end[0])} {num(end[1])}")
    return "".join(out)


def _caught(x: float, y: float, u: float) -> list[ET.Element]:
    r = 14.5 * u
    ticks = "".join(
        f"M{num(x + dx * r)} {num(y + dy * r)}l{num(dx * 3.5 * u)} {num(dy * 3.5 * u)}"
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
    )
    return [
        element("circle", "caught-mark", cx=x, cy=y, r=r),
        element("path", "caught-mark", d=ticks),
    ]


def slot(piece: Piece, unit: float, shared: bool) -> tuple[float, float, float]:
    """Where in its square a piece stands, from the centre, and its unit.  A piece
    alone on its square stands in the middle; on a square it ``shared`` with a counter
    (a shelter's shepherds and the animals in it), the counter stands in the lower left
    corner and the others a little smaller towards the upper right one."""
    if not shared:
        return 0.0, 0.0, unit
    if not piece.hidden and piece.kind in COUNTERS:
        return -8 * unit, 8 * unit, 0.85 * unit
    return 3.5 * unit, -3.5 * unit, 0.8 * unit
