"""The SVG document of a diagram: its root, its stylesheets, its serialisation, and the
two helpers every drawing module uses (:func:`element`, :func:`num`).

The same input gives the same bytes: no dates, no random ids, attributes in sorted
order, one element a line.  :data:`DEFAULT_CSS` is the look of every board;
:data:`MAP_CSS` is added for a map of terrain (a grid whose regions are kinds of
ground), and only then, so that the other boards keep their bytes.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET


def num(x: float) -> str:
    """A length as SVG text: at most two decimals, no trailing zeros, no ``-0``."""
    if x == int(x):
        return str(int(x))
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def element(tag: str, cls: str | None = None, **attrs: str | float) -> ET.Element:
    """An SVG element; numbers are written with :func:`num`, ``cls`` is the class."""
    out = {
        k.rstrip("_").replace("_", "-"): v if isinstance(v, str) else num(v)
        for k, v in attrs.items()
    }
    if cls:
        out["class"] = cls
    return ET.Element(tag, out)


def label(text: str, x: float, y: float, cls: str = "coord") -> ET.Element:
    node = element("text", cls, x=x, y=y)
    node.text = text
    return node


SVG_NS = "http://www.w3.org/2000/svg"

#: The default look; a user's stylesheet is appended after it and wins.
DEFAULT_CSS = """\
.background { fill: #ffffff; }
.line { stroke: #1a1a1a; stroke-width: 1.3; fill: none; stroke-linecap: round; }
.point { fill: #1a1a1a; }
.square { fill: #ffffff; stroke: #555555; stroke-width: 0.7; }
.square.south, .square.north { fill: #ececec; }
.trail { stroke: #9a9a9a; stroke-width: 0.5; fill: none; }
.border { stroke: #1a1a1a; stroke-width: 1.6; fill: none; stroke-linecap: square; }
.piece { stroke: #111111; stroke-width: 1.5; }
.piece.white { fill: #ffffff; }
.piece.black { fill: #262626; }
.priest-mark { fill: none; stroke-width: 1.5; }
.priest-mark.white { stroke: #111111; }
.priest-mark.black { stroke: #ffffff; }
.ghost { stroke: #4d4d4d; stroke-width: 1.2; stroke-dasharray: 3 2; }
.ghost.white { fill: #ffffff; fill-opacity: 0.7; }
.ghost.black { fill: #262626; fill-opacity: 0.3; }
.priest-mark.ghost-mark { stroke: #4d4d4d; stroke-dasharray: 2 2; }
.last-move { fill: none; stroke: #a8322d; }
.last-move.arrow { stroke-width: 3; stroke-linecap: round; stroke-linejoin: round; }
.last-move.head { fill: #a8322d; stroke: none; }
.last-move.origin { stroke-width: 1.5; }
.last-move.entry { stroke-width: 2.5; }
.captured { fill: none; stroke: #a8322d; stroke-width: 1.2; stroke-dasharray: 3 2; }
.coord { fill: #333333; font-family: Georgia, 'Times New Roman', serif; font-size: 12px;
  text-anchor: middle; dominant-baseline: central; }
.caption { fill: #111111; font-family: Georgia, 'Times New Roman', serif; font-size: 15px;
  text-anchor: middle; }
.caption.title { font-size: 17px; font-weight: bold; }
"""

#: The look of a board of points (four seats in two teams), added after
#: :data:`DEFAULT_CSS` (and before a user's): the pieces of one team light, of the other
#: dark, each seat its own colour; the diagonals as lines of the board.
POINTS_CSS = """\
.piece.south { fill: #ffffff; }
.piece.east { fill: #e3b23c; }
.piece.west { fill: #3b6fb6; }
.piece.north { fill: #262626; }
.ghost.south, .ghost.east { fill: #ffffff; fill-opacity: 0.7; }
.ghost.west, .ghost.north { fill: #262626; fill-opacity: 0.3; }
.priest-mark.south, .priest-mark.east { stroke: #111111; }
.priest-mark.west, .priest-mark.north { stroke: #ffffff; }
.line.diagonal { stroke-width: 0.8; }
.coord.row { font-size: 10px; }
"""

#: The colour of each seat's pieces on a map (``seat-1`` ...), and of the number written
#: on them; the colours differ in lightness too, and the number tells them apart in grey.
SEAT_COLOURS = (
    ("#c8412f", "#ffffff"),
    ("#3b78c4", "#ffffff"),
    ("#f2b630", "#111111"),
    ("#8e5cc0", "#ffffff"),
    ("#4f9a5a", "#ffffff"),
    ("#b8b8b8", "#111111"),
)


def _seat_rules() -> str:
    out = []
    for i, (fill, ink) in enumerate(SEAT_COLOURS, 1):
        out.append(
            f".token.seat-{i} {{ fill: {fill}; }}\n"
            f".token.face-down.seat-{i} {{ stroke: {fill}; }}\n"
            f".glyph-text.seat-{i} {{ fill: {ink}; }}\n"
        )
    return "".join(out)


#: The look of a map of terrain, added after :data:`DEFAULT_CSS` (and before a user's).
MAP_CSS = (
    """\
.square.open, .square.herding, .square.forest, .square.water, .square.lair,
.square.shelter { stroke: #a3a3a3; stroke-width: 0.5; }
.square.open { fill: #ffffff; }
.square.herding { fill: #efe2b8; }
.square.forest { fill: #cfe5c0; }
.square.water { fill: #cde2f6; }
.square.lair { fill: #c8a27c; }
.square.shelter { fill: #fff7e0; }
.terrain { fill: none; stroke: none; }
.terrain.herding { fill: #9c7f40; }
.terrain.forest { fill: #3f7a35; }
.terrain.water { stroke: #2f6fb0; stroke-width: 1.2; stroke-linecap: round; }
.terrain.lair { stroke: #4a2f1a; stroke-width: 1.8; }
.terrain.shelter { stroke: #1a1a1a; stroke-width: 3; }
.token { fill: #dddddd; stroke: #111111; stroke-width: 1.5; fill-rule: evenodd; }
"""
    + _seat_rules()
    + """\
.token.face-down { fill: #8a8a8a; stroke-width: 2.6; }
.face-down-mark { fill: none; stroke: #dedede; stroke-width: 1.3; stroke-linecap: round; }
.token.wolf { fill: #303030; stroke: #ffffff; stroke-width: 1.2; }
.token.eaten { fill: #6d1a14; stroke: #ffffff; stroke-width: 1.2; }
.glyph-text { font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; font-weight: bold;
  text-anchor: middle; }
.glyph-text.eaten { fill: #ffffff; }
.count-badge { fill: #ffffff; stroke: #111111; stroke-width: 1; }
.count-text { fill: #111111; font-family: 'DejaVu Sans', Verdana, Arial, sans-serif;
  font-weight: bold; text-anchor: middle; }
.caught-mark { fill: none; stroke: #111111; stroke-width: 1.8; }
.ghost.token { fill-opacity: 0.35; stroke: #4d4d4d; stroke-width: 1.2; stroke-dasharray: 3 2; }
.last-move.stay { stroke-width: 2.2; }
.last-move.halo { stroke: #ffffff; stroke-width: 6; stroke-linecap: round; stroke-linejoin: round;
  stroke-opacity: 0.85; }
.legend-rule { stroke: #bbbbbb; stroke-width: 1; }
.legend-head, .legend-label { fill: #222222; font-family: Georgia, 'Times New Roman', serif;
  font-size: 12px; }
.legend-head { font-weight: bold; font-size: 13px; }
"""
)


# Characters XML 1.0 does not allow at all, even escaped (ElementTree lets them through).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` with characters that XML forbids replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def svg_root(width: float, height: float, size: int | None) -> ET.Element:
    """The ``<svg>`` of a picture ``width`` by ``height``, shown ``size`` px wide."""
    shown = width if size is None else float(size)
    return element(
        "svg",
        "zrec-diagram",
        xmlns=SVG_NS,
        version="1.1",
        viewBox=f"0 0 {num(width)} {num(height)}",
        width=shown,
        height=shown * height / width,
    )


def finish(svg: ET.Element, title: str, desc: str, css: str | None, board_css: str = "") -> str:
    """The document as text, with its title, its description and the stylesheet (the
    default one, the board's own, then the user's ``css``)."""
    head = [element("title"), element("desc"), element("style")]
    head[0].text, head[1].text = title, desc
    user = f"/* user stylesheet */\n{css}\n" if css else ""
    head[2].text = "\n" + DEFAULT_CSS + board_css + user
    for i, node in enumerate(head):
        svg.insert(i, node)
    return to_text(svg)


def to_text(root: ET.Element) -> str:
    """Serialise, one element a line, attributes in sorted order (the same bytes each time)."""
    for node in root.iter():
        node.attrib = dict(sorted(node.attrib.items()))
    ET.indent(root)
    return xml_safe(ET.tostring(root, encoding="unicode")) + "\n"
