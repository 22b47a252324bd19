"""What is drawn on a board for one position: the pieces, and the marks of the last move.

The marks are an arrow along the route of each moving piece (through every landing
point of a capture chain, round a curved end where the chain goes that way), a ring
where it started, a faint ghost of each captured piece and, on boards of squares, a
dashed outline of each captured square.  A route of one square is a placement (a
ring round it) or, on a map, a piece that stayed (a smaller ring).  A turn may move
several pieces: each route gets its arrow.  :func:`position_layer` gives these
elements in drawing order for the diagrams and the replay page alike; the board
itself is in :mod:`zrec.render.boards`, a map's tokens in :mod:`zrec.render.pieces`.

On a map, several pieces may share a square (a shelter's shepherds and the animals
in it): each is drawn in its place in the square (:func:`zrec.render.pieces.slot`),
in the order of the view.  An eaten piece's ghost on a square that is taken again
(by the wolf that ate it) is drawn smaller, in the square's lower right corner, above
the pieces.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from zrec.render import pieces as _pieces
from zrec.render.board_base import Board
from zrec.render.boards import MapBoard, Point, element, num, path_data, trim_end
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
    was: dict[str, Piece] = {}
    for piece in engine.view(before).pieces:
        was.setdefault(piece.square, piece)  # the first piece of a square shared
    ghosts = tuple(was[s] for s in sorted(removed, key=square_key) if s in was)
    captured = tuple((p.square, p.code) for p in ghosts)
    return LastMove(routes[0], captured, tuple(routes[1:]), ghosts)


def _piece(
    board: Board, piece: Piece, seats: Sequence[str], *, ghost: bool = False
) -> list[ET.Element]:
    """A piece (a priest or a large piece has a ring inside), or the faint ghost of a
    captured one."""
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
    if piece.kind not in ("priest", "large"):
        return [body]
    ring = f"priest-mark {side}" + (" ghost-mark" if ghost else "")
    return [body, element("circle", ring, cx=x, cy=y, r=board.radius * 0.55)]


def _arrow(board: Board, path: Sequence[str], captured: Sequence[str]) -> list[ET.Element]:
    """The arrow along a route (on a map, over a white halo that parts it from the
    tokens it passes)."""
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
    halo = isinstance(board, MapBoard)
    return [
        *([element("path", "last-move halo", d=path_data(start, line))] if halo else []),
        element("path", "last-move arrow", d=path_data(start, line)),
        element(
            "polygon", "last-move head", points=" ".join(f"{num(x)},{num(y)}" for x, y in corners)
        ),
    ]


def position_layer(board: Board, view: View, last_move: LastMove | None) -> list[ET.Element]:
    """What changes from one position to the next: marks of the last move, ghosts and
    pieces, in drawing order."""
    parts = layer_parts(board, view, last_move)
    return [*parts.marks, *(e for _, group in parts.squares for e in group), *parts.top]


@dataclass(frozen=True)
class LayerParts:
    """:func:`position_layer` cut where the replay page needs it: the marks of the last
    move drawn first, then each square's pieces (squares in reading order, the
    elements of a square's pieces in drawing order), then what is drawn over them (on
    a map, the ghost of a piece taken from a square a piece holds now)."""

    marks: list[ET.Element]
    squares: list[tuple[str, list[ET.Element]]]
    top: list[ET.Element]


def layer_parts(board: Board, view: View, last_move: LastMove | None) -> LayerParts:
    """The elements of :func:`position_layer`, in its order, cut into its parts."""
    if isinstance(board, MapBoard):
        return _map_layer(board, view, last_move)
    out: list[ET.Element] = []
    seats = view.seats
    if last_move is not None and last_move.paths:
        for square, _ in last_move.captured:
            out += board.captured_mark(square)
        for ghost in last_move.ghosts:
            out += _piece(board, ghost, seats, ghost=True)
        out += _routes(board, last_move)
    squares: list[tuple[str, list[ET.Element]]] = []
    for piece in sorted(view.pieces, key=lambda p: square_key(p.square)):
        _add(squares, piece.square, _piece(board, piece, seats))
    return LayerParts(out, squares, [])


def _add(
    squares: list[tuple[str, list[ET.Element]]], square: str, parts: list[ET.Element]
) -> None:
    """Add a piece's elements to its square's, the last square of the list or a new one."""
    if squares and squares[-1][0] == square:
        squares[-1][1].extend(parts)
    else:
        squares.append((square, list(parts)))


def _routes(board: Board, last_move: LastMove) -> list[ET.Element]:
    """An arrow along each route (a ring where it starts), a ring round a one-square
    route: a placement, or on a map a piece that stayed."""
    out: list[ET.Element] = []
    for path in last_move.paths:
        x, y = board.centres[path[0]]
        if len(path) > 1:
            out.append(element("circle", "last-move origin", cx=x, cy=y, r=board.radius - 3))
            out += _arrow(board, path, [s for s, _ in last_move.captured])
        elif isinstance(board, MapBoard):
            out.append(element("circle", "last-move stay", cx=x, cy=y, r=14.5 * board.unit))
        else:
            out.append(element("circle", "last-move entry", cx=x, cy=y, r=board.radius + 3.5))
    return out


def _map_layer(board: MapBoard, view: View, last_move: LastMove | None) -> LayerParts:
    """:func:`layer_parts` on a map: tokens, each in its place in its square, and the
    ghost of a piece taken from a square that a piece now holds drawn last, small, in
    the square's lower right corner."""
    out: list[ET.Element] = []
    seats, unit = view.seats, board.unit
    ghosts: list[Piece] = []
    if last_move is not None and last_move.paths:
        for square, _ in last_move.captured:
            out += board.captured_mark(square)
        taken = {p.square for p in view.pieces}
        for ghost in last_move.ghosts:
            if ghost.square in taken:
                ghosts.append(ghost)
            else:
                x, y = board.centres[ghost.square]
                out += _pieces.token(ghost, seats, x, y, unit, role="ghost")
        out += _routes(board, last_move)
    counted = {p.square for p in view.pieces if p.kind in _pieces.COUNTERS and not p.hidden}
    many = Counter(p.square for p in view.pieces)
    squares: list[tuple[str, list[ET.Element]]] = []
    for piece in sorted(view.pieces, key=lambda p: square_key(p.square)):
        x, y = board.centres[piece.square]
        shared = piece.square in counted and many[piece.square] > 1
        dx, dy, size = _pieces.slot(piece, unit, shared)
        _add(squares, piece.square, _pieces.token(piece, seats, x + dx, y + dy, size))
    top: list[ET.Element] = []
    for ghost in ghosts:
        x, y = board.centres[ghost.square]
        top += _pieces.token(ghost, seats, x + 9 * unit, y + 9 * unit, unit * 0.7, role="ghost")
    return LayerParts(out, squares, top)


def square_key(name: str) -> tuple[str, int]:
    """Squares in reading order: by row or file letter, then number."""
    return name[0], int(name[1:]) if name[1:].isdigit() else 0
