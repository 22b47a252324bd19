"""The reader's short ways through the two most common kinds of line.

Most lines of a file are tag pairs or lines of moves and move numbers.  For these the
reader (:mod:`zrec.notation.reader`) does not run the lexer a token at a time:
:func:`plain_line` splits a line of moves at its spaces and looks each word up in a
table of the words seen so far; :func:`tag_line` matches a line that is one tag pair
at once.  Both give exactly the tokens the lexer would give, or leave the line to it
(tests/test_reader_lines.py compares them with the lexer).
"""

from __future__ import annotations

import re
from functools import cache

from zrec.notation.syntax import TokenT, token_regex
from zrec.notation.tables import tables

__all__ = ["plain_line", "tag_line"]


@cache
def tag_line() -> re.Pattern[str]:
    """A line that is one tag pair and white space after it (group 1: the pair)."""
    return re.compile("(" + tables().terminals["TAG_PAIR"] + r")[ \t\r\n]*")


#: each word seen in a line of moves: the kind of its token when the lexer reads it
#: as one move or move number whole, else ``""``
_WORDS: dict[str, str] = {}
_PLAIN_KINDS = frozenset(("ACTION", "MOVE_NUMBER"))


def _word_kind(word: str) -> str:
    """``ACTION`` or ``MOVE_NUMBER`` when the lexer, reading ``word`` between spaces,
    makes one token of that kind of the whole of it; else ``""``.

    A match between spaces is the match of the word alone: the only terminals that
    may hold a space begin with ``[``, ``{`` or ``;``, and a terminal's look-ahead
    (``_BOUNDARY``, ``_AFTER_MARK``) passes before a space as at the end of the text.
    """
    kind = ""
    if word[0] not in "[{;":
        found = token_regex().match(word)
        if found is not None and found.end() == len(word) and found.lastgroup in _PLAIN_KINDS:
            kind = found.lastgroup
    if len(_WORDS) > 10_000:
        _WORDS.clear()
    _WORDS[word] = kind
    return kind


def plain_line(text: str, number: int) -> list[TokenT] | None:
    """The tokens of an ASCII line that holds only moves and move numbers, between
    single or repeated spaces, as the lexer makes them (the same kinds, texts and
    columns); ``None`` for any other line, which the lexer reads.  Most lines of every
    file are such lines, and most of their words have been seen before: one split
    and a look-up a word, instead of a match a token."""
    tokens: list[TokenT] = []
    column = 1
    words = _WORDS
    for word in text.rstrip("\r\n").split(" "):
        if word:
            kind = words.get(word)
            if kind is None:
                kind = _word_kind(word)
            if not kind:
                return None
            tokens.append((kind, word, number, column))
        column += len(word) + 1
    return tokens
