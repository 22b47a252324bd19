"""The legend under a map of terrain: each kind of ground, each kind of token, the seats
and the marks of a move, each drawn as on the map and named.

The legend is part of the empty board (:class:`zrec.render.boards.MapBoard` draws it
under the squares), so it is the same for every position of a game: the ground kinds
are those the map has, the tokens are every shape :mod:`zrec.render.pieces` knows,
and the seats are those of the view the board was made for (none when the board was
made from its :class:`~zrec.rules.base.BoardSpec` alone).  Its sections stand side by
side in columns of equal width.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from zrec.render.pieces import COUNTERS, KINDS, TERRAINS, badge, terrain_marks, token
from zrec.render.svg import element, label, num
from zrec.rules.base import Piece, View

ROW = 26.0  # the height of an entry
HEAD = 22.0  # the height of a section's heading
UNIT = 0.8  # the tokens of the legend, against a 32 px square
SWATCH = 20.0  # the side of a ground's sample square

Draw = Callable[[float, float], list[ET.Element]]


@dataclass(frozen=True)
class Entry:
    """One line of the legend: its picture (drawn about a centre) and its name."""

    draw: Draw
    text: str


Section = tuple[str, tuple[Entry, ...]]


def _ground(kind: str) -> Draw:
    def draw(x: float, y: float) -> list[ET.Element]:
        left, top = x - SWATCH / 2, y - SWATCH / 2
        out = [element("rect", f"square {kind}", x=left, y=top, width=SWATCH, height=SWATCH)]
        marks = terrain_marks(kind, left, top, SWATCH)
        if marks:
            out.append(element("path", f"terrain {kind}", d=marks))
        return out

    return draw


def _sample(piece: Piece, seats: Sequence[str], role: str = "sample") -> Draw:
    def draw(x: float, y: float) -> list[ET.Element]:
        return token(piece, seats, x, y, UNIT, role=role)

    return draw


def _badge(x: float, y: float) -> list[ET.Element]:
    return badge(3, x, y, 1.0)


def _arrow(x: float, y: float) -> list[ET.Element]:
    tip = ((x + 11, y), (x + 2, y - 4.5), (x + 2, y + 4.5))
    corners = " ".join(f"{num(a)},{num(b)}" for a, b in tip)
    return [
        element("path", "last-move arrow", d=f"M{num(x - 11)} {num(y)}L{num(x + 3)} {num(y)}"),
        element("polygon", "last-move head", points=corners),
    ]


def _stay(x: float, y: float) -> list[ET.Element]:
    return [element("circle", "last-move stay", cx=x, cy=y, r=14.5 * UNIT * 0.8)]


def _piece(
    kind: str, owner: int | None = 0, *, count: int = 1, hidden: bool = False, state: str = ""
) -> Piece:
    return Piece("", owner, kind, "", count, hidden, state)


def sections(kinds: Sequence[str], view: View | None) -> list[Section]:
    """What the legend of a map with these ground ``kinds`` shows (the seats: those of
    ``view``, if given)."""
    known = [k for k in TERRAINS if k in kinds]
    other = sorted(set(kinds) - set(TERRAINS))
    seats = ("",)
    out: list[Section] = [
        ("Ground", tuple(Entry(_ground(k), TERRAINS.get(k, k)) for k in (*known, *other))),
        (
            "Animals",
            (
                *(Entry(_sample(_piece(k), seats), k) for k in ("calf", "cow", "bull")),
                Entry(_sample(_piece("calf", hidden=True), seats), "face down"),
                Entry(_sample(_piece("calf", state="caught"), seats), "caught"),
            ),
        ),
        (
            "Pieces",
            (
                Entry(_sample(_piece("shepherd"), seats), "shepherd (seat 1)"),
                Entry(_sample(_piece("wolf", None), seats), "wolf"),
                Entry(_badge, "three on one square"),
                Entry(_sample(_piece("sheltered", count=2), seats), "in a shelter"),
                Entry(_sample(_piece("eaten", None, count=1), seats), "eaten"),
            ),
        ),
    ]
    if view is not None:
        out.append(("Seats", tuple(_seat(view, i) for i in range(len(view.seats)))))
    out.append(
        (
            "Last move",
            (
                Entry(_arrow, "a move"),
                Entry(_stay, "stayed"),
                Entry(_sample(_piece("calf"), seats, "ghost"), "taken off"),
            ),
        )
    )
    return out


def _seat(view: View, seat: int) -> Entry:
    """A seat: its first piece face up (a counter and a face-down piece do not show
    what the seat plays with), in its colour and with its number, and its name."""
    kind = next(
        (
            p.kind
            for p in view.pieces
            if p.owner == seat and not p.hidden and p.kind not in COUNTERS and p.kind in KINDS
        ),
        "",
    )
    return Entry(_sample(_piece(kind, seat), view.seats), view.seats[seat])


def height(parts: Sequence[Section]) -> float:
    """The height of the legend."""
    return HEAD + max(len(entries) for _, entries in parts) * ROW


def draw(parts: Sequence[Section], x: float, y: float, width: float) -> list[ET.Element]:
    """The legend with its top left corner at (``x``, ``y``), ``width`` wide."""
    out = [element("path", "legend-rule", d=f"M{num(x)} {num(y - 6)}H{num(x + width)}")]
    column = width / len(parts)
    for i, (title, entries) in enumerate(parts):
        left = x + i * column
        out.append(label(title, left, y + 12, "legend-head"))
        for j, entry in enumerate(entries):
            middle = y + HEAD + (j + 0.5) * ROW
            out += entry.draw(left + 14, middle)
            out.append(label(entry.text, left + 32, middle + 4, "legend-label"))
    return out
