"""Replaying records through the rules: diagnostics for every problem found.

For each game: its syntax, its ``Game`` tag and rule-option tags, its ``Setup``,
then every move of the main line and of every variation (each from the position it
branches from), then its result.  The first illegal move of a line stops that line:
the moves after it cannot be checked.  Every problem is a :class:`Diagnostic` with a
stable code, a severity, the place (file, game, line, column, ply) and a message a
player understands.  The moves are played by the walker of :mod:`zrec.play`; this
module is its visitor.  Nothing here knows any game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from zrec.check.diagnostics import Diagnostic, GameReport
from zrec.notation.errors import SyntaxProblem
from zrec.notation.model import Game, MoveNode
from zrec.notation.reader import Record
from zrec.play import GameSetupError, LineEnd, Replay, Step, Visitor, prepare, walk
from zrec.play.ending import judge_ending
from zrec.play.walk import Played
from zrec.rules.base import AmbiguousMoveError, IllegalMoveError, MoveNumber, Severity

if TYPE_CHECKING:
    from zrec.notation.json.convert import JsonRecord

MAX_LEGAL_SHOWN = 12


class _Checker(Visitor):
    """The validator's visitor: a diagnostic for every problem a step shows."""

    every_step = False  # a step whose number fits, with no notes and no error, is fine

    def __init__(self, report: GameReport, replay: Replay) -> None:
        self.report = report
        self.replay = replay
        self.engine = replay.engine

    def add(
        self,
        code: str,
        severity: Severity,
        message: str,
        node: MoveNode | None = None,
        ply: int | None = None,
    ) -> None:
        span = node.span if node is not None else None
        self.report.diagnostics.append(
            Diagnostic(
                code,
                severity,
                self.report.file,
                self.report.number,
                span.line if span else self.report.line,
                span.column if span else 1,
                message,
                ply,
                node.turn.text() if node is not None else None,
            )
        )

    def add_at_tag(
        self, game: Game, tag: str, code: str, severity: Severity, message: str
    ) -> None:
        """A problem with a tag, at the tag's own place (the game's first line when the
        record has no spans, as a game read from JSON)."""
        span = game.tag_span(tag)
        report = self.report
        line, column = (span.line, span.column) if span else (report.line, 1)
        report.diagnostics.append(
            Diagnostic(code, severity, report.file, report.number, line, column, message)
        )

    def step(self, step: Step) -> None:
        node = step.node
        if node.number is not None:
            number = self.engine.move_number(step.before)
            if not (number.turn and node.number == number.number and node.dots == number.dots):
                self._wrong_number(node, number, step.ply)
        if step.error is not None:
            where = " (in a variation)" if step.depth else ""
            self._illegal(node, step.before, step.ply, step.error, where)
        elif step.notes:
            where = " (in a variation)" if step.depth else ""
            label = self.replay.label(step.before)
            for note in step.notes:
                message = f"{label}{where}: {note.message}"
                self.add(note.code, note.severity, message, node, step.ply)

    def _illegal(
        self, node: MoveNode, pos: Any, ply: int, exc: IllegalMoveError, where: str
    ) -> None:
        text = node.turn.text()
        label = self.replay.label(pos)
        outcome = self.engine.outcome(pos)
        if outcome is not None:
            self.add(
                "game-over",
                "error",
                f"{label}{where}: {text} is played after the game has ended ({outcome.reason})",
                node,
                ply,
            )
            return
        if isinstance(exc, AmbiguousMoveError):
            message = f"{text} is ambiguous: {exc.reason}"
        else:
            message = f"{text} is illegal: {exc.reason}; {_legal_list(exc.legal)}"
        self.add(exc.code, "error", f"{label}{where}: {message}", node, ply)

    def _wrong_number(self, node: MoveNode, number: MoveNumber, ply: int) -> None:
        seat = self.engine.seats[number.seat]
        written = MoveNumber(node.number or 0, node.dots).text()
        if not number.turn:
            message = (
                f"the move number {written} does not fit: this move is not a turn and "
                f"carries no number ({seat})"
            )
        else:
            message = (
                f"the move number {written} does not fit: this is {number.text()} ({seat} to move)"
            )
        self.add("move-number", "warning", message, node, ply)


class _Both(Visitor):
    """The checker and an observer, shown the same steps (every step, unless the
    observer takes the main line's moves in batches and no steps but the checker's)."""

    def __init__(self, checker: _Checker, observer: Visitor) -> None:
        self.checker = checker
        self.observer = observer
        self.every_step = observer.every_step
        self.batches = observer.batches
        self.keyed = observer.keyed

    def step(self, step: Step) -> None:
        # the checker sees what the walker would show it alone (it checks nothing else)
        if step.error is not None or step.notes or step.node.number is not None:
            self.checker.step(step)
        self.observer.step(step)

    def begin_variation(self, node: MoveNode, before: Any, ply: int, depth: int) -> None:
        self.checker.begin_variation(node, before, ply, depth)
        self.observer.begin_variation(node, before, ply, depth)

    def end_variation(self, node: MoveNode, end: LineEnd, depth: int) -> None:
        self.checker.end_variation(node, end, depth)
        self.observer.end_variation(node, end, depth)

    def main_moves(self, moves: list[Played]) -> None:
        self.observer.main_moves(moves)

    def main_keys(
        self, keys: list[bytes], removals: list[tuple[int, tuple[int, ...]]]
    ) -> None:
        self.observer.main_keys(keys, removals)


#: Makes a visitor that watches the validator's walk (given the game's replay).
Observe = Callable[[Replay], Visitor]


def _legal_list(legal: tuple[str, ...]) -> str:
    if not legal:
        return "there is no legal move"
    shown = ", ".join(legal[:MAX_LEGAL_SHOWN])
    more = len(legal) - MAX_LEGAL_SHOWN
    return f"legal moves: {shown}" + (f" and {more} more" if more > 0 else "")


def validate_game(
    game: Game,
    file: str = "<input>",
    number: int = 1,
    line: int = 1,
    observe: Observe | None = None,
) -> GameReport:
    """Check one game read without syntax errors.

    ``observe``, when given, makes a visitor that is shown every step of the same walk
    (the archive indexes positions this way without replaying the game twice); it is
    not called for a game whose tags cannot be replayed.
    """
    report = GameReport(file, number, line)
    tags = game.tag_map()
    try:
        replay = prepare(game, tags)
    except GameSetupError as exc:
        report.checked = exc.code != "not-checked"
        span = game.tag_span(exc.tag) if exc.tag else None
        where = (span.line, span.column) if span else (line, 1)
        report.diagnostics.append(
            Diagnostic(exc.code, exc.severity, file, number, *where, exc.message)
        )
        return report
    checker = _Checker(report, replay)
    visitor: Visitor = checker if observe is None else _Both(checker, observe(replay))
    end = walk(replay, game.line, visitor)
    report.plies = end.ply
    stated = tags.get("Result")
    if stated is not None and stated.strip() != game.result:
        checker.add_at_tag(
            game,
            "Result",
            "result-tag",
            "error",
            f'[Result "{stated}"] does not agree with the result {game.result} that ends '
            "the movetext",
        )
    if end.position is not None:
        report.over = replay.engine.outcome(end.position) is not None
        for finding in judge_ending(replay.engine, end.position, game.result, tags):
            if finding.tag is not None and game.tag_span(finding.tag) is not None:
                checker.add_at_tag(
                    game, finding.tag, finding.code, finding.severity, finding.message
                )
            else:
                last = game.line.moves[-1] if game.line.moves else None
                ply = end.ply or None
                checker.add(finding.code, finding.severity, finding.message, last, ply)
    if len(report.diagnostics) > 1:
        report.diagnostics.sort(key=lambda d: (d.line, d.column))  # file order
    return report


def validate_record(
    record: Record | JsonRecord, file: str, observe: Observe | None = None
) -> GameReport:
    """Check one record as read from a file, zrec text or JSON (a syntax problem is an
    error too, and each note of the reader, such as ``typography``, a warning)."""

    def diagnostic(problem: SyntaxProblem, severity: Severity) -> Diagnostic:
        # the source line and the caret (a JSON problem has none: its message may be
        # of several lines, a move's own syntax error)
        shown = problem.format().splitlines()[1:] if problem.source_line else []
        return Diagnostic(
            problem.code,
            severity,
            file,
            record.number,
            problem.line,
            problem.column,
            problem.message,
            excerpt="\n".join(shown),
        )

    notes = [diagnostic(note, "warning") for note in record.notes]
    if record.game is None:
        assert record.problem is not None
        report = GameReport(file, record.number, record.line)
        report.diagnostics.extend(notes)
        report.diagnostics.append(diagnostic(record.problem, "error"))
        return report
    report = validate_game(record.game, file, record.number, record.line, observe)
    report.diagnostics[:0] = notes
    return report


def validate_records(records: Iterable[Record | JsonRecord], file: str) -> Iterator[GameReport]:
    """Check every record of a file, one at a time."""
    for record in records:
        yield validate_record(record, file)
