"""What is drawn on a board for one position: the pieces, and the marks of the last move.

The marks are an arrow along the route of the moving piece (through every landing
point of a capture chain, round a curved end where the chain goes that way), a ring
where it started, a faint ghost of each captured piece and, on boards of squares, a
dashed outline of each captured square.  :func:`position_layer` gives these elements in
drawing order for the diagrams and the replay page alike; the board itself is in
:mod:`zrec.outputs._boards`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zrec.outputs._boards import Board, Point, element, landing_path, num, path_data, trim_end
from zrec.rules.base import Variant

_SIDE = {"W": "white", "B": "black"}


@dataclass(frozen=True)
class LastMove:
    """The marks of the move just played: where the piece went and what it took.

    ``path`` is the start point then every landing point (a drop: its one square);
    ``captured`` pairs each captured square with the code of the piece taken there
    (drawn as a faint ghost).
    """

    path: tuple[str, ...]
    captured: tuple[tuple[str, str], ...] = ()


def mark_move(variant: Variant[Any, Any], before: Any, move: Any) -> LastMove | None:
    """The marks of ``move`` played in ``before`` (``None`` for a pass)."""
    turn = variant.spell(before, move)
    if len(turn.actions) != 1 or turn.actions[0].kind not in ("path", "drop"):
        return None
    path = landing_path(variant, turn.actions[0])
    was, now = variant.pieces(before), variant.pieces(variant.apply(before, move))
    captured = tuple(
        (square, code)
        for square, code in sorted(was.items(), key=lambda item: square_key(item[0]))
        if now.get(square) != code and square != path[0]
    )
    return LastMove(path, captured)


def _piece(board: Board, square: str, code: str, *, ghost: bool = False) -> list[ET.Element]:
    """A piece (a priest has a ring inside), or the faint ghost of a captured one."""
    x, y = board.centres[square]
    side = _SIDE.get(code[:1], "other")
    priest = " priest" if code.endswith("P") else ""
    if ghost:
        body = element("circle", f"ghost {side}{priest}", cx=x, cy=y, r=board.radius)
    else:
        body = element(
            "circle",
            f"piece {side}{priest}",
            cx=x,
            cy=y,
            r=board.radius,
            data_square=square,
            data_piece=code,
        )
    if not priest:
        return [body]
    ring = f"priest-mark {side}" + (" ghost-mark" if ghost else "")
    return [body, element("circle", ring, cx=x, cy=y, r=board.radius * 0.55)]


def _arrow(board: Board, path: Sequence[str], captured: Sequence[str]) -> list[ET.Element]:
    start = board.centres[path[0]]
    route = board.route(path, captured)
    tip_at = board.radius + 2.5
    head = 10.0
    tipped, direction = trim_end(start, route, tip_at)
    line, _ = trim_end(start, route, tip_at + head * 0.7)
    tip: Point = tipped[-1].end
    ux, uy = direction
    bx, by = tip[0] - ux * head, tip[1] - uy * head
    wing = head * 0.5
    corners = [tip, (bx - uy * wing, by + ux * wing), (bx + uy * wing, by - ux * wing)]
    return [
        element("path", "last-move arrow", d=path_data(start, line)),
        element(
            "polygon", "last-move head", points=" ".join(f"{num(x)},{num(y)}" for x, y in corners)
        ),
    ]


def position_layer(
    board: Board, pieces: dict[str, str], last_move: LastMove | None
) -> list[ET.Element]:
    """What changes from one position to the next: marks of the last move, ghosts and
    pieces, in drawing order."""
    out: list[ET.Element] = []
    if last_move is not None and last_move.path:
        path = last_move.path
        for square, _ in last_move.captured:
            out += board.captured_mark(square)
        for square, code in last_move.captured:
            out += _piece(board, square, code, ghost=True)
        x, y = board.centres[path[0]]
        if len(path) == 1:
            out.append(element("circle", "last-move entry", cx=x, cy=y, r=board.radius + 3.5))
        else:
            out.append(element("circle", "last-move origin", cx=x, cy=y, r=board.radius - 3))
            out += _arrow(board, path, [s for s, _ in last_move.captured])
    for square in sorted(pieces, key=square_key):
        out += _piece(board, square, pieces[square])
    return out


def square_key(name: str) -> tuple[str, int]:
    """Squares in reading order: by row or file letter, then number."""
    return name[0], int(name[1:]) if name[1:].isdigit() else 0
