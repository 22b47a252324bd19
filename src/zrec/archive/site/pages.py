"""The pages of a published site (see :mod:`zrec.archive.site`): the index of events, an
event's page, a round's pairings, and the navigation bar put at the top of a game's
replay page.

Pages are built as :mod:`xml.etree` elements, so every text from the archive is escaped
when it is written out; every link is relative, and no page loads anything (no
stylesheet, script or image from elsewhere).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from zrec.archive.tournament import tables
from zrec.archive.tournament.event import CODES, Entrant, Round, Tournament
from zrec.archive.tournament.tiebreaks import NAMES, Ranked

__all__ = [
    "EventPlan",
    "Pairing",
    "event_page",
    "fallback_page",
    "game_nav",
    "index_page",
    "neighbours",
    "round_page",
]

CSS = (
    tables.CSS
    + """
nav.site{margin:0 0 1rem;padding:.4rem 0;border-bottom:1px solid #ddd}
nav.site span{color:#888}
p.meta{color:#555}ul.rounds{columns:12rem}pre.record{white-space:pre-wrap}"""
)

#: the bar above a game's replay page (whose own stylesheet knows nothing of it)
NAV_STYLE = (
    "font:14px/1.4 system-ui,sans-serif;padding:6px 12px;background:#f3f0e8;"
    "border-bottom:1px solid #ddd"
)

#: a link: (text, relative address or None for no link)
Link = tuple[str, str | None]


@dataclass(slots=True)
class Pairing:
    """One board of a round: its seats in order (entrant and round) and its stored game
    (``None`` for a result the roster gives without a record)."""

    key: tuple[int, int]
    seats: list[tuple[Entrant, Round]]
    game: int | None = None


@dataclass(slots=True)
class EventPlan:
    """An event as the site shows it: ranked, and its games in the order of the pages."""

    event: Tournament
    folder: str
    lines: list[Ranked]
    codes: list[str]
    form: str
    #: round -> its boards in order
    pairings: dict[int, list[Pairing]] = field(default_factory=dict)
    #: round -> the entrants with a bye or absent in it
    byes: dict[int, list[tuple[Entrant, Round]]] = field(default_factory=dict)
    #: every stored game of the event, in id order
    games: list[int] = field(default_factory=list)

    def round_games(self, number: int) -> list[int]:
        return [p.game for p in self.pairings.get(number, []) if p.game is not None]

    def other_games(self) -> list[int]:
        return [gid for gid, _ in self.event.left_out]


def game_href(gid: int) -> str:
    return f"game-{gid}.html"


def round_href(number: int) -> str:
    return f"round-{number}.html"


def nav(links: Sequence[Link]) -> ET.Element:
    bar = ET.Element("nav", {"class": "site"})
    for i, (text, href) in enumerate(links):
        item = (
            ET.SubElement(bar, "span") if href is None else ET.SubElement(bar, "a", {"href": href})
        )
        item.text = text
        if i + 1 < len(links):
            item.tail = " · "
    return bar


def page(title: str, links: Sequence[Link], *parts: ET.Element) -> str:
    """A page of the site: the navigation bar, the title and the parts."""
    html = ET.Element("html", {"lang": "en"})
    head = ET.SubElement(html, "head")
    ET.SubElement(head, "meta", {"charset": "utf-8"})
    ET.SubElement(
        head, "meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}
    )
    ET.SubElement(head, "title").text = title
    ET.SubElement(head, "style").text = CSS
    body = ET.SubElement(html, "body")
    if links:
        body.append(nav(links))
    ET.SubElement(body, "h1").text = title
    body.extend(parts)
    return "<!DOCTYPE html>\n" + ET.tostring(html, encoding="unicode", method="html") + "\n"


def _para(text: str, klass: str = "") -> ET.Element:
    p = ET.Element("p", {"class": klass} if klass else {})
    p.text = text
    return p


def _heading(text: str, ident: str = "") -> ET.Element:
    h2 = ET.Element("h2", {"id": ident} if ident else {})
    h2.text = text
    return h2


def _table(head: Sequence[str], rows: Sequence[Sequence[str | Link]], klass: str) -> ET.Element:
    table = ET.Element("table", {"class": klass})
    row = ET.SubElement(ET.SubElement(table, "thead"), "tr")
    for title in head:
        ET.SubElement(row, "th").text = title
    body = ET.SubElement(table, "tbody")
    for cells in rows:
        row = ET.SubElement(body, "tr")
        for cell in cells:
            td = ET.SubElement(row, "td")
            text, href = cell if isinstance(cell, tuple) else (cell, None)
            if href is None:
                td.text = text
            else:
                ET.SubElement(td, "a", {"href": href}).text = text
    return table


def dates(event: Tournament) -> str:
    if event.start and event.end and event.start != event.end:
        return f"{event.start} – {event.end}"
    return event.start or event.end


def place(event: Tournament) -> str:
    """The site, unless unknown (``?``)."""
    return "" if event.site.strip() == "?" else event.site


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def summary(plan: EventPlan) -> str:
    event = plan.event
    parts = [
        place(event),
        dates(event),
        _plural(event.rounds, "round"),
        _plural(len(event.entrants), "player"),
        _plural(len(plan.games), "game"),
    ]
    return " · ".join(p for p in parts if p)


# -- the pages ------------------------------------------------------------------------


def index_page(plans: Sequence[EventPlan]) -> str:
    rows: list[list[str | Link]] = [
        [
            (p.event.name, f"{p.folder}/index.html"),
            dates(p.event),
            place(p.event),
            str(p.event.rounds),
            str(len(p.event.entrants)),
            str(len(p.games)),
        ]
        for p in plans
    ]
    head = ["Event", "Dates", "Site", "Rounds", "Players", "Games"]
    return page("Events", [], _table(head, rows, "events"))


def event_page(plan: EventPlan, pages: set[int]) -> str:
    """The standings, the crosstable, the rounds and the games that do not count."""
    event = plan.event
    parts = [_para(summary(plan), "meta"), _heading("Rounds", "rounds")]
    rounds = ET.Element("ul", {"class": "rounds"})
    for n in range(1, event.rounds + 1):
        item = ET.SubElement(rounds, "li")
        ET.SubElement(item, "a", {"href": round_href(n)}).text = f"Round {n}"
        count = len(plan.round_games(n))
        ET.SubElement(item, "span").text = f" ({_plural(count, 'game')})"
    parts.append(rounds)
    parts.append(_heading(f"Standings after round {event.rounds}", "standings"))
    parts.append(tables.standings_html(plan.lines, plan.codes))
    if plan.codes:
        words = ", ".join(f"{c} ({NAMES[c]})" for c in plan.codes)
        parts.append(_para(f"Tie-breaks, in order: {words}."))
    parts.append(_heading(f"Crosstable ({plan.form})", "crosstable"))

    def link(gid: int) -> str | None:
        return game_href(gid) if gid in pages else None

    parts.append(tables.crosstable_html(event, plan.lines, plan.form, link))
    if event.left_out:
        parts.append(_heading("Other games", "other"))
        parts.append(_para("Stored games of the event that do not count in the standings."))
        rows: list[list[str | Link]] = [
            [(f"#{gid}", game_href(gid)), why] for gid, why in event.left_out
        ]
        parts.append(_table(["Game", "Why it does not count"], rows, "other"))
    return page(event.name, [("All events", "../index.html")], *parts)


def _mark(r: Round) -> str:
    points = r.points
    if points == Fraction(1, 2):
        return "½"
    return tables.text_number(points)


def _note(seats: Sequence[tuple[Entrant, Round]], game: int | None) -> str:
    notes = []
    if any(not r.played for _, r in seats):
        notes.append("forfeit")
    if game is None:
        notes.append("no record")
    return ", ".join(notes)


def _who(entrant: Entrant) -> str:
    return f"{entrant.name} ({entrant.number})"


def round_page(plan: EventPlan, number: int) -> str:
    """A round's boards (players, result, the game's page), then its byes and absences."""
    event = plan.event
    rows: list[list[str | Link]] = []
    for board, pairing in enumerate(plan.pairings.get(number, []), 1):
        game: Link = (f"#{pairing.game}", game_href(pairing.game)) if pairing.game else ("", None)
        note = _note(pairing.seats, pairing.game)
        if event.two_player and len(pairing.seats) == 2:
            (white, w), (black, b) = pairing.seats
            rows.append(
                [str(board), _who(white), f"{_mark(w)}–{_mark(b)}", _who(black), note, game]
            )
            continue
        players = ", ".join(f"{_who(e)} {_mark(r)}" for e, r in pairing.seats)
        if event.two_player:  # a roster whose two sides do not agree
            rows.append([str(board), players, "", "", note, game])
        else:
            rows.append([str(board), players, note, game])
    if event.two_player:
        head = ["Board", "White", "Result", "Black", "Note", "Game"]
    else:
        head = ["Board", "Players and scores", "Note", "Game"]
    parts = [_table(head, rows, "pairings")] if rows else [_para("No game in this round.")]
    byes = plan.byes.get(number, [])
    if byes:
        parts.append(_heading("Byes and absences", "byes"))
        items = ET.Element("ul", {"class": "byes"})
        for entrant, r in byes:
            ET.SubElement(items, "li").text = f"{_who(entrant)}: {CODES[r.code][2]} ({_mark(r)})"
        parts.append(items)
    links: list[Link] = [("All events", "../index.html"), (event.name, "index.html")]
    links.append(("← previous round", round_href(number - 1) if number > 1 else None))
    links.append(("next round →", round_href(number + 1) if number < event.rounds else None))
    return page(f"{event.name}: round {number}", links, *parts)


def neighbours(plan: EventPlan) -> dict[int, tuple[int | None, int | None]]:
    """Each stored game's round (``None``: a game that does not count) and the games
    either side of it (in its round, or among the games that do not count)."""
    out: dict[int, tuple[int | None, int | None]] = {}
    orders = [plan.round_games(n) for n in sorted(plan.pairings)]
    for order in [*orders, plan.other_games()]:
        for at, gid in enumerate(order):
            before = order[at - 1] if at > 0 else None
            out[gid] = before, order[at + 1] if at + 1 < len(order) else None
    return out


def game_links(
    plan: EventPlan, number: int | None, before: int | None, after: int | None
) -> list[Link]:
    """The bar of a game's page: the site, the event, the game's round (``number``;
    ``None`` for a game that does not count), the games before and after it."""
    links: list[Link] = [("All events", "../index.html"), (plan.event.name, "index.html")]
    if number is not None:
        links.append((f"Round {number}", round_href(number)))
    else:
        links.append(("Other games", "index.html#other"))
    links.append(("← previous game", game_href(before) if before is not None else None))
    links.append(("next game →", game_href(after) if after is not None else None))
    return links


def game_nav(links: Sequence[Link]) -> ET.Element:
    """The navigation bar of a game's replay page (styled in its own attribute: the
    replay page has its own stylesheet)."""
    bar = nav(links)
    bar.set("style", NAV_STYLE)
    return bar


def fallback_page(title: str, links: Sequence[Link], problem: str, text: str) -> str:
    """The page of a stored game the replay page cannot show: why, and its record."""
    record = ET.Element("pre", {"class": "record"})
    record.text = text
    return page(title, links, _para(f"This game cannot be replayed: {problem}"), record)
