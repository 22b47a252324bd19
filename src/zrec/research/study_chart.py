"""An SVG chart of a study: the readings of the rules side by side.

Four panels of bars, one bar per reading, then the lengths of the games:

- the mean game length in plies (a dark tick marks the median);
- how the games ended: decisive (solid), drawn (pale), unfinished (outlined), in % of
  the games;
- the mean score of the first player over the finished games (a dashed line where
  every seat would score the same);
- the pieces taken per game;
- below, the share of games of each length (in bins of a few plies), one line per
  reading.

Each reading has a colour (Okabe and Ito's palette, which colour-blind readers tell
apart) and a number, written under its bars and in the legend, so that the chart reads
in grey too.  Everything a reading draws is in a group of class ``series`` and
``series-N`` (N its number).  As every SVG zrec writes: built with
:mod:`xml.etree.ElementTree`, attributes in sorted order, the same bytes for the same
study.
"""

from __future__ import annotations

import math
import statistics
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence

from zrec.render.svg import SVG_NS, element, num, to_text
from zrec.render.text import text_lines, text_width, wrap
from zrec.research.study import Summary

__all__ = ["COLOURS", "study_chart"]

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

CSS = """
.background { fill: #ffffff; }
text { font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; fill: #222222; }
.title { font-size: 17px; font-weight: bold; }
.subtitle { font-size: 12px; fill: #555555; }
.panel-title { font-size: 13px; font-weight: bold; }
.note { font-size: 10.5px; fill: #555555; text-anchor: middle; }
.tick { font-size: 10.5px; fill: #444444; }
.axis-label { font-size: 11px; fill: #444444; }
.value { font-size: 10.5px; text-anchor: middle; }
.number { font-size: 11px; font-weight: bold; text-anchor: middle; }
.legend-label { font-size: 12.5px; }
.axis { stroke: #444444; stroke-width: 1; fill: none; }
.grid { stroke: #e3e3e3; stroke-width: 1; }
.even { stroke: #777777; stroke-width: 1.2; stroke-dasharray: 5 3; }
.median-halo { stroke: #ffffff; stroke-width: 4.5; }
.median { stroke: #222222; stroke-width: 1.8; }
.drawn { fill-opacity: 0.4; }
.unfinished { fill: #ffffff; stroke-width: 1.5; }
.length-line { fill: none; stroke-width: 2; stroke-linejoin: round; }
"""

WIDTH = 1000.0
MARGIN = 24.0
GAP = 22.0  # between panels
PANEL_H = 250.0
HIST_H = 270.0
AXIS_W = 44.0  # left of a plot: tick labels and the axis label
HEAD = 58.0  # over a plot of bars: the title and two lines of notes
NOTE_SIZE = 10.5
FOOT = 24.0  # under a plot of bars: the reading numbers


def _colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


def _dash(i: int) -> dict[str, str]:
    return {"stroke_dasharray": "7 4"} if i >= len(COLOURS) else {}


def _text(parent: ET.Element, text: str, x: float, y: float, cls: str, **attrs: str) -> None:
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


def _short(x: float) -> str:
    """A tick or value label: ``12``, ``0.5``, ``48.9``."""
    if abs(x - round(x)) < 1e-9:
        return str(round(x))
    return f"{x:.2f}".rstrip("0") if abs(x) < 10 else f"{x:.1f}"


class _Plot:
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
            _text(axis, _short(value), x - 5, ty + 3.5, "tick", text_anchor="end")
        axis.append(element("path", "axis", d=f"M{num(x)},{num(y)}V{num(y + h)}H{num(x + w)}"))
        _text(
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


def _bar_panel(
    svg: ET.Element,
    series: list[ET.Element],
    x: float,
    y: float,
    w: float,
    title: str,
    note: str,
    unit: str,
    scale: tuple[float, float],
    draw: Callable[[ET.Element, _Plot, int, float, float], str | None],
) -> _Plot:
    """A panel: its title, a note under it, a plot and one bar (or stack) per reading,
    which ``draw(group, plot, reading, left, width)`` draws, returning its value label."""
    _text(svg, title, x + w / 2, y, "panel-title", text_anchor="middle")
    svg.append(text_lines(wrap(note, w, NOTE_SIZE, 0.6)[:2], x + w / 2, y + 16, 13, "note"))
    top_y = y + HEAD
    plot = _Plot(svg, x + AXIS_W, top_y, w - AXIS_W, PANEL_H - HEAD - FOOT, scale, unit)
    n = len(series)
    slot = plot.w / n
    bar = min(slot * 0.68, 46.0)
    values = []
    for i, group in enumerate(series):
        left = plot.x + slot * i + (slot - bar) / 2
        values.append(draw(group, plot, i, left, bar))
        _text(group, str(i + 1), left + bar / 2, plot.y + plot.h + 15, "number")
    if all(bar + slot * 0.2 >= 7 * len(v or "") for v in values):  # room for every label
        for i, (group, value) in enumerate(zip(series, values, strict=True)):
            if value is not None:
                _text(group, value, plot.x + slot * (i + 0.5), plot.y - 4, "value")
    return plot


def _legend(svg: ET.Element, labels: Sequence[str], y: float) -> float:
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
        group.append(element("rect", x=x, y=row - 11, width=16, height=14, fill=_colour(i)))
        _text(group, entry, x + 22, row, "legend-label")
        x += width
    return row + 14


def study_chart(summaries: Sequence[Summary], title: str, labels: Sequence[str]) -> str:
    """The chart of a study's readings (``labels``: each reading's name in the legend)."""
    first = summaries[0]
    games = len(first.results)
    svg = element("svg", "zrec-study", xmlns=SVG_NS, version="1.1")
    style = ET.SubElement(svg, "style")
    style.text = CSS
    svg.append(element("rect", "background", x=0, y=0, width=WIDTH, height=1))  # sized below
    _text(svg, title, MARGIN, 32, "title")
    players = "/".join(first.reading.players)
    _text(
        svg,
        f"{games} games per reading, seed {first.seed}, at most {first.max_plies} plies "
        f"a game; players: {players}"
        if len({s.reading.players for s in summaries}) == 1
        else f"{games} games per reading, seed {first.seed}, at most {first.max_plies} plies "
        "a game",
        MARGIN,
        52,
        "subtitle",
    )
    y = _legend(svg, labels, 80) + 24
    # the readings' groups go after the axes and grids (drawn over them)
    series_roots = [
        ET.Element("g", {"class": f"series series-{i + 1}", "data-reading": label})
        for i, label in enumerate(labels)
    ]
    panel_w = (WIDTH - 2 * MARGIN - 3 * GAP) / 4
    x0 = MARGIN

    def panel_x(k: int) -> float:
        return x0 + k * (panel_w + GAP)

    def groups(kind: str) -> list[ET.Element]:
        return [ET.SubElement(g, "g", {"class": kind}) for g in series_roots]

    # 1. game length
    means = [sum(r.plies for r in s.results) / len(s.results) for s in summaries]
    medians = [float(statistics.median(r.plies for r in s.results)) for s in summaries]

    def length_bar(g: ET.Element, plot: _Plot, i: int, left: float, w: float) -> str:
        top = plot.at(means[i])
        g.append(element("rect", x=left, y=top, width=w, height=plot.at(0) - top, fill=_colour(i)))
        my = plot.at(medians[i])
        for cls in ("median-halo", "median"):
            g.append(element("line", cls, x1=left - 3, y1=my, x2=left + w + 3, y2=my))
        return f"{means[i]:.1f}"

    _bar_panel(
        svg,
        groups("length"),
        panel_x(0),
        y,
        panel_w,
        "Game length",
        "bar: mean; tick: median",
        "plies",
        nice_scale(max(means)),
        length_bar,
    )

    # 2. how games ended
    shares = [s.counts() for s in summaries]

    def outcome_bar(g: ET.Element, plot: _Plot, i: int, left: float, w: float) -> str:
        n = len(summaries[i].results)
        base = 0.0
        for kind in ("decisive", "drawn", "unfinished"):
            share = 100 * shares[i][kind] / n
            if share:
                top, bottom = plot.at(base + share), plot.at(base)
                attrs = {"stroke": _colour(i)} if kind == "unfinished" else {"fill": _colour(i)}
                g.append(
                    element("rect", kind, x=left, y=top, width=w, height=bottom - top, **attrs)
                )
            base += share
        return f"{100 * shares[i]['decisive'] / n:.1f}"

    _bar_panel(
        svg,
        groups("outcomes"),
        panel_x(1),
        y,
        panel_w,
        "How games ended",
        "solid: decisive, pale: drawn, outline: unfinished",
        "% of games",
        (100.0, 20.0),
        outcome_bar,
    )

    # 3. the first player's score
    scores = [s.seat_scores()[s.first_seat] for s in summaries]

    def score_bar(g: ET.Element, plot: _Plot, i: int, left: float, w: float) -> str | None:
        value = scores[i]
        if value is None:
            return None
        top = plot.at(value)
        g.append(element("rect", x=left, y=top, width=w, height=plot.at(0) - top, fill=_colour(i)))
        return f"{value:.2f}"

    plot = _bar_panel(
        svg,
        groups("first-score"),
        panel_x(2),
        y,
        panel_w,
        "First player's score",
        "finished games; dashed line: even",
        "score",
        (1.0, 0.25),
        score_bar,
    )
    even = plot.at(1 / len(first.seats))
    even_line = element("line", "even", x1=plot.x, y1=even, x2=plot.x + plot.w, y2=even)

    # 4. captures
    taken = [sum(sum(r.captures) for r in s.results) / len(s.results) for s in summaries]

    def capture_bar(g: ET.Element, plot: _Plot, i: int, left: float, w: float) -> str:
        top = plot.at(taken[i])
        g.append(element("rect", x=left, y=top, width=w, height=plot.at(0) - top, fill=_colour(i)))
        return f"{taken[i]:.1f}"

    _bar_panel(
        svg,
        groups("captures"),
        panel_x(3),
        y,
        panel_w,
        "Pieces taken",
        "mean per game",
        "pieces",
        nice_scale(max(taken)),
        capture_bar,
    )

    y += PANEL_H + 34
    y = _histogram(svg, groups("lengths"), summaries, y)
    svg.extend(series_roots)
    svg.append(even_line)
    svg.attrib["viewBox"] = f"0 0 {num(WIDTH)} {num(y)}"
    svg.attrib["width"], svg.attrib["height"] = num(WIDTH), num(y)
    svg[1].attrib["height"] = num(y)
    return to_text(svg)


def _histogram(
    svg: ET.Element, series: list[ET.Element], summaries: Sequence[Summary], y: float
) -> float:
    """The share of games of each length, one line per reading; returns the y below."""
    longest = max(max(r.plies for r in s.results) for s in summaries)
    size = max(1, round(nice_scale(longest, 40)[1]))
    bins = longest // size + 1
    lines = []
    for s in summaries:
        counts = [0] * bins
        for r in s.results:
            counts[r.plies // size] += 1
        lines.append([100 * c / len(s.results) for c in counts])
    _text(svg, "Game lengths", WIDTH / 2, y, "panel-title", text_anchor="middle")
    note = f"share of games in each bin of {size} plies" if size > 1 else "share of games"
    cut = summaries[0].max_plies
    if longest >= cut:
        note += f"; games cut off at {cut} plies make the last bin"
    _text(svg, note, WIDTH / 2, y + 16, "note", text_anchor="middle")
    plot = _Plot(
        svg,
        MARGIN + AXIS_W,
        y + 40,
        WIDTH - 2 * MARGIN - AXIS_W,
        HIST_H - 80,
        nice_scale(max(max(v) for v in lines)),
        "% of games",
    )
    span = bins * size

    def px(plies: float) -> float:
        return plot.x + plot.w * plies / span

    step = nice_scale(span, 12)[1]
    ticks = element("g", "x-axis")
    svg.append(ticks)
    k = 0.0
    while k <= span + 1e-9:
        tx = px(k)
        ticks.append(
            element("line", "axis", x1=tx, y1=plot.y + plot.h, x2=tx, y2=plot.y + plot.h + 4)
        )
        _text(ticks, _short(k), tx, plot.y + plot.h + 16, "tick", text_anchor="middle")
        k += step
    _text(
        ticks,
        "game length (plies)",
        plot.x + plot.w / 2,
        plot.y + plot.h + 34,
        "axis-label",
        text_anchor="middle",
    )
    for i, (group, values) in enumerate(zip(series, lines, strict=True)):
        points = [f"M{num(px(0))},{num(plot.at(0))}"]
        for b, value in enumerate(values):
            vy = plot.at(value)
            points.append(f"V{num(vy)}H{num(px((b + 1) * size))}")
        points.append(f"V{num(plot.at(0))}")
        group.append(
            element("path", "length-line", d="".join(points), stroke=_colour(i), **_dash(i))
        )
    return plot.y + plot.h + 48
