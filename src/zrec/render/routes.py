"""The routes of moving pieces on a picture: segments (straight or round a curved end),
SVG path data for them, and a route shortened to leave room for an arrow head.

Pure geometry in the picture's units, shared by the boards (:mod:`zrec.render.boards`)
and the move marks (:mod:`zrec.render.layers`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from zrec.render.svg import num

Point = tuple[float, float]


@dataclass(frozen=True)
class Segment:
    """A piece of a route: a straight line to ``end``, or an arc about ``centre``."""

    end: Point
    centre: Point | None = None
    sweep: int = 0  # the SVG sweep flag of an arc (1: clockwise on the picture)


def sweep_flag(centre: Point, start: Point, end: Point) -> int:
    """The SVG sweep flag of the short arc about ``centre`` from ``start`` to ``end``."""
    cross = (start[0] - centre[0]) * (end[1] - centre[1]) - (start[1] - centre[1]) * (
        end[0] - centre[0]
    )
    return 1 if cross > 0 else 0


def path_data(start: Point, segments: Sequence[Segment]) -> str:
    """SVG path data from ``start`` along the segments (arcs as circular arcs)."""
    out = [f"M{num(start[0])} {num(start[1])}"]
    here = start
    for seg in segments:
        x, y = seg.end
        if seg.centre is None:
            out.append(f"L{num(x)} {num(y)}")
        else:
            r = math.dist(seg.centre, here)
            out.append(f"A{num(r)} {num(r)} 0 0 {seg.sweep} {num(x)} {num(y)}")
        here = seg.end
    return "".join(out)


def trim_end(start: Point, segments: Sequence[Segment], by: float) -> tuple[list[Segment], Point]:
    """The route shortened by ``by`` at its end, and the direction it ends in (unit)."""
    segs = list(segments)
    if not segs:
        return segs, (1.0, 0.0)
    here = segs[-2].end if len(segs) > 1 else start
    last = segs[-1]
    if last.centre is None:
        dx, dy = last.end[0] - here[0], last.end[1] - here[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        by = min(by, length * 0.8)
        segs[-1] = Segment((last.end[0] - ux * by, last.end[1] - uy * by))
        return segs, (ux, uy)
    cx, cy = last.centre
    r = math.dist(last.centre, last.end)
    sign = 1 if last.sweep else -1
    angle = math.atan2(last.end[1] - cy, last.end[0] - cx) - sign * by / r
    end = (cx + r * math.cos(angle), cy + r * math.sin(angle))
    segs[-1] = Segment(end, last.centre, last.sweep)
    return segs, (-sign * math.sin(angle), sign * math.cos(angle))
