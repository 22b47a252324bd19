"""The replay page's data: each game's moves and positions, written as they are walked.

Python does all the thinking; the page's script only looks things up and copies them.
A page holds one pair of tables shared by all its games (:class:`Tables`):

- ``shapes``: each distinct SVG element of a board's picture layer, as ``[tag,
  {attribute: value}]`` (and its text, where it has one: a seat number, a count);
- ``changes``: each distinct change from one position to the next, as ``[marks,
  squares, top]``: the marks of the last move (drawn first), then, for each square
  whose pieces changed, its index and its new list of shapes (``[index, [shape...],
  ...]``, an empty list for a square emptied), then what is drawn over the pieces.

A shape or a change is named by its number in its table, or, once a table holds
:data:`LIMIT` entries, written out where it is used, so that memory stays bounded
however many games and moves a page has.  Squares are numbered in reading order; the
picture layer of a position is its last move's marks, the shapes of every square in
that order, then the top (what :func:`zrec.render.layers.position_layer` draws).

Each game is one JSON object (:meth:`GameData.write`): ``heading``, ``label``,
``tags``, ``result``, ``wide``, ``board`` (which board of the page it is drawn on),
``comments`` (of the main line) and ``items``, written as the walker goes: the start
``["", 0, change]``, then a move ``[text, number, change]`` with, where needed, a
fourth member ``{"x": suffix, "g": NAGs, "b": comments before, "a": comments after,
"m": the mark of an analysis given with the game (not in its record)}``;
``{"v": [comments]}`` opens a variation (of the move just given) and ``0`` closes it.
Where the record carries its analysis (the ``Evaluation`` tag ``zrec analyse`` writes,
:func:`zrec.research.annotate.read_evaluation`), or an analysis is given, the object
ends with ``chart``: the evaluation chart's SVG (:mod:`zrec.render.eval_chart`), each
ply of it naming its node.
``number`` is the move number written before the move (``"12."``, ``"12..."``), or,
when none is written, the number of a turn as an integer (``12`` for ``12.``, ``-12``
for ``12...``) or ``0`` for a move that is not a turn.  The script numbers the nodes in
this order (the start is node 0) and keeps, for each, the node before it.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass, replace
from typing import Any, TextIO

from zrec.errors import ZrecError
from zrec.notation.model import Game, MoveNode
from zrec.play import LineEnd, Step, Visitor, walk, written_number
from zrec.render.board_base import Board
from zrec.render.boards import board_for
from zrec.render.diagram import DiagramError, record_title, replay_record
from zrec.render.layers import LastMove, layer_parts, mark_move, square_key
from zrec.rules.base import Piece

__all__ = ["LIMIT", "GameData", "PageError", "Tables", "json_for_script"]

#: how many shapes, and how many changes, a page's tables hold at most
LIMIT = 100_000


class PageError(ZrecError, ValueError):
    """A game the replay page cannot show, and why."""


def json_for_script(data: object) -> str:
    """JSON that is safe inside ``<script>``: ``<``, ``>``, ``&`` and the JavaScript line
    separators are written as ``\\u`` escapes."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


#: a shape as the tables know it: tag, sorted attributes, text
ShapeKey = tuple[str, tuple[tuple[str, str], ...], str | None]


class Tables:
    """The shapes and changes of one page, each numbered once, up to :data:`LIMIT`."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = LIMIT if limit is None else limit
        self.shapes: dict[ShapeKey, int] = {}
        self.changes: dict[str, int] = {}
        #: what a square shows, or the marks of a move, once drawn (see GameData._state)
        self.drawn: dict[Any, tuple[Any, ...]] = {}

    def remember(self, key: Any, drawn: tuple[Any, ...]) -> tuple[Any, ...]:
        """Keep what was drawn for ``key`` (forgetting all, now and then: memory stays
        bounded) and give it back."""
        if len(self.drawn) >= self.limit:
            self.drawn.clear()
        self.drawn[key] = drawn
        return drawn

    def shape(self, element: ET.Element) -> int | list[Any]:
        """The number of an element's shape, or the shape itself once the table is full."""
        key = (element.tag, tuple(sorted(element.attrib.items())), element.text)
        found = self.shapes.get(key)
        if found is not None:
            return found
        if len(self.shapes) >= self.limit:
            return _shape(key)
        found = self.shapes[key] = len(self.shapes)
        return found

    def change(self, text: str) -> int | None:
        """The number of a change (as JSON text), ``None`` once the table is full."""
        found = self.changes.get(text)
        if found is None and len(self.changes) < self.limit:
            found = self.changes[text] = len(self.changes)
        return found

    def write(self, out: TextIO) -> None:
        """The tables as one JSON object, written a shape and a change at a time."""
        out.write('{"changes":[')
        for i, text in enumerate(self.changes):
            out.write("," + text if i else text)
        out.write('],"shapes":[')
        for i, key in enumerate(self.shapes):
            out.write(("," if i else "") + json_for_script(_shape(key)))
        out.write("]}")


#: a mark of the analysis by its NAG, where a move's suffix is its own
_MARK_NAGS = {6: "?!", 2: "?", 4: "??"}


def _mark(node: MoveNode) -> str | None:
    """A move's mark of the analysis: its suffix, or the worst mark among its NAGs."""
    if node.suffix in ("?!", "?", "??"):
        return node.suffix
    found = [_MARK_NAGS[n] for n in (4, 2, 6) if n in node.nags]
    return found[0] if found else None


def _shape(key: ShapeKey) -> list[Any]:
    tag, attrs, text = key
    return [tag, dict(attrs), *([text] if text else [])]


#: the shapes of each square, by the square's number
State = dict[int, tuple[Any, ...]]


@dataclass
class _Frame:
    """A line being walked: the pieces after its last move and before it, the move
    itself, how many of its variations were opened, and whether its next move's number
    must be written."""

    state: State
    before: State
    node: MoveNode | None = None
    opened: int = 0
    spaced: bool = True


class GameData(Visitor):
    """One game of a page: replays its lines with the walker and writes each move's
    item as it is played."""

    def __init__(self, game: Game, number: int, tables: Tables, source: str | None = None):
        self.game, self.tables = game, tables
        #: How messages and the selector name the game: "game 2", or "a.zrec, game 2".
        self.name = f"{source}, game {number}" if source is not None else f"game {number}"
        try:
            self.replay = replay_record(game)
        except DiagramError as exc:
            raise PageError(f"{self.name}: {exc}") from None
        self.engine = self.replay.engine
        self.start_view = self.engine.view(self.replay.start)
        self.board: Board = board_for(self.start_view.board, legend=self.start_view)
        squares = sorted(self.board.centres, key=square_key)
        self.squares = {name: i for i, name in enumerate(squares)}
        self.heading = record_title(game, self.replay)
        # "Game 2: ..." as a sentence starts; a file's name as it is written
        named = self.name if source is not None else f"G{self.name[1:]}"
        self.label = f"{named}: {self.heading}"
        self.lines: list[_Frame] = []
        self.out: TextIO | None = None
        self.key = -1  # the number of the game's board in the page, once written
        #: the main line's moves as walked: node number, mover, mark
        self.main: list[tuple[int, int, str | None]] = []
        self.count = 0
        #: the values per seat at the start and after each move of the main line, where
        #: they are known (else read from the record's ``Evaluation`` tag)
        self.series: list[tuple[float, ...]] | None = None
        #: each main-line move's mark of that analysis (shown as ``m``)
        self.marks: list[str | None] | None = None

    def _state(self, position: Any, last: LastMove | None) -> tuple[State, list[Any], list[Any]]:
        """The shapes of each square, the marks and the top of a position's layer.

        What a square shows depends only on the board, the seats and the pieces on it,
        and the marks only on the move and the pieces where it took some: each is drawn
        once and looked up after (:meth:`Tables.drawn`), as
        :func:`~zrec.render.layers.layer_parts` draws it for those pieces alone."""
        view = self.engine.view(position)
        on: dict[str, list[Piece]] = {}
        for piece in view.pieces:
            on.setdefault(piece.square, []).append(piece)
        state: State = {}
        for name, pieces in on.items():
            key = (self.key, view.seats, tuple(pieces))
            drawn = self.tables.drawn.get(key)
            if drawn is None:
                parts = layer_parts(self.board, replace(view, pieces=key[2]), None)
                drawn = self.tables.remember(
                    key,
                    tuple(
                        tuple(self.tables.shape(e) for e in elements)
                        for _, elements in parts.squares
                    ),
                )
            state[self.squares[name]] = tuple(ref for refs in drawn for ref in refs)
        if last is None:
            return state, [], []
        taken = tuple(p for g in last.ghosts for p in on.get(g.square, ()))
        marked = (self.key, view.seats, last, last.ghosts, taken)
        drawn = self.tables.drawn.get(marked)
        if drawn is None:
            parts = layer_parts(self.board, replace(view, pieces=taken), last)
            shape = self.tables.shape
            drawn = self.tables.remember(
                marked, (tuple(shape(e) for e in parts.marks), tuple(shape(e) for e in parts.top))
            )
        return state, list(drawn[0]), list(drawn[1])

    def _change(self, old: State, new: State, marks: list[Any], top: list[Any]) -> Any:
        squares: list[Any] = []
        for square in sorted(old.keys() | new.keys()):
            now = new.get(square, ())
            if old.get(square, ()) != now:
                squares += [square, list(now)]
        text = json_for_script([marks, squares, top])
        found = self.tables.change(text)
        return json.loads(text) if found is None else found

    def _item(self, item: Any) -> None:
        assert self.out is not None
        self.out.write("," + json_for_script(item))

    def step(self, step: Step) -> None:
        node, depth, frame = step.node, step.depth, self.lines[-1]
        if step.error is not None:
            where = "the main line" if depth == 0 else "a variation"
            raise PageError(
                f"{self.name}: {self.replay.label(step.before)} {node.turn.text()} "
                f"in {where} is illegal: {step.error.reason}"
            )
        number = self.engine.move_number(step.before)
        follows = not frame.spaced and not node.comments_before
        written = written_number(number, follows)
        shown: Any = 0
        if written is not None:
            shown = written.text()
        elif number.turn:
            shown = number.number if number.dots == 1 else -number.number
        mark = mark_move(self.engine, step.before, step.move, step.events)
        state, marks, top = self._state(step.after, mark)
        item: list[Any] = [node.turn.text(), shown, self._change(frame.state, state, marks, top)]
        given = None
        if depth == 0 and self.marks is not None and len(self.main) < len(self.marks):
            given = self.marks[len(self.main)]
        extras = {
            "m": given or "",
            "x": node.suffix or "",
            "g": " ".join(f"${n}" for n in node.nags),
            "b": [c.text for c in node.comments_before],
            "a": [c.text for c in node.comments_after],
        }
        extras = {k: v for k, v in extras.items() if v}
        if extras:
            item.append(extras)
        self._item(item)
        self.count += 1
        if depth == 0:
            self.main.append((self.count, number.seat, given or _mark(node)))
        frame.before, frame.state, frame.node, frame.opened = frame.state, state, node, 0
        frame.spaced = bool(node.comments_after or node.variations or node.nags or not number.turn)

    def begin_variation(self, node: MoveNode, before: Any, ply: int, depth: int) -> None:
        parent = self.lines[-1]
        line = node.variations[parent.opened]
        parent.opened += 1
        self.lines.append(_Frame(parent.before, parent.before))
        self._item({"v": [c.text for c in line.comments]})

    def end_variation(self, node: MoveNode, end: LineEnd, depth: int) -> None:
        self.lines.pop()
        self._item(0)

    def write(self, out: TextIO, board: int) -> None:
        """Write the game's JSON object to ``out``, its moves as they are played;
        ``board``: the number of its board in the page.  Raises :class:`PageError` at
        an illegal move."""
        head = {
            "wide": self.board.width > 2.5 * self.board.height,  # the moves under the board
            "heading": self.heading,
            "label": self.label,
            "tags": [list(tag) for tag in self.game.tags],
            "result": self.game.result,
            "board": board,
            "comments": [c.text for c in self.game.line.comments],
        }
        self.out, self.key = out, board
        out.write(json_for_script(head)[:-1] + ',"items":[')
        state, _, _ = self._state(self.replay.start, None)
        out.write(json_for_script(["", 0, self._change({}, state, [], [])]))
        self.lines = [_Frame(state, state)]
        walk(self.replay, self.game.line, self)
        chart = self.chart()
        out.write("]" + (',"chart":' + json_for_script(chart) if chart else "") + "}")
        self.out = None

    def chart(self) -> str | None:
        """The evaluation chart's SVG text, where the game's values are known and as
        many as its main line's moves (once walked), else ``None``."""
        from zrec.render.eval_chart import eval_chart
        from zrec.research.annotate import read_evaluation

        seats = tuple(self.engine.seats)
        series = self.series or read_evaluation(self.game, len(seats))
        if not series or len(series) != len(self.main) + 1 or not self.main:
            return None
        nodes, movers, marks = zip(*self.main, strict=True)
        svg = eval_chart(series, seats, movers, marks, nodes)
        for element in svg.iter():  # (the same bytes every time)
            element.attrib = dict(sorted(element.attrib.items()))
        return ET.tostring(svg, encoding="unicode")
