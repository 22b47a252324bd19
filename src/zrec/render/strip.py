"""A strip: several positions of a record side by side in one SVG picture.

Each position is a board with its pieces and the marks of its last move, and its
caption under it; the empty board is drawn once, in the ``<defs>``, and each position
``<use>`` refers to it, so a position costs its pieces, not the whole board again.  A strip
draws at most :data:`STRIP_LIMIT` positions: a longer one is refused
(:class:`StripSizeError`, which says to choose a range of plies) before anything is
drawn, and of a long record only the positions drawn are held.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

from zrec.notation.model import Game
from zrec.play import Replay, ReplayError, Step, Visitor, walk
from zrec.render.boards import element, num
from zrec.render.diagram import (
    CAPTION,
    CAPTION_LEADING,
    CAPTION_SIZE,
    TITLE_LEADING,
    TITLE_SIZE,
    DiagramError,
    Frame,
    PlyRangeError,
    board_of,
    move_frames,
    ply_range,
    position_text,
    record_title,
    replay_record,
    strip_columns,
)
from zrec.render.layers import position_layer
from zrec.render.svg import finish, svg_root
from zrec.render.text import EM_PER_CHAR_BOLD, text_lines, wrap
from zrec.rules.base import Engine

__all__ = ["STRIP_LIMIT", "StripSizeError", "strip", "strip_for_record"]


class StripSizeError(PlyRangeError):
    """A strip of more positions than one picture draws (:data:`STRIP_LIMIT`)."""


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
    strip close to the shape of a landscape page.  The empty board is drawn once, in
    the ``<defs>``, and each position ``<use>`` refers to it under its pieces.  Raises
    :class:`StripSizeError` past :data:`STRIP_LIMIT` positions."""
    if not frames:
        raise DiagramError("a strip needs at least one position")
    if len(frames) > STRIP_LIMIT:
        raise StripSizeError(_too_many(len(frames)))
    board = board_of(engine, flip, coordinates)
    captions = [wrap(f.caption, board.width, CAPTION_SIZE) if f.caption else [] for f in frames]
    deepest = max(len(lines) for lines in captions)
    gap, cell_h = 18.0, board.height + CAPTION + max(deepest - 1, 0) * CAPTION_LEADING
    if columns is None:
        columns = strip_columns(len(frames), board.width + gap, cell_h + gap)
    rows = math.ceil(len(frames) / columns)
    width = columns * board.width + (columns - 1) * gap
    title = wrap(caption, width, TITLE_SIZE, EM_PER_CHAR_BOLD) if caption else []
    top = CAPTION + 10 + (len(title) - 1) * TITLE_LEADING if title else 0.0
    height = top + rows * cell_h + (rows - 1) * gap
    svg = svg_root(width, height, size)
    empty = element("g", id=_EMPTY)
    empty.extend(board.background(style=False))
    element_in(svg, "defs").append(empty)
    svg.append(element("rect", "background", x=0, y=0, width=width, height=height))
    if title:
        svg.append(text_lines(title, width / 2, CAPTION - 6, TITLE_LEADING, "caption title"))
    texts = []
    for i, (frame, lines) in enumerate(zip(frames, captions, strict=True)):
        row, col = divmod(i, columns)
        x, y = col * (board.width + gap), top + row * (cell_h + gap)
        group = element("g", "board", transform=f"translate({num(x)} {num(y)})")
        group.append(element("use", href=f"#{_EMPTY}"))
        layer = element("g", "position")
        layer.extend(position_layer(board, engine.view(frame.position), frame.last_move))
        group.append(layer)
        svg.append(group)
        if lines:
            at = y + board.height + CAPTION - 9
            svg.append(text_lines(lines, x + board.width / 2, at, CAPTION_LEADING, "caption"))
        texts.append(f"{frame.caption or i}: {position_text(engine, frame.position)}")
    return finish(svg, caption or "zrec diagram", "\n".join(texts), css, board.css)


#: the id of a strip's empty board, drawn once
_EMPTY = "zrec-empty-board"
#: the most positions one strip draws
STRIP_LIMIT = 1000


def element_in(parent: ET.Element, tag: str) -> ET.Element:
    """A new child ``tag`` of ``parent``."""
    child = element(tag)
    parent.append(child)
    return child


def _too_many(count: int, low: int = 0) -> str:
    return (
        f"a strip draws at most {STRIP_LIMIT:,} positions, and this one would have "
        f"{count:,}: choose a range of plies (--from, --to), such as {low} to "
        f"{low + STRIP_LIMIT - 1}"
    )


def strip_for_record(
    game: Game, *, first: int | None = None, last: int | None = None, **options: Any
) -> str:
    """Every position of the main line, the start included (or those from ply ``first``
    to ply ``last``, see :func:`ply_range`), in one SVG headed by the game's name and
    event; ``options`` are those of :func:`strip`.  Only the positions drawn are held,
    and a strip of more than :data:`STRIP_LIMIT` positions is refused
    (:class:`StripSizeError`) before any is drawn."""
    if first is None and last is None and len(game.line.moves) >= STRIP_LIMIT:
        raise StripSizeError(_too_many(len(game.line.moves) + 1))
    replay = replay_record(game)
    keep = _Between(replay, 0 if first is None else first, last)
    try:
        walk(replay, game.line, keep, variations=False, upto=last)
    except ReplayError as exc:
        raise DiagramError(str(exc)) from None
    if keep.count > STRIP_LIMIT:
        raise StripSizeError(_too_many(keep.count, keep.low))
    frames = ply_range(keep.frames, first, last, keep.total)
    if options.get("caption") is None:
        options["caption"] = record_title(game, replay)
    return strip(replay.engine, frames, **options)


class _Between(Visitor):
    """Keeps the frames of the main line from ply ``low`` to ``high`` (the start as a
    frame), as long as they fit in a strip, and counts them and the plies."""

    def __init__(self, replay: Replay, low: int, high: int | None) -> None:
        self.replay, self.low, self.high = replay, low, high
        self.total = 0
        self.frames = [Frame(replay.start, None, "start position")] if low == 0 else []
        self.count = len(self.frames)

    def step(self, step: Step) -> None:
        if step.error is not None:
            label = self.replay.label(step.before)
            raise ReplayError(step.ply, label, step.node.turn.text(), step.error, step.depth > 0)
        self.total = step.ply
        if step.ply >= self.low and (self.high is None or step.ply <= self.high):
            self.count += 1
            if self.count <= STRIP_LIMIT:
                self.frames.extend(move_frames(self.replay, [step]))
