"""The loops that run many moves in one call: perft counts, random games, the
material search of the ``alphabeta`` player, and the pieces each legal move takes.

Each is stated here once over the engine protocol (:mod:`zrec.rules.base`), as the
reference.  An engine whose rules package runs a compiled kernel (:mod:`zrec.rules.kernel`)
may offer the same loop natively, as the methods ``count_sequences(pos, depth)``,
``play_randomly(pos, rng, max_moves, max_turns)``, ``search_value(pos, me, depth,
ahead, alpha, beta)`` and ``takings(pos, roll)``; the functions here call those where
the engine has them, so that
perft, self-play, the playouts of ``mcts`` and the searches of ``alphabeta`` run without
a Python call per move.  A native loop gives the same answers as the loop here, and
draws from the generator exactly as it does (the differential tests hold it to that).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from zrec.rules.base import REMOVED, Chance, Engine, RulesError

__all__ = [
    "NO_LIMIT",
    "WIN",
    "DiceError",
    "Played",
    "count_sequences",
    "play_randomly",
    "reference_counts",
    "reference_play",
    "reference_search",
    "search_value",
    "takings",
]

P = TypeVar("P")

#: No limit on the moves or turns of :func:`play_randomly`.
NO_LIMIT = sys.maxsize
#: The value of a game won now in :func:`search_value` (far above any material).
WIN = 10_000


@dataclass(slots=True)  # not frozen: made once a random game, its __init__ plain
class Played(Generic[P]):
    """Where a random game stopped: the position; the moves made (every move applied)
    and of them the turns (moves that are turns: a placement between turns is not);
    the pieces each seat's moves took off the board; and whether it stopped because
    the seat to move had no move to draw (``stalled``), not at the end or a limit."""

    pos: P
    moves: int
    turns: int
    removed: tuple[int, ...]
    stalled: bool


class DiceError(RulesError):
    """A count of move sequences met a turn that rolls dice (``chance``: what it rolls)."""

    def __init__(self, chance: Chance) -> None:
        super().__init__(f"a turn rolls dice ({chance.text()})")
        self.chance = chance


def takings(
    engine: Engine[Any, Any], pos: Any, roll: Sequence[int] | None = None
) -> list[int]:
    """The pieces each legal move of ``pos`` (in :meth:`Engine.legal_moves`'s order,
    for the ``roll`` where the turn rolls dice) takes off the board: the squares its
    ``removed`` events empty (the ``greedy`` player's and model's measure)."""
    native = getattr(engine, "takings", None)
    if native is not None:
        counts: list[int] = native(pos, roll)
        return counts
    return [
        sum(len(e.squares) for e in engine.apply(pos, move)[1] if e.code == REMOVED)
        for move in engine.legal_moves(pos, roll)
    ]


def count_sequences(engine: Engine[Any, Any], pos: Any, depth: int) -> list[int]:
    """The numbers of legal move sequences of lengths 1..``depth`` from ``pos`` (no
    moves where the game is over).  Raises :class:`DiceError` where a turn on the way
    rolls dice: its moves depend on the roll."""
    native = getattr(engine, "count_sequences", None)
    if native is not None:
        counts: list[int] = native(pos, depth)
        return counts
    return reference_counts(engine, pos, depth)


def reference_counts(engine: Engine[Any, Any], pos: Any, depth: int) -> list[int]:
    """:func:`count_sequences` in Python, whatever the engine offers."""
    counts = [0] * depth
    _count(engine, pos, depth, counts, 0)
    return counts


def _count(engine: Engine[Any, Any], pos: Any, depth: int, counts: list[int], at: int) -> None:
    if engine.to_move(pos) is None:
        return
    chance = engine.chance(pos)
    if chance is not None:
        raise DiceError(chance)
    moves = engine.legal_moves(pos)
    counts[at] += len(moves)
    if depth == 1:
        return
    for move in moves:
        _count(engine, engine.apply(pos, move)[0], depth - 1, counts, at + 1)


def play_randomly(
    engine: Engine[P, Any],
    pos: P,
    rng: random.Random,
    max_moves: int = NO_LIMIT,
    max_turns: int = NO_LIMIT,
) -> Played[P]:
    """A random game from ``pos``: while the game is not over and neither limit is
    reached, the dice are rolled (where the turn rolls any) and the engine's self-play
    move (:meth:`Engine.sample_move`) is made."""
    native = getattr(engine, "play_randomly", None)
    if native is not None:
        played: Played[P] = native(pos, rng, max_moves, max_turns)
        return played
    return reference_play(engine, pos, rng, max_moves, max_turns)


def reference_play(
    engine: Engine[P, Any],
    pos: P,
    rng: random.Random,
    max_moves: int = NO_LIMIT,
    max_turns: int = NO_LIMIT,
) -> Played[P]:
    """:func:`play_randomly` in Python, whatever the engine offers."""
    moves = turns = 0
    removed = [0] * len(engine.seats)
    stalled = False
    while engine.outcome(pos) is None and moves < max_moves and turns < max_turns:
        number = engine.move_number(pos)
        chance = engine.chance(pos)
        move = engine.sample_move(pos, chance.roll(rng) if chance is not None else None, rng)
        if move is None:
            stalled = True
            break
        pos, events = engine.apply(pos, move)
        removed[number.seat] += sum(len(e.squares) for e in events if e.code == REMOVED)
        moves += 1
        turns += number.turn
    return Played(pos, moves, turns, tuple(removed), stalled)


def search_value(
    engine: Engine[Any, Any], pos: Any, me: int, depth: int, ahead: int, alpha: int, beta: int
) -> int:
    """The value for seat ``me`` of ``pos`` (``ahead`` moves below the search's root),
    searched ``depth`` moves further by minimax with alpha-beta pruning in the window
    (``alpha``, ``beta``): a finished game is worth ``WIN - ahead`` to the winner and
    its negation to the loser (0 drawn); an unfinished one at depth 0, or where the seat
    to move has no move, its material, ``me``'s pieces less the other seat's.  Moves
    are searched the most pieces taken first, then in the engine's order.  For games of
    two seats without dice (``zrec.research.alphabeta``)."""
    native = getattr(engine, "search_value", None)
    if native is not None:
        found: int = native(pos, me, depth, ahead, alpha, beta)
        return found
    return reference_search(engine, pos, me, depth, ahead, alpha, beta)


def reference_search(
    engine: Engine[Any, Any], pos: Any, me: int, depth: int, ahead: int, alpha: int, beta: int
) -> int:
    """:func:`search_value` in Python, whatever the engine offers."""
    outcome = engine.outcome(pos)
    if outcome is not None:
        mine, theirs = outcome.scores[me], outcome.scores[1 - me]
        return 0 if mine == theirs else (WIN - ahead) if mine > theirs else -(WIN - ahead)
    material = engine.material(pos)
    if depth == 0:
        return int(material[me] - material[1 - me])
    children = []
    for i, move in enumerate(engine.legal_moves(pos)):
        after, events = engine.apply(pos, move)
        taken = sum(len(e.squares) for e in events if e.code == REMOVED)
        children.append((-taken, i, after))
    if not children:  # no move although not over: count the material
        return int(material[me] - material[1 - me])
    children.sort(key=lambda t: (t[0], t[1]))
    if engine.move_number(pos).seat == me:
        best = -WIN - 1
        for _, _, after in children:
            best = max(
                best, reference_search(engine, after, me, depth - 1, ahead + 1, alpha, beta)
            )
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best
    best = WIN + 1
    for _, _, after in children:
        best = min(best, reference_search(engine, after, me, depth - 1, ahead + 1, alpha, beta))
        beta = min(beta, best)
        if alpha >= beta:
            break
    return best
