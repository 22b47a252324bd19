"""Puzzles: positions of played games where one move is clearly best.

A position before a move of a game's main line is a puzzle when, searched by the
``alphabeta`` player at its depth (:func:`zrec.research.alphabeta.position_value`, exact
for every move), one move wins material or the game and every other move does not: its
value (the mover's material lead at the end of the best line, or a game won) is more
than the lead the mover has now, and every other move's value is at most that lead.
The puzzle is a record of its own (:func:`puzzle_record`): the game and its options,
the position as its ``Setup``, a comment saying where it comes from and what is to be
found, and the solution as the main line (the best move, then the best line the search
found after it, to its depth or the game's end).

Only games the ``alphabeta`` player plays (two seats, no dice) give puzzles; a game
analysed by ``zrec analyse`` with ``alphabeta:D`` is searched at its depth ``D``, any
other at :data:`DEPTH`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from zrec.moves import Turn
from zrec.notation.model import Comment, Game, Line, MoveNode
from zrec.play.replay import GameSetupError, ReplayError, prepare, prepare_rules
from zrec.play.walk import positions, written_number
from zrec.research import alphabeta
from zrec.rules.base import MoveNumber
from zrec.rules.loops import WIN

__all__ = [
    "DEPTH",
    "Puzzle",
    "PuzzleError",
    "UnplayableError",
    "depth_of",
    "find_puzzles",
    "puzzle_record",
]

#: the depth of the search of a game not analysed by ``alphabeta``
DEPTH = 4


class PuzzleError(ValueError):
    """A game that gives no puzzles: it cannot be replayed, or alphabeta does not play
    it."""


class UnplayableError(PuzzleError):
    """A game that cannot be replayed (a bad tag, an illegal move): a mistake of its
    record, said where it is, unlike a game alphabeta does not play."""


@dataclass(frozen=True)
class Puzzle:
    """A position of a game's main line (before its ``ply``-th move) where one move is
    clearly best: the position's ``Setup``, the mover, whether the best move wins the
    game (else material: ``gain`` pieces more than the lead now), and the solution."""

    ply: int
    setup: str
    seat: str
    wins: bool
    gain: int
    solution: tuple[tuple[MoveNumber, Turn], ...]
    played: str


def depth_of(game: Game) -> int:
    """The depth a game is searched at: its analysis's, where ``zrec analyse`` judged it
    with ``alphabeta:D`` (its ``Analysis`` tag), else :data:`DEPTH`."""
    spec = (game.tag("Analysis") or "").split(",")[0].strip()
    name, _, budget = spec.partition(":")
    if name == "alphabeta" and budget.isdigit() and int(budget) >= 1:
        return int(budget)
    return DEPTH


def find_puzzles(game: Game, depth: int | None = None) -> Iterator[Puzzle]:
    """The puzzles of a game's main line, in order (``depth``: :func:`depth_of` unless
    given); raises :class:`PuzzleError`."""
    depth = depth_of(game) if depth is None else depth
    try:
        replay = prepare(game)
        steps = positions(replay, game.line)
    except (GameSetupError, ReplayError) as exc:
        raise UnplayableError(str(exc)) from None
    engine = replay.engine
    why = alphabeta.refusal(engine, replay.start)
    if why is not None:
        raise PuzzleError(why)
    for ply, step in enumerate(steps, 1):
        pos = step.before
        me = engine.move_number(pos).seat
        moves = engine.legal_moves(pos)
        if len(moves) < 2:
            continue
        material = engine.material(pos)
        lead = material[me] - material[1 - me]
        values = [(alphabeta.position_value(engine, engine.apply(pos, m)[0], me, depth - 1), i)
                  for i, m in enumerate(moves)]
        values.sort(reverse=True)
        (top, best), (second, _) = values[0], values[1]
        if top <= lead or second > lead:
            continue
        line = _line(engine, pos, moves[best], depth)
        yield Puzzle(
            ply, engine.setup_text(pos), engine.seats[me], top > WIN // 2, top - lead,
            _spelt(engine, pos, line), step.node.turn.text(),
        )


def _line(engine: Any, pos: Any, best: Any, depth: int) -> list[Any]:
    """The best move, then the best line after it, to ``depth`` moves or the end."""
    line = [best]
    pos = engine.apply(pos, best)[0]
    for ahead in range(depth - 1, 0, -1):
        if engine.outcome(pos) is not None:
            break
        scored = alphabeta.scored(engine, pos, ahead)
        if not scored:
            break
        top = max(v for v, _ in scored)
        move = next(m for v, m in scored if v == top)
        line.append(move)
        pos = engine.apply(pos, move)[0]
    return line


def _spelt(engine: Any, pos: Any, moves: list[Any]) -> tuple[tuple[MoveNumber, Turn], ...]:
    out = []
    for move in moves:
        out.append((engine.move_number(pos), engine.spell(pos, move)))
        pos = engine.apply(pos, move)[0]
    return tuple(out)


def puzzle_record(game: Game, puzzle: Puzzle, source: str) -> Game:
    """The puzzle as a record: the game's ``Game`` tag and options, its players, the
    position as ``Setup``, a comment (``source``: where the game comes from) and the
    solution as the main line; its result ``*``, or the game's where the solution ends
    it."""
    replay = prepare(game)
    options = replay.setting.options
    seats = set(replay.engine.seats)
    kept = [(k, v) for k, v in game.tags
            if k in options or k in seats or k in ("Game", "Event", "Date")]
    tags = [*kept, ("Setup", puzzle.setup), ("Result", "*")]
    # the solution's numbers as the position after the setup numbers them
    start = prepare_rules(replay.rules, dict(tags)).start
    engine = replay.engine
    nodes = []
    follows = False
    pos = start
    for _, turn in puzzle.solution:
        number = engine.move_number(pos)
        written = written_number(number, follows)
        nodes.append(MoveNode(turn, written.number if written else None,
                              written.dots if written else 1))
        follows = number.turn
        pos = _after(engine, pos, turn)
    outcome = engine.outcome(pos)  # (a solution that ends the game: its result)
    result = outcome.result if outcome is not None else "*"
    tags[-1] = ("Result", result)
    what = "wins the game" if puzzle.wins else (
        f"wins material (a lead {puzzle.gain} piece{'' if puzzle.gain == 1 else 's'} more)")
    text = (f"{puzzle.seat} to play: one move {what}, and no other does. From {source}, "
            f"before ply {puzzle.ply} (played: {puzzle.played}).")
    if nodes:
        nodes[0] = MoveNode(nodes[0].turn, nodes[0].number, nodes[0].dots,
                            comments_before=(Comment(text),))
    return Game(tuple(tags), Line(tuple(nodes)), result)


def _after(engine: Any, pos: Any, turn: Turn) -> Any:
    """The position after the legal move of ``pos`` spelt ``turn``."""
    for move in engine.legal_moves(pos):
        if engine.spell(pos, move).text() == turn.text():
            return engine.apply(pos, move)[0]
    raise PuzzleError(f"{turn.text()} is not a move of the position")  # (cannot be)
