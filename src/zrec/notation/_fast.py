"""The one speed trick of the notation layer, kept here and nowhere else.

A move with nothing written around it is most of every file, and the reader's fast
path (:mod:`zrec.notation.fastpath`) builds a :class:`~zrec.notation.model.MoveNode`
for each.  The frozen dataclass's own ``__init__`` writes each of its nine fields
through ``object.__setattr__`` by name; :func:`plain_move` makes the same value with
each slot's own setter, about twice as fast (1.3 us against 2.7 us a move).

Why it is kept: ``python benchmarks/fast.py`` times whole-process ``zrec validate`` on
the benchmark archives with this function and with the plain constructor in its
place, interleaved; the trick must buy at least 10% to stay (the figures measured are
in docs/architecture.md, "Where the time goes").  ``tests/test_fastpath.py`` checks
that it builds exactly what the constructor builds.
"""

from __future__ import annotations

from typing import Any

from zrec.moves import Turn
from zrec.notation.model import MoveNode, Span


def _setter(cls: type, name: str) -> Any:
    """The slot's own setter: it writes a frozen instance's field at once."""
    return getattr(cls, name).__set__


_NEW = object.__new__
_SPAN_LINE, _SPAN_COLUMN = _setter(Span, "line"), _setter(Span, "column")
_NODE = tuple(_setter(MoveNode, f) for f in MoveNode.__dataclass_fields__)


def plain_move(turn: Turn, number: int | None, dots: int, line: int, column: int) -> MoveNode:
    """``MoveNode(turn, number, dots, span=Span(line, column))``: the same value."""
    span = _NEW(Span)
    _SPAN_LINE(span, line)
    _SPAN_COLUMN(span, column)
    node = _NEW(MoveNode)
    s_turn, s_number, s_dots, s_suffix, s_nags, s_before, s_after, s_variations, s_span = _NODE
    s_turn(node, turn)
    s_number(node, number)
    s_dots(node, dots)
    s_suffix(node, None)
    s_nags(node, ())
    s_before(node, ())
    s_after(node, ())
    s_variations(node, ())
    s_span(node, span)
    return node


def plain_move_slowly(
    turn: Turn, number: int | None, dots: int, line: int, column: int
) -> MoveNode:
    """The same with the constructor: what the benchmark and the tests compare with."""
    return MoveNode(turn, number, dots, span=Span(line, column))


__all__ = ["plain_move", "plain_move_slowly"]
