"""SVG diagrams of positions: one board, or a strip of every position of a record.

Modelled on python-chess's ``chess.svg``: the picture is built with
:mod:`xml.etree.ElementTree` (so every string from a record is escaped, never pasted
into markup), by small pure functions with keyword-only options and no module state.
Every element carries CSS classes (``point``, ``line``, ``square``, ``trail``,
``piece white``, ``piece black priest``, ``last-move``, ``ghost``, ``captured``,
``coord``, ``caption``) whose default look sits in an embedded ``<style>``, which a
user's stylesheet (``css=``) follows and so overrides.  The ``<desc>`` holds the
position as text.  The same input gives the same bytes: no dates, no random ids,
attributes in sorted order.  The board geometry is in :mod:`zrec.outputs._boards`,
the pieces and the marks of the last move in :mod:`zrec.outputs._layers`.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from zrec.errors import ZrecError
from zrec.notation.model import Game, MoveNode
from zrec.outputs._boards import Board, BoardError, board_for, element, label, num
from zrec.outputs._layers import LastMove, mark_move, position_layer, square_key
from zrec.play import GameSetupError, Replay, ReplayError, positions, prepare
from zrec.rules.base import Engine, View

__all__ = [
    "DEFAULT_CSS",
    "DiagramError",
    "Frame",
    "LastMove",
    "all_diagrams",
    "diagram",
    "diagram_for_record",
    "mark_move",
    "position_text",
    "record_frames",
    "strip",
    "strip_for_record",
]

SVG_NS = "http://www.w3.org/2000/svg"
CAPTION = 26.0  # height of a caption line

#: The default look; a user's stylesheet is appended after it and wins.
DEFAULT_CSS = """\
.background { fill: #ffffff; }
.line { stroke: #1a1a1a; stroke-width: 1.3; fill: none; stroke-linecap: round; }
.point { fill: #1a1a1a; }
.square { fill: #ffffff; stroke: #555555; stroke-width: 0.7; }
.square.south, .square.north { fill: #ececec; }
.trail { stroke: #9a9a9a; stroke-width: 0.5; fill: none; }
.border { stroke: #1a1a1a; stroke-width: 1.6; fill: none; stroke-linecap: square; }
.piece { stroke: #111111; stroke-width: 1.5; }
.piece.white { fill: #ffffff; }
.piece.black { fill: #262626; }
.priest-mark { fill: none; stroke-width: 1.5; }
.priest-mark.white { stroke: #111111; }
.priest-mark.black { stroke: #ffffff; }
.ghost { stroke: #4d4d4d; stroke-width: 1.2; stroke-dasharray: 3 2; }
.ghost.white { fill: #ffffff; fill-opacity: 0.7; }
.ghost.black { fill: #262626; fill-opacity: 0.3; }
.priest-mark.ghost-mark { stroke: #4d4d4d; stroke-dasharray: 2 2; }
.last-move { fill: none; stroke: #a8322d; }
.last-move.arrow { stroke-width: 3; stroke-linecap: round; stroke-linejoin: round; }
.last-move.head { fill: #a8322d; stroke: none; }
.last-move.origin { stroke-width: 1.5; }
.last-move.entry { stroke-width: 2.5; }
.captured { fill: none; stroke: #a8322d; stroke-width: 1.2; stroke-dasharray: 3 2; }
.coord { fill: #333333; font-family: Georgia, 'Times New Roman', serif; font-size: 12px;
  text-anchor: middle; dominant-baseline: central; }
.caption { fill: #111111; font-family: Georgia, 'Times New Roman', serif; font-size: 15px;
  text-anchor: middle; }
.caption.title { font-size: 17px; font-weight: bold; }
"""


class DiagramError(ZrecError, ValueError):
    """A record or engine zrec cannot draw, and why."""


@dataclass(frozen=True)
class Frame:
    """One position of a strip: the position, its last move and its caption."""

    position: Any
    last_move: LastMove | None = None
    caption: str | None = None


# Characters XML 1.0 does not allow at all, even escaped (ElementTree lets them through).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` with characters that XML forbids replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def position_text(engine: Engine[Any, Any], position: Any) -> str:
    """The position in words: the pieces of each kind, whose turn it is, the Setup."""
    view = engine.view(position)
    groups: dict[tuple[int, str], list[str]] = {}
    names: dict[tuple[int, str], str] = {}
    for piece in view.pieces:
        owner = -1 if piece.owner is None else piece.owner
        key = (owner, piece.code)
        groups.setdefault(key, []).append(piece.square)
        seat = view.seats[owner] if owner >= 0 else ""
        names[key] = " ".join(w for w in (seat, piece.kind) if w) or piece.code
    parts = [
        f"{names[key]}: {' '.join(sorted(groups[key], key=square_key))}"
        for key in sorted(groups, key=lambda k: (k[0] < 0, k))
    ]
    end = engine.outcome(position)
    if end is not None:
        parts.append(f"game over: {end.reason}")
    else:
        number = engine.move_number(position)
        parts.append(f"{view.seats[number.seat]} to move (move {number.number})")
    return "; ".join(parts) + f". Setup: {engine.setup_text(position)}"


def _board_group(
    board: Board, view: View, last_move: LastMove | None, x: float, y: float
) -> ET.Element:
    group = element("g", "board", transform=f"translate({num(x)} {num(y)})")
    group.extend(board.background())
    layer = element("g", "position")
    layer.extend(position_layer(board, view, last_move))
    group.append(layer)
    return group


def _svg(width: float, height: float, size: int | None) -> ET.Element:
    shown = width if size is None else float(size)
    return element(
        "svg",
        "zrec-diagram",
        xmlns=SVG_NS,
        version="1.1",
        viewBox=f"0 0 {num(width)} {num(height)}",
        width=shown,
        height=shown * height / width,
    )


def _finish(svg: ET.Element, title: str, desc: str, css: str | None) -> str:
    head = [element("title"), element("desc"), element("style")]
    head[0].text, head[1].text = title, desc
    head[2].text = "\n" + DEFAULT_CSS + (f"/* user stylesheet */\n{css}\n" if css else "")
    for i, node in enumerate(head):
        svg.insert(i, node)
    return to_text(svg)


def to_text(root: ET.Element) -> str:
    """Serialise, one element a line, attributes in sorted order (the same bytes each time)."""
    for node in root.iter():
        node.attrib = dict(sorted(node.attrib.items()))
    ET.indent(root)
    return xml_safe(ET.tostring(root, encoding="unicode")) + "\n"


def diagram(
    engine: Engine[Any, Any],
    position: Any,
    *,
    last_move: LastMove | None = None,
    flip: bool = False,
    coordinates: bool = True,
    size: int | None = None,
    caption: str | None = None,
    css: str | None = None,
) -> str:
    """One position as an SVG document (text).

    ``flip`` shows the board from Black's side; ``size`` is the width in px (default:
    the natural size); ``caption`` is written under the board and is the ``<title>``;
    ``css`` is appended to the default stylesheet.  Raises :class:`DiagramError` for an
    engine whose board zrec cannot draw.
    """
    board = _board(engine, flip, coordinates)
    return _diagram(board, engine, position, last_move, size, caption, css)


def _diagram(
    board: Board,
    engine: Engine[Any, Any],
    position: Any,
    last_move: LastMove | None,
    size: int | None,
    caption: str | None,
    css: str | None,
) -> str:
    height = board.height + (CAPTION if caption else 0)
    svg = _svg(board.width, height, size)
    svg.append(element("rect", "background", x=0, y=0, width=board.width, height=height))
    svg.append(_board_group(board, engine.view(position), last_move, 0, 0))
    if caption:
        svg.append(label(caption, board.width / 2, board.height + CAPTION - 9, "caption"))
    return _finish(svg, caption or "zrec diagram", position_text(engine, position), css)


def strip(
    engine: Engine[Any, Any],
    frames: Sequence[Frame],
    *,
    flip: bool = False,
    coordinates: bool = True,
    size: int | None = None,
    caption: str | None = None,
    css: str | None = None,
    columns: int | None = None,
) -> str:
    """Several positions side by side in one SVG, wrapped into rows, each with its
    caption; ``caption`` heads the whole strip.  ``columns`` defaults to what keeps the
    strip close to the shape of a landscape page."""
    if not frames:
        raise DiagramError("a strip needs at least one position")
    board = _board(engine, flip, coordinates)
    gap, cell_h = 18.0, board.height + CAPTION
    if columns is None:
        columns = _columns(len(frames), board.width + gap, cell_h + gap)
    rows = math.ceil(len(frames) / columns)
    width = columns * board.width + (columns - 1) * gap
    top = CAPTION + 10 if caption else 0.0
    height = top + rows * cell_h + (rows - 1) * gap
    svg = _svg(width, height, size)
    svg.append(element("rect", "background", x=0, y=0, width=width, height=height))
    if caption:
        svg.append(label(caption, width / 2, CAPTION - 6, "caption title"))
    texts = []
    for i, frame in enumerate(frames):
        row, col = divmod(i, columns)
        x, y = col * (board.width + gap), top + row * (cell_h + gap)
        svg.append(_board_group(board, engine.view(frame.position), frame.last_move, x, y))
        if frame.caption:
            svg.append(label(frame.caption, x + board.width / 2, y + cell_h - 9, "caption"))
        texts.append(f"{frame.caption or i}: {position_text(engine, frame.position)}")
    return _finish(svg, caption or "zrec diagram", "\n".join(texts), css)


def _columns(count: int, width: float, height: float) -> int:
    """The number of columns that makes a strip closest to the shape of a landscape page."""
    return min(
        range(1, count + 1),
        key=lambda c: abs(math.log(c * width / (math.ceil(count / c) * height) / math.sqrt(2))),
    )


def _board(engine: Engine[Any, Any], flip: bool, coordinates: bool) -> Board:
    try:
        return board_for(engine.view(engine.start()).board, flip=flip, coordinates=coordinates)
    except BoardError as exc:
        raise DiagramError(str(exc)) from None


# -- records -----------------------------------------------------------------------------


def replay_record(game: Game) -> Replay:
    """The engine and start of a record; raises :class:`DiagramError` when there is none."""
    try:
        return prepare(game)
    except GameSetupError as exc:
        raise DiagramError(f"{exc}: cannot draw its positions") from None


def move_label(replay: Replay, before: Any, node: MoveNode) -> str:
    """A move as a caption writes it: ``1. b6-b5``, ``1... b4xb6``, or with no number a
    move that is not a turn (``P@e1``)."""
    number = replay.engine.move_number(before)
    text = node.turn.text()
    return f"{number.text()} {text}" if number.turn else text


def record_title(game: Game, replay: Replay) -> str:
    """The game's name, and its event when the record names one."""
    event = (game.tag("Event") or "").strip()
    return f"{replay.title} — {event}" if event and event != "?" else replay.title


def record_frames(game: Game, *, upto: int | None = None) -> tuple[Replay, list[Frame]]:
    """The start and the position after every move of the main line (or of its first
    ``upto`` moves), each with its last move and a short caption (``1. b6-b5``).
    Raises :class:`DiagramError` for a record without an engine or with an illegal move.
    """
    replay = replay_record(game)
    engine = replay.engine
    frames = [Frame(replay.start, None, "start position")]
    try:
        steps = positions(replay, game.line, upto)
    except ReplayError as exc:
        raise DiagramError(str(exc)) from None
    for step in steps:
        mark = mark_move(engine, step.before, step.move, step.events)
        frames.append(Frame(step.after, mark, move_label(replay, step.before, step.node)))
    return replay, frames


def diagram_for_record(game: Game, ply: int | None = None, **options: Any) -> str:
    """The position after ``ply`` moves of the main line (default: all of them), with its
    last move marked and a caption such as "<game> — after 1. b6-b5";
    ``options`` are those of :func:`diagram`.  Raises :class:`DiagramError`."""
    total = len(game.line.moves)
    if ply is not None and not 0 <= ply <= total:
        raise DiagramError(f"the main line has {total} moves; the ply must be 0 to {total}")
    replay, frames = record_frames(game, upto=ply)
    frame = frames[-1]
    caption = f"{replay.title} — {'after ' if len(frames) > 1 else ''}{frame.caption}"
    if options.get("caption") is None:
        options["caption"] = caption
    return diagram(replay.engine, frame.position, last_move=frame.last_move, **options)


def strip_for_record(game: Game, **options: Any) -> str:
    """Every position of the main line, the start included, in one SVG headed by the
    game's name and event; ``options`` are those of :func:`strip`."""
    replay, frames = record_frames(game)
    if options.get("caption") is None:
        options["caption"] = record_title(game, replay)
    return strip(replay.engine, frames, **options)


def all_diagrams(
    game: Game,
    *,
    flip: bool = False,
    coordinates: bool = True,
    size: int | None = None,
    caption: str | None = None,
    css: str | None = None,
) -> Iterator[str]:
    """One SVG per position of the main line, the start first (as ``--all`` writes);
    the options are those of :func:`diagram`."""
    replay, frames = record_frames(game)
    board = _board(replay.engine, flip, coordinates)
    title = replay.title
    for i, frame in enumerate(frames):
        text = caption or f"{title} — {'after ' if i else ''}{frame.caption}"
        yield _diagram(board, replay.engine, frame.position, frame.last_move, size, text, css)
