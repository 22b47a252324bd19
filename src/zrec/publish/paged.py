"""An event's own pages in a published site, each of a bounded size.

What grows with an event is cut into pages, so that no page grows with the number of
players or of games:

- the standings: :data:`PER_PAGE` players a page (``standings-K.html``);
- the crosstable: :data:`PER_PAGE` players by :data:`COLUMNS` rounds (or opponents, in
  the round-robin form) a page (``crosstable-K.html``, or ``crosstable-K-C.html`` when
  its columns take more than one page);
- a round: :data:`PER_PAGE` boards and :data:`PER_PAGE` byes and absences a page
  (``round-N.html``, then ``round-N-2.html``, …);
- the stored games that do not count: :data:`PER_PAGE` a page (``other-K.html``);
- the stored pairings of the rounds (``zrec archive pair``, ``schedule``, ``seat``): on
  the event page while they hold at most :data:`PER_PAGE` boards in all, else a page a
  round of :data:`PER_PAGE` boards (``pairings-N.html``, then ``pairings-N-2.html``, …).

An event small enough (at most :data:`PER_PAGE` players, a crosstable of at most
:data:`COLUMNS` columns) has its standings and crosstable on its own page, as before;
a larger one has links to their pages there instead.  The event page also lists the
rounds (at most 999).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

from zrec.publish.pages import (
    EventPlan,
    Link,
    game_href,
    heading,
    page,
    para,
    plural,
    round_href,
    summary,
    table,
)
from zrec.tournament import tables
from zrec.tournament.boards import Board
from zrec.tournament.event import CODES, Entrant, Round
from zrec.tournament.pairing_tables import pairings_html, round_boards
from zrec.tournament.progress import (
    board_result,
    progress_words,
    round_progress,
    standings_title,
)
from zrec.tournament.tiebreaks import NAMES

__all__ = ["COLUMNS", "PER_PAGE", "event_pages", "game_home", "page_count"]

#: the most players (rows), boards, byes or games one page lists
PER_PAGE = 100
#: the most rounds (or opponents) one page of a crosstable shows
COLUMNS = 25


def cut(count: int, size: int = PER_PAGE) -> list[range]:
    """``range(count)`` cut into parts of at most ``size`` (one empty part for 0)."""
    return [range(i, min(i + size, count)) for i in range(0, count, size)] or [range(0)]


def _span(part: range) -> str:
    return f"{part.start + 1}–{part.stop}"


def _columns(plan: EventPlan) -> int:
    return len(plan.lines) if plan.form == "round robin" else plan.event.rounds


def _standings_paged(plan: EventPlan) -> bool:
    return len(plan.lines) > PER_PAGE and plan.event.rounds > 0


def _crosstable_paged(plan: EventPlan) -> bool:
    return plan.event.rounds > 0 and (len(plan.lines) > PER_PAGE or _columns(plan) > COLUMNS)


def _other_paged(plan: EventPlan) -> bool:
    return len(plan.event.left_out) > PER_PAGE


def _crosstable_href(row: int, column: int, wide: bool) -> str:
    return f"crosstable-{row}-{column}.html" if wide else f"crosstable-{row}.html"


def _round_parts(plan: EventPlan, number: int) -> list[tuple[range, range]]:
    """The pages of a round: the boards and the byes each holds."""
    boards = cut(len(plan.pairings.get(number, [])))
    byes = cut(len(plan.byes.get(number, [])))
    empty = range(0)
    count = max(len(boards), len(byes))
    return [
        (boards[k] if k < len(boards) else empty, byes[k] if k < len(byes) else empty)
        for k in range(count)
    ]


def _round_part_href(number: int, k: int) -> str:
    return round_href(number) if k == 1 else f"round-{number}-{k}.html"


def _paired_rounds(plan: EventPlan) -> list[int]:
    return sorted({b.round for b in plan.boards})


def _pairings_paged(plan: EventPlan) -> bool:
    return len(plan.boards) > PER_PAGE


def _pairings_href(number: int, k: int) -> str:
    return f"pairings-{number}.html" if k == 1 else f"pairings-{number}-{k}.html"


def _pairings_parts(plan: EventPlan) -> Iterator[tuple[str, int, range]]:
    """The pages of the pairings (when paged): name, round, its boards' part."""
    for n in _paired_rounds(plan):
        for k, part in enumerate(cut(len(round_boards(plan.boards, n))), 1):
            yield _pairings_href(n, k), n, part


def _result_cell(plan: EventPlan, pages: set[int]) -> Callable[[Board], Link | None]:
    """A stored board's result, linked to its game's page; ``None`` while pending."""

    def cell(board: Board) -> Link | None:
        found = board_result(plan.event, board)
        if found is None:
            return None
        text = found.text + (" (forfeit)" if found.forfeit else "")
        return text, game_href(found.game) if found.game in pages else None

    return cell


def _pairings_section(plan: EventPlan, pages: set[int]) -> list[ET.Element]:
    """The event page's pairings: each round's boards with their results (or
    ``pending``), or links to their pages."""
    numbers = _paired_rounds(plan)
    if not numbers:
        return []
    parts = [heading("Pairings", "pairings")]
    if _pairings_paged(plan):
        links: list[Link] = [(f"Round {n}", _pairings_href(n, 1)) for n in numbers]
        return [*parts, _pager("Rounds:", links)]
    progress = round_progress(plan.event, plan.boards)
    for n in numbers:
        title = ET.Element("h3")
        title.text = f"Round {n}"
        if n in progress:
            title.text += f" ({progress_words(progress[n])})"
        boards = round_boards(plan.boards, n)
        parts += [title, pairings_html(plan.event, boards, result=_result_cell(plan, pages))]
    return parts


def page_count(plan: EventPlan) -> int:
    """How many pages :func:`event_pages` writes."""
    count = 1 + sum(len(_round_parts(plan, n)) for n in range(1, plan.event.rounds + 1))
    if _pairings_paged(plan):
        count += sum(1 for _ in _pairings_parts(plan))
    if _standings_paged(plan):
        count += len(cut(len(plan.lines)))
    if _crosstable_paged(plan):
        count += len(cut(len(plan.lines))) * len(cut(_columns(plan), COLUMNS))
    if _other_paged(plan):
        count += len(cut(len(plan.event.left_out)))
    return count


def game_home(plan: EventPlan, gid: int, number: int | None) -> str:
    """The page that lists a stored game: its round's page that holds its board, or
    the other games' page."""
    if number is None:
        if not _other_paged(plan):
            return "index.html#other"
        at = [g for g, _ in plan.event.left_out].index(gid)
        return f"other-{at // PER_PAGE + 1}.html"
    at = [p.game for p in plan.pairings.get(number, [])].index(gid)
    return _round_part_href(number, at // PER_PAGE + 1)


def _pager(label: str, links: Sequence[Link]) -> ET.Element:
    """A line of links to the pages of one thing (the current page not linked)."""
    p = ET.Element("p", {"class": "pages"})
    p.text = label + " "
    for i, (text, href) in enumerate(links):
        item = ET.SubElement(p, "span") if href is None else ET.SubElement(p, "a", {"href": href})
        item.text = text
        if i + 1 < len(links):
            item.tail = " · "
    return p


def _standings_links(plan: EventPlan, current: int = 0) -> list[Link]:
    return [
        (_span(part), None if k == current else f"standings-{k}.html")
        for k, part in enumerate(cut(len(plan.lines)), 1)
    ]


def _crosstable_links(plan: EventPlan, current: tuple[int, int] = (0, 0)) -> list[ET.Element]:
    """The pagers of the crosstable: its players' pages (on the page of ``current``'s
    columns), and on a crosstable page of more than one page of columns, that row's
    column pages."""
    columns = cut(_columns(plan), COLUMNS)
    wide = len(columns) > 1
    row, column = current
    players: list[Link] = [
        (_span(part), None if r == row else _crosstable_href(r, column or 1, wide))
        for r, part in enumerate(cut(len(plan.lines)), 1)
    ]
    out = [_pager("Players:", players)]
    if wide and row:
        word = "Opponents:" if plan.form == "round robin" else "Rounds:"
        links: list[Link] = [
            (_span(part), None if c == column else _crosstable_href(row, c, wide))
            for c, part in enumerate(columns, 1)
        ]
        out.append(_pager(word, links))
    return out


def _tiebreak_words(plan: EventPlan) -> list[ET.Element]:
    if not plan.codes:
        return []
    words = ", ".join(f"{c} ({NAMES[c]})" for c in plan.codes)
    return [para(f"Tie-breaks, in order: {words}.")]


def event_page(plan: EventPlan, pages: set[int]) -> str:
    """The rounds, the standings, the crosstable (or links to their pages) and the
    games that do not count."""
    event = plan.event
    parts = [para(summary(plan), "meta"), heading("Rounds", "rounds")]
    rounds = ET.Element("ul", {"class": "rounds"})
    progress = round_progress(event, plan.boards)
    for n in range(1, event.rounds + 1):
        item = ET.SubElement(rounds, "li")
        ET.SubElement(item, "a", {"href": round_href(n)}).text = f"Round {n}"
        count = len(plan.round_games(n))
        said = plural(count, "game")
        if n in progress and progress[n].pending:
            said += f"; {plural(progress[n].pending, 'board')} pending"
        ET.SubElement(item, "span").text = f" ({said})"
    parts.append(rounds)
    parts += _pairings_section(plan, pages)
    if event.rounds:
        parts += _tables(plan, pages)
    else:  # (only pairings so far)
        parts.append(para("No round has results yet."))
    if event.left_out:
        parts.append(heading("Other games", "other"))
        parts.append(para("Stored games of the event that do not count in the standings."))
        if _other_paged(plan):
            parts.append(_pager("Games:", _other_links(plan)))
        else:
            parts.append(_other_table(plan, range(len(event.left_out))))
    return page(event.name, [("All events", "../index.html")], *parts)


def _tables(plan: EventPlan, pages: set[int]) -> list[ET.Element]:
    """The event page's standings and crosstable (or links to their pages)."""
    event = plan.event
    parts = [heading(_standings_words(plan), "standings")]
    if _standings_paged(plan):
        parts.append(_pager("Players:", _standings_links(plan)))
    else:
        parts.append(tables.standings_html(plan.lines, plan.codes))
    parts += _tiebreak_words(plan)
    parts.append(heading(f"Crosstable ({plan.form})", "crosstable"))
    if _crosstable_paged(plan):
        parts += _crosstable_links(plan)
    else:

        def link(gid: int) -> str | None:
            return game_href(gid) if gid in pages else None

        parts.append(tables.crosstable_html(event, plan.lines, plan.form, link))
    return parts


def _standings_words(plan: EventPlan) -> str:
    """``Standings after round 5``, saying which rounds counted are not complete:
    ``Standings after round 5 (1 of 4 games in; 3 pending)``."""
    title = standings_title(plan.event.rounds, round_progress(plan.event, plan.boards))
    return "Standings a" + title[1:]


def _other_links(plan: EventPlan, current: int = 0) -> list[Link]:
    return [
        (_span(part), None if k == current else f"other-{k}.html")
        for k, part in enumerate(cut(len(plan.event.left_out)), 1)
    ]


def _other_table(plan: EventPlan, part: range) -> ET.Element:
    games = plan.event.left_out[part.start : part.stop]
    rows: list[list[str | Link]] = [[(f"#{gid}", game_href(gid)), why] for gid, why in games]
    return table(["Game", "Why it does not count"], rows, "other")


def _bar(plan: EventPlan) -> list[Link]:
    return [("All events", "../index.html"), (plan.event.name, "index.html")]


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


def round_page(plan: EventPlan, number: int, k: int = 1) -> str:
    """Page ``k`` of a round: its boards (players, result, the game's page), then its
    byes and absences."""
    event = plan.event
    parts_of = _round_parts(plan, number)
    boards, byes_part = parts_of[k - 1]
    rows: list[list[str | Link]] = []
    pairings = plan.pairings.get(number, [])
    for board in boards:
        pairing = pairings[board]
        game: Link = (f"#{pairing.game}", game_href(pairing.game)) if pairing.game else ("", None)
        note = _note(pairing.seats, pairing.game)
        if event.two_player and len(pairing.seats) == 2:
            (white, w), (black, b) = pairing.seats
            rows.append(
                [str(board + 1), _who(white), f"{_mark(w)}–{_mark(b)}", _who(black), note, game]
            )
            continue
        players = ", ".join(f"{_who(e)} {_mark(r)}" for e, r in pairing.seats)
        if event.two_player:  # a roster whose two sides do not agree
            rows.append([str(board + 1), players, "", "", note, game])
        else:
            rows.append([str(board + 1), players, note, game])
    if event.two_player:
        head = ["Board", "White", "Result", "Black", "Note", "Game"]
    else:
        head = ["Board", "Players and scores", "Note", "Game"]
    parts: list[ET.Element] = []
    progress = round_progress(event, plan.boards).get(number)
    if progress is not None and progress.pending and k == 1:
        said = para(f"{progress_words(progress).capitalize()}. The round's pairings, with "
                    "each board's result, are on ", "meta")
        link = ET.SubElement(said, "a", {"href": "index.html#pairings"})
        link.text, link.tail = "the event page", "."
        parts.append(said)
    if len(parts_of) > 1:
        links: list[Link] = [
            (f"page {i}", None if i == k else _round_part_href(number, i))
            for i in range(1, len(parts_of) + 1)
        ]
        parts.append(_pager(f"Round {number}:", links))
    if rows:
        parts.append(table(head, rows, "pairings"))
    elif k == 1:
        parts.append(para("No game in this round."))
    byes = plan.byes.get(number, [])[byes_part.start : byes_part.stop]
    if byes:
        parts.append(heading("Byes and absences", "byes"))
        items = ET.Element("ul", {"class": "byes"})
        for entrant, r in byes:
            ET.SubElement(items, "li").text = f"{_who(entrant)}: {CODES[r.code][2]} ({_mark(r)})"
        parts.append(items)
    links = _bar(plan)
    links.append(("← previous round", round_href(number - 1) if number > 1 else None))
    links.append(("next round →", round_href(number + 1) if number < event.rounds else None))
    title = f"{event.name}: round {number}" + (f", page {k}" if k > 1 else "")
    return page(title, links, *parts)


def event_pages(plan: EventPlan, pages: set[int]) -> Iterator[tuple[str, str]]:
    """Every page of the event but its games': (its name in the event's folder, its
    text)."""
    event = plan.event
    yield "index.html", event_page(plan, pages)

    def link(gid: int) -> str | None:
        return game_href(gid) if gid in pages else None

    if _standings_paged(plan):
        for k, part in enumerate(cut(len(plan.lines)), 1):
            shown = plan.lines[part.start : part.stop]
            yield f"standings-{k}.html", page(
                f"{event.name}: {_standings_words(plan).lower()}, players {_span(part)}",
                _bar(plan),
                _pager("Players:", _standings_links(plan, k)),
                tables.standings_html(shown, plan.codes),
                *_tiebreak_words(plan),
            )
    if _crosstable_paged(plan):
        columns = cut(_columns(plan), COLUMNS)
        wide = len(columns) > 1
        for r, rows in enumerate(cut(len(plan.lines)), 1):
            shown = plan.lines[rows.start : rows.stop]
            for c, part in enumerate(columns, 1):
                what = "opponents" if plan.form == "round robin" else "rounds"
                title = f"{event.name}: crosstable ({plan.form}), players {_span(rows)}"
                yield _crosstable_href(r, c, wide), page(
                    title + (f", {what} {_span(part)}" if wide else ""),
                    _bar(plan),
                    *_crosstable_links(plan, (r, c)),
                    tables.crosstable_html(event, plan.lines, plan.form, link, shown, part),
                )
    if _other_paged(plan):
        for k, part in enumerate(cut(len(event.left_out)), 1):
            yield f"other-{k}.html", page(
                f"{event.name}: other games, {_span(part)}",
                _bar(plan),
                _pager("Games:", _other_links(plan, k)),
                _other_table(plan, part),
            )
    for n in range(1, event.rounds + 1):
        for k in range(1, len(_round_parts(plan, n)) + 1):
            yield _round_part_href(n, k), round_page(plan, n, k)
    if _pairings_paged(plan):
        for name, n, part in _pairings_parts(plan):
            cut_boards = round_boards(plan.boards, n)[part.start : part.stop]
            yield name, page(f"{event.name}: pairings of round {n}, boards {_span(part)}",
                             _bar(plan), pairings_html(event, cut_boards,
                                                       result=_result_cell(plan, pages)))
