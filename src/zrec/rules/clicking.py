"""Entering a move by clicking: the clicks of each legal move, and what may come next.

The recording board enters a move as a list of *clicks*.  A click is a square's name
(the piece to move, then each square it lands on, one landing at a time) or a named
choice, a word starting with ``=`` (a choice a turn asks for before its squares, such
as how a roll of dice is shared out).  The rules say which clicks enter each legal
move and what may be clicked after a partial list; the board only shows the choices
and sends the clicks back.  This module holds the values that cross the engine
protocol for that (:class:`Choice`, :class:`Choices`) and :class:`ClickTable`, which
games whose legal moves can all be listed use (:class:`zrec.rules.defaults.BaseEngine`
makes one from the legal moves and their routes, and answers the clicks and choices
from it):

- a move's clicks are the squares of its route (:meth:`Engine.routes`), start first;
  a move with no route (a pass) has no clicks, and the board offers it as a button;
- where two legal moves have the same route and differ only in the pieces they jump
  (two enemy pieces that could be jumped to reach the same point), the square of the
  jumped piece is clicked before the landing at each step where they part, so the
  click on the jumped piece chooses;
- moves written the same way are one move (two wolves leaving the Lair by the same
  path are one written move).

A turn with too many legal forms to list (several pieces, each by its own die) builds
its choices step by step in its own package instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["CHOICE", "Choice", "Choices", "ClickTable", "Entry"]

M = TypeVar("M")

#: The first character of a click that names a choice rather than a square.
CHOICE = "="


@dataclass(frozen=True)
class Choice:
    """One thing the board may click next: a square, or a named choice (``=e``),
    with the words a button or a hint shows for it."""

    click: str
    label: str = ""


@dataclass(frozen=True)
class Choices(Generic[M]):
    """What the clicks so far allow: the clicks that may follow (``options``), the
    legal move the clicks already make (``move``, ``None`` while unfinished; set with
    options too where a move may stop here or go on) and what the board asks for next
    in words (``prompt``)."""

    options: tuple[Choice, ...]
    move: M | None
    prompt: str = ""
    #: where the moving piece stands after the clicks so far, once it has landed (a
    #: chain under way, drawn there by the board); ``None`` before its first landing
    stands: str | None = None


@dataclass(frozen=True)
class Entry(Generic[M]):
    """A legal move as the table is given it: the move, its written text, its route
    (the squares it visits, start first) and the squares of the pieces it jumps, in
    the order it jumps them (one a landing, where it jumps)."""

    move: M
    text: str
    route: tuple[str, ...]
    jumped: tuple[str, ...] = ()


class ClickTable(Generic[M]):
    """The legal moves of one position, each with the clicks that enter it.

    >>> t = ClickTable([Entry("A", "a1-a2", ("a1", "a2")), Entry("B", "a1-b1", ("a1", "b1"))])
    >>> [c.click for c in t.choices(["a1"]).options]
    ['a2', 'b1']
    """

    def __init__(self, entries: Sequence[Entry[M]]) -> None:
        seen: dict[str, Entry[M]] = {}
        for entry in entries:
            seen.setdefault(entry.text, entry)
        unique = list(seen.values())
        by_route: dict[tuple[str, ...], list[Entry[M]]] = {}
        for entry in unique:
            by_route.setdefault(entry.route, []).append(entry)
        marked = [(entry, _clicks(entry, by_route[entry.route])) for entry in unique]
        self.rows: tuple[tuple[Entry[M], tuple[str, ...]], ...] = tuple(
            (entry, tuple(c for c, _ in clicks)) for entry, clicks in marked)
        #: for each row, which clicks are landings (not the start, not a jumped piece)
        self.landings: tuple[tuple[bool, ...], ...] = tuple(
            tuple(k for _, k in clicks) for _, clicks in marked)
        clicks = [c for _, c in self.rows]
        if len(set(clicks)) != len(clicks):
            raise ValueError("two legal moves have the same clicks")

    def clicks(self) -> list[tuple[str, tuple[str, ...]]]:
        """Each legal move's written text and its clicks, in the order given."""
        return [(entry.text, clicks) for entry, clicks in self.rows]

    def clicks_of(self, move: M) -> tuple[str, ...]:
        """The clicks of a legal move of the table; raises ``KeyError`` for another."""
        for entry, clicks in self.rows:
            if entry.move == move:
                return clicks
        raise KeyError(move)

    def choices(self, clicks: Sequence[str], prompt: str = "") -> Choices[M]:
        """What may follow ``clicks``: the next clicks of every move that starts with
        them (in the order the moves were given), and the move they make, if any."""
        done = tuple(clicks)
        n = len(done)
        options: dict[str, None] = {}
        move: M | None = None
        stands: str | None = None
        for (entry, entered), landed in zip(self.rows, self.landings, strict=True):
            if entered[:n] != done:
                continue
            if stands is None:
                stands = next((c for c, k in zip(done[::-1], landed[:n][::-1], strict=True)
                               if k), None)
            if len(entered) == n:
                move = entry.move
            else:
                options.setdefault(entered[n], None)
        return Choices(tuple(Choice(c, c) for c in options), move, prompt, stands)


def _clicks(entry: Entry[M], same_route: Sequence[Entry[M]]) -> tuple[tuple[str, bool], ...]:
    """The route, with a jumped piece's square before each landing where another move
    of the same route, having jumped the same pieces so far, jumps another piece; each
    click with whether it is a landing (not the start, not a jumped piece)."""
    route, jumped = entry.route, entry.jumped
    if len(same_route) == 1 or len(jumped) != len(route) - 1:
        return tuple((square, i > 0) for i, square in enumerate(route))
    clicks = [(route[0], False)] if route else []
    for i, landing in enumerate(route[1:]):
        if any(
            other.jumped[:i] == jumped[:i] and other.jumped[i:i + 1] != jumped[i:i + 1]
            for other in same_route
            if other is not entry
        ):
            clicks.append((jumped[i], False))
        clicks.append((landing, True))
    return tuple(clicks)

