"""Stone Warriors positions and moves as values, and a position's key.

:class:`StonePosition` holds the pieces as bitmasks over the squares of
:mod:`.board` (a move changes a few bits and copies no board), the side to move, the
priests still off the board, the turns played and the passes in a row; it answers the
questions the rules ask of a position (whose pieces, how many lost, whether an entry is
due, whether the game is over).  :class:`StoneMove` is a step, an entry or a pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from zrec.rules.stonewarriors.board import (
    ARMS,
    BIT,
    EMPTY,
    EMPTY_CELLS,
    HOME,
    HOME_MASK,
    NAME,
    OFF_TARGET,
    OWN,
    board_text,
    squares_of,
)


def masks(cells: str) -> tuple[int, int, int]:
    """The bitmasks of cells: White's pieces, Black's pieces, the priests."""
    white = black = priests = 0
    for i, letter in enumerate(cells):
        if letter in OWN[0]:
            white |= BIT[i]
        elif letter in OWN[1]:
            black |= BIT[i]
        else:
            continue
        if letter in "Pp":
            priests |= BIT[i]
    return white, black, priests


@dataclass(frozen=True, slots=True, init=False, repr=False)
class StonePosition:
    """A position: the pieces, the side to move (0 White, 1 Black), which priests are
    still off the board, turns played (``ply``, 0 at the ``First`` side's first turn)
    and the passes made in a row just before.

    The pieces are bitmasks over the grid points (bit ``i`` is square ``i``):
    ``white`` and ``black`` hold every piece of the side, its priest included, and
    ``priests`` the squares of the priests on the board.  A move changes a few bits of
    them (the engine's ``apply``): no move copies the board, and what the end
    test needs (the pieces of each side on the board and on the enemy home arm) is a
    mask and a bit count away.  :attr:`cells` is the board as text.

    Made from cells, ``StonePosition(cells, to_move, priests_off, ply, passes)``, or
    from the bitmasks by keyword, ``white=``, ``black=``, ``priests=`` (as
    :func:`dataclasses.replace` does); cells, when given, set the pieces.
    """

    white: int
    black: int
    priests: int
    to_move: int
    priests_off: tuple[bool, bool]
    ply: int = 0
    passes: int = 0

    def __init__(
        self,
        cells: str | None = None,
        to_move: int = 0,
        priests_off: tuple[bool, bool] = (True, True),
        ply: int = 0,
        passes: int = 0,
        *,
        white: int = 0,
        black: int = 0,
        priests: int = 0,
    ) -> None:
        if cells is not None:
            white, black, priests = masks(cells)
        # A frozen dataclass refuses ``self.x = ...``: the fields are set through
        # object.__setattr__, as the __init__ that dataclasses writes sets them.
        object.__setattr__(self, "white", white)
        object.__setattr__(self, "black", black)
        object.__setattr__(self, "priests", priests)
        object.__setattr__(self, "to_move", to_move)
        object.__setattr__(self, "priests_off", priests_off)
        object.__setattr__(self, "ply", ply)
        object.__setattr__(self, "passes", passes)

    def __repr__(self) -> str:
        return (
            f"StonePosition({board_text(self.cells)!r}, to_move={self.to_move}, "
            f"priests_off={self.priests_off}, ply={self.ply}, passes={self.passes})"
        )

    @property
    def cells(self) -> str:
        """One character per grid point: ``"."`` an empty square, ``" "`` a point
        outside the cross, ``W``/``P`` a White warrior/priest, ``w``/``p`` Black's."""
        cells = list(EMPTY_CELLS)
        for i in squares_of(self.white | self.black):
            cells[i] = self.letter(i)
        return "".join(cells)

    def letter(self, i: int) -> str:
        """The letter of the piece on square ``i`` (``"."`` when it is empty)."""
        bit = BIT[i]
        side = 0 if self.white & bit else 1 if self.black & bit else -1
        if side < 0:
            return EMPTY
        return OWN[side][1 if self.priests & bit else 0]

    def pieces_of(self, side: int) -> int:
        """The bitmask of the pieces of ``side``."""
        return self.black if side else self.white

    def on_board(self, side: int) -> int:
        """How many pieces of ``side`` stand on the board."""
        return (self.black if side else self.white).bit_count()

    def lost(self, side: int) -> int:
        """How many pieces ``side`` has lost (captured by the other side)."""
        return 7 - self.on_board(side) - int(self.priests_off[side])

    def entry_due(self, side: int) -> bool:
        """Whether the priest of ``side`` must enter as soon as its home arm has room."""
        return self.priests_off[side] and self.lost(side) > 0

    def must_enter(self) -> bool:
        """Whether the side to move must enter its priest now (:meth:`entries` is not
        empty)."""
        side = self.to_move
        return (
            self.priests_off[side]
            and (self.black if side else self.white).bit_count() < 6  # a loss: due
            and bool(HOME_MASK[side] & ~(self.white | self.black))
        )

    def entries(self) -> tuple[int, ...]:
        """The squares where the side to move must enter its priest now (else none)."""
        if not self.entry_due(self.to_move):
            return ()
        free = HOME_MASK[self.to_move] & ~(self.white | self.black)
        return tuple(i for i in ARMS[HOME[self.to_move]] if free & BIT[i])

    def across(self, side: int) -> int:
        """How many pieces of ``side`` stand on the other side's home arm."""
        return ((self.black if side else self.white) & HOME_MASK[1 - side]).bit_count()

    def crossed(self, side: int) -> bool:
        """Whether every piece of ``side`` on the board stands on the other side's home
        arm (true too when it has none on the board)."""
        return not (self.black if side else self.white) & OFF_TARGET[side]

    def over(self) -> bool:
        """Whether the game is over by rule: two passes in a row, or a side with every
        piece on the board on the enemy home arm (:func:`.end.outcome` says how)."""
        return self.passes >= 2 or not self.white & OFF_TARGET[0] or not self.black & OFF_TARGET[1]


@dataclass(frozen=True, slots=True)
class StoneMove:
    """A move: a ``step`` from ``origin`` to ``target`` removing ``captures`` (by file,
    then rank), the priest's ``enter`` on ``target``, or a ``pass``."""

    kind: Literal["step", "enter", "pass"]
    origin: int = -1
    target: int = -1
    captures: tuple[int, ...] = ()

    def text(self) -> str:
        """The move in the notation: ``f5-f6xf7``, ``P@g14`` or ``--``."""
        if self.kind == "pass":
            return "--"
        if self.kind == "enter":
            return f"P@{NAME[self.target]}"
        steps = [NAME[self.origin], "-", NAME[self.target]]
        return "".join(steps + [f"x{NAME[c]}" for c in self.captures])

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<StoneMove {self.text()}>"


PASS_MOVE = StoneMove("pass")


def key(pos: StonePosition) -> bytes:
    """The position's key: the side to move, the priests off the board, the passes in a
    row (2 and more end the game alike), then the squares of each kind of piece."""
    out = bytearray((pos.to_move, *pos.priests_off, min(pos.passes, 2)))
    white, black, priests = pos.white, pos.black, pos.priests
    for bits in (white & ~priests, white & priests, black & ~priests, black & priests):
        out.extend(squares_of(bits))
        out.append(255)  # no square has this index
    return bytes(out)
