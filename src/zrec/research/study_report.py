"""A study's report (``zrec study --report DIR``): one offline page, ``DIR/index.html``.

The page holds the study's readings and players, the table of its metrics with their
95% intervals (each metric with what it measures and what a higher value means, every
number of a metric at one precision: :mod:`zrec.research.metrics_shown`; the page
says all a reader needs, pointing to no file an install may lack), one small chart per
metric (each reading's interval as a line and its
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
from zrec.research.metrics_shown import digits, interval, meaning

__all__ = ["report_page"]

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 68em;
       padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { padding: .25em .7em; border-bottom: 1px solid #ddd; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th .about, .chart .about { display: block; font-weight: normal; font-size: .85em;
       color: #555; max-width: 30em; }
.chart .about { max-width: 410px; margin: 0 0 .2em; }
.charts { display: flex; flex-wrap: wrap; gap: 1em 2em; }
.chart h3 { font-size: 1em; margin: .6em 0 .2em; }
svg text { font: 12px system-ui, sans-serif; fill: #333; }
svg .axis { stroke: #999; } svg .range { stroke: #2a6; stroke-width: 3; }
svg .dot { fill: #153; }
"""

_ROW, _LABEL_W, _PLOT_W = 22, 170, 220


def _scale(values: Sequence[float]) -> tuple[float, float]:
    """0 to 1 for a metric in [0, 1], else 0 (or the least value) to the largest."""
    low, high = min(values), max(values)
    if low >= 0 and high <= 1:
        return 0.0, 1.0
    return (min(0.0, low), high if high > low else low + 1)


def _about(name: str) -> str:
    """A metric's definition and direction, as HTML: "mean plies per game; higher:
    longer games"."""
    what, higher = meaning(name)
    return html.escape(f"{what}; higher: {higher}") if what else ""


def _interval_chart(
    name: str, labels: Sequence[str], rows: Sequence[Mapping[str, Any] | None]
) -> str:
    """One metric's chart: a row per reading with a value; its scale's ends at the
    precision of the metric's row in the table."""
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
        # a share's scale is 0 to 1; another's ends at the precision of its row
        tick.text = f"{v:g}" if (lo, hi) == (0.0, 1.0) else f"{v:.{digits(rows)}f}"
    body = ET.tostring(svg, encoding="unicode")
    higher = meaning(name)[1]
    about = f'<p class="about">higher: {html.escape(higher)}</p>' if higher else ""
    return f'<div class="chart"><h3>{html.escape(name)}</h3>{about}{body}</div>'


#: what the page says of the metrics above their table
_METRICS = (
    "Ludii's plausibility metrics of self-played games (the Digital Ludeme Project's "
    "names), each with what it measures and what a higher value means; the evaluation "
    "of Decisiveness, LeadChange, Stability and Drama is material, a seat's pieces over "
    "all the pieces on the board. Each value has its 95% interval: the games resampled "
    "200 times (a percentile bootstrap). A share is between 0 and 1; the numbers of a "
    "metric have one precision for every reading; – marks a metric undefined (no game "
    "with a winner, for one)."
)


def _row(name: str, found: Sequence[Mapping[str, Any] | None]) -> str:
    """A metric's row of the table: its name over its meaning, then each reading's
    value and interval, at one precision."""
    places = digits(found)
    about = _about(name)
    shown = [interval(f, places) for f in found]
    cells = "".join(f'<td class="n">{"–" if t == "-" else html.escape(t)}</td>' for t in shown)
    head = html.escape(name) + (f'<span class="about">{about}</span>' if about else "")
    return f"<tr><th>{head}</th>{cells}</tr>"


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
    rows = "".join(_row(n, [d["metrics"].get(n) for d in data]) for n in names)
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
        f"<h2>Metrics</h2><p>{_METRICS}</p><table><tr><th>Metric</th>{head}</tr>"
        f"{rows}</table><h2>Intervals</h2><div class=\"charts\">{charts}</div>{ranking}"
        f"<h2>The games</h2>{chart}</body></html>\n"
    )
