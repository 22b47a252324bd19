"""Reading a JSON game too long for the reading buffer a move at a time.

:mod:`zrec.notation.json.stream` hands such a game out as a
:class:`~zrec.notation.json.stream.LongObject`: its members one at a time, its list of
moves an element at a time.  Each move is checked against the schema (once for all its
repetitions, as :func:`~zrec.notation.json.schema.check_game` does) and rebuilt as it
arrives, so the game is held only as moves, as a game read from text is, never as JSON
values too.  A game with any problem at all is read once more, whole, and checked as
any other game is: its report is the same, word for word, as if it had been read whole
from the start.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from zrec.notation.json.schema import frame_surely_valid, node_surely_valid, number_free
from zrec.notation.json.stream import LongArray, LongObject
from zrec.notation.json.values import (
    JsonGameError,
    check_depth,
    line_from_parts,
    node_from_json,
)
from zrec.notation.model import Game, MoveNode

__all__ = ["long_game"]

#: how many different moves are remembered, checked and built, at a time
_KNOWN = 4096


def long_game(value: LongObject, path: str) -> Game | None:
    """The game a long JSON object describes, or ``None`` when it has a problem (read
    it whole, with :meth:`LongObject.whole`, to report it)."""
    members: dict[str, Any] = {}
    moves: list[MoveNode] | None = None
    good = True
    for name, member in value:
        if name in members:
            good = False  # the last of the same name counts: read whole
        if name == "moves" and isinstance(member, (LongArray, list)):
            members[name] = []
            moves = _moves(member, path) if good else None
            good = good and moves is not None
        else:
            members[name] = list(member) if isinstance(member, LongArray) else member
    if not good or moves is None or not frame_surely_valid(members):
        return None
    try:
        line = line_from_parts(tuple(moves), members.get("comments"), path)
    except JsonGameError:
        return None
    tags = tuple((name, text) for name, text in members["tags"])
    return Game(tags, line, members["result"])


def _moves(values: Iterable[Any], path: str) -> list[MoveNode] | None:
    """The moves of the main line, or ``None`` at the first one with a problem.

    A long game repeats the same moves again and again: each is checked and built
    once, the first time it is seen (its number aside), and shared."""
    known: dict[str, MoveNode | None] = {}
    moves: list[MoveNode] = []
    for i, node in enumerate(values):
        free = number_free(node)
        key = repr(free)  # tells apart every two JSON values (1, 1.0, true, "1")
        if key in known:
            move = known[key]
        else:
            move = _move(free, f"{path}.moves[{i}]")
            if len(known) >= _KNOWN:
                known.clear()
            known[key] = move
        if move is None:
            return None
        number = node.get("number")
        moves.append(move if move.number == number else _numbered(move, number))
    return moves


def _numbered(move: MoveNode, number: int) -> MoveNode:
    """The move with another number (as :func:`dataclasses.replace` would give it,
    several times faster)."""
    return MoveNode(
        move.turn,
        number,
        move.dots,
        move.suffix,
        move.nags,
        move.comments_before,
        move.comments_after,
        move.variations,
    )


def _move(node: Any, path: str) -> MoveNode | None:
    """A move, or ``None`` when it has a problem."""
    try:
        check_depth({"moves": [node]}, path)
        if not node_surely_valid(node):
            return None
        return node_from_json(node, path)
    except JsonGameError:
        return None
