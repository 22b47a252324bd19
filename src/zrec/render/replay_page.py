"""The replay page: one self-contained HTML file to play through recorded games.

Everything is inline (stylesheet, script, the boards as SVG), so the page works
offline from a single file; the stylesheet and the script are package data files
(``zrec/_data/replay.css`` and ``replay.js``). Python does the thinking: it walks the
main line and every variation with the walker of :mod:`zrec.play` and stores, for each
move, the picture layer of the position after it (pieces, last-move arrow, ghosts), as
JSON in a ``<script type="application/json">`` block in which ``<``, ``>`` and ``&``
are escaped, so no record text can end the block. The script only switches between
those positions and builds the tag table and the move list with ``textContent``:
record text never reaches ``innerHTML``.

For tests, ``page.html#autotest=ArrowRight,End,Home`` makes the page press those keys
itself (``Flip`` presses the flip button, ``node:6`` clicks the sixth move of the list,
``game:2`` chooses the second game) and write the pieces on the board after each
step into ``<pre id="zrec-test-log">``, one line a step: the key, the node number and
``square:code`` pairs in sorted order.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zrec.errors import ZrecError
from zrec.notation.model import Game, Line, MoveNode
from zrec.play import LineEnd, Step, Visitor, walk, written_number
from zrec.render.boards import board_for, element, num
from zrec.render.diagram import (
    DEFAULT_CSS,
    SVG_NS,
    DiagramError,
    move_label,
    record_title,
    replay_record,
)
from zrec.render.layers import LastMove, mark_move, position_layer
from zrec.resources import PAGE_CSS, PAGE_SCRIPT, data_text

__all__ = ["PageError", "replay_page"]


class PageError(ZrecError, ValueError):
    """A game the replay page cannot show, and why."""


def _json_for_script(data: object) -> str:
    """JSON that is safe inside ``<script>``: ``<``, ``>``, ``&`` and the JavaScript line
    separators are written as ``\\u`` escapes."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


def _shapes(elements: Sequence[ET.Element]) -> list[list[Any]]:
    """SVG elements as ``[tag, {attribute: value}]`` pairs (and the text, where an element
    has one: a seat number, a count) for the script to rebuild."""
    return [
        [e.tag, dict(sorted(e.attrib.items())), *([e.text] if e.text else [])] for e in elements
    ]


@dataclass
class _Frame:
    """A line being walked: the ids of its moves so far, the node before its next move,
    its own comments, and whether its next move's number must be written."""

    ids: list[int]
    prev: int
    comments: list[str]
    spaced: bool = True

    def record(self) -> dict[str, Any]:
        return {"moves": self.ids, "comments": self.comments}


class _Walk(Visitor):
    """Replays a game's lines with the walker and collects one node per position."""

    def __init__(self, game: Game, number: int, source: str | None = None) -> None:
        self.game, self.number = game, number
        #: How messages and the selector name the game: "game 2", or "a.zrec, game 2".
        self.name = f"{source}, game {number}" if source is not None else f"game {number}"
        try:
            self.replay = replay_record(game)
        except DiagramError as exc:
            raise PageError(f"{self.name}: {exc}") from None
        self.engine = self.replay.engine
        self.start_view = self.engine.view(self.replay.start)
        self.board = board_for(self.start_view.board, legend=self.start_view)
        start = self.replay.start
        self.nodes: list[dict[str, Any]] = [
            {"prev": -1, "next": -1, "caption": "start position", "layer": self._layer(start)}
        ]
        #: One frame per line being walked (the main line, then nested variations): the
        #: ids of its moves, the node before the next move, whether the next move's
        #: number must be written, and the line's own record (moves and comments).
        self.lines: list[_Frame] = []

    def _layer(self, position: Any, last: LastMove | None = None) -> list[list[Any]]:
        return _shapes(position_layer(self.board, self.engine.view(position), last))

    def _open(self, line: Line, prev: int) -> _Frame:
        frame = _Frame([], prev, [c.text for c in line.comments])
        self.lines.append(frame)
        return frame

    def step(self, step: Step) -> None:
        node, depth, frame = step.node, step.depth, self.lines[-1]
        if step.error is not None:
            where = "the main line" if depth == 0 else "a variation"
            raise PageError(
                f"{self.name}: {self.replay.label(step.before)} {node.turn.text()} "
                f"in {where} is illegal: {step.error.reason}"
            )
        number = self.engine.move_number(step.before)
        label = move_label(self.replay, step.before, node)
        follows = not frame.spaced and not node.comments_before
        written = written_number(number, follows)
        me = len(self.nodes)
        mark = mark_move(self.engine, step.before, step.move, step.events)
        self.nodes.append(
            {
                "prev": frame.prev,
                "next": -1,
                "num": written.text() if written is not None else "",
                "move": node.turn.text() + (node.suffix or ""),
                "nags": " ".join(f"${n}" for n in node.nags),
                "before": [c.text for c in node.comments_before],
                "after": [c.text for c in node.comments_after],
                "caption": f"after {label}" + (" (variation)" if depth else ""),
                "layer": self._layer(step.after, mark),
                "vars": [],
            }
        )
        ids = frame.ids
        if ids:
            self.nodes[ids[-1]]["next"] = me
        elif depth == 0:
            self.nodes[0]["next"] = me
        ids.append(me)
        frame.spaced = bool(node.comments_after or node.variations or node.nags or not number.turn)
        frame.prev = me

    def begin_variation(self, node: MoveNode, before: Any, ply: int, depth: int) -> None:
        # the variation replaces the parent line's last move: it branches from the node
        # before that move
        last = self.nodes[self.lines[-1].ids[-1]]
        self._open(node.variations[len(last["vars"])], last["prev"])

    def end_variation(self, node: MoveNode, end: LineEnd, depth: int) -> None:
        frame = self.lines.pop()
        self.nodes[self.lines[-1].ids[-1]]["vars"].append(frame.record())

    def data(self) -> dict[str, Any]:
        frame = self._open(self.game.line, 0)
        walk(self.replay, self.game.line, self)
        line = frame.record()
        heading = record_title(self.game, self.replay)
        board = self.board
        return {
            "wide": board.width > 2.5 * board.height,  # then the moves go under the board
            "heading": heading,
            "label": f"{self.name[0].upper()}{self.name[1:]}: {heading}",
            "tags": [list(tag) for tag in self.game.tags],
            "result": self.game.result,
            "line": line,
            "nodes": self.nodes,
        }

    def views(self, index: int) -> list[ET.Element]:
        """The two boards (as White and as Black sees it) of this game, start drawn."""
        out = []
        for flip in (False, True):
            board = board_for(self.start_view.board, flip=flip, legend=self.start_view)
            svg = element(
                "svg",
                "zrec-diagram zrec-board",
                xmlns=SVG_NS,
                viewBox=f"0 0 {num(board.width)} {num(board.height)}",
                width=board.width,
                height=board.height,
                role="img",
            )
            ET.SubElement(svg, "title").text = self.replay.title
            svg.append(element("rect", "background", width=board.width, height=board.height))
            group = element("g", "board")
            group.extend(board.background())
            layer = element("g", "position")
            if flip:
                x, y = board.pivot
                layer.set("transform", f"rotate(180 {num(x)} {num(y)})")
            layer.extend(position_layer(self.board, self.engine.view(self.replay.start), None))
            group.append(layer)
            svg.append(group)
            view = ET.Element("div", {"class": "view", "data-game": str(index)})
            view.set("data-flipped", "1" if flip else "0")
            if flip or index:
                view.set("hidden", "hidden")
            view.append(svg)
            out.append(view)
        return out


def replay_page(
    games: Sequence[Game],
    *,
    numbers: Sequence[int] | None = None,
    sources: Sequence[str] | None = None,
    nav: ET.Element | None = None,
) -> str:
    """The replay page of these games (``numbers``: their numbers in their file, for
    messages and the selector, default 1, 2, ...; ``sources``: the file each comes from,
    named too when the games come from several files; ``nav``: a navigation bar, first
    in the page's body, as a published site puts on a game's page).  Raises
    :class:`PageError` when a game cannot be replayed (no engine, an illegal move in any
    line)."""
    if not games:
        raise PageError("there is no game to show")
    numbers = numbers or range(1, len(games) + 1)
    named: Sequence[str | None] = sources or [None] * len(games)
    walks = [_Walk(g, n, f) for g, n, f in zip(games, numbers, named, strict=True)]
    data = {"games": [w.data() for w in walks]}

    html = ET.Element("html", {"lang": "en"})
    head = ET.SubElement(html, "head")
    ET.SubElement(head, "meta", {"charset": "utf-8"})
    ET.SubElement(
        head, "meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}
    )
    ET.SubElement(head, "title").text = f"{data['games'][0]['heading']} — zrec replay"
    ET.SubElement(head, "style").text = "\n" + DEFAULT_CSS + data_text(PAGE_CSS)
    body = ET.SubElement(html, "body")
    if nav is not None:
        body.append(nav)
    header = ET.SubElement(body, "header")
    ET.SubElement(header, "h1", {"id": "zrec-title"}).text = data["games"][0]["heading"]
    chooser = ET.SubElement(header, "label", {"class": "chooser"})
    if len(walks) < 2:
        chooser.set("hidden", "hidden")
    chooser.text = "Game "
    ET.SubElement(chooser, "select", {"id": "zrec-game"})
    main = ET.SubElement(body, "main")
    panel = ET.SubElement(main, "section", {"class": "board-panel"})
    boards = ET.SubElement(panel, "div", {"class": "boards"})
    for i, walked in enumerate(walks):
        boards.extend(walked.views(i))
    ET.SubElement(
        panel, "p", {"id": "zrec-caption", "class": "position-caption"}
    ).text = "start position"
    controls = ET.SubElement(panel, "div", {"class": "controls"})
    for ident, text, hint in (
        ("zrec-home", "|\u25c0", "Start (Home)"),
        ("zrec-back", "\u25c0", "Back (left arrow)"),
        ("zrec-forward", "\u25b6", "Forward (right arrow)"),
        ("zrec-end", "\u25b6|", "End of the line (End)"),
        ("zrec-flip", "Flip board", "View the board from the other side"),
    ):
        button = ET.SubElement(
            controls, "button", {"id": ident, "type": "button", "title": hint, "aria-label": hint}
        )
        button.text = text
    ET.SubElement(
        panel, "p", {"class": "hint"}
    ).text = "Keys: \u2190 \u2192 Home End. Click a move to see the position after it."
    ET.SubElement(panel, "noscript").text = "The moves need JavaScript; the board shows the start."
    record = ET.SubElement(main, "section", {"class": "record", "id": "zrec-record"})
    ET.SubElement(record, "table", {"id": "zrec-tags", "class": "tags"})
    ET.SubElement(record, "div", {"id": "zrec-moves", "class": "moves"})
    store = ET.SubElement(body, "script", {"id": "zrec-data", "type": "application/json"})
    store.text = _json_for_script(data)
    ET.SubElement(body, "script").text = "\n" + data_text(PAGE_SCRIPT)
    for node in html.iter():
        node.attrib = dict(sorted(node.attrib.items()))
    return "<!DOCTYPE html>\n" + ET.tostring(html, encoding="unicode", method="html") + "\n"
