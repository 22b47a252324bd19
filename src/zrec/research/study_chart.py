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

import statistics
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from zrec.render.svg import SVG_NS, element, num, to_text
from zrec.research.chart_parts import (
    AXIS_W,
    GAP,
    HIST_H,
    MARGIN,
    PANEL_H,
    WIDTH,
    Plot,
    add_text,
    bar_panel,
    colour,
    dash,
    legend,
    nice_scale,
    tick_label,
)
from zrec.research.study import Summary

__all__ = ["study_chart"]

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

def study_chart(summaries: Sequence[Summary], title: str, labels: Sequence[str]) -> str:
    """The chart of a study's readings (``labels``: each reading's name in the legend)."""
    first = summaries[0]
    games = len(first.results)
    svg = element("svg", "zrec-study", xmlns=SVG_NS, version="1.1")
    style = ET.SubElement(svg, "style")
    style.text = CSS
    svg.append(element("rect", "background", x=0, y=0, width=WIDTH, height=1))  # sized below
    add_text(svg, title, MARGIN, 32, "title")
    players = "/".join(first.reading.players)
    add_text(
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
    y = legend(svg, labels, 80) + 24
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

    def length_bar(g: ET.Element, plot: Plot, i: int, left: float, w: float) -> str:
        top = plot.at(means[i])
        g.append(element("rect", x=left, y=top, width=w, height=plot.at(0) - top, fill=colour(i)))
        my = plot.at(medians[i])
        for cls in ("median-halo", "median"):
            g.append(element("line", cls, x1=left - 3, y1=my, x2=left + w + 3, y2=my))
        return f"{means[i]:.1f}"

    bar_panel(
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

    def outcome_bar(g: ET.Element, plot: Plot, i: int, left: float, w: float) -> str:
        n = len(summaries[i].results)
        base = 0.0
        for kind in ("decisive", "drawn", "unfinished"):
            share = 100 * shares[i][kind] / n
            if share:
                top, bottom = plot.at(base + share), plot.at(base)
                attrs = {"stroke": colour(i)} if kind == "unfinished" else {"fill": colour(i)}
                g.append(
                    element("rect", kind, x=left, y=top, width=w, height=bottom - top, **attrs)
                )
            base += share
        return f"{100 * shares[i]['decisive'] / n:.1f}"

    bar_panel(
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

    def score_bar(g: ET.Element, plot: Plot, i: int, left: float, w: float) -> str | None:
        value = scores[i]
        if value is None:
            return None
        top = plot.at(value)
        g.append(element("rect", x=left, y=top, width=w, height=plot.at(0) - top, fill=colour(i)))
        return f"{value:.2f}"

    plot = bar_panel(
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

    def capture_bar(g: ET.Element, plot: Plot, i: int, left: float, w: float) -> str:
        top = plot.at(taken[i])
        g.append(element("rect", x=left, y=top, width=w, height=plot.at(0) - top, fill=colour(i)))
        return f"{taken[i]:.1f}"

    bar_panel(
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
    add_text(svg, "Game lengths", WIDTH / 2, y, "panel-title", text_anchor="middle")
    note = f"share of games in each bin of {size} plies" if size > 1 else "share of games"
    cut = summaries[0].max_plies
    if longest >= cut:
        note += f"; games cut off at {cut} plies make the last bin"
    add_text(svg, note, WIDTH / 2, y + 16, "note", text_anchor="middle")
    plot = Plot(
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
        add_text(ticks, tick_label(k), tx, plot.y + plot.h + 16, "tick", text_anchor="middle")
        k += step
    add_text(
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
            element("path", "length-line", d="".join(points), stroke=colour(i), **dash(i))
        )
    return plot.y + plot.h + 48
