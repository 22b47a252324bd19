"""The table ``zrec archive search`` prints, fitted to the terminal's width.

Every column is as wide as its widest cell among the first rows (at most
:data:`SAMPLE`; the table is written as the games come, so later rows keep that
layout).  When the table is wider than the terminal (``COLUMNS``, else the
terminal that standard output is), the event and players columns give up the room: the
players first, down to :data:`PLAYERS_MIN`, then the event; a cell that does not fit
is cut, and ends in ``…``.  Below about 70 columns the table no longer fits.  Output
that goes to no terminal (a file, a pipe) without ``COLUMNS`` is not cut.  Widths count
what a terminal shows: a wide character (CJK) takes two columns, a combining mark
none.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

__all__ = ["SAMPLE", "Layout", "fit", "shown_width", "terminal_width"]

#: the rows the widths are taken from
SAMPLE = 200
#: the event column takes what it needs, as long as the players column keeps this
#: many (or its widest cell)
PLAYERS_MIN = 16
#: the event column keeps at least this many, while the players column can keep its
#: header
EVENT_MIN = 8
#: (header, a number (right-aligned, never cut), least and most columns (0: no most),
#: separator after it)
COLUMNS = (
    ("id", True, 7, 0, "  "),
    ("game", False, 0, 14, " "),
    ("date", False, 0, 10, "  "),
    ("event", False, 0, 0, " "),
    ("round", False, 0, 5, " "),
    ("result", False, 0, 9, " "),
    ("plies", True, 5, 0, "  "),
    ("players", False, 0, 0, ""),
)
EVENT, PLAYERS = 3, 7


def terminal_width() -> int:
    """The terminal's width in columns (``COLUMNS`` first), or 0 for no terminal.

    The terminal is the one the table is written to (``sys.stdout``), not the one the
    process started with: output captured or piped is not cut.
    """
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if not sys.stdout.isatty():
        return 0
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError):
        return 0


def _char_width(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def shown_width(text: str) -> int:
    """The columns a terminal shows the text in."""
    return sum(_char_width(c) for c in text)


def cut(text: str, width: int) -> str:
    """The text in at most ``width`` columns, ending in ``…`` where it was cut."""
    if shown_width(text) <= width:
        return text
    out, used = [], 0
    for char in text:
        w = _char_width(char)
        if used + w > width - 1:
            break
        out.append(char)
        used += w
    return "".join(out).rstrip() + "…"


def _pad(text: str, width: int, right: bool) -> str:
    room = " " * max(0, width - shown_width(text))
    return room + text if right else text + room


@dataclass(frozen=True, slots=True)
class Layout:
    """The width of every column, and whether a longer cell is cut to it."""

    widths: tuple[int, ...]
    cuts: bool = True

    def line(self, cells: Sequence[str]) -> str:
        out = []
        for (_, number, _, _, gap), width, cell in zip(COLUMNS, self.widths, cells, strict=True):
            shown = cut(cell, width) if self.cuts and not number else cell
            out.append(_pad(shown, width, number) + gap if gap else shown)
        return "".join(out).rstrip()


def layout(rows: Sequence[Sequence[str]], width: int) -> Layout:
    """The columns' widths for these rows in a terminal ``width`` wide (0: any)."""
    natural = [
        max([len(head), least, *(shown_width(row[i]) for row in rows)])
        for i, (head, _, least, _, _) in enumerate(COLUMNS)
    ]
    widths = [
        min(n, most) if most else n for n, (*_, most, _) in zip(natural, COLUMNS, strict=True)
    ]
    if not width:
        return Layout(tuple(widths), cuts=False)
    fixed = sum(w for i, w in enumerate(widths) if i not in (EVENT, PLAYERS))
    room = width - fixed - sum(len(gap) for *_, gap in COLUMNS)
    event, players = natural[EVENT], natural[PLAYERS]
    least = len("players")
    if event + players > room:
        keep = min(players, PLAYERS_MIN)
        event = min(event, max(room - keep, min(EVENT_MIN, room - least), len("event")))
    widths[EVENT] = event
    widths[PLAYERS] = max(least, room - event)
    return Layout(tuple(widths))


def fit(rows: Iterable[Sequence[str]], width: int | None = None) -> Iterator[str]:
    """The header and the rows as lines of the table (``width``: the terminal's, by
    default)."""
    width = terminal_width() if width is None else width
    stream = iter(rows)
    first: list[Sequence[str]] = []
    for row in stream:
        first.append(row)
        if len(first) >= SAMPLE:
            break
    shape = layout(first, width)
    yield shape.line([head for head, *_ in COLUMNS])
    for row in first:
        yield shape.line(row)
    for row in stream:
        yield shape.line(row)
