"""How Stone Warriors pieces move under a rule set, as tables the engine looks up.

A rule set fixes the directions a warrior and a priest of each side may step in
(:func:`move_dirs`) and the lines along which a piece arriving on a square captures:
ranks and files by default, diagonals under the Culin rules.  :func:`tables` turns
them into lookups by square, made once per rule set, so that generating and checking a
move is indexing and bitmask tests.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from zrec.rules.base import Resolved
from zrec.rules.stonewarriors import board
from zrec.rules.stonewarriors.board import BIT, DIRECTION, NAME, STEP, WIDTH
from zrec.rules.stonewarriors.position import StoneMove

#: A step as the engine looks it up (see :attr:`Tables.paths`).
Path = tuple[bool, bool, int, int, Resolved[StoneMove], int, int]

#: The backward directions of White and of Black.
BACKWARD = (frozenset((board.S, board.SE, board.SW)), frozenset((board.N, board.NE, board.NW)))


def move_dirs(culin: bool, side: int, priest: bool) -> tuple[int, ...]:
    """The directions a piece may step in."""
    forward, diagonals = (
        (board.N, (board.NW, board.NE)) if side == 0 else (board.S, (board.SW, board.SE))
    )
    if culin:
        return (forward, board.E, board.W, *diagonals) if priest else diagonals
    return tuple(range(8)) if priest else (forward, board.E, board.W)


class Tables(NamedTuple):
    """What the engine looks up for a rule set (made once per rule set)."""

    #: ``targets[side][priest][i]``: the squares a piece on ``i`` may step to, in the
    #: order of its directions (the order of the legal moves).
    targets: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]
    #: ``lines[t]``: (victim, its bit, the bit beyond it) for every line along which a
    #: piece arriving on ``t`` may capture, victims by file then rank (the written
    #: order).
    lines: tuple[tuple[tuple[int, int, int], ...], ...]
    #: ``victims[t]``: the bits of those victims, for a quick test.
    victims: tuple[int, ...]
    #: ``paths[side][(from, to)]``: for each step by square names, whether a warrior
    #: and whether the priest of the side may make it, the bits of its squares, the
    #: step as resolved when it captures nothing, and its squares.
    paths: tuple[dict[tuple[str, ...], Path], ...]

    def captures(self, own: int, enemy: int, target: int) -> tuple[int, ...]:
        """What a piece arriving on ``target`` captures, ``own`` and ``enemy`` the
        pieces of its side and of the other (by file, then rank)."""
        if not enemy & self.victims[target]:
            return ()
        return tuple(
            victim
            for victim, victim_bit, beyond_bit in self.lines[target]
            if enemy & victim_bit and own & beyond_bit
        )


@cache
def tables(culin: bool) -> Tables:
    """The tables of the default rule set or, ``culin``, of the Culin one."""
    points = range(WIDTH * WIDTH)
    targets = tuple(
        tuple(
            tuple(
                tuple(STEP[d][i] for d in move_dirs(culin, side, priest) if STEP[d][i] >= 0)
                for i in points
            )
            for priest in (False, True)
        )
        for side in (0, 1)
    )
    lines = []
    for t in points:
        found = []
        for d in board.DIAGONAL if culin else board.ORTHOGONAL:
            victim = STEP[d][t]
            beyond = STEP[d][victim] if victim >= 0 else -1
            if beyond >= 0:
                found.append((victim, BIT[victim], BIT[beyond]))
        lines.append(tuple(sorted(found, key=lambda line: board.sort_key(line[0]))))
    victims = tuple(sum(line[1] for line in found) for found in lines)
    steps = {
        (origin, target): Resolved(StoneMove("step", origin, target))
        for origin, target in DIRECTION
    }
    dirs = [[move_dirs(culin, side, priest) for priest in (False, True)] for side in (0, 1)]
    paths: tuple[dict[tuple[str, ...], Path], ...] = tuple(
        {
            (NAME[origin], NAME[target]): (
                d in dirs[side][0],
                d in dirs[side][1],
                BIT[origin],
                BIT[target],
                steps[origin, target],
                origin,
                target,
            )
            for (origin, target), d in DIRECTION.items()
        }
        for side in (0, 1)
    )
    return Tables(targets, tuple(lines), victims, paths)
