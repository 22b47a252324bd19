"""Diagnostics and the report that shows them: what validating finds, and how it is told.

A :class:`Diagnostic` is one problem of one record, a :class:`GameReport` the problems
of one game, :class:`Totals` the counts over every game checked, and
:class:`ReportWriter` writes ``validate``'s report (human or JSON) as the games are
checked.  :mod:`zrec.check.validate` finds the problems; this module only holds and
shows them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from json.encoder import encode_basestring
from typing import Any

from zrec.check.tally import Tally
from zrec.rules.base import Severity


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
        before, after = self.format_parts()
        return f"{before}{self.game}{after}"

    def format_parts(self) -> tuple[str, str]:
        """What :meth:`format` gives, before the game number and after it (a worker
        process formats the problems of a game it does not know the number of)."""
        before = f"{self.file}:{self.line}:{self.column}: {self.severity}[{self.code}] game "
        after = (f", ply {self.ply}" if self.ply is not None else "") + f": {self.message}"
        return before, f"{after}\n{self.excerpt}" if self.excerpt else after

    def to_json(self) -> dict[str, Any]:
        """Every field but the excerpt, in their order."""
        return {
            "code": self.code,
            "severity": self.severity,
            "file": self.file,
            "game": self.game,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "ply": self.ply,
            "move": self.move,
        }

    def json_parts(self) -> tuple[str, str]:
        """The diagnostic as an element of the JSON report's ``diagnostics`` array,
        indented as ``json.dumps(..., indent=2)`` has it there, before the game number
        and after it."""
        items = [f'"{key}": {_scalar(value)}' for key, value in self.to_json().items()]
        text = "    {\n      " + ",\n      ".join(items) + "\n    }"
        at = text.index('\n      "game": ') + len('\n      "game": ')  # no string holds a
        return text[:at], text[text.index(",", at) :]  # line break: JSON escapes it


@dataclass(slots=True)
class GameReport:
    """What validating one record found."""

    file: str
    number: int
    line: int
    plies: int = 0
    checked: bool = True
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: the main line's last position ends the game by rule: no move can follow it
    over: bool = False

    @property
    def valid(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


def _scalar(value: object) -> str:
    """A number, a string or null as ``json.dumps(..., ensure_ascii=False)`` writes it."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return encode_basestring(value)
    if type(value) is int:
        return str(value)
    return json.dumps(value, ensure_ascii=False)


@dataclass(slots=True)
class Totals(Tally):
    """A validation's totals: counts over every game checked."""

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
            elif diagnostic.severity == "warning":
                self.warnings += 1

    def line(self) -> str:
        parts = [f"{self.games} game{'s' * (self.games != 1)} read", f"{self.valid} valid"]
        parts.append(f"{self.invalid} invalid")
        if self.unchecked:
            parts.append(f"{self.unchecked} not checked")
        parts.append(f"{self.warnings} warning{'s' * (self.warnings != 1)}")
        return ", ".join(parts)


#: A problem as the report shows it: the number of its game (in the input, or in the
#: piece of it that a worker read), the text before the number and the text after it
ShownProblem = tuple[int, str, str]


def shown_of(report: GameReport, as_json: bool, errors_only: bool = False) -> list[ShownProblem]:
    """The problems of a game as the report shows them (``errors_only``: warnings and
    infos left out)."""
    return [
        (d.game, *(d.json_parts() if as_json else d.format_parts()))
        for d in report.diagnostics
        if not errors_only or d.severity == "error"
    ]


class ReportWriter:
    """Writes ``validate``'s report as the games are checked: each problem when it is
    found, then the summary.

    Human: one problem a line (its excerpt after it), then the summary line.  JSON: the
    document ``{"diagnostics": [...], "summary": {...}}`` exactly as
    ``json.dumps(..., ensure_ascii=False, indent=2)`` would give it whole, written one
    element of ``diagnostics`` at a time (so nothing is kept to the end).
    """

    def __init__(self, write: Callable[[str], object], as_json: bool) -> None:
        self.write = write
        self.as_json = as_json
        self.count = 0

    def problems(self, shown: list[ShownProblem], games_before: int = 0) -> None:
        """Write problems, in one write; ``games_before``: the games of the input
        before the piece their game numbers count in."""
        if not shown:
            return
        texts = [f"{before}{game + games_before}{after}" for game, before, after in shown]
        if not self.as_json:
            self.write("\n".join(texts) + "\n")
        else:
            head = ",\n" if self.count else '{\n  "diagnostics": [\n'
            self.write(head + ",\n".join(texts))
        self.count += len(texts)

    def end(self, totals: Totals) -> None:
        """Write the summary: the end of the report."""
        if not self.as_json:
            self.write(totals.line() + "\n")
            return
        counts = json.dumps(totals.to_json(), ensure_ascii=False, indent=2)
        head = "\n  ],\n" if self.count else '{\n  "diagnostics": [],\n'
        self.write(head + '  "summary": ' + counts.replace("\n", "\n  ") + "\n}\n")
