"""Building an Awéthi shepherds' turn path by path: the engine's first legal form of a
roll (:func:`build_shepherds` without a generator, which ``legal_moves`` lists), and
self-play's random one (:func:`sample_shepherds`), which leans each shepherd towards
the animals not yet caught (docs/rules.md, Awéthi: the shepherds' turn).
"""

from __future__ import annotations

import random

from zrec.rules.awethi.board import ORTH_NEIGHBOURS, SIZE
from zrec.rules.awethi.position import NOT_CAUGHT, AwethiPosition, ShepherdsMove, Table, amounts
from zrec.rules.awethi.shepherds import ShepherdsBoard
from zrec.rules.base import choose

__all__ = ["build_shepherds", "sample_shepherds"]


def sample_shepherds(
    t: Table, pos: AwethiPosition, roll: tuple[int, ...], rng: random.Random
) -> ShepherdsMove:
    """A random legal shepherds' turn for self-play: one built under each option
    (:func:`build_shepherds`), usually (:data:`~zrec.rules.base.DRIVE`) the one that
    catches more (then flanks more animals with two shepherds), else either."""
    built = [build_shepherds(t, pos, roll, option, rng) for option in "es"]
    scores = [_score(board) for _, board in built]
    chosen = choose(built, rng, [s - min(scores) for s in scores])
    assert chosen is not None
    return chosen[0]


def _score(board: ShepherdsBoard) -> int:
    squares = board.t.shepherd_squares(
        s for k, s in enumerate(board.pos.shepherds) if k != board.pos.seat
    )
    squares.update(board.own)
    score = 0
    for a in board.animals:
        if a[3] == NOT_CAUGHT:
            n = sum(1 for s in ORTH_NEIGHBOURS[a[0]] if s in squares)
            score += 10 if n >= 3 else 1 if n == 2 else 0
    return score


def build_shepherds(
    t: Table,
    pos: AwethiPosition,
    roll: tuple[int, ...],
    option: str,
    rng: random.Random | None,
) -> tuple[ShepherdsMove, ShepherdsBoard]:
    """A legal shepherds' turn built path by path.  With ``rng``: the shepherds in a
    random order, each a random legal path leaning towards the animals not caught (an
    end next to an animal, the more so where other shepherds flank it), or, with none, a
    stay (in water: the jump back) or now and then the jump back.  Without ``rng``: the
    shepherds in order of their squares, each its first path in search order, else its
    stay (in water: the jump back).  Also gives the board as the turn leaves it (to
    score the turn)."""
    amts = amounts(roll, option)
    board = ShepherdsBoard(t, pos)
    order = sorted(board.own)
    if rng is not None:
        rng.shuffle(order)
    paths: list[tuple[int, ...]] = []
    back = 0
    for i, start in enumerate(order):
        water = t.water[start]
        if rng is None:
            first = next(board.walks(start, amts[i], water), None)
            options = [first] if first is not None else []
        else:
            options = board.all_walks(start, amts[i], water)
        if options:
            path = options[0] if rng is None else _lean(board, start, options, rng)
            board.move(start, path[1:], path[-1])
        else:
            path, is_back = board.fallback(start)
            if not is_back and rng is not None and _may_go_back(board, start, rng):
                path, is_back = (start, board.shelter), True
            if is_back:
                back |= 1 << i
            board.move(start, (), path[-1])
        paths.append(path)
    return ShepherdsMove(tuple(roll), option, tuple(paths), back), board


def _may_go_back(board: ShepherdsBoard, start: int, rng: random.Random) -> bool:
    """Now and then a stuck shepherd goes home, unless it flanks an animal."""
    if start == board.shelter or rng.random() >= 0.3:
        return False
    return not any(a[3] == NOT_CAUGHT and start in ORTH_NEIGHBOURS[a[0]] for a in board.animals)


def _lean(
    board: ShepherdsBoard, start: int, options: list[tuple[int, ...]], rng: random.Random
) -> tuple[int, ...]:
    """A path drawn with :func:`choose`, its progress how much nearer its end stands to
    an animal that is not caught (most: next to one that others already flank)."""
    t = board.t
    herd = [
        (ORTH_NEIGHBOURS[a[0]], a[0] % SIZE, a[0] // SIZE)
        for a in board.animals
        if a[3] == NOT_CAUGHT
    ]
    squares = t.shepherd_squares(
        s for k, s in enumerate(board.pos.shepherds) if k != board.pos.seat
    )
    squares.update(board.own)
    squares.discard(start)
    values: dict[int, int] = {}

    def value(square: int) -> int:
        if square not in values:
            best = -99
            x, y = square % SIZE, square // SIZE
            for around, ax, ay in herd:
                if square in around:
                    v = 10 + 10 * sum(1 for s in around if s in squares and s != square)
                else:  # the distance of board.distance, written out
                    v = -(abs(x - ax) + abs(y - ay))
                if v > best:
                    best = v
            values[square] = best
        return values[square]

    here = value(start)
    progress = [value(p[-1]) - here for p in options]
    chosen = choose(options, rng, progress)
    assert chosen is not None
    return chosen
