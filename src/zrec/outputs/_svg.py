"""The SVG document of a diagram: its root, its default stylesheet, its serialisation.

The same input gives the same bytes: no dates, no random ids, attributes in sorted
order, one element a line.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from zrec.outputs._boards import element, num

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


def finish(svg: ET.Element, title: str, desc: str, css: str | None) -> str:
    """The document as text, with its title, its description and the stylesheet (the
    default one, then ``css``)."""
    head = [element("title"), element("desc"), element("style")]
    head[0].text, head[1].text = title, desc
    head[2].text = "\n" + DEFAULT_CSS + (f"/* user stylesheet */\n{css}\n" if css else "")
    for i, node in enumerate(head):
        svg.insert(i, node)
    return to_text(svg)


def to_text(root: ET.Element) -> str:
    """Serialise, one element a line, attributes in sorted order (the same bytes each time)."""
    for node in root.iter():
        node.attrib = dict(sorted(node.attrib.items()))
    ET.indent(root)
    return xml_safe(ET.tostring(root, encoding="unicode")) + "\n"
