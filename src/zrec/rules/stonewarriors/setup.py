"""The start position of Stone Warriors and its ``Setup`` strings, read and written.

A Setup string has three fields: the board (:func:`.board.parse_board`, ranks 14 to
1), the side to move (``w`` or ``b``) and the priests still off the board (``Pp``,
``P``, ``p`` or ``-``).
"""

from __future__ import annotations

from zrec.rules.base import SetupError
from zrec.rules.stonewarriors.board import (
    ARMS,
    EMPTY_CELLS,
    HOME,
    OWN,
    SIDES,
    board_text,
    parse_board,
)
from zrec.rules.stonewarriors.position import StonePosition


def start_position(first: int) -> StonePosition:
    """Warriors on their home arms, both priests off the board, ``first`` to move."""
    cells = list(EMPTY_CELLS)
    for side in (0, 1):
        for i in ARMS[HOME[side]]:
            cells[i] = OWN[side][0]
    return StonePosition("".join(cells), first, (True, True))


def parse_setup(text: str, first: int) -> StonePosition:
    """The position a Setup string describes; raises :class:`SetupError`."""
    fields = text.split()
    if len(fields) != 3:
        raise SetupError(
            "a Setup string has three fields: the board (ranks 14 to 1), the side to move "
            "(w or b) and the priests still off the board (Pp, P, p or -)"
        )
    board, side, off = fields
    cells = parse_board(board)
    if side not in ("w", "b"):
        raise SetupError(f"the side to move is {side!r}: write w (White) or b (Black)")
    if off != "-" and (not set(off) <= {"P", "p"} or len(set(off)) != len(off)):
        raise SetupError(
            f"the priests off the board are {off!r}: write P (White's), p (Black's), Pp "
            "(both) or - (none)"
        )
    priests_off = ("P" in off, "p" in off)
    for s, name in enumerate(SIDES):
        warriors, priests = cells.count(OWN[s][0]), cells.count(OWN[s][1])
        if warriors > 6:
            raise SetupError(f"{name} has {warriors} warriors on the board; a side has 6")
        if priests > 1:
            raise SetupError(f"{name} has {priests} priests on the board; a side has 1")
        if priests and priests_off[s]:
            raise SetupError(f"{name}'s priest is both on the board and off it")
        if warriors == 6 and not priests_off[s]:
            raise SetupError(
                f"{name}'s priest has entered, but all 6 {name} warriors are on the board: "
                f"the priest enters only after {name}'s first loss"
            )
    to_move = "wb".index(side)
    return StonePosition(cells, to_move, priests_off, 0 if to_move == first else 1)


def setup_text(pos: StonePosition) -> str:
    """The Setup string of a position (inverse of :func:`parse_setup`)."""
    off = "".join(p for p, o in zip("Pp", pos.priests_off, strict=True) if o) or "-"
    return f"{board_text(pos.cells)} {'wb'[pos.to_move]} {off}"
