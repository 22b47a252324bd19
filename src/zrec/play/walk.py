"""The replay walker: the one place where a record's moves are played through the rules.

:func:`walk` plays the main line and every variation (each from the position it
branches from) and shows each move to a :class:`Visitor` as a :class:`Step`: the
positions around it, the engine's move, the events it caused and any notes the rules
made on how it was written.  An illegal move is shown as a step with its ``error`` and
ends its line (the moves after it cannot be played); its variations are still walked.
Steps come in file order: a move, then the variations written after it, then the next
move.  The validator, ``zrec show``, the diagrams, the replay page and the archive
are visitors.

:func:`written_number` is the one rule for which moves carry their number when a
player (or zrec) writes a line: docs/notation.md section 4.3.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from zrec.notation.model import Line, MoveNode
from zrec.play.replay import Replay, ReplayError
from zrec.rules.base import Event, Finding, IllegalMoveError, MoveNumber

__all__ = ["LineEnd", "Step", "Visitor", "positions", "walk", "written_number"]


class Step(NamedTuple):
    """One move of a line as the walker played it.

    ``ply`` counts the moves of the line from the start of the game; ``depth`` is 0 on
    the main line and n inside n variations.  For an illegal move ``error`` is set and
    ``move`` and ``after`` are ``None``.
    """

    ply: int
    node: MoveNode
    before: Any
    move: Any
    after: Any
    events: tuple[Event, ...]
    notes: tuple[Finding, ...]
    depth: int
    error: IllegalMoveError | None = None


#: ``Step`` made without its Python-level ``__new__`` (this runs once per ply).
_new_step = tuple.__new__


class LineEnd(NamedTuple):
    """Where a line stopped: its last position (``None`` after an illegal move) and the
    ply reached."""

    position: Any
    ply: int


class Visitor:
    """What the walker calls; every hook does nothing unless a visitor overrides it."""

    #: ``False``: show only the steps that carry something beyond the move itself (a
    #: written move number, notes from the rules, an error) -- enough for a visitor
    #: that only checks a record, and it spares a call per ply.
    every_step: bool = True

    def step(self, step: Step) -> None:
        """A move was played (or found illegal)."""

    def begin_variation(self, node: MoveNode, before: Any, ply: int, depth: int) -> None:
        """A variation of ``node`` starts from ``before`` (after ``ply`` moves); its
        moves are at ``depth``."""

    def end_variation(self, node: MoveNode, end: LineEnd, depth: int) -> None:
        """The variation just walked ended as ``end``."""


def walk(
    replay: Replay,
    line: Line,
    visitor: Visitor,
    *,
    variations: bool = True,
    upto: int | None = None,
) -> LineEnd:
    """Play ``line`` from the record's start, showing every step to ``visitor``.

    ``variations=False`` skips the variations; ``upto`` stops the main line after that
    many moves.  Returns where the main line ended.
    """
    return _Walker(replay, visitor, variations, upto).line(line.moves, replay.start, 0, 0)


class _Walker:
    def __init__(
        self, replay: Replay, visitor: Visitor, variations: bool, upto: int | None
    ) -> None:
        self.engine = replay.engine
        self.visitor = visitor
        self.variations = variations
        self.upto = upto

    def line(self, moves: tuple[MoveNode, ...], pos: Any, ply: int, depth: int) -> LineEnd:
        resolve, apply = self.engine.resolve, self.engine.apply
        visit = self.visitor.step
        new = _new_step
        every = self.visitor.every_step
        if depth == 0 and self.upto is not None:
            moves = moves[: self.upto]
        for node in moves:
            ply += 1
            try:
                resolved = resolve(pos, node.turn)
            except IllegalMoveError as exc:
                visit(Step(ply, node, pos, None, None, (), (), depth, exc))
                self.branches(node, pos, ply - 1, depth)
                return LineEnd(None, ply)
            after, events = apply(pos, resolved.move)
            notes = resolved.notes
            if every or notes or node.number is not None:
                move = resolved.move
                visit(new(Step, (ply, node, pos, move, after, events, notes, depth, None)))
            if node.variations:
                self.branches(node, pos, ply - 1, depth)
            pos = after
        return LineEnd(pos, ply)

    def branches(self, node: MoveNode, pos: Any, ply: int, depth: int) -> None:
        if not self.variations:
            return
        for variation in node.variations:
            self.visitor.begin_variation(node, pos, ply, depth + 1)
            end = self.line(variation.moves, pos, ply, depth + 1)
            self.visitor.end_variation(node, end, depth + 1)


class _Collect(Visitor):
    """Keeps the steps of the main line; raises at the first illegal move."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.steps: list[Step] = []

    def step(self, step: Step) -> None:
        if step.error is not None:
            label = self.replay.label(step.before)
            raise ReplayError(step.ply, label, step.node.turn.text(), step.error, step.depth > 0)
        self.steps.append(step)


def positions(replay: Replay, line: Line, upto: int | None = None) -> list[Step]:
    """Every move of the main line (or of its first ``upto`` moves) with its positions;
    raises :class:`ReplayError` at an illegal move."""
    collect = _Collect(replay)
    walk(replay, line, collect, variations=False, upto=upto)
    return collect.steps


def written_number(number: MoveNumber, follows_turn: bool) -> MoveNumber | None:
    """The number a writer puts before a move, else ``None``.

    A move that opens a round (``N.``) is always numbered; one that continues it
    (``N...``) only where it does not directly follow a turn (at the start of a line, or
    after a comment, a variation or a move that is not a turn); a move that is not a
    turn never is.
    """
    if not number.turn:
        return None
    if number.dots == 1 or not follows_turn:
        return number
    return None
