"""A round's stored pairings written out: as text and JSON (``zrec archive pair``,
``schedule`` and ``seat``), and as an HTML table (the event page of ``zrec serve`` and
of the published site).

Each player is shown with their pairing number and their points before the round.
JSON: ``[{"board": 1, "white": {"number": N, "name": …, "points": P}, "black": {…}},
…, {"bye": {…}}]``; a table of more seats is ``{"board": K, "seats": [{…}, …]}``, and a
round-robin player's round off ``{"off": {…}}``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from typing import Any

from zrec.tournament.boards import Board
from zrec.tournament.event import Entrant, Tournament
from zrec.tournament.tables import _aligned, number, text_number

__all__ = ["pairings_html", "pairings_json", "pairings_text", "round_boards"]

#: a player's page, or None for no link
PlayerLink = Callable[[Entrant], str | None]
#: a board's result as a table shows it: (text, the game's page or None); None: none yet
ResultCell = Callable[[Board], tuple[str, str | None] | None]


def round_boards(boards: Sequence[Board], number: int) -> list[Board]:
    """The stored boards of one round, in board order."""
    return sorted((b for b in boards if b.round == number), key=lambda b: b.board)


def _seated(event: Tournament, board: Board) -> list[Entrant]:
    by_player = {e.player: e for e in event.entrants}
    return [by_player[p] for p in board.players if p in by_player]


def _player(entrant: Entrant, round_number: int) -> dict[str, Any]:
    return {"number": entrant.number, "name": entrant.name,
            "points": number(entrant.points(round_number - 1))}


def _two(boards: Sequence[Board]) -> bool:
    return all(len(b.players) <= 2 for b in boards)


def pairings_json(event: Tournament, boards: Sequence[Board]) -> list[dict[str, Any]]:
    """One round's boards (see the module's text)."""
    out: list[dict[str, Any]] = []
    for board in boards:
        seated = [_player(e, board.round) for e in _seated(event, board)]
        if board.bye:
            out.append({"bye" if board.code == "U" else "off": seated[0]})
        elif len(seated) == 2 and _two(boards):
            out.append({"board": board.board, "white": seated[0], "black": seated[1]})
        else:
            out.append({"board": board.board, "seats": seated})
    return out


def _who(entrant: Entrant) -> str:
    return f"{entrant.name} ({entrant.number})"


def _bye_words(board: Board) -> str:
    return "the pairing-allocated bye" if board.code == "U" else "a round off"


def pairings_text(event: Tournament, boards: Sequence[Board]) -> str:
    """One round's boards as a table: board, each player (pairing number) and their
    points before the round; then the byes."""
    if not boards:
        return ""
    number_ = boards[0].round
    games = [b for b in boards if not b.bye]
    lines = [f"{event.name}, round {number_}", ""]
    if games and _two(boards):
        rows = [["Board", "White", "Pts", "Black", "Pts"]]
        for b in games:
            white, black = _seated(event, b)
            rows.append([str(b.board), _who(white), text_number(white.points(number_ - 1)),
                         _who(black), text_number(black.points(number_ - 1))])
        lines += _aligned(rows, {1, 3})
    elif games:
        width = max(len(b.players) for b in games)
        head = ["Table", *(f"Seat {i}" for i in range(1, width + 1))]
        rows = [head]
        for b in games:
            cells = [f"{_who(e)} {text_number(e.points(number_ - 1))}"
                     for e in _seated(event, b)]
            rows.append([str(b.board), *cells, *([""] * (width - len(cells)))])
        lines += _aligned(rows, set(range(1, width + 1)))
    for b in boards:
        if b.bye:
            [entrant] = _seated(event, b)
            points = text_number(entrant.points(number_ - 1))
            lines.append(f"{_bye_words(b).capitalize()}: {_who(entrant)}, {points}")
    return "\n".join(lines) + "\n"


def pairings_html(
    event: Tournament,
    boards: Sequence[Board],
    link: PlayerLink | None = None,
    result: ResultCell | None = None,
) -> ET.Element:
    """One round's boards as an HTML table (every text escaped as it is written);
    with ``result``, a column of each board's result (``pending`` while it has none)."""
    two = _two(boards)
    table = ET.Element("table", {"class": "pairings"})
    row = ET.SubElement(ET.SubElement(table, "thead"), "tr")
    head = ["Board", "White", "Black"] if two else ["Table", "Players (seat order)"]
    if result is not None:
        head.insert(2, "Result")
    for title in head:
        ET.SubElement(row, "th").text = title
    body = ET.SubElement(table, "tbody")

    def outcome(parent: ET.Element, board: Board) -> None:
        assert result is not None
        found = result(board)
        td = ET.SubElement(parent, "td", {"class": "result" if found else "result pending"})
        if found is None:
            td.text = "pending"
        elif found[1] is None:
            td.text = found[0]
        else:
            ET.SubElement(td, "a", {"href": found[1]}).text = found[0]

    def cell(parent: ET.Element, entrant: Entrant, tail: str) -> None:
        href = link(entrant) if link else None
        item = ET.SubElement(parent, "a", {"href": href}) if href else ET.SubElement(
            parent, "span")
        item.text = _who(entrant)
        item.tail = tail

    for board in boards:
        row = ET.SubElement(body, "tr")
        seated = _seated(event, board)
        ET.SubElement(row, "td", {"class": "num"}).text = "" if board.bye else str(board.board)
        if board.bye:
            span = (3 if two else 2) if result is not None else (2 if two else 1)
            td = ET.SubElement(row, "td", {"colspan": str(span)})
            cell(td, seated[0], f": {_bye_words(board)}")
        elif two:
            for i, entrant in enumerate(seated):
                cell(ET.SubElement(row, "td"), entrant, "")
                if i == 0 and result is not None:
                    outcome(row, board)
        else:
            td = ET.SubElement(row, "td")
            for i, entrant in enumerate(seated):
                cell(td, entrant, ", " if i + 1 < len(seated) else "")
            if result is not None:
                outcome(row, board)
    return table
