"""Perft: the numbers of legal move sequences from a game's standard start.

*Perft* ("performance test", from chess programming) counts every sequence of legal
moves of a given length from a position.  Two move generators that agree on these
counts almost certainly agree on the rules, so zrec publishes them for the games it
plays (``docs/perft.md``) and checks its engines against them.

What is counted:

- a move is one legal move as the engine lists it (:meth:`Engine.legal_moves`), which
  is one written move: a whole capture chain is one move, and a placement that is not
  a turn (a piece entering the board between turns) is a move of its own;
- a position where the game is over (:meth:`Engine.to_move` is ``None``) has no moves,
  so it adds nothing to the deeper counts;
- the count at depth *d* is the number of move sequences of length *d*; depth 1 is the
  number of first moves.

A game that rolls dice (:meth:`Engine.chance`) is refused with
:class:`PerftError`: each turn's moves depend on the roll, and where a turn has too many
forms to list the engine builds one instead of listing them, so a count would not be
the rules' count.  Nothing here names a game: it uses only the engine protocol.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal, overload

from zrec.errors import ZrecError
from zrec.play.overrides import check_overrides
from zrec.play.replay import GameSetupError, Replay, prepare_rules
from zrec.rules.base import GameRules
from zrec.rules.loops import DiceError, count_sequences

__all__ = ["Divided", "PerftError", "Progress", "perft", "perft_start"]

#: Called after each first move has been counted: (moves done, moves in all, the first
#: move as written, its count at the full depth).
Progress = Callable[[int, int, str, int], None]


class PerftError(ZrecError, ValueError):
    """A perft that cannot be made: a bad depth, bad options, or a game with dice."""


@dataclass(frozen=True, slots=True)
class Divided:
    """A perft split by first move: ``counts`` for depths 1..N, and ``moves``, each
    first move as the notation writes it with its share of the depth-N count (in the
    order of their written forms; the shares add up to ``counts[-1]``)."""

    counts: list[int]
    moves: list[tuple[str, int]]


def perft_start(rules: GameRules, options: Mapping[str, str]) -> Replay:
    """The engine and standard start a perft of ``rules`` uses under ``options`` (rule
    options and setup tags, checked as ``-O`` overrides are); raises :class:`PerftError`
    for a bad option, a game whose tags cannot give an engine, or a game with dice."""
    try:
        tags = check_overrides(rules, options)
    except ValueError as exc:
        raise PerftError(str(exc)) from None
    try:
        replay = prepare_rules(rules, tags)
    except GameSetupError as exc:
        # seats or a hidden setup missing: a game with dice is refused for its dice first
        try:
            filled = {**rules.random_tags(None, random.Random(0)), **tags}
            probe: Replay | None = prepare_rules(rules, filled)
        except (GameSetupError, ZrecError):
            probe = None
        if probe is not None:
            _refuse_dice(probe)
        raise PerftError(f"{rules.title}: {exc.message}") from None
    _refuse_dice(replay)
    return replay


def _refuse_dice(replay: Replay) -> None:
    chance = replay.engine.chance(replay.start)
    if chance is not None:
        raise PerftError(_dice_message(replay.rules.title, f"{chance.text()} on the first turn"))


def _dice_message(title: str, when: str) -> str:
    return (
        f"{title} rolls dice ({when}): perft counts the move sequences of games without "
        "dice, so it has no count for this game"
    )


@overload
def perft(
    rules: GameRules,
    options: Mapping[str, str],
    depth: int,
    divide: Literal[False] = False,
    progress: Progress | None = None,
) -> list[int]: ...


@overload
def perft(
    rules: GameRules,
    options: Mapping[str, str],
    depth: int,
    divide: Literal[True],
    progress: Progress | None = None,
) -> Divided: ...


def perft(
    rules: GameRules,
    options: Mapping[str, str],
    depth: int,
    divide: bool = False,
    progress: Progress | None = None,
) -> list[int] | Divided:
    """The numbers of legal move sequences of lengths 1..``depth`` from the standard
    start of ``rules`` under ``options`` (rule-option tags; the others at their
    defaults): ``[3, 4, 9]`` means 3 first moves, 4 sequences of two moves, 9 of three.

    With ``divide``, a :class:`Divided`: the counts, and the depth-``depth`` count split
    by first move.  ``progress`` is told of each first move as it is done (for a long
    run).  Raises :class:`PerftError`.
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise PerftError(f"the depth must be a whole number from 1 up, not {depth!r}")
    replay = perft_start(rules, options)
    engine, start = replay.engine, replay.start
    counts = [0] * depth
    shares: list[tuple[str, int]] = []
    if engine.to_move(start) is None:
        return Divided(counts, shares) if divide else counts
    moves = engine.legal_moves(start)
    counts[0] = len(moves)
    for i, move in enumerate(moves, 1):
        before = counts[-1]
        if depth > 1:
            try:
                deeper = count_sequences(engine, engine.apply(start, move)[0], depth - 1)
            except DiceError as exc:
                raise PerftError(
                    _dice_message(engine.title, f"{exc.chance.text()} after some moves")
                ) from None
            for k, n in enumerate(deeper, 1):
                counts[k] += n
        share = counts[-1] - before if depth > 1 else 1
        text = engine.spell(start, move).text() if divide or progress else ""
        shares.append((text, share))
        if progress is not None:
            progress(i, len(moves), text, share)
    if divide:
        return Divided(counts, sorted(shares))
    return counts
