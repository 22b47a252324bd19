"""The record model: a game of any zrec game as immutable data.

A :class:`Game` holds its tag pairs in their order, its main :class:`Line` of
:class:`MoveNode` values (each with comments, NAGs, a suffix and variations) and its
result.  Each move and each tag pair carries its source span for messages, but spans
never take part in equality, so a game read back from what the writer wrote compares
equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from zrec.moves import Turn

CommentKind = Literal["brace", "line"]

#: How deep variations may nest (a variation inside a variation ... inside the main
#: line).  Deeper nesting is refused on reading, in text and in JSON alike.
MAX_VARIATION_DEPTH = 50


@dataclass(frozen=True, slots=True)
class Span:
    """Where something starts in its source: 1-based line and column."""

    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Comment:
    """A comment: ``{text}`` (``brace``) or ``; text`` (``line``).

    Runs of white space inside a comment are one space, and leading and trailing
    space is dropped: the text is what a reader sees, not how it was wrapped.
    """

    text: str
    kind: CommentKind = "brace"


@dataclass(frozen=True, slots=True)
class MoveNode:
    """One move of a line, with everything written around it.

    ``number``/``dots`` are the move number written before it, if any (``12.`` is
    ``(12, 1)``, ``12...`` is ``(12, 3)``).  ``comments_before`` stand before the move
    (only the first move of a line, or between a move number and its move);
    ``comments_after`` follow it.  ``variations`` are alternatives to this move, each
    starting from the position before it.
    """

    turn: Turn
    number: int | None = None
    dots: int = 1
    suffix: str | None = None
    nags: tuple[int, ...] = ()
    comments_before: tuple[Comment, ...] = ()
    comments_after: tuple[Comment, ...] = ()
    variations: tuple[Line, ...] = ()
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Line:
    """A sequence of moves; ``comments`` holds the comments of a line with no moves.

    ``moves`` is a tuple, except the main line of a very long game read from text: a
    sequence that makes its moves as it is walked
    (:class:`zrec.notation.longtext.LongMoves`), equal to the tuple of them."""

    moves: Sequence[MoveNode] = ()
    comments: tuple[Comment, ...] = ()


@dataclass(frozen=True, slots=True)
class Game:
    """One game record: tags in their order, the main line and the result token.

    ``tag_spans`` are where the tag pairs stand in the text (the ``[`` of each, in the
    order of ``tags``); a game not read from text (from JSON, or built) has none.
    """

    tags: tuple[tuple[str, str], ...]
    line: Line
    result: str
    tag_spans: tuple[Span, ...] = field(default=(), compare=False, repr=False)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (case-sensitive), else ``default``."""
        for key, value in self.tags:
            if key == name:
                return value
        return default

    def tag_span(self, name: str) -> Span | None:
        """Where the first tag called ``name`` stands in the text, if it was read from text."""
        for (key, _), span in zip(self.tags, self.tag_spans, strict=False):  # none from JSON
            if key == name:
                return span
        return None

    def tag_map(self) -> dict[str, str]:
        """The tags as a dict (the first of repeated names wins)."""
        out: dict[str, str] = {}
        for key, value in self.tags:
            out.setdefault(key, value)
        return out

    @property
    def game_type(self) -> str:
        """The value of the required ``Game`` tag."""
        return self.tag("Game") or ""
