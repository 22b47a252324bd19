"""Replaying records through the rules: diagnostics for every problem found.

For each game: its syntax, its ``Game`` tag and rule-option tags, its ``Setup``,
then every move of the main line and of every variation (each from the position it
branches from), then its result.  The first illegal move of a line stops that line:
the moves after it cannot be checked.  Every problem is a :class:`Diagnostic` with a
stable code, a severity, the place (file, game, line, column, ply) and a message a
player understands.  Nothing here knows any game: it uses only
:mod:`zrec.rules.base`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from zrec.notation.model import Game, Line, MoveNode
from zrec.notation.reader import Record
from zrec.rules import UnknownGame, find_game
from zrec.rules.base import (
    AmbiguousMove,
    GameRules,
    IllegalMove,
    OptionError,
    SetupError,
    Severity,
    Variant,
    check_options,
)

MAX_LEGAL_SHOWN = 12


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem in one record."""

    code: str
    severity: Severity
    file: str
    game: int
    line: int
    column: int
    message: str
    ply: int | None = None
    move: str | None = None
    #: for a syntax problem: the source line and a caret under the place
    excerpt: str = field(default="", compare=False)

    def format(self) -> str:
        """``file:line:column: severity[code] game N, ply P: message``, then the excerpt."""
        where = f"game {self.game}" + (f", ply {self.ply}" if self.ply is not None else "")
        head = (
            f"{self.file}:{self.line}:{self.column}: {self.severity}[{self.code}] "
            f"{where}: {self.message}"
        )
        return f"{head}\n{self.excerpt}" if self.excerpt else head

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        del out["excerpt"]
        return out


@dataclass(slots=True)
class GameReport:
    """What validating one record found."""

    file: str
    number: int
    line: int
    plies: int = 0
    checked: bool = True
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


class _Context:
    """The game being checked: where to report, and its engine."""

    def __init__(self, report: GameReport, variant: Variant[Any, Any], first_side: str):
        self.report = report
        self.variant = variant
        self.first_side = first_side

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


def _legal_list(legal: tuple[str, ...]) -> str:
    if not legal:
        return "there is no legal move"
    shown = ", ".join(legal[:MAX_LEGAL_SHOWN])
    more = len(legal) - MAX_LEGAL_SHOWN
    return f"legal moves: {shown}" + (f" and {more} more" if more > 0 else "")


def _replay(ctx: _Context, line: Line, pos: Any, ply: int, variation: bool) -> tuple[Any, int]:
    """Check the moves of a line from ``pos``; return the last position and ply reached.

    The position returned is ``None`` when the line stopped at an illegal move.
    """
    variant = ctx.variant
    resolve = variant.resolve
    apply = variant.apply
    where = " (in a variation)" if variation else ""
    for node in line.moves:
        ply += 1
        if node.number is not None:
            _check_number(ctx, node, pos, ply)
        for alternative in node.variations:
            _replay(ctx, alternative, pos, ply - 1, True)
        try:
            resolved = resolve(pos, node.turn)
        except IllegalMove as exc:
            _illegal(ctx, node, pos, ply, exc, where)
            return None, ply
        for note in resolved.notes:
            ctx.add(
                note.code, note.severity, f"{_label(ctx, pos)}{where}: {note.message}", node, ply
            )
        pos = apply(pos, resolved.move)
    return pos, ply


def _label(ctx: _Context, pos: Any) -> str:
    number, side = ctx.variant.turn_label(pos)
    return f"move {number} ({side})"


def _illegal(
    ctx: _Context, node: MoveNode, pos: Any, ply: int, exc: IllegalMove, where: str
) -> None:
    text = node.turn.text()
    outcome = ctx.variant.outcome(pos)
    if outcome is not None:
        ctx.add(
            "game-over",
            "error",
            f"{_label(ctx, pos)}{where}: {text} is played after the game has ended "
            f"({outcome.reason})",
            node,
            ply,
        )
        return
    if isinstance(exc, AmbiguousMove):
        message = f"{text} is ambiguous: {exc.reason}"
    else:
        message = f"{text} is illegal: {exc.reason}; {_legal_list(exc.legal)}"
    ctx.add(exc.code, "error", f"{_label(ctx, pos)}{where}: {message}", node, ply)


def _check_number(ctx: _Context, node: MoveNode, pos: Any, ply: int) -> None:
    number, side = ctx.variant.turn_label(pos)
    dots = 1 if side == ctx.first_side else 3
    if (node.number, node.dots) != (number, dots):
        written = f"{node.number}{'...' if node.dots == 3 else '.'}"
        expected = f"{number}{'...' if dots == 3 else '.'}"
        ctx.add(
            "move-number",
            "warning",
            f"the move number {written} does not fit: this is {expected} ({side} to move)",
            node,
            ply,
        )


def _setup(
    report: GameReport, game: Game, rules: GameRules
) -> tuple[Variant[Any, Any], Any] | None:
    tags = game.tag_map()

    def error(code: str, message: str) -> None:
        report.diagnostics.append(
            Diagnostic(code, "error", report.file, report.number, report.line, 1, message)
        )

    try:
        options = check_options(rules.options, tags)
    except OptionError as exc:
        error("bad-option", str(exc))
        return None
    variant = rules.variant(options)
    if variant is None:
        report.checked = False
        report.diagnostics.append(
            Diagnostic(
                "not-checked",
                "warning",
                report.file,
                report.number,
                report.line,
                1,
                f"zrec reads and writes {rules.title} records but has no rules engine for "
                "this game yet: its moves were not checked",
            )
        )
        return None
    setup = tags.get("Setup")
    if setup is None:
        return variant, variant.start()
    try:
        return variant, variant.setup(setup)
    except SetupError as exc:
        error("bad-setup", f'[Setup "{setup}"] is not a position of {rules.title}: {exc}')
        return None


def validate_game(game: Game, file: str = "<input>", number: int = 1, line: int = 1) -> GameReport:
    """Check one game read without syntax errors."""
    report = GameReport(file, number, line)
    try:
        rules = find_game(game.game_type)
    except UnknownGame as exc:
        report.diagnostics.append(
            Diagnostic("unknown-game", "error", file, number, line, 1, str(exc))
        )
        return report
    prepared = _setup(report, game, rules)
    if prepared is None:
        return report
    variant, start = prepared
    tags = game.tag_map()
    first_side = tags.get("First", rules.sides[0]).strip().capitalize()
    ctx = _Context(report, variant, first_side)
    end, plies = _replay(ctx, game.line, start, 0, False)
    report.plies = plies
    stated = tags.get("Result")
    if stated is not None and stated.strip() != game.result:
        ctx.add(
            "result-tag",
            "error",
            f'[Result "{stated}"] does not agree with the result {game.result} that ends '
            "the movetext",
        )
    if end is not None:
        last = game.line.moves[-1] if game.line.moves else None
        for finding in variant.judge_end(end, game.result, tags):
            ctx.add(finding.code, finding.severity, finding.message, last, plies or None)
    return report


def validate_record(record: Record, file: str) -> GameReport:
    """Check one record as read from a file (a syntax problem is an error too)."""
    if record.game is None:
        assert record.problem is not None
        problem = record.problem
        report = GameReport(file, record.number, record.line)
        excerpt = "\n".join(problem.format().splitlines()[1:])
        report.diagnostics.append(
            Diagnostic(
                problem.code,
                "error",
                file,
                record.number,
                problem.line,
                problem.column,
                problem.message,
                excerpt=excerpt,
            )
        )
        return report
    return validate_game(record.game, file, record.number, record.line)


@dataclass(slots=True)
class Summary:
    """Counts over every game checked."""

    games: int = 0
    valid: int = 0
    invalid: int = 0
    unchecked: int = 0
    errors: int = 0
    warnings: int = 0
    plies: int = 0

    def add(self, report: GameReport) -> None:
        self.games += 1
        self.plies += report.plies
        if not report.valid:
            self.invalid += 1
        elif report.checked:
            self.valid += 1
        else:
            self.unchecked += 1
        for diagnostic in report.diagnostics:
            if diagnostic.severity == "error":
                self.errors += 1
            else:
                self.warnings += 1

    def line(self) -> str:
        parts = [f"{self.games} game{'s' * (self.games != 1)} read", f"{self.valid} valid"]
        parts.append(f"{self.invalid} invalid")
        if self.unchecked:
            parts.append(f"{self.unchecked} not checked")
        parts.append(f"{self.warnings} warning{'s' * (self.warnings != 1)}")
        return ", ".join(parts)

    def to_json(self) -> dict[str, int]:
        return asdict(self)


def validate_records(records: Iterable[Record], file: str) -> Iterator[GameReport]:
    """Check every record of a file, one at a time."""
    for record in records:
        yield validate_record(record, file)
