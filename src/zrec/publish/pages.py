"""The parts of a published site's pages (see :mod:`zrec.publish`): what an event
is as the site shows it, a page with its bar of links, tables, the index of events, and
the navigation bar put at the top of a game's replay page.  The event's own pages
(standings, crosstable, rounds, cut into pages of a bounded size) are
:mod:`zrec.publish.paged`.

Pages are built as :mod:`xml.etree` elements, so every text from the archive is escaped
when it is written out; every link is relative, and no page loads anything from
elsewhere.  Every page links the site's one stylesheet (:data:`STYLESHEET`, the same
for the game pages, after the replay page's own) and carries a Content-Security-Policy
(:func:`policy`) that allows no inline script or style, as the served pages do.
"""

from __future__ import annotations

import base64
import hashlib
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field

from zrec.tournament.boards import Board
from zrec.tournament.event import Entrant, Round, Tournament
from zrec.tournament.tiebreaks import Ranked

__all__ = [
    "EventPlan",
    "Pairing",
    "fallback_page",
    "game_nav",
    "game_title",
    "heading",
    "index_page",
    "neighbours",
    "page",
    "para",
    "plural",
    "policy",
    "table",
]

#: the site's stylesheet, one file at the site's top (linked by every page)
STYLESHEET = "zrec-site.css"

#: its text: the pages' font and link colour, which a game page takes too (its replay
#: stylesheet comes first), then what only the site's own pages (``body.page``) have
CSS = """/* zrec archive publish: every page of the site (a game page after its own) */
body{font-family:system-ui,sans-serif;color:#222}
a{color:#7a3b12}
nav.site{margin:0 0 1rem;padding:.4rem 0;border-bottom:1px solid #ddd}
nav.site span{color:#888}
nav.site.game{margin:0;padding:6px 12px;background:#f3f0e8;font:14px/1.4 system-ui,sans-serif}
body.page{margin:1.5rem}
body.page table{border-collapse:collapse;margin:1rem 0}
body.page th,body.page td{padding:.25rem .6rem;border-bottom:1px solid #ddd}
body.page th{text-align:left;background:#f3f0e8}
body.page td.num{text-align:right;font-variant-numeric:tabular-nums}
td.pending{color:#888;font-style:italic}
p.meta{color:#555}ul.rounds{columns:12rem}pre.record{white-space:pre-wrap}
"""

#: what the site's pages may load: their own folder's files, nothing inline
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'{styles}; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'none'"
)


def policy(styles: Sequence[str] = ()) -> str:
    """The Content-Security-Policy of a page; ``styles``: the texts of the ``<style>``
    elements it carries (a board with a stylesheet of its own), allowed by their
    SHA-256 (still no ``'unsafe-inline'``)."""
    hashes = "".join(
        f" 'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
        for s in styles
    )
    return CSP.format(styles=hashes)


def csp_meta(styles: Sequence[str] = ()) -> ET.Element:
    """The ``<meta http-equiv>`` that carries :func:`policy` (a static site has no
    headers of its own)."""
    return ET.Element(
        "meta", {"http-equiv": "Content-Security-Policy", "content": policy(styles)}
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
    #: the stored pairings of its rounds (zrec archive pair, schedule, seat)
    boards: list[Board] = field(default_factory=list)

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


def page(title: str, links: Sequence[Link], *parts: ET.Element, top: str = "../") -> str:
    """A page of the site: the navigation bar, the title and the parts (``top``: the
    way to the site's top folder, where its stylesheet is)."""
    html = ET.Element("html", {"lang": "en"})
    head = ET.SubElement(html, "head")
    ET.SubElement(head, "meta", {"charset": "utf-8"})
    head.append(csp_meta())
    ET.SubElement(
        head, "meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}
    )
    ET.SubElement(head, "title").text = title
    ET.SubElement(head, "link", {"rel": "stylesheet", "href": top + STYLESHEET})
    body = ET.SubElement(html, "body", {"class": "page"})
    if links:
        body.append(nav(links))
    ET.SubElement(body, "h1").text = title
    body.extend(parts)
    return "<!DOCTYPE html>\n" + ET.tostring(html, encoding="unicode", method="html") + "\n"


def para(text: str, klass: str = "") -> ET.Element:
    p = ET.Element("p", {"class": klass} if klass else {})
    p.text = text
    return p


def heading(text: str, ident: str = "") -> ET.Element:
    h2 = ET.Element("h2", {"id": ident} if ident else {})
    h2.text = text
    return h2


def table(head: Sequence[str], rows: Sequence[Sequence[str | Link]], klass: str) -> ET.Element:
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


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def summary(plan: EventPlan) -> str:
    event = plan.event
    parts = [
        place(event),
        dates(event),
        plural(event.rounds, "round"),
        plural(len(event.entrants), "player"),
        plural(len(plan.games), "game"),
    ]
    return " · ".join(p for p in parts if p)


# -- the pages ------------------------------------------------------------------------


def index_page(plans: Sequence[EventPlan], links: Sequence[Link] = ()) -> str:
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
    return page("Events", links, table(head, rows, "events"), top="")


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
    plan: EventPlan, number: int | None, home: str, before: int | None, after: int | None
) -> list[Link]:
    """The bar of a game's page: the site, the event, the game's round (``number``;
    ``None`` for a game that does not count) or the other games, on the page ``home``,
    and the games before and after it."""
    links: list[Link] = [("All events", "../index.html"), (plan.event.name, "index.html")]
    links.append((f"Round {number}" if number is not None else "Other games", home))
    links.append(("← previous game", game_href(before) if before is not None else None))
    links.append(("next game →", game_href(after) if after is not None else None))
    return links


def game_nav(links: Sequence[Link]) -> ET.Element:
    """The navigation bar of a game's replay page (styled by the site's stylesheet)."""
    bar = nav(links)
    bar.set("class", "site game")
    return bar


def game_title(
    plan: EventPlan, players: Sequence[tuple[str, str]], number: int | None
) -> str:
    """A game page's title: ``White – Black, Event round N`` (every seat's player, in
    seat order, for a game of more seats; no round for a game that does not count)."""
    names = " – ".join(name for _, name in players if name and name != "?")
    where = plan.event.name + (f" round {number}" if number is not None else "")
    return f"{names}, {where}" if names else where


def fallback_page(title: str, links: Sequence[Link], problem: str, text: str) -> str:
    """The page of a stored game the replay page cannot show: why, and its record."""
    record = ET.Element("pre", {"class": "record"})
    record.text = text
    return page(title, links, para(f"This game cannot be replayed: {problem}"), record)
