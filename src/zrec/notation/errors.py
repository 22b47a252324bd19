"""Syntax errors of the notation: where, what was found, what was expected.

A :class:`SyntaxProblem` is data (the reader collects them and goes on);
:class:`ZrecSyntaxError` is the exception the single-call API raises with one.
Both print as one paragraph that names the place and shows the line with a caret.
"""

from __future__ import annotations

from dataclasses import dataclass

from zrec.errors import ZrecError

_CONTEXT = 72  # characters of the source line shown around the error


@dataclass(frozen=True, slots=True)
class SyntaxProblem:
    """A piece of a file that is not valid notation."""

    code: str
    message: str
    line: int
    column: int
    source_line: str = ""
    file: str = "<input>"

    def excerpt(self) -> tuple[str, int]:
        """The part of the source line shown, and the caret's 0-based offset in it."""
        text = self.source_line.rstrip("\r\n").replace("\t", " ")
        col = max(self.column - 1, 0)
        if len(text) <= _CONTEXT:
            return text, min(col, len(text))
        start = max(0, min(col - _CONTEXT // 2, len(text) - _CONTEXT))
        piece = text[start : start + _CONTEXT]
        caret = col - start
        if start > 0:
            piece, caret = "..." + piece[3:], caret
        if start + _CONTEXT < len(text):
            piece = piece[:-3] + "..."
        return piece, caret

    def format(self) -> str:
        """``file:line:column: message`` then the line with a caret under the place."""
        head = f"{self.file}:{self.line}:{self.column}: {self.message}"
        if not self.source_line:
            return head
        piece, caret = self.excerpt()
        gutter = f"{self.line:>5} | "
        return f"{head}\n{gutter}{piece}\n{' ' * (len(gutter) - 2)}| {' ' * caret}^"

    def __str__(self) -> str:
        return self.format()


class ZrecSyntaxError(ZrecError, ValueError):
    """Raised by the single-call API (:func:`zrec.read_game`) for invalid notation."""

    def __init__(self, problem: SyntaxProblem):
        super().__init__(problem.format())
        self.problem = problem
