"""The main line of a common game held as its turns and written numbers, its move
nodes made only when something asks for them.

The reader's fast path (:meth:`CommonPath.direct_game
<zrec.notation.fastpath.CommonPath.direct_game>`) reads most games of a file: tag
pairs, plain moves with or without their numbers, the result.  Their main line is a
:class:`PlainMoves`: the turns, the numbers written before them and where each move
stands, in plain lists (the turns of a line with dice as their words, a
:class:`~zrec.moves.WrittenTurns`: a turn with dice is made only when one is asked
for, and a rules kernel may read the words instead).  Checking such a game needs
nothing more (the walker of :mod:`zrec.play.walk` hands the turns and numbers to the
rules in one call); a :class:`~zrec.notation.model.MoveNode` is made for a move only
when one is asked for (a step shown with a finding, the writer, a page), all of them
once when the line is walked or sliced, equal to what the fast path built before
(spans included).

Nothing here knows any game: the turns are the notation's own values
(:mod:`zrec.moves`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from zrec.moves import Turn
from zrec.notation import _fast
from zrec.notation.model import MoveNode


class PlainMoves(Sequence[MoveNode]):
    """A line of plain moves, no comments, suffixes, NAGs or variations: ``turns``,
    ``numbers`` (the number written before each move, ``None`` where none is) and
    ``dots`` (1 for ``12.``, 3 for ``12...``; 1 where no number is written), and the
    line and column of each move; ``texts``, when the reader kept them, each move's
    words as written, which for a plain move of one action are what the writer writes
    of its turn.  Equal to the tuple of the moves it makes."""

    __slots__ = ("_nodes", "columns", "dots", "lines", "numbers", "texts", "turns")

    def __init__(
        self,
        turns: Sequence[Turn],
        numbers: list[int | None],
        dots: list[int],
        lines: list[int],
        columns: list[int],
        texts: list[str] | None = None,
    ) -> None:
        self.turns = turns
        self.numbers = numbers
        self.dots = dots
        self.lines = lines
        self.columns = columns
        self.texts = texts
        self._nodes: tuple[MoveNode, ...] | None = None

    def _node(self, i: int) -> MoveNode:
        return _fast.plain_move(
            self.turns[i], self.numbers[i], self.dots[i], self.lines[i], self.columns[i]
        )

    def nodes(self) -> tuple[MoveNode, ...]:
        """Every move of the line, made once."""
        nodes = self._nodes
        if nodes is None:
            make = _fast.plain_move
            nodes = self._nodes = tuple(
                map(make, self.turns, self.numbers, self.dots, self.lines, self.columns)
            )
        return nodes

    def __len__(self) -> int:
        return len(self.turns)

    def __iter__(self) -> Iterator[MoveNode]:
        return iter(self.nodes())

    @overload
    def __getitem__(self, index: int) -> MoveNode: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[MoveNode, ...]: ...

    def __getitem__(self, index: int | slice) -> MoveNode | tuple[MoveNode, ...]:
        if isinstance(index, slice) or self._nodes is not None:
            return self.nodes()[index]
        place = range(len(self.turns))[index]  # IndexError as a tuple raises it
        return self._node(place)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(self.nodes())

    def __repr__(self) -> str:
        return repr(self.nodes())

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return PlainMoves, (
            list(self.turns), self.numbers, self.dots, self.lines, self.columns, self.texts
        )


__all__ = ["PlainMoves"]
