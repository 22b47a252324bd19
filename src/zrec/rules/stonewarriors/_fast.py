"""The one shortcut the Stone Warriors engine keeps for speed: making a position
(benchmarks/fast.py measures it against :func:`new_position_slowly`).

:meth:`.rules.StoneWarriors.apply` makes a new :class:`.position.StonePosition` on
every ply.  Through its ``__init__`` (a frozen dataclass's fields are set with
``object.__setattr__``) that costs about 2.3 µs against 0.9 µs here, where the new
object's slots are filled by their own descriptors, skipping ``__init__``.  Measured
on 2026-11-26 with ``zrec validate`` as a whole process: with ``__init__`` in
``apply``, 3000 random games took 5.23 s of CPU against 4.30 s (medians of 7
interleaved runs, +22%), and 300 games 4.36 against 3.94 billion instructions
(callgrind, +11%).

Nothing else may make a position this way: the values are not checked, so they must
be what ``__init__`` would have set (bitmasks of the pieces, the side to move 0 or 1,
the priests off as a pair of bools, ``ply`` and ``passes``).
"""

from __future__ import annotations

from zrec.rules.stonewarriors.position import StonePosition

_set_white, _set_black, _set_priests, _set_to_move, _set_priests_off, _set_ply, _set_passes = (
    StonePosition.__dict__[name].__set__
    for name in ("white", "black", "priests", "to_move", "priests_off", "ply", "passes")
)


def new_position(
    white: int,
    black: int,
    priests: int,
    to_move: int,
    priests_off: tuple[bool, bool],
    ply: int,
    passes: int,
) -> StonePosition:
    """``StonePosition(white=white, black=black, ...)`` without its ``__init__``."""
    pos: StonePosition = object.__new__(StonePosition)
    _set_white(pos, white)
    _set_black(pos, black)
    _set_priests(pos, priests)
    _set_to_move(pos, to_move)
    _set_priests_off(pos, priests_off)
    _set_ply(pos, ply)
    _set_passes(pos, passes)
    return pos


def new_position_slowly(
    white: int,
    black: int,
    priests: int,
    to_move: int,
    priests_off: tuple[bool, bool],
    ply: int,
    passes: int,
) -> StonePosition:
    """The same through ``__init__``: what benchmarks/fast.py and the tests compare with."""
    return StonePosition(
        None, to_move, priests_off, ply, passes, white=white, black=black, priests=priests
    )
