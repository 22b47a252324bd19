"""Text on a diagram: captions and titles wrapped to the width of the picture.

SVG does not wrap text, so a long caption (a ``--caption``, an Event tag) is broken into
lines here, at spaces, using an estimate of its width in the serif font of the
captions: about 0.55 em a character, a full em for a wide (East Asian) character.  A
word longer than a whole line is broken where the line is full.  A caption that fits
stays one plain ``<text>`` element, byte for byte as before; a wrapped one is a
``<text>`` with one ``<tspan>`` a line.
"""

from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from zrec.render.boards import element, label

#: The width of a character, in em, of the caption font (an estimate on the wide side).
EM_PER_CHAR = 0.55
#: The same for the bold title.
EM_PER_CHAR_BOLD = 0.64
#: The space kept free at each side of a line of text.
MARGIN = 6.0


def text_width(text: str, size: float, em: float = EM_PER_CHAR) -> float:
    """The estimated width of ``text`` set at ``size`` px."""
    return size * sum(_char_em(char, em) for char in text)


def _char_em(char: str, em: float) -> float:
    if unicodedata.combining(char):
        return 0.0
    return 1.0 if unicodedata.east_asian_width(char) in "WF" else em


def wrap(text: str, width: float, size: float, em: float = EM_PER_CHAR) -> list[str]:
    """``text`` as lines no wider than ``width`` (less a margin at each side), broken at
    spaces; a word too long for a line is broken too.  Text that fits is one line,
    unchanged."""
    room = max(width - 2 * MARGIN, size)
    if text_width(text, size, em) <= room:
        return [text]
    lines: list[str] = []
    line = ""
    for word in text.split():
        joined = f"{line} {word}" if line else word
        if text_width(joined, size, em) <= room:
            line = joined
            continue
        if line:
            lines.append(line)
        line = ""
        for char in word:  # a word longer than a line is cut where the line is full
            if line and text_width(line + char, size, em) > room:
                lines.append(line)
                line = ""
            line += char
    if line:
        lines.append(line)
    return lines or [text]


def text_lines(lines: Sequence[str], x: float, y: float, leading: float, cls: str) -> ET.Element:
    """A centred ``<text>`` of ``lines``, the first on the baseline ``y``, each next one
    ``leading`` lower; a single line is a plain ``<text>``."""
    if len(lines) == 1:
        return label(lines[0], x, y, cls)
    node = element("text", cls, x=x, y=y)
    for i, line in enumerate(lines):
        span = element("tspan", x=x, y=y + i * leading)
        span.text = line
        node.append(span)
    return node
