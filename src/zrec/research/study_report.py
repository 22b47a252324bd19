"""A study's report (``zrec study --report DIR``): one offline page, ``DIR/index.html``.

The page holds the study's readings and players, the table of its metrics with their
95% intervals, one small chart per metric (each reading's interval as a line and its
value as a dot, on the metric's own scale), the ranking when ``--rank`` asked for
one, and the study's chart (:mod:`zrec.research.study_chart`).  Everything is in the
one file (the charts are inline SVG, the style a ``<style>`` element): it opens from
a disk, a mail or a web server alike, with no script.  Every text is escaped.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

from zrec.render.svg import element

__all__ = ["report_page"]

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 68em;
       padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { padding: .25em .7em; border-bottom: 1px solid #ddd; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.charts { display: flex; flex-wrap: wrap; gap: 1em 2em; }
.chart h3 { font-size: 1em; margin: .6em 0 .2em; }
svg text { font: 12px system-ui, sans-serif; fill: #333; }
svg .axis { stroke: #999; } svg .range { stroke: #2a6; stroke-width: 3; }
svg .dot { fill: #153; }
"""

_ROW, _LABEL_W, _PLOT_W = 22, 170, 220


def _cell(found: Mapping[str, Any] | None) -> str:
    if not found or found.get("value") is None:
        return "–"
    v, lo, hi = found["value"], found["low"], found["high"]
    return f"{v:.3f} [{lo:.3f}, {hi:.3f}]" if abs(v) < 100 else f"{v:.1f} [{lo:.1f}, {hi:.1f}]"


def _scale(values: Sequence[float]) -> tuple[float, float]:
    """0 to 1 for a metric in [0, 1], else 0 (or the least value) to the largest."""
    low, high = min(values), max(values)
    if low >= 0 and high <= 1:
        return 0.0, 1.0
    return (min(0.0, low), high if high > low else low + 1)


def _interval_chart(
    name: str, labels: Sequence[str], rows: Sequence[Mapping[str, Any] | None]
) -> str:
    """One metric's chart: a row per reading with a value."""
    shown = [(label, r) for label, r in zip(labels, rows, strict=True)
             if r and r.get("value") is not None]
    if not shown:
        return ""
    lo, hi = _scale([x for _, r in shown for x in (r["low"], r["high"], r["value"])])
    height = _ROW * len(shown) + 24
    svg = element("svg", xmlns="http://www.w3.org/2000/svg", width=_LABEL_W + _PLOT_W + 20,
                  height=height, role="img")
    ET.SubElement(svg, "title").text = name

    def x(v: float) -> float:
        return _LABEL_W + (v - lo) / (hi - lo) * _PLOT_W

    for i, (label, r) in enumerate(shown):
        y = 14 + i * _ROW
        text = ET.SubElement(svg, "text", x="0", y=str(y + 4))
        text.text = label if len(label) <= 26 else label[:25] + "…"
        svg.append(element("line", "range", x1=x(r["low"]), y1=y, x2=x(r["high"]), y2=y))
        svg.append(element("circle", "dot", cx=x(r["value"]), cy=y, r=4))
    base = height - 14
    svg.append(element("line", "axis", x1=_LABEL_W, y1=base, x2=_LABEL_W + _PLOT_W, y2=base))
    for v, anchor in ((lo, "start"), (hi, "end")):
        tick = ET.SubElement(svg, "text", x=str(round(x(v), 2)), y=str(base + 12))
        tick.set("text-anchor", anchor)
        tick.text = f"{v:.3g}"
    body = ET.tostring(svg, encoding="unicode")
    return f'<div class="chart"><h3>{html.escape(name)}</h3>{body}</div>'


def report_page(
    title: str, data: Sequence[Mapping[str, Any]], labels: Sequence[str], chart: str,
    about: str,
) -> str:
    """The page of a study: ``data`` its readings as ``--format json`` gives them,
    ``labels`` their names, ``chart`` the study's SVG, ``about`` one line of how it was
    played (games, seed, players)."""
    e = html.escape
    names = list(dict.fromkeys(n for d in data for n in d.get("metrics", {})))
    head = "".join(f"<th>{e(label)}</th>" for label in labels)
    rows = "".join(
        f"<tr><th>{e(n)}</th>"
        + "".join(f'<td class="n">{e(_cell(d["metrics"].get(n)))}</td>' for d in data)
        + "</tr>"
        for n in names
    )
    charts = "".join(_interval_chart(n, labels, [d["metrics"].get(n) for d in data])
                     for n in names)
    ranking = ""
    if any("ranking" in d for d in data):
        order = sorted(range(len(data)), key=lambda i: (data[i]["ranking"]["rank"] is None,
                                                        data[i]["ranking"]["rank"] or 0))
        items = []
        for i in order:
            place = data[i]["ranking"]
            said = (f"fails: {place['rejected']}" if place["rejected"] is not None else
                    f"score {place['score']:.3f}" if place["score"] is not None else "undefined")
            number = place["rank"] if place["rank"] is not None else "–"
            items.append(f"<tr><td class=\"n\">{number}</td><td>{e(labels[i])}</td>"
                         f"<td>{e(said)}</td></tr>")
        ranking = ("<h2>Ranking</h2><p>The mean of Balance, Completion, DecisionMoves, "
                   "LeadChange and 1 − Timeouts; readings that fail the playability test "
                   "are set aside.</p><table><tr><th>Rank</th><th>Reading</th><th></th></tr>"
                   + "".join(items) + "</table>")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{e(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{e(title)}</h1><p>{e(about)}</p>"
        f"<h2>Metrics</h2><p>Each value with its 95% interval (bootstrap over the games; "
        f"docs/study.md defines each metric).</p><table><tr><th>Metric</th>{head}</tr>"
        f"{rows}</table><h2>Intervals</h2><div class=\"charts\">{charts}</div>{ranking}"
        f"<h2>The games</h2>{chart}</body></html>\n"
    )
