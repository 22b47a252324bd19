"""The ``alphabeta`` player: a fixed-depth minimax search with alpha-beta pruning.

For two-seat games without dice only (:func:`refusal` says why another game is
refused).  The player looks ``depth`` moves ahead (its budget, :data:`DEFAULT_DEPTH`
unless given; one move is one turn of one seat, a whole capture chain included) and
values a position from the searching seat's side:

- a finished game: ``WIN - moves`` for a win, ``-(WIN - moves)`` for a loss (sooner
  wins and later losses are better), 0 for a draw, ``moves`` being how far ahead it is;
- otherwise the **material**: the searching seat's pieces minus the other seat's, as
  :meth:`~zrec.rules.base.Engine.material` counts them.

Moves are searched captures first (the most pieces taken first, then the engine's
order), which makes the pruning cut more.  Every move as good as the best is found
exactly and one is drawn from the generator given, so the same seed gives the same
moves; no clock is read.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from zrec.rules.base import REMOVED
from zrec.rules.loops import WIN, search_value

__all__ = [
    "DEFAULT_DEPTH",
    "WIN",
    "alphabeta_move",
    "ordered",
    "position_value",
    "refusal",
    "value",
]

#: moves searched ahead when the budget is not given (``--player alphabeta``)
DEFAULT_DEPTH = 3


def refusal(engine: Any, pos: Any) -> str | None:
    """Why the player cannot play this game (more or fewer than two seats, or dice),
    or ``None``."""
    seats = len(engine.seats)
    if seats != 2:
        return f"alphabeta plays two-seat games only; this {engine.title} game has {seats} seats"
    if engine.chance(pos) is not None:
        return f"alphabeta plays games without dice only; {engine.title} rolls dice"
    return None


def ordered(engine: Any, pos: Any) -> list[tuple[Any, Any]]:
    """Every legal move with the position it leaves, the most pieces taken first
    (equal takings in the engine's order)."""
    out = []
    for i, move in enumerate(engine.legal_moves(pos)):
        after, events = engine.apply(pos, move)
        taken = sum(len(e.squares) for e in events if e.code == REMOVED)
        out.append((-taken, i, move, after))
    out.sort(key=lambda t: (t[0], t[1]))
    return [(move, after) for _, _, move, after in out]


def value(engine: Any, pos: Any, me: int, ahead: int) -> int | None:
    """The value of a finished game for seat ``me`` (``None``: not finished)."""
    outcome = engine.outcome(pos)
    if outcome is None:
        return None
    mine, theirs = outcome.scores[me], outcome.scores[1 - me]
    return 0 if mine == theirs else (WIN - ahead) if mine > theirs else -(WIN - ahead)


def _search(engine: Any, pos: Any, me: int, depth: int, ahead: int, alpha: int, beta: int) -> int:
    # the search itself is a loop of the rules layer, native where the engine has a kernel
    return search_value(engine, pos, me, depth, ahead, alpha, beta)


def position_value(engine: Any, pos: Any, me: int, depth: int) -> int:
    """The exact value of ``pos``, one move ahead of the search's root, for seat ``me``,
    searched ``depth`` moves further (0: the position as it stands); what the search
    would find for the move that led to it, with no bound cutting it short."""
    return _search(engine, pos, me, depth, 1, -WIN - 1, WIN + 1)


def scored(engine: Any, pos: Any, depth: int) -> list[tuple[int, Any]]:
    """The legal moves with their values (a move worse than the best so far may carry
    only an upper bound of its value: it is worse, not how much)."""
    me = engine.move_number(pos).seat
    out: list[tuple[int, Any]] = []
    best = -WIN - 2
    for move, after in ordered(engine, pos):
        v = _search(engine, after, me, depth - 1, 1, best - 1, WIN + 1)
        best = max(best, v)
        out.append((v, move))
    return out


def alphabeta_move(
    engine: Any,
    pos: Any,
    roll: Sequence[int] | None,
    rng: random.Random,
    depth: int = DEFAULT_DEPTH,
) -> Any:
    """A best move at ``depth`` moves ahead, drawn among equals (``None``: no move)."""
    moves = scored(engine, pos, depth)
    if not moves:
        return None
    if len(moves) == 1:
        return moves[0][1]
    top = max(v for v, _ in moves)
    return rng.choice([m for v, m in moves if v == top])
