"""The evaluation chart of an analysed game: each seat's win probability move by move.

Built of the study chart's parts (:mod:`zrec.research.chart_parts`: its y axis, grid,
tick labels and colours).  The x axis is the main line's plies (0: the start); in a
game of two seats one line is drawn, the first seat's value with the area under it,
and a dashed line at 1/2; with more seats one line a seat and a legend.  A marked move
(``?!``, ``?``, ``??``) is a dot on the mover's line, coloured by its mark.

Every ply is a column (``<rect class="eval-ply">``) that carries ``data-node``, the
number of the move's node in the replay page (:mod:`zrec.render.page_data`), and
``data-ply``; the page's script goes to that node when a column is clicked and moves the
cursor (``<line class="eval-cursor">``) to the current move.  The chart has no
stylesheet of its own (the page's, ``replay.css``, styles its classes), so that a page
under a Content-Security-Policy shows it as it is; it holds no text of the record.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from zrec.render.svg import SVG_NS, element, num
from zrec.research.chart_parts import Plot, add_text, colour

__all__ = ["MARK_COLOURS", "eval_chart"]

#: the colour of each mark's dot (lichess's: yellow, orange, red)
MARK_COLOURS = {"?!": "#e0b000", "?": "#e07000", "??": "#d42020"}
#: the chart's size: a plot under the board, its axis at the left
WIDTH, HEIGHT, LEFT, TOP, BOTTOM, RIGHT = 640.0, 150.0, 40.0, 12.0, 22.0, 10.0


def eval_chart(
    series: Sequence[Sequence[float]],
    seats: Sequence[str],
    movers: Sequence[int],
    marks: Sequence[str | None],
    nodes: Sequence[int],
) -> ET.Element:
    """The chart's ``<svg>``: ``series`` the values per seat at the start and after each
    ply (one more than the plies), ``movers`` each ply's mover (a seat's index),
    ``marks`` each ply's mark (or ``None``) and ``nodes`` each ply's node number in
    the page."""
    plies = len(series) - 1
    two = len(seats) == 2
    legend_h = 0.0 if two else 18.0
    height = HEIGHT + legend_h
    svg = element(
        "svg", "zrec-eval-chart", xmlns=SVG_NS, viewBox=f"0 0 {num(WIDTH)} {num(height)}",
        role="img",
    )
    ET.SubElement(svg, "title").text = (
        f"{seats[0]}'s win probability, move by move" if two
        else "Each seat's win probability, move by move"
    )
    svg.append(element("rect", "background", x=0, y=0, width=WIDTH, height=height))
    if not two:
        x = LEFT
        for i, name in enumerate(seats):
            svg.append(element("rect", x=x, y=4, width=12, height=10, fill=colour(i)))
            add_text(svg, name, x + 16, 13, "eval-legend")
            x += 24 + 7 * len(name)
    plot = Plot(svg, LEFT, TOP + legend_h, WIDTH - LEFT - RIGHT,
                HEIGHT - TOP - BOTTOM, (1.0, 0.25), "win prob.")
    step = plot.w / max(plies, 1)

    def x_of(ply: int) -> float:
        return plot.x + step * ply

    for ply in range(0, plies + 1, _tick_every(plies)):
        add_text(svg, str(ply), x_of(ply), plot.y + plot.h + 14, "eval-tick",
                 text_anchor="middle")
    if two:
        half = plot.at(0.5)
        svg.append(element("line", "eval-even", x1=plot.x, y1=half, x2=plot.x + plot.w, y2=half))
    drawn = [0] if two else list(range(len(seats)))
    for seat in drawn:
        points = " ".join(f"{num(x_of(p))},{num(plot.at(v[seat]))}" for p, v in enumerate(series))
        if two:
            area = f"M{num(plot.x)},{num(plot.at(0))}L{points.replace(' ', 'L')}" \
                f"L{num(x_of(plies))},{num(plot.at(0))}Z"
            svg.append(element("path", "eval-area", d=area))
        svg.append(element("polyline", "eval-line", points=points, stroke=colour(seat),
                           fill="none"))
    for ply, mark in enumerate(marks, 1):
        if mark in MARK_COLOURS:
            seat = 0 if two else movers[ply - 1]
            dot = element("circle", f"eval-mark eval-mark-{_mark_class(mark)}", cx=x_of(ply),
                          cy=plot.at(series[ply][seat]), r=3.5, fill=MARK_COLOURS[mark])
            ET.SubElement(dot, "title").text = f"ply {ply}: {mark}"
            svg.append(dot)
    svg.append(element("line", "eval-cursor", x1=plot.x, y1=plot.y, x2=plot.x,
                       y2=plot.y + plot.h))
    columns = ET.SubElement(svg, "g", {"class": "eval-plies"})
    for ply in range(plies + 1):
        left = max(plot.x, x_of(ply) - step / 2)
        right = min(plot.x + plot.w, x_of(ply) + step / 2)
        column = element("rect", "eval-ply", x=left, y=plot.y, width=max(right - left, 1.0),
                         height=plot.h, fill="transparent")
        column.set("data-ply", str(ply))
        column.set("data-node", str(nodes[ply - 1] if ply else 0))
        column.set("data-x", num(x_of(ply)))
        values = ", ".join(f"{seats[s]} {series[ply][s]:.2f}" for s in range(len(seats)))
        ET.SubElement(column, "title").text = f"ply {ply}: {values}"
        columns.append(column)
    return svg


def _tick_every(plies: int) -> int:
    for every in (1, 2, 5, 10, 20, 50, 100, 200, 500):
        if plies / every <= 12:
            return every
    return 1000


def _mark_class(mark: str) -> str:
    return {"?!": "inaccuracy", "?": "mistake", "??": "blunder"}[mark]
