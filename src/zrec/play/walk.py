"""The replay walker: the one place where a record's moves are played through the rules.

:func:`walk` plays the main line and every variation (each from the position it
branches from) and shows each move to a :class:`Visitor` as a :class:`Step`: the
positions around it, the engine's move, the events it caused and any notes the rules
made on how it was written.  An illegal move is shown as a step with its ``error`` and
ends its line (the moves after it cannot be played); its variations are still walked.
Steps come in file order: a move, then the variations written after it, then the next
move.  The validator, ``zrec show``, the diagrams, the replay page and the archive
are visitors.  A visitor that wants every move of the main line and little else (the
archive's indexer) takes them in batches of plain tuples (:meth:`Visitor.main_moves`)
rather than a :class:`Step` and a call each.  A visitor that wants neither (the
validator) is shown nothing of a line of plain moves as the reader holds it
(:class:`~zrec.notation.plainmoves.PlainMoves`) that the rules play in one call
(:func:`zrec.rules.lines.play_line`) with nothing to say: the walker walks such a line
move by move only when one of its moves has something to say.

:func:`written_number` is the one rule for which moves carry their number when a
player (or zrec) writes a line: docs/notation.md section 4.3.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from zrec.budget import current
from zrec.notation.model import Line, MoveNode
from zrec.notation.plainmoves import PlainMoves
from zrec.play.replay import Replay, ReplayError
from zrec.rules.base import Event, Finding, IllegalMoveError, MoveNumber
from zrec.rules.lines import play_line

__all__ = [
    "LineEnd",
    "Played",
    "Step",
    "Visitor",
    "path_to",
    "positions",
    "walk",
    "written_number",
]

#: A move of the main line as :meth:`Visitor.main_moves` gets it: its ply (as
#: :attr:`Step.ply`), the position before, the engine's move, the position after and
#: the events.
Played = tuple[int, Any, Any, Any, tuple[Event, ...]]
#: How many moves of the main line are handed to :meth:`Visitor.main_moves` at most at a
#: time (a very long game is not held whole).
BATCH = 4096


class Step(NamedTuple):
    """One move of a line as the walker played it.

    ``ply`` counts the turns played from the start of the game, this move's included
    when it is a turn (a move that is not a turn, such as a priest's entry, has the ply
    of the turn before it); ``depth`` is 0 on the main line and n inside n variations.
    For an illegal move ``error`` is set and ``move`` and ``after`` are ``None``.
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


class LineEnd(NamedTuple):
    """Where a line stopped: its last position (``None`` after an illegal move) and the
    ply reached."""

    position: Any
    ply: int


class Visitor:
    """What the walker calls; every hook does nothing unless a visitor overrides it."""

    #: ``False``: show only the steps that carry something to check beyond the move
    #: itself (a written move number that is not the position's, notes from the
    #: rules, an error) -- enough for a visitor that only checks a record, and it
    #: spares a call per ply.
    every_step: bool = True
    #: ``True``: every legal move of the main line is also given to :meth:`main_moves`,
    #: in batches, after the steps of those moves and at the latest when the walk ends.
    #: Building a tuple a move costs less than a :class:`Step` and a call (the archive's
    #: indexer: facts_of of 5,000 random games of the archive benchmark took 2.6 s of
    #: CPU, not 3.4 s).
    batches: bool = False
    #: ``True`` (with ``batches``): a main line of plain moves that the rules play in
    #: one call with nothing to say, every move a turn, is given to :meth:`main_keys`
    #: (the keys of its positions), not to :meth:`main_moves`.
    keyed: bool = False

    def step(self, step: Step) -> None:
        """A move was played (or found illegal)."""

    def begin_variation(self, node: MoveNode, before: Any, ply: int, depth: int) -> None:
        """A variation of ``node`` starts from ``before`` (after ``ply`` moves); its
        moves are at ``depth``."""

    def end_variation(self, node: MoveNode, end: LineEnd, depth: int) -> None:
        """The variation just walked ended as ``end``."""

    def main_moves(self, moves: list[Played]) -> None:
        """The next legal moves of the main line, in order (only when ``batches``)."""

    def main_keys(
        self, keys: list[bytes], removals: list[tuple[int, tuple[int, ...]]]
    ) -> None:
        """Every move of the main line at once, as the engine's key of the position
        after each (the first move is ply 1) and, for each move that removed pieces, its
        ply and the pieces each seat has after it (the engine's ``material``); only when
        ``keyed``, for a line the rules played in one call, in place of
        :meth:`main_moves`."""


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
    many turns (before any move that follows the last of them).  Returns where the main
    line ended.
    """
    moves = line.moves
    if (
        isinstance(moves, PlainMoves)
        and not visitor.every_step
        and (visitor.keyed or not visitor.batches)
        and upto is None
        and current() is None
    ):  # the common line: played in one call, walked only if a move has something to say
        keyed = visitor.keyed
        run = play_line(
            replay.engine, replay.start, moves.turns, moves.numbers, moves.dots, keyed
        )
        if run.played == len(moves) and not (keyed and run.turns != run.played):
            if keyed and run.keys:
                visitor.main_keys(run.keys, run.removals or [])
            return LineEnd(run.position, run.turns)
    walker = _Walker(replay, visitor, variations, upto)
    end = walker.line(moves, replay.start, 0, 0)
    if walker.trail:
        visitor.main_moves(walker.trail)
    return end


class _Walker:
    def __init__(
        self, replay: Replay, visitor: Visitor, variations: bool, upto: int | None
    ) -> None:
        self.engine = replay.engine
        self.visitor = visitor
        self.variations = variations
        self.upto = upto
        #: the main line's moves not yet given to the visitor (``None``: not asked for)
        self.trail: list[Played] | None = [] if visitor.batches else None

    def line(self, moves: Sequence[MoveNode], pos: Any, ply: int, depth: int) -> LineEnd:
        engine = self.engine
        resolve, apply, number_of = engine.resolve, engine.apply, engine.move_number
        visit = self.visitor.step
        make = Step._make  # NamedTuple's own maker from a tuple: once per ply, no keywords
        every = self.visitor.every_step
        upto = self.upto if depth == 0 else None
        trail = self.trail if depth == 0 else None
        budget = current()  # (the server's budget of the request: checked a move at a time)
        for node in moves:
            if upto is not None and ply >= upto:
                break
            if budget is not None:
                budget.check()
            try:
                resolved = resolve(pos, node.turn)
            except IllegalMoveError as exc:
                here = ply + 1 if engine.move_number(pos).turn else ply
                visit(Step(here, node, pos, None, None, (), (), depth, exc))
                self.branches(node, pos, ply, depth)
                return LineEnd(None, here)
            if resolved.turn:
                ply += 1
            after, events = apply(pos, resolved.move)
            notes = resolved.notes
            if every or notes or (node.number is not None and not _fits(node, number_of(pos))):
                move = resolved.move
                visit(make((ply, node, pos, move, after, events, notes, depth, None)))
            if trail is not None:
                trail.append((ply, pos, resolved.move, after, events))
                if len(trail) >= BATCH:
                    self.visitor.main_moves(trail)
                    trail = self.trail = []
            if node.variations:
                self.branches(node, pos, ply - 1 if resolved.turn else ply, depth)
            pos = after
        return LineEnd(pos, ply)

    def branches(self, node: MoveNode, pos: Any, ply: int, depth: int) -> None:
        if not self.variations:
            return
        for variation in node.variations:
            self.visitor.begin_variation(node, pos, ply, depth + 1)
            end = self.line(variation.moves, pos, ply, depth + 1)
            self.visitor.end_variation(node, end, depth + 1)


def _fits(node: MoveNode, number: MoveNumber) -> bool:
    """Whether the number written before ``node`` is the one its position has."""
    return number.turn and node.number == number.number and node.dots == number.dots


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
    """Every move of the main line (or up to its ``upto``-th turn) with its positions;
    raises :class:`ReplayError` at an illegal move."""
    collect = _Collect(replay)
    walk(replay, line, collect, variations=False, upto=upto)
    return collect.steps


class _Found(Exception):
    """Stops the walk once the move looked for has been played."""


class _PathTo(Visitor):
    """Keeps the steps that lead to the current move (through its variations) and stops
    at the ``target``-th move of the record in file order."""

    def __init__(self, replay: Replay, target: int) -> None:
        self.replay = replay
        self.target = target
        self.count = 0
        self.lines: list[list[Step]] = [[]]
        self.held: list[Step] = []  # the moves each open variation replaces
        self.found: list[Step] = []

    def step(self, step: Step) -> None:
        if step.error is not None:
            label = self.replay.label(step.before)
            raise ReplayError(step.ply, label, step.node.turn.text(), step.error, step.depth > 0)
        self.lines[-1].append(step)
        self.count += 1
        if self.count == self.target:
            self.found = [s for line in self.lines for s in line]
            raise _Found

    def begin_variation(self, node: MoveNode, before: Any, ply: int, depth: int) -> None:
        # the variation replaces the parent's last move: its path leaves that move out
        parent = self.lines[-1]
        self.lines[-1] = parent[:-1]
        self.lines.append([])
        self.held.append(parent[-1])

    def end_variation(self, node: MoveNode, end: LineEnd, depth: int) -> None:
        self.lines.pop()
        self.lines[-1].append(self.held.pop())


def path_to(replay: Replay, line: Line, move: int) -> list[Step]:
    """The steps from the start to the ``move``-th move of the record in file order
    (1 is the first move of the main line; every move of every variation counts, as the
    replay page numbers them), through the variations it lies in.  Raises
    :class:`ReplayError` at an illegal move on the way and :class:`IndexError` when the
    record has fewer moves."""
    if move < 1:
        raise IndexError(move)
    visitor = _PathTo(replay, move)
    try:
        walk(replay, line, visitor)
    except _Found:
        return visitor.found
    raise IndexError(move)


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
