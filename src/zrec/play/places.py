"""Where each move of a record stands: its node number in file order and its place in
the tree of lines.

The moves of a record are numbered in file order, variations included, as the walker
shows them (:func:`zrec.play.walk.path_to`), ``zrec diagram --node`` draws them and
the replay page counts them: 1 is the first move of the main line, then come the
variations written after a move (each whole, depth first), then the next move; 0 is
the start.  A move's *place* is the way down to it: its index in the main line, or,
inside variations, the index of the move a variation hangs on, the variation's index
among that move's variations, and so on, the move's index in its own line last (an
odd number of indices).  The recording board's edits (:mod:`zrec.play.editing`) find
and rebuild lines by their places.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from zrec.notation.model import Line, MoveNode

__all__ = ["Place", "count_moves", "line_at", "main_end", "node_of", "places", "with_line"]

#: The way down to one move: move index, variation index, ..., move index.
Place = tuple[int, ...]


def _walk(line: Line, above: Place) -> Iterator[Place]:
    for i, node in enumerate(line.moves):
        yield (*above, i)
        for v, variation in enumerate(node.variations):
            yield from _walk(variation, (*above, i, v))


def places(line: Line) -> list[Place]:
    """The place of every move of the record in file order (node ``k`` is at ``k - 1``)."""
    return list(_walk(line, ()))


def count_moves(line: Line) -> int:
    """How many moves the line and its variations hold."""
    return sum(1 + sum(count_moves(v) for v in node.variations) for node in line.moves)


def check_node(line: Line, at: int, problem: Callable[[int], BaseException],
               first: int = 0) -> int:
    """The moves of ``line``, variations included, once ``at`` is found to be one of its
    nodes (``first`` to that count; 0 is the start); else raises ``problem(count)``,
    worded by the caller (the one check of a node's range: the board, its edits, the
    diagram of a node and ``zrec diagram --node`` each say it in their own words)."""
    total = count_moves(line)
    if not first <= at <= total:
        raise problem(total)
    return total


def main_end(line: Line) -> int:
    """The node number of the last move of the main line (0 for a record with none)."""
    moves = line.moves
    if not moves:
        return 0
    return count_moves(line) - sum(count_moves(v) for v in moves[-1].variations)


def node_of(line: Line, place: Place) -> int:
    """The node number of the move at ``place``; raises ``ValueError`` for a place the
    record does not have."""
    return places(line).index(place) + 1


def line_at(root: Line, place: Place) -> Line:
    """The line that holds the move at ``place`` (or, for a place of an even number of
    indices, the variation it names)."""
    line = root
    for k in range(0, len(place) - 1, 2):
        line = line.moves[place[k]].variations[place[k + 1]]
    return line


def with_line(root: Line, place: Place, new: Line) -> Line:
    """``root`` with the line that holds the move at ``place`` replaced by ``new`` (for
    a place of an even number of indices: the variation it names)."""
    if len(place) < 2:
        return new
    i, v, rest = place[0], place[1], place[2:]
    node: MoveNode = root.moves[i]
    variations = list(node.variations)
    variations[v] = with_line(variations[v], rest, new)
    moves = list(root.moves)
    moves[i] = replace(node, variations=tuple(variations))
    return replace(root, moves=tuple(moves))
