"""Standings and crosstables written out: a text table, CSV, JSON and HTML.

The HTML builders return elements (a ``<table>``), so that the published site and the
``--format html`` page share them; :func:`html_page` wraps them in a page of their own.
Numbers are written as FIDE lists show them: ``2.5``, ``11``, thirds to two places.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from zrec.tournament.csvtext import csv_text
from zrec.tournament.event import Entrant, Round, Tournament
from zrec.tournament.tiebreaks import Ranked

__all__ = [
    "crosstable_html",
    "crosstable_text",
    "html_page",
    "number",
    "standings_csv",
    "standings_html",
    "standings_json",
    "standings_text",
]

#: a stored game's page, or None where there is none
Link = Callable[[int], str | None]


def number(value: Fraction) -> int | float:
    """A value as JSON writes it: an integer when whole, else a float."""
    if value.denominator == 1:
        return int(value)
    return round(float(value), 4)


def text_number(value: Fraction) -> str:
    if value.denominator == 1:
        return str(int(value))
    if value.denominator == 2:
        return f"{float(value):.1f}"
    return f"{float(value):.2f}"


def _title(event: Tournament) -> str:
    return f"{event.name}, after round {event.rounds}"


def _header(codes: Sequence[str]) -> list[str]:
    return ["Rank", "No", "Player", "Pts", "Games", *codes]


def _cells(line: Ranked, codes: Sequence[str]) -> list[str]:
    return [
        str(line.rank),
        str(line.entrant.number),
        line.entrant.name,
        text_number(line.points),
        str(line.games),
        *(text_number(line.values[c]) for c in codes),
    ]


def _aligned(rows: Sequence[Sequence[str]], left: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(widths[i]) if i in left else cell.rjust(widths[i])
            for i, cell in enumerate(row)
        ).rstrip()
        for row in rows
    ]


def standings_text(
    event: Tournament, lines: Sequence[Ranked], codes: Sequence[str], after: str | None = None
) -> str:
    """The standings as a table under ``EVENT, after round N`` (``after``: what follows
    the event's name instead, such as ``after round 5 (1 of 4 games in; 3 pending)``)."""
    rows = [_header(codes), *(_cells(line, codes) for line in lines)]
    title = _title(event) if after is None else f"{event.name}, {after}"
    out = [title, "", *_aligned(rows, {2})]
    if codes:
        out += ["", "Tie-breaks: " + ", ".join(codes)]
    return "\n".join(out) + "\n"


def standings_csv(lines: Sequence[Ranked], codes: Sequence[str]) -> str:
    """The standings as CSV; a cell a spreadsheet would take for a formula is made
    text (:mod:`zrec.tournament.csvtext`)."""
    return csv_text([_header(codes), *(_cells(line, codes) for line in lines)])


def standings_json(lines: Sequence[Ranked], codes: Sequence[str]) -> list[dict[str, Any]]:
    return [
        {
            "rank": line.rank,
            "number": line.entrant.number,
            "player": line.entrant.name,
            "points": number(line.points),
            "games": line.games,
            **{c: number(line.values[c]) for c in codes},
        }
        for line in lines
    ]


def _table(head: Sequence[str], klass: str) -> tuple[ET.Element, ET.Element]:
    table = ET.Element("table", {"class": klass})
    row = ET.SubElement(ET.SubElement(table, "thead"), "tr")
    for cell in head:
        ET.SubElement(row, "th").text = cell
    return table, ET.SubElement(table, "tbody")


def standings_html(
    lines: Sequence[Ranked], codes: Sequence[str], player_link: Callable[[Entrant], str | None]
    | None = None,
) -> ET.Element:
    table, body = _table(_header(codes), "standings")
    for line in lines:
        row = ET.SubElement(body, "tr")
        for i, cell in enumerate(_cells(line, codes)):
            td = ET.SubElement(row, "td", {"class": "name"} if i == 2 else {"class": "num"})
            target = player_link(line.entrant) if player_link and i == 2 else None
            if target:
                ET.SubElement(td, "a", {"href": target}).text = cell
            else:
                td.text = cell
    return table


# -- crosstables ---------------------------------------------------------------------

_BYE_WORDS = {"U": "PAB", "F": "bye", "H": "bye", "Z": "–"}


def _mark(r: Round) -> str:
    """A round's result as a crosstable writes it: ``1 ½ 0``, ``+ -`` for forfeits."""
    if r.code in "1=0":
        return {"1": "1", "=": "½", "0": "0"}[r.code] if r.score is None else text_number(r.score)
    if r.code in "WDL":
        return {"W": "1", "D": "½", "L": "0"}[r.code]
    if r.code in "+-":
        return r.code
    return {Fraction(1): "1", Fraction(1, 2): "½", Fraction(0): "0"}.get(r.points, "?")


def swiss_cell(r: Round) -> str:
    """One round of the Swiss form: opponent, colour, result (``12w1``, ``5b½``,
    ``3w+``), or the kind of bye and its points (``PAB 1``, ``bye ½``, ``– 0``)."""
    if r.code in _BYE_WORDS:
        return f"{_BYE_WORDS[r.code]} {_mark(r)}"
    if not r.opponents:  # a forfeit without a scheduled opponent
        return f"ff {_mark(r)}"
    if len(r.opponents) == 1:
        return f"{r.opponents[0]}{r.colour}{_mark(r)}"
    return f"{','.join(map(str, r.opponents))} {r.colour} {_mark(r)}"


def _swiss_cell(r: Round | None) -> str:
    return "*" if r is None else swiss_cell(r)  # a game not finished yet


def _rr_cell(entrant: Entrant, other: Entrant) -> str:
    if entrant.number == other.number:
        return "×"
    marks = [
        _mark(r) for _, r in sorted(entrant.rounds.items()) if r.opponent == other.number
    ]
    return " ".join(marks) if marks else "·"


def _crosstable_rows(
    event: Tournament,
    lines: Sequence[Ranked],
    form: str,
    shown: Sequence[Ranked] | None = None,
    columns: range | None = None,
) -> tuple[list[str], list[list[str]]]:
    """The head and the rows of the crosstable: the rows of ``shown`` (default: every
    line) and the columns ``columns`` (indexes of the rounds, or of the opponents in
    rank order; default: all)."""
    order = [line.entrant for line in lines]
    shown = lines if shown is None else shown
    if form == "round robin":
        cols = range(len(order)) if columns is None else columns
        head = ["Rank", "No", "Player", *(str(i + 1) for i in cols), "Pts"]
        rows = [
            [str(line.rank), str(line.entrant.number), line.entrant.name]
            + [_rr_cell(line.entrant, order[i]) for i in cols]
            + [text_number(line.points)]
            for line in shown
        ]
        return head, rows
    numbers = _round_numbers(event, columns)
    head = ["Rank", "No", "Player", *(f"R{n}" for n in numbers), "Pts"]
    rows = [
        [str(line.rank), str(line.entrant.number), line.entrant.name]
        + [_swiss_cell(line.entrant.rounds.get(n)) for n in numbers]
        + [text_number(line.points)]
        for line in shown
    ]
    return head, rows


def _round_numbers(event: Tournament, columns: range | None) -> list[int]:
    every = range(1, event.rounds + 1)
    return list(every if columns is None else every[columns.start : columns.stop])


def crosstable_text(event: Tournament, lines: Sequence[Ranked], form: str) -> str:
    head, rows = _crosstable_rows(event, lines, form)
    out = [f"{_title(event)} ({form} crosstable)", "", *_aligned([head, *rows], {2})]
    if form == "round robin":
        out += ["", "Columns follow the rank order (the row's number is its place)."]
    else:
        out += [
            "",
            "A round: the opponent's pairing number, w or b (the seat), the result "
            "(+ and - forfeits); PAB a pairing-allocated bye, – an absence.",
        ]
    return "\n".join(out) + "\n"


def crosstable_html(
    event: Tournament,
    lines: Sequence[Ranked],
    form: str,
    link: Link | None = None,
    shown: Sequence[Ranked] | None = None,
    columns: range | None = None,
) -> ET.Element:
    """The crosstable as a table: the rows of ``shown`` (default: every line) and the
    columns ``columns`` (see :func:`_crosstable_rows`); a Swiss cell of a stored game
    links to ``link(game)``."""
    head, rows = _crosstable_rows(event, lines, form, shown, columns)
    numbers = [] if form == "round robin" else _round_numbers(event, columns)
    table, body = _table(head, f"crosstable {form.replace(' ', '-')}")
    for line, cells in zip(lines if shown is None else shown, rows, strict=True):
        row = ET.SubElement(body, "tr")
        for i, cell in enumerate(cells):
            td = ET.SubElement(row, "td", {"class": "name" if i == 2 else "num"})
            played = line.entrant.rounds.get(numbers[i - 3]) if 3 <= i < 3 + len(numbers) else None
            game = None if played is None else played.game
            target = link(game) if link and game is not None else None
            if target:
                ET.SubElement(td, "a", {"href": target}).text = cell
            else:
                td.text = cell
    return table


CSS = """body{font-family:system-ui,sans-serif;margin:1.5rem;color:#222}
table{border-collapse:collapse;margin:1rem 0}
th,td{padding:.25rem .6rem;border-bottom:1px solid #ddd}
th{text-align:left;background:#f3f0e8}td.num{text-align:right;font-variant-numeric:tabular-nums}
a{color:#7a3b12}"""


def html_page(title: str, *parts: ET.Element) -> str:
    """A page of its own (no network, no script) holding these parts."""
    html = ET.Element("html", {"lang": "en"})
    head = ET.SubElement(html, "head")
    ET.SubElement(head, "meta", {"charset": "utf-8"})
    ET.SubElement(head, "title").text = title
    ET.SubElement(head, "style").text = CSS
    body = ET.SubElement(html, "body")
    ET.SubElement(body, "h1").text = title
    body.extend(parts)
    return "<!DOCTYPE html>\n" + ET.tostring(html, encoding="unicode", method="html") + "\n"
