"""A line of written moves played in one call, for as long as nothing in it needs a word.

Checking a record is mostly playing its main line: each written turn resolved to the
engine's move, applied, and its written move number (if any) compared with the
position's.  :func:`play_line` does that for a whole line and stops at the first move
that would have something to say (an illegal or ambiguous move, a note of the rules on
how it is written, a number that does not fit): the caller (the walker of
:mod:`zrec.play.walk`) then walks the line move by move, as it always does, and says
what is wrong.  On the common path, a line with nothing to say, it is one call.

:func:`reference_line` states it once over the engine protocol (:mod:`zrec.rules.base`).
An engine whose rules package runs a compiled kernel (:mod:`zrec.rules.kernel`) may
offer it natively, as the method ``play_line(pos, turns, numbers, dots)`` with the same
answer; :func:`play_line` calls it where the engine has it.  With ``keys`` the answer
also holds the engine's key of the position after each move, and the plies after
which a move removed pieces (the archive's indexer).  The differential tests hold a
native one to the reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from zrec.moves import Turn
from zrec.rules.base import REMOVED, Engine, IllegalMoveError

__all__ = ["Run", "play_line", "reference_line"]

class Run(NamedTuple):
    """How far a line was played: the moves played with nothing to say (all of them
    when it is the line's length), the position after them, and of them the turns
    (the plies); with ``keys``, the key after each of those moves, and for each move
    that removed pieces its ply (1 for the first move) and the engine's ``material``
    after it, else ``None``."""

    played: int
    position: Any
    turns: int
    keys: list[bytes] | None = None
    removals: list[tuple[int, tuple[int, ...]]] | None = None


def reference_line(
    engine: Engine[Any, Any],
    pos: Any,
    turns: Sequence[Turn],
    numbers: Sequence[int | None],
    dots: Sequence[int],
    keys: bool = False,
) -> Run:
    """Play ``turns`` from ``pos`` while each resolves to a legal move with no note and
    the number written before it (``numbers[i]``, ``None``: none) is its position's
    (with ``dots[i]``); stop before the first that does not."""
    resolve, apply, number_of, key = engine.resolve, engine.apply, engine.move_number, engine.key
    ply = 0
    found: list[bytes] | None = [] if keys else None
    removals: list[tuple[int, tuple[int, ...]]] | None = [] if keys else None
    for i, turn in enumerate(turns):
        written = numbers[i]
        if written is not None:
            number = number_of(pos)
            if not (number.turn and written == number.number and dots[i] == number.dots):
                return Run(i, pos, ply, found, removals)
        try:
            resolved = resolve(pos, turn)
        except IllegalMoveError:
            return Run(i, pos, ply, found, removals)
        if resolved.notes:
            return Run(i, pos, ply, found, removals)
        if resolved.turn:
            ply += 1
        pos, events = apply(pos, resolved.move)
        if found is not None and removals is not None:
            found.append(key(pos))
            if any(event.code == REMOVED for event in events):
                removals.append((ply, engine.material(pos)))
    return Run(len(turns), pos, ply, found, removals)


def play_line(
    engine: Engine[Any, Any],
    pos: Any,
    turns: Sequence[Turn],
    numbers: Sequence[int | None],
    dots: Sequence[int],
    keys: bool = False,
) -> Run:
    """:func:`reference_line`, natively where the engine offers it."""
    native = getattr(engine, "play_line", None)
    if native is None:
        return reference_line(engine, pos, turns, numbers, dots, keys)
    run: Run = native(pos, turns, numbers, dots, keys)
    return run
