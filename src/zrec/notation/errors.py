"""Syntax errors of the notation: where, what was found, what was expected.

A :class:`SyntaxProblem` is data (the reader collects them and goes on);
:class:`ZrecSyntaxError` is the exception the single-call API raises with one.
Both print as one paragraph that names the place and shows the line with a caret.
Control characters of the shown line are escaped (``\\x00``, ``\\r``, ``\\x1b``), so that
a terminal shows them as text and the caret stays under its character.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zrec.errors import ZrecError

_CONTEXT = 72  # characters of the source line shown around the error
# C0 controls but tab, DEL, C1 controls, and the two Unicode line and paragraph breaks
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r"}


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
        line = self.source_line.rstrip("\r\n")
        col = max(self.column - 1, 0)
        # at most _CONTEXT characters either side: escapes only make the text longer
        low, high = max(0, col - _CONTEXT), col + _CONTEXT
        text, caret = _escaped(line[low:high], col - low)
        cut_left, cut_right = low > 0, high < len(line)
        if len(text) <= _CONTEXT and not (cut_left or cut_right):
            return text, min(caret, len(text))
        start = max(0, min(caret - _CONTEXT // 2, len(text) - _CONTEXT))
        piece = text[start : start + _CONTEXT]
        caret -= start
        if start > 0 or cut_left:
            piece = "..." + piece[3:]
        if start + _CONTEXT < len(text) or cut_right:
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


def _escaped(text: str, col: int) -> tuple[str, int]:
    """``text`` with tabs as spaces and control characters escaped, and where the
    character at offset ``col`` now stands."""
    text = text.replace("\t", " ")
    if _CONTROL.search(text) is None:
        return text, col
    shown = [_escape(c) if _CONTROL.match(c) else c for c in text]
    return "".join(shown), sum(len(s) for s in shown[:col]) + max(0, col - len(shown))


def _escape(char: str) -> str:
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


class ZrecSyntaxError(ZrecError, ValueError):
    """Raised by the single-call API (:func:`zrec.read_game`) for invalid notation."""

    def __init__(self, problem: SyntaxProblem):
        super().__init__(problem.format())
        self.problem = problem
