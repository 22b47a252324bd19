"""The replay page: an HTML file, or a folder, to play through recorded games offline.

Python does the thinking: it walks the main line and every variation with the walker
of :mod:`zrec.play` and writes, for each move, what changed on the board
(:mod:`zrec.render.page_data` says how); the script only applies those changes and
builds the tag table and the move list with ``textContent``: record text never
reaches ``innerHTML``.  The data is JSON in a ``<script type="application/json">``
block in which ``<``, ``>`` and ``&`` are escaped, so no record text can end the block.

The page is written as the games are walked: one game's moves at a time go to a
temporary file, and only what the page needs of every game (its name, its board) is
held, so memory does not grow with the number of games or moves.  Each distinct board
is drawn once (twice: as White and as Black sees it), however many games use it.

:func:`write_page` writes one self-contained file (stylesheet and script inline);
with ``assets`` it links them instead (a published site shares one copy,
:func:`assets`).  :func:`write_folder` writes ``index.html`` and one script per game
(``games/game-N.js``), loaded when the game is chosen: a season of thousands of
games opens at once.

For tests, ``page.html#autotest=ArrowRight,End,Home`` makes the page press those keys
itself (``Flip`` presses the flip button, ``node:6`` clicks the sixth move of the list,
``game:2`` chooses the second game) and write the pieces on the board after each
step into ``<pre id="zrec-test-log">``, one line a step: the key, the node number and
``square:code`` pairs in sorted order.
"""

from __future__ import annotations

import io
import re
import shutil
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from typing import TextIO

from zrec.notation.model import Game
from zrec.render.boards import board_for, element, num
from zrec.render.diagram import SVG_NS
from zrec.render.layers import position_layer
from zrec.render.page_data import GameData, PageError, Tables, json_for_script
from zrec.render.svg import DEFAULT_CSS
from zrec.resources import PAGE_CSS, PAGE_SCRIPT, data_text

__all__ = ["Evaluation", "PageError", "assets", "replay_page", "write_folder", "write_page"]

#: a game to show: the game, its number in its file, the file's name (or ``None``)
PageGame = tuple[Game, int, "str | None"]
#: the names of the shared stylesheet and script (:func:`assets`)
STYLESHEET, SCRIPT = "zrec-replay.css", "zrec-replay.js"
#: a ``<style>`` of a board's view (a board with a stylesheet of its own), its text
_STYLE = re.compile(r"<style>(.*?)</style>", re.S)


def assets() -> dict[str, str]:
    """The page's stylesheet and script, as files a site shares: name → text."""
    return {STYLESHEET: DEFAULT_CSS + data_text(PAGE_CSS), SCRIPT: data_text(PAGE_SCRIPT)}


class _Boards:
    """The distinct boards of a page, each drawn once as White and as Black sees it."""

    def __init__(self) -> None:
        self.known: dict[str, int] = {}
        self.views: list[str] = []
        #: the board of each title and start seen (two games of the same game and start
        #: share it without drawing it again)
        self.seen: dict[tuple[str, str], int] = {}

    def number(self, data: GameData) -> int:
        """The number of a game's board, drawn the first time it is met (with that
        game's start, which the page shows without its script)."""
        start = (data.replay.title, repr(data.start_view))
        found = self.seen.get(start)
        if found is None:
            found = self.seen[start] = self._number(data)
        return found

    def _number(self, data: GameData) -> int:
        drawn = [self._svg(data, flip) for flip in (False, True)]
        key = "".join(ET.tostring(svg, encoding="unicode") for svg in drawn)
        found = self.known.get(key)
        if found is not None:
            return found
        found = self.known[key] = len(self.known)
        view = data.engine.view(data.replay.start)
        for flip, svg in zip((False, True), drawn, strict=True):
            layer = svg.find("g/g[@class='position']")
            assert layer is not None
            layer.extend(position_layer(data.board, view, None))
            div = ET.Element("div", {"class": "view", "data-board": str(found)})
            div.set("data-flipped", "1" if flip else "0")
            if flip or found:
                div.set("hidden", "hidden")
            div.append(svg)
            self.views.append(_html(div))
        return found

    @staticmethod
    def _svg(data: GameData, flip: bool) -> ET.Element:
        board = board_for(data.start_view.board, flip=flip, legend=data.start_view)
        svg = element(
            "svg",
            "zrec-diagram zrec-board",
            xmlns=SVG_NS,
            viewBox=f"0 0 {num(board.width)} {num(board.height)}",
            width=board.width,
            height=board.height,
            role="img",
        )
        ET.SubElement(svg, "title").text = data.replay.title
        svg.append(element("rect", "background", width=board.width, height=board.height))
        group = element("g", "board")
        group.extend(board.background())
        layer = element("g", "position")
        if flip:
            x, y = board.pivot
            layer.set("transform", f"rotate(180 {num(x)} {num(y)})")
        group.append(layer)
        svg.append(group)
        return svg


def _html(root: ET.Element) -> str:
    for node in root.iter():
        node.attrib = dict(sorted(node.attrib.items()))
    return ET.tostring(root, encoding="unicode", method="html")


#: an analysis given with a game (not written in its record): each seat's value at the
#: start and after each move of the main line, and each move's mark
Evaluation = tuple[Sequence[tuple[float, ...]], Sequence["str | None"]]


def _games(
    games: Iterable[PageGame], tables: Tables, boards: _Boards, out: TextIO,
    heading: str | None = None, evaluations: Sequence[Evaluation | None] = (),
) -> Iterable[GameData]:
    """Walk each game, writing its data to ``out`` (a comma between two); yields each
    once written (``heading``: the heading of every game, instead of its own;
    ``evaluations``: the i-th game's analysis, its chart's values and marks)."""
    for i, (game, number, source) in enumerate(games):
        data = GameData(game, number, tables, source)
        if heading is not None:
            data.heading = heading
        evaluation = evaluations[i] if i < len(evaluations) else None
        if evaluation is not None:
            data.series, data.marks = list(evaluation[0]), list(evaluation[1])
        board = boards.number(data)
        if i:
            out.write(",")
        data.write(out, board)
        yield data


def _skeleton(
    heading: str, count: int, nav: ET.Element | None, linked: str | None,
    sheets: Sequence[str] = (), csp: str | None = None,
) -> tuple[str, str, str]:
    """The page around its boards and its data: (before the boards, between the boards
    and the data, after the data)."""
    html = ET.Element("html", {"lang": "en"})
    head = ET.SubElement(html, "head")
    ET.SubElement(head, "meta", {"charset": "utf-8"})
    if csp is not None:
        ET.SubElement(head, "meta", {"http-equiv": "Content-Security-Policy", "content": csp})
    ET.SubElement(
        head, "meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}
    )
    ET.SubElement(head, "title").text = f"{heading} — zrec replay"
    if linked is None:
        ET.SubElement(head, "style").text = "\n" + DEFAULT_CSS + data_text(PAGE_CSS)
    else:
        ET.SubElement(head, "link", {"rel": "stylesheet", "href": linked + STYLESHEET})
    for sheet in sheets:
        ET.SubElement(head, "link", {"rel": "stylesheet", "href": sheet})
    body = ET.SubElement(html, "body")
    if nav is not None:
        body.append(nav)
    header = ET.SubElement(body, "header")
    ET.SubElement(header, "h1", {"id": "zrec-title"}).text = heading
    chooser = ET.SubElement(header, "label", {"class": "chooser"})
    if count < 2:
        chooser.set("hidden", "hidden")
    chooser.text = "Game "
    ET.SubElement(chooser, "select", {"id": "zrec-game"})
    main = ET.SubElement(body, "main")
    panel = ET.SubElement(main, "section", {"class": "board-panel"})
    ET.SubElement(ET.SubElement(panel, "div", {"class": "boards"}), "zrec-boards")
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
    ET.SubElement(panel, "div", {"id": "zrec-chart", "class": "eval-chart", "hidden": "hidden"})
    ET.SubElement(
        panel, "p", {"class": "hint"}
    ).text = "Keys: \u2190 \u2192 Home End. Click a move to see the position after it."
    ET.SubElement(panel, "noscript").text = "The moves need JavaScript; the board shows the start."
    record = ET.SubElement(main, "section", {"class": "record", "id": "zrec-record"})
    ET.SubElement(record, "table", {"id": "zrec-tags", "class": "tags"})
    ET.SubElement(record, "div", {"id": "zrec-moves", "class": "moves"})
    ET.SubElement(body, "script", {"id": "zrec-data", "type": "application/json"}).text = "\0"
    if linked is None:
        ET.SubElement(body, "script").text = "\n" + data_text(PAGE_SCRIPT)
    else:
        ET.SubElement(body, "script", {"src": linked + SCRIPT})
    text = "<!DOCTYPE html>\n" + _html(html) + "\n"
    before, rest = text.split("<zrec-boards></zrec-boards>")
    between, after = rest.split("\0")
    return before, between, after


def write_page(
    games: Iterable[PageGame],
    out: TextIO,
    *,
    nav: ET.Element | None = None,
    linked: str | None = None,
    heading: str | None = None,
    sheets: Sequence[str] = (),
    policy: Callable[[list[str]], str] | None = None,
    evaluations: Sequence[Evaluation | None] = (),
) -> int:
    """Write the replay page of ``games`` to ``out`` as they are walked; the number of
    games shown.  ``nav``: a navigation bar, first in the body (a published site's);
    ``linked``: where the shared stylesheet and script are (such as ``"../"``), instead
    of inline; ``heading``: the page's title and heading, instead of the game's;
    ``sheets``: more stylesheets, linked after the page's own; ``policy``: the
    Content-Security-Policy of a ``<meta>`` in the head, given the texts of the
    ``<style>`` elements of the page's boards; ``evaluations``: the analysis of the
    i-th game (a stored one, :mod:`zrec.archive.analyses`), drawn and marked as its
    record's own would be.  Raises :class:`PageError` for no game,
    or a game that cannot be replayed (no engine, an illegal move in any line)."""
    tables, boards = Tables(), _Boards()
    count, title = 0, ""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:
        for data in _games(games, tables, boards, spool, heading, evaluations):
            title = title or data.heading
            count += 1
        if not count:
            raise PageError("there is no game to show")
        csp = None
        if policy is not None:
            csp = policy([m for v in boards.views for m in _STYLE.findall(v)])
        before, between, after = _skeleton(title, count, nav, linked, sheets, csp)
        out.write(before)
        for view in boards.views:
            out.write(view)
        out.write(between + '{"games":[')
        spool.seek(0)
        shutil.copyfileobj(spool, out, 1 << 20)
    out.write('],"tables":')
    tables.write(out)
    out.write("}" + after)
    return count


def replay_page(
    games: Sequence[Game],
    *,
    numbers: Sequence[int] | None = None,
    sources: Sequence[str] | None = None,
    nav: ET.Element | None = None,
) -> str:
    """The replay page of these games as text (``numbers``: their numbers in their
    file, for messages and the selector, default 1, 2, ...; ``sources``: the file each
    comes from, named too when the games come from several files; ``nav``: as for
    :func:`write_page`).  Raises :class:`PageError`."""
    numbers = numbers or range(1, len(games) + 1)
    named: Sequence[str | None] = sources or [None] * len(games)
    out = io.StringIO()
    write_page(zip(games, numbers, named, strict=True), out, nav=nav)
    return out.getvalue()


def write_folder(games: Iterable[PageGame], write: Callable[[str, str], None]) -> int:
    """Write the replay page of ``games`` as a folder: ``index.html`` (script and
    stylesheet inline) and ``games/game-N.js`` for the N-th game, a script that hands
    the game's data to the page when the game is chosen; each file goes through
    ``write(relative path, text)``, the index last.  The number of games; raises
    :class:`PageError` as :func:`write_page` does."""
    tables, boards = Tables(), _Boards()
    labels: list[str] = []
    files: list[str] = []
    heading = ""
    for i, (game, number, source) in enumerate(games):
        data = GameData(game, number, tables, source)
        board = boards.number(data)
        out = io.StringIO()
        out.write(f"zrecGame({i},")
        data.write(out, board)
        out.write(");\n")
        files.append(f"games/game-{i + 1}.js")
        write(files[-1], out.getvalue())
        heading = heading or data.heading
        labels.append(data.label)
    if not labels:
        raise PageError("there is no game to show")
    before, between, after = _skeleton(heading, len(labels), None, None)
    out = io.StringIO()
    out.write(before + "".join(boards.views) + between)
    out.write(json_for_script({"files": files, "labels": labels})[:-1] + ',"tables":')
    tables.write(out)
    out.write("}" + after)
    write("index.html", out.getvalue())
    return len(labels)
