"""Typographic characters pasted from a paper, read as the ASCII they stand for.

A record copied out of a typeset text often has an en dash for ``-`` (``b6–b5``), a
multiplication sign for ``x`` (``b4×b6``), curly quotes around a tag value or a
no-break space between tokens.  Outside comments and tag values each of these is
read as its ASCII character, one character for one, so that line and column numbers
do not change; the reader then gives the game one ``typography`` warning.  Inside a
comment or a tag value the characters are content and are kept.

The reader asks :func:`to_ascii` only about lines that are not ASCII.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zrec.notation.errors import SyntaxProblem

#: Each typographic character read outside comments and tag values, and its ASCII.
ASCII_FOR: dict[str, str] = {
    "\u2010": "-",  # hyphen
    "\u2011": "-",  # non-breaking hyphen
    "\u2012": "-",  # figure dash
    "\u2013": "-",  # en dash
    "\u2014": "-",  # em dash
    "\u2212": "-",  # minus sign
    "\u00d7": "x",  # multiplication sign
    "\u201c": '"',  # left double quotation mark
    "\u201d": '"',  # right double quotation mark
    "\u201e": '"',  # double low-9 quotation mark
    "\u201f": '"',  # double high-reversed-9 quotation mark
    "\u2033": '"',  # double prime
    "\u00a0": " ",  # no-break space
    "\u2007": " ",  # figure space
    "\u202f": " ",  # narrow no-break space
}

_TYPO = "".join(ASCII_FOR)
_SPACES = "\u00a0\u2007\u202f"
_QUOTES = '"' + "".join(c for c, a in ASCII_FOR.items() if a == '"')
_ANY = re.compile(f"[{_TYPO}]")
# where the state can change, or a character to read as ASCII
_NEXT = re.compile(f"[{{;\\[{_TYPO}]")
# the start of a tag pair, up to and with its opening quote (straight or typographic)
_TAG_OPEN = re.compile(f"\\[[ \\t{_SPACES}]?[A-Za-z][A-Za-z0-9_]*[ \\t{_SPACES}]+([{_QUOTES}])")
# a tag value: up to its closing quote; a typographic opening quote is closed by any quote
# (runs of plain characters between escapes: a long value costs the regular expression
# engine no state for each character)
_PLAIN_VALUE = re.compile(r'[^"\\\n]*(?:\\.[^"\\\n]*)*')
_TYPO_VALUE = re.compile(f"[^{_QUOTES}\\\\\\n]*(?:\\\\.[^{_QUOTES}\\\\\\n]*)*")

_NAMES = {
    "\u00a0": "U+00A0 no-break space",
    "\u2007": "U+2007 figure space",
    "\u202f": "U+202F narrow no-break space",
    "\u2011": "U+2011 non-breaking hyphen",
}

#: (line, column, character, the source line) of one character read as ASCII
Mark = tuple[int, int, str, str]


def has_typography(text: str) -> bool:
    """Whether ``text`` holds any character of :data:`ASCII_FOR`."""
    return _ANY.search(text) is not None


def to_ascii(text: str, pos: int = 0) -> tuple[str, list[int]]:
    """``text`` with the characters of :data:`ASCII_FOR` that stand from ``pos`` on,
    outside comments and tag values, replaced by their ASCII; and their offsets.

    ``text`` is one line; ``pos`` is where reading it starts (after the end of a
    comment begun on an earlier line).  The result has the same length as ``text``.
    """
    found: list[int] = []
    search = _NEXT.search
    length = len(text)
    while (hit := search(text, pos)) is not None:
        i = hit.start()
        char = text[i]
        if char == "{":
            end = text.find("}", i + 1)
            if end < 0:
                break
            pos = end + 1
        elif char == ";":
            break
        elif char == "[":
            tag = _TAG_OPEN.match(text, i)
            if tag is None:
                pos = i + 1
                continue
            found.extend(j for j in range(i, tag.end()) if text[j] in ASCII_FOR)
            quote = tag.group(1)
            value = (_PLAIN_VALUE if quote == '"' else _TYPO_VALUE).match(text, tag.end())
            assert value is not None
            pos = value.end()
            if pos < length and text[pos] in _QUOTES:
                if text[pos] != '"':
                    found.append(pos)
                pos += 1
        else:
            found.append(i)
            pos = i + 1
    if not found:
        return text, found
    chars = list(text)
    for i in found:
        chars[i] = ASCII_FOR[text[i]]
    return "".join(chars), found


def typography_note(marks: Sequence[Mark], file: str) -> SyntaxProblem:
    """The one ``typography`` warning of a game: where the first character stands,
    which characters were read as what, and in how many places."""
    line, column, _, source = marks[0]
    seen: dict[str, None] = {}
    for mark in marks:
        seen.setdefault(mark[2], None)
    named = ", ".join(f"{_NAMES.get(c, c)} as {_shown_ascii(ASCII_FOR[c])}" for c in seen)
    places = f"{len(marks)} place{'s' * (len(marks) != 1)}"
    message = f"typographic characters read as ASCII: {named} ({places})"
    return SyntaxProblem("typography", message, line, column, source, file)


class Marks:
    """The characters a reader has read as ASCII and not yet given to a game."""

    def __init__(self) -> None:
        self.marks: list[Mark] = []

    def __bool__(self) -> bool:
        return bool(self.marks)

    def read(self, number: int, text: str, pos: int) -> str:
        """Line ``number`` read from ``pos`` with its typographic characters as ASCII;
        they are noted."""
        ascii_text, found = to_ascii(text, pos)
        self.marks.extend((number, i + 1, text[i], text) for i in found)
        return ascii_text

    def notes(self, upto: tuple[int, int] | None, file: str) -> tuple[SyntaxProblem, ...]:
        """The note of the game that ends at ``upto`` (``None``: all that is noted)."""
        marks = self.marks
        cut = len(marks)
        if upto is not None:
            cut = next((i for i, m in enumerate(marks) if (m[0], m[1]) >= upto), cut)
        mine, self.marks = marks[:cut], marks[cut:]
        return (typography_note(mine, file),) if mine else ()


def _shown_ascii(char: str) -> str:
    return "space" if char == " " else char
