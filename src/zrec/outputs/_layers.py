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
from dataclasses import dataclass, field
from typing import Any

from zrec.outputs._boards import Board, Point, element, num, path_data, trim_end
from zrec.rules.base import REMOVED, Engine, Event, Piece, View


@dataclass(frozen=True)
class LastMove:
    """The marks of the move just played: where the pieces went and what was taken.

    ``path`` is the route of the (first) moving piece, its start then every landing
    point (a placement: its one square); ``more`` holds the routes of any other pieces
    the move moved; ``captured`` pairs each square emptied by a capture with the code
    of the piece taken there, and ``ghosts`` are those pieces, drawn faintly.
    """

    path: tuple[str, ...]
    captured: tuple[tuple[str, str], ...] = ()
    more: tuple[tuple[str, ...], ...] = ()
    ghosts: tuple[Piece, ...] = field(default=(), compare=False, repr=False)

    @property
    def paths(self) -> tuple[tuple[str, ...], ...]:
        return (self.path, *self.more) if self.path else self.more


def mark_move(
    engine: Engine[Any, Any],
    before: Any,
    move: Any,
    events: Sequence[Event] | None = None,
) -> LastMove | None:
    """The marks of ``move`` played in ``before`` (``None`` for a move that moves
    nothing, such as a pass); ``events`` are those :meth:`apply` gave, if at hand."""
    routes = engine.routes(before, move)
    if not routes:
        return None
    if events is None:
        events = engine.apply(before, move)[1]
    removed = {square for e in events if e.code == REMOVED for square in e.squares}
    was = {p.square: p for p in engine.view(before).pieces}
    ghosts = tuple(was[s] for s in sorted(removed, key=square_key) if s in was)
    captured = tuple((p.square, p.code) for p in ghosts)
    return LastMove(routes[0], captured, tuple(routes[1:]), ghosts)


def _piece(
    board: Board, piece: Piece, seats: Sequence[str], *, ghost: bool = False
) -> list[ET.Element]:
    """A piece (a priest has a ring inside), or the faint ghost of a captured one."""
    x, y = board.centres[piece.square]
    side = seats[piece.owner].lower() if piece.owner is not None else "other"
    kind = f" {piece.kind}" if piece.kind else ""
    if ghost:
        body = element("circle", f"ghost {side}{kind}", cx=x, cy=y, r=board.radius)
    else:
        body = element(
            "circle",
            f"piece {side}{kind}",
            cx=x,
            cy=y,
            r=board.radius,
            data_square=piece.square,
            data_piece=piece.code,
        )
    if piece.kind != "priest":
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


def position_layer(board: Board, view: View, last_move: LastMove | None) -> list[ET.Element]:
    """What changes from one position to the next: marks of the last move, ghosts and
    pieces, in drawing order."""
    out: list[ET.Element] = []
    seats = view.seats
    if last_move is not None and last_move.paths:
        for square, _ in last_move.captured:
            out += board.captured_mark(square)
        for ghost in last_move.ghosts:
            out += _piece(board, ghost, seats, ghost=True)
        for path in last_move.paths:
            x, y = board.centres[path[0]]
            if len(path) == 1:
                out.append(element("circle", "last-move entry", cx=x, cy=y, r=board.radius + 3.5))
            else:
                out.append(element("circle", "last-move origin", cx=x, cy=y, r=board.radius - 3))
                out += _arrow(board, path, [s for s, _ in last_move.captured])
    for piece in sorted(view.pieces, key=lambda p: square_key(p.square)):
        out += _piece(board, piece, seats)
    return out


def square_key(name: str) -> tuple[str, int]:
    """Squares in reading order: by row or file letter, then number."""
    return name[0], int(name[1:]) if name[1:].isdigit() else 0
