"""Stone Warriors positions as pictures: the pieces for drawing and the text board."""

from __future__ import annotations

from zrec.rules.base import Piece
from zrec.rules.stonewarriors.board import (
    CODES,
    FILES,
    HOME,
    NAME,
    SIDES,
    WIDTH,
    arm_text,
    squares_of,
)
from zrec.rules.stonewarriors.end import score
from zrec.rules.stonewarriors.position import StonePosition

#: Each piece letter's owner and kind, for drawing.
#: letter -> (owner, kind); a warrior is a side's plain piece, whose kind is "".
_PIECES = {"W": (0, ""), "P": (0, "priest"), "w": (1, ""), "p": (1, "priest")}


def view_pieces(pos: StonePosition) -> tuple[Piece, ...]:
    """The pieces on the board, in the order of :data:`SQUARES`; their codes are ``W``,
    ``B`` (warriors), ``WP`` and ``BP`` (priests)."""
    letter = pos.letter
    return tuple(
        Piece(NAME[i], *_PIECES[code], CODES[code])
        for i in squares_of(pos.white | pos.black)
        for code in (letter(i),)
    )


def render(pos: StonePosition) -> str:
    """The board as text (rank 14 at the top), then who is to move, priests and score."""
    files = "    " + " ".join(FILES)
    lines = [files]
    cells = pos.cells
    for rank in range(WIDTH, 0, -1):
        row = " ".join(cells[(rank - 1) * WIDTH : rank * WIDTH])
        lines.append(f"{rank:>2}  {row}".rstrip())
    lines.append(files)
    side, off = SIDES[pos.to_move], [SIDES[s] for s in (0, 1) if pos.priests_off[s]]
    white, black = score(pos)
    lines.append(
        f"{side} to move (move {pos.ply // 2 + 1}); priests off the board: "
        f"{', '.join(off) or 'none'}; score {white}-{black}"
    )
    if pos.entry_due(pos.to_move):
        home = arm_text(HOME[pos.to_move])
        lines.append(
            f"{side}'s priest must enter now, on {home}"
            if pos.entries()
            else f"{side}'s priest enters once a square of {home} is empty"
        )
    return "\n".join(lines)
