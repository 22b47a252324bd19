"""The parts of a study's chart: its sizes, its colours, and the pieces it is built of.

A :class:`Plot` is a y axis with its grid and tick labels (on a scale from
:func:`nice_scale`); :func:`bar_panel` draws a titled panel of one bar per reading on
one, :func:`legend` the legend; :func:`colour` and :func:`dash` give each reading its
look.  :mod:`zrec.research.study_chart` puts them together.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence

from zrec.render.svg import element, num
from zrec.render.text import text_lines, text_width, wrap

__all__ = [
    "AXIS_W",
    "COLOURS",
    "FOOT",
    "GAP",
    "HEAD",
    "HIST_H",
    "MARGIN",
    "NOTE_SIZE",
    "PANEL_H",
    "WIDTH",
    "Plot",
    "add_text",
    "bar_panel",
    "colour",
    "dash",
    "legend",
    "nice_scale",
    "tick_label",
]

#: One colour per reading (Okabe & Ito 2008), used in turn; a reading past the last
#: colour has dashed lines as well.
COLOURS = (
    "#0072b2",
    "#e69f00",
    "#009e73",
    "#cc79a7",
    "#d55e00",
    "#56b4e9",
    "#000000",
    "#f0e442",
)

WIDTH = 1000.0
MARGIN = 24.0
GAP = 22.0  # between panels
PANEL_H = 250.0
HIST_H = 270.0
AXIS_W = 44.0  # left of a plot: tick labels and the axis label
HEAD = 58.0  # over a plot of bars: the title and two lines of notes
NOTE_SIZE = 10.5
FOOT = 24.0  # under a plot of bars: the reading numbers


def colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


def dash(i: int) -> dict[str, str]:
    return {"stroke_dasharray": "7 4"} if i >= len(COLOURS) else {}


def add_text(parent: ET.Element, text: str, x: float, y: float, cls: str, **attrs: str) -> None:
    node = element("text", cls, x=x, y=y, **attrs)
    node.text = text
    parent.append(node)


def nice_scale(value: float, ticks: int = 5) -> tuple[float, float]:
    """The top of an axis showing ``value`` with a little room above it, and its tick
    step: 1, 2 or 5 times a power of ten, at most ``ticks`` + 1 steps to the top."""
    if value <= 0:
        return 1.0, 0.25
    rough = value / ticks
    power = 10 ** math.floor(math.log10(rough))
    for unit in (1, 2, 5, 10, 20, 50):
        step = unit * power
        if step * (ticks + 1) >= value * 1.04:
            break
    return step * math.ceil(value * 1.04 / step), step


def tick_label(x: float) -> str:
    """A tick or value label: ``12``, ``0.5``, ``48.9``."""
    if abs(x - round(x)) < 1e-9:
        return str(round(x))
    return f"{x:.2f}".rstrip("0") if abs(x) < 10 else f"{x:.1f}"


class Plot:
    """A plot area with a y axis from 0 to the top of a scale (:func:`nice_scale`), its
    grid and tick labels."""

    def __init__(
        self,
        svg: ET.Element,
        x: float,
        y: float,
        w: float,
        h: float,
        scale: tuple[float, float],
        unit: str,
    ) -> None:
        top, step = scale
        self.x, self.y, self.w, self.h, self.top = x, y, w, h, top
        axis = ET.SubElement(svg, "g", {"class": "y-axis"})
        for k in range(round(top / step) + 1):
            value = step * k
            ty = self.at(value)
            if k:
                axis.append(element("line", "grid", x1=x, y1=ty, x2=x + w, y2=ty))
            add_text(axis, tick_label(value), x - 5, ty + 3.5, "tick", text_anchor="end")
        axis.append(element("path", "axis", d=f"M{num(x)},{num(y)}V{num(y + h)}H{num(x + w)}"))
        add_text(
            axis,
            unit,
            x - AXIS_W + 10,
            y + h / 2,
            "axis-label",
            text_anchor="middle",
            transform=f"rotate(-90 {num(x - AXIS_W + 10)} {num(y + h / 2)})",
        )

    def at(self, value: float) -> float:
        """The y of a value."""
        return self.y + self.h - self.h * min(value, self.top) / self.top


def bar_panel(
    svg: ET.Element,
    series: list[ET.Element],
    x: float,
    y: float,
    w: float,
    title: str,
    note: str,
    unit: str,
    scale: tuple[float, float],
    draw: Callable[[ET.Element, Plot, int, float, float], str | None],
) -> Plot:
    """A panel: its title, a note under it, a plot and one bar (or stack) per reading,
    which ``draw(group, plot, reading, left, width)`` draws, returning its value label."""
    add_text(svg, title, x + w / 2, y, "panel-title", text_anchor="middle")
    svg.append(text_lines(wrap(note, w, NOTE_SIZE, 0.6)[:2], x + w / 2, y + 16, 13, "note"))
    top_y = y + HEAD
    plot = Plot(svg, x + AXIS_W, top_y, w - AXIS_W, PANEL_H - HEAD - FOOT, scale, unit)
    n = len(series)
    slot = plot.w / n
    bar = min(slot * 0.68, 46.0)
    values = []
    for i, group in enumerate(series):
        left = plot.x + slot * i + (slot - bar) / 2
        values.append(draw(group, plot, i, left, bar))
        add_text(group, str(i + 1), left + bar / 2, plot.y + plot.h + 15, "number")
    if all(bar + slot * 0.2 >= 7 * len(v or "") for v in values):  # room for every label
        for i, (group, value) in enumerate(zip(series, values, strict=True)):
            if value is not None:
                add_text(group, value, plot.x + slot * (i + 0.5), plot.y - 4, "value")
    return plot


def legend(svg: ET.Element, labels: Sequence[str], y: float) -> float:
    """The legend in rows from ``y``: a swatch, the reading's number and label; returns
    the y below it."""
    x = MARGIN
    row = y
    for i, text in enumerate(labels):
        entry = f"{i + 1}  {text}"
        width = 22 + text_width(entry, 12.5, 0.62) + 26
        if x > MARGIN and x + width > WIDTH - MARGIN:
            x, row = MARGIN, row + 22
        group = ET.SubElement(svg, "g", {"class": f"legend-entry series-{i + 1}"})
        group.append(element("rect", x=x, y=row - 11, width=16, height=14, fill=colour(i)))
        add_text(group, entry, x + 22, row, "legend-label")
        x += width
    return row + 14
