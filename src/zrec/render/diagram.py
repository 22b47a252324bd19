"""SVG diagrams of positions: one board, and what strips and pages share.

Modelled on python-chess's ``chess.svg``: the picture is built with
:mod:`xml.etree.ElementTree` (so every string from a record is escaped, never pasted
into markup), by small pure functions with keyword-only options and no module state.
Every element carries CSS classes (``point``, ``line``, ``square``, ``trail``,
``piece white``, ``piece black priest``, ``last-move``, ``ghost``, ``captured``,
``coord``, ``coord middle``, ``caption``) whose default look sits in an embedded
``<style>``, which a user's stylesheet (``css=``) follows and so overrides.  A map of
terrain adds its own (``square forest``, ``terrain water``, ``piece token cow seat-2``,
``glyph-text``, ``count-badge``, ``caught-mark``, ``last-move stay``, ``legend``...),
and its stylesheet, :data:`zrec.render.svg.MAP_CSS`, after the default one.  The
``<desc>`` holds the position as text.  The same input gives the same bytes: no dates,
no random ids, attributes in sorted order.  The board geometry is in
:mod:`zrec.render.boards`, the pieces and the marks of the last move in
:mod:`zrec.render.layers`, the document and its stylesheet in
:mod:`zrec.render.svg`, and the wrapping of long captions in :mod:`zrec.render.text`.

For a record: :func:`diagram_for_record` (a ply of the main line),
:func:`diagram_for_node` (any move, variations included) and :func:`all_diagrams`;
strips of several positions are in :mod:`zrec.render.strip`.  Plies count turns: a
move that is not a turn (a priest's entry) keeps the ply of the turn before it.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from zrec.errors import ZrecError
from zrec.notation.model import Game, MoveNode
from zrec.play import GameSetupError, Replay, ReplayError, Step, path_to, positions, prepare
from zrec.play.places import check_node
from zrec.render.board_base import Board, DrawingError
from zrec.render.boards import board_for, element, num
from zrec.render.layers import LastMove, mark_move, position_layer, square_key
from zrec.render.svg import DEFAULT_CSS, SVG_NS, finish, svg_root
from zrec.render.text import text_lines, wrap
from zrec.rules.base import Engine, View

__all__ = [
    "DEFAULT_CSS",
    "SVG_NS",
    "DiagramError",
    "Frame",
    "LastMove",
    "PlyRangeError",
    "all_diagrams",
    "diagram",
    "diagram_after",
    "diagram_for_node",
    "diagram_for_record",
    "mark_move",
    "ply_range",
    "position_text",
    "record_frames",
]

CAPTION = 26.0  # height of a caption line
CAPTION_SIZE, CAPTION_LEADING = 15.0, 19.0  # font size of a caption, and of a line of it
TITLE_SIZE, TITLE_LEADING = 17.0, 21.0  # the same for the title of a strip


class DiagramError(ZrecError, ValueError):
    """A record or engine zrec cannot draw, and why."""


class PlyRangeError(DiagramError):
    """A ply, a range of plies or a move that the record does not have."""


@dataclass(frozen=True)
class Frame:
    """One position of a strip: the position, its last move, its caption and its ply
    (the turns played to reach it; a move that is not a turn keeps the ply before it)."""

    position: Any
    last_move: LastMove | None = None
    caption: str | None = None
    ply: int = 0


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
        parts.append(f"game over: {end.reason} ({end.result})")
    else:
        number = engine.move_number(position)
        parts.append(f"{view.seats[number.seat]} to move (move {number.number})")
    return "; ".join(parts) + f". Setup: {engine.setup_text(position)}"


def _board_group(
    board: Board, view: View, last_move: LastMove | None, x: float, y: float
) -> ET.Element:
    group = element("g", "board", transform=f"translate({num(x)} {num(y)})")
    group.extend(board.background(style=False))
    layer = element("g", "position")
    layer.extend(position_layer(board, view, last_move))
    group.append(layer)
    return group


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
    board = board_of(engine, flip, coordinates)
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
    lines = wrap(caption, board.width, CAPTION_SIZE) if caption else []
    height = board.height + (CAPTION + (len(lines) - 1) * CAPTION_LEADING if lines else 0)
    svg = svg_root(board.width, height, size)
    svg.append(element("rect", "background", x=0, y=0, width=board.width, height=height))
    svg.append(_board_group(board, engine.view(position), last_move, 0, 0))
    if lines:
        y = board.height + CAPTION - 9
        svg.append(text_lines(lines, board.width / 2, y, CAPTION_LEADING, "caption"))
    text = position_text(engine, position)
    return finish(svg, caption or "zrec diagram", text, css, board.css)


def strip_columns(count: int, width: float, height: float) -> int:
    """The number of columns that makes a strip closest to the shape of a landscape page."""
    return min(
        range(1, count + 1),
        key=lambda c: abs(math.log(c * width / (math.ceil(count / c) * height) / math.sqrt(2))),
    )


def board_of(engine: Engine[Any, Any], flip: bool, coordinates: bool) -> Board:
    start = engine.view(engine.start())
    try:
        return board_for(start.board, flip=flip, coordinates=coordinates, legend=start)
    except DrawingError as exc:
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
    """The start and the position after every move of the main line (or up to its
    ``upto``-th ply), each with its last move, a short caption (``1. b6-b5``) and its
    ply.  Raises :class:`DiagramError` for a record without an engine or with an
    illegal move.
    """
    replay = replay_record(game)
    try:
        steps = positions(replay, game.line, upto)
    except ReplayError as exc:
        raise DiagramError(str(exc)) from None
    return replay, [Frame(replay.start, None, "start position"), *move_frames(replay, steps)]


def move_frames(replay: Replay, steps: Sequence[Step]) -> Iterator[Frame]:
    for step in steps:
        mark = mark_move(replay.engine, step.before, step.move, step.events)
        label = move_label(replay, step.before, step.node)
        yield Frame(step.after, mark, label, step.ply)


def _caption(title: str, frame: Frame, played: bool, variation: bool = False) -> str:
    """The caption of one diagram: "<game> — after 1. b6-b5" (after a move was
    ``played``), "<game> — start position"."""
    after = "after " if played else ""
    return f"{title} — {after}{frame.caption}{' (variation)' if variation else ''}"


def diagram_for_record(game: Game, ply: int | None = None, **options: Any) -> str:
    """The position after ``ply`` plies of the main line (default: all of them), with
    its last move marked and a caption such as "<game> — after 1. b6-b5"; ``options``
    are those of :func:`diagram`.  Raises :class:`DiagramError`, and
    :class:`PlyRangeError` when the main line is shorter than ``ply``."""
    if ply is not None and ply < 0:
        raise PlyRangeError(f"the ply must be 0 or more, not {ply}")
    replay, frames = record_frames(game, upto=ply)
    frame = frames[-1]
    if ply is not None and frame.ply < ply:
        raise PlyRangeError(f"{_has_plies(frame.ply)}: the ply must be 0 to {frame.ply}")
    if options.get("caption") is None:
        options["caption"] = _caption(replay.title, frame, len(frames) > 1)
    return diagram(replay.engine, frame.position, last_move=frame.last_move, **options)


def _has_plies(total: int) -> str:
    return f"the main line has {total} {'ply' if total == 1 else 'plies'}"


def ply_range(
    frames: Sequence[Frame], first: int | None, last: int | None, total: int | None = None
) -> list[Frame]:
    """The frames from the position after ``first`` plies to the one after ``last``
    (default: from the start, to the end).  The moves that are not turns after ply
    ``last`` are left out, as ``positions(..., upto=last)`` leaves them out.  Raises
    :class:`PlyRangeError` for a range the main line does not have (``total``: its
    plies, when ``frames`` are not all of them)."""
    total = frames[-1].ply if total is None else total
    low = 0 if first is None else first
    high = total if last is None else last
    if min(low, high) < 0 or max(low, high) > total:
        raise PlyRangeError(f"{_has_plies(total)}: a ply range must lie within 0 to {total}")
    if low > high:
        raise PlyRangeError(f"the ply range {low} to {high} is empty: {low} comes after {high}")
    plies = [frame.ply for frame in frames]
    end = len(frames) if last is None else plies.index(high) + 1
    return list(frames[plies.index(low) : end])


def diagram_for_node(game: Game, node: int, **options: Any) -> str:
    """The position after the ``node``-th move of the record in file order, variations
    included (0 is the start; the replay page numbers its moves so), with its last move
    marked and a caption such as "<game> — after 1... c6xa5 (variation)"; ``options``
    are those of :func:`diagram`.  Raises :class:`DiagramError`, and
    :class:`PlyRangeError` when the record has fewer moves."""
    replay = replay_record(game)
    check_node(game.line, node, lambda total: PlyRangeError(
        f"the record has {total} {'move' if total == 1 else 'moves'}, variations included: "
        f"the move must be 0 to {total}"
    ))
    steps: list[Step] = []
    if node:
        try:
            steps = path_to(replay, game.line, node)
        except ReplayError as exc:
            raise DiagramError(str(exc)) from None
    return diagram_after(replay, steps[-1] if steps else None, **options)


def diagram_after(replay: Replay, step: Step | None, **options: Any) -> str:
    """The position after ``step`` of a record replayed (``None``: its start), drawn as
    :func:`diagram_for_node` draws it, for a caller that has walked to the node already
    (the recording board keeps the steps of the nodes it is asked about)."""
    frame = next(move_frames(replay, [step] if step is not None else []),
                 Frame(replay.start, None, "start position"))
    if options.get("caption") is None:
        variation = step is not None and step.depth > 0
        options["caption"] = _caption(replay.title, frame, step is not None, variation)
    return diagram(replay.engine, frame.position, last_move=frame.last_move, **options)


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
    board = board_of(replay.engine, flip, coordinates)
    for i, frame in enumerate(frames):
        text = caption or _caption(replay.title, frame, i > 0)
        yield _diagram(board, replay.engine, frame.position, frame.last_move, size, text, css)
