"""The reader's words: what was found where, and what the grammar expected there.

These functions turn a failed parse, a run of text that is not a token, or a tag
pair whose string runs to the end of its line into the message of a
:class:`~zrec.notation.errors.SyntaxProblem`.  They only describe; the reader
decides where a game breaks and how reading goes on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from zrec.notation.errors import SyntaxProblem
from zrec.notation.grammar import ParseError, TokenT, parse_tokens

# Friendly names of terminals, for "expected ..." in error messages.
DESCRIPTIONS = {
    "TAG_PAIR": 'a tag pair [Name "value"]',
    "MOVE_NUMBER": "a move number",
    "ACTION": "a move",
    "DICE": "a dice roll",
    "SUFFIX": "an annotation (! ? !! ?? !? ?!)",
    "NAG": "a NAG ($n)",
    "BRACE_COMMENT": "a comment",
    "LINE_COMMENT": "a comment",
    "LPAR": "a variation '('",
    "RPAR": "')' closing the variation",
    "COMMA": "',' and another action of the turn",
    "RESULT": "the result (1-0, 0-1, 1/2-1/2 or *)",
    "$END": "the end of the game",
}

# ``[Name "`` and a string that reaches the end of its line without its closing quote
_OPEN_TAG = re.compile(
    r'\[[ \t]?[A-Za-z][A-Za-z0-9_]*[ \t]+"[^"\\\r\n]*(?:\\[^\r\n][^"\\\r\n]*)*\\?\r?\n?\Z'
)


def unclosed_tag(text: str, pos: int) -> int | None:
    """The 0-based offset of the opening quote if ``text[pos:]`` is a tag pair whose
    string is not closed before the end of the line, else ``None``."""
    if _OPEN_TAG.match(text, pos) is None:
        return None
    return text.index('"', pos)


def unclosed_tag_message(line: int, quote_column: int) -> str:
    return (
        f"the tag string opened at line {line}, column {quote_column} is not closed before "
        'the end of the line: a tag pair [Name "value"] is written on one line'
    )


def bad_token(text: str, pos: int) -> str:
    """The run of text that failed to lex: up to white space, a comment or a brace."""
    end = pos + 1
    length = len(text)
    while end < length and not text[end].isspace() and text[end] not in "{};":
        end += 1
    return text[pos:end]


def explain(
    exc: ParseError,
    tokens: Sequence[TokenT],
    lines: Mapping[int, str],
    start_line: int,
    file: str,
) -> SyntaxProblem:
    """The problem of a game whose tokens the grammar refused at ``exc.token``."""
    kind, value, line, column = exc.token
    names = set(exc.expected)
    depth = 0
    for token in tokens:
        if token is exc.token:
            break
        depth += (token[0] == "LPAR") - (token[0] == "RPAR")
    if depth <= 0:  # LALR shares states between lines and variations
        names.discard("RPAR")
    expected = _expected_words(names)
    if kind == "$END":
        last = tokens[-1] if tokens else None
        line = last[2] if last else start_line
        column = (last[3] + len(last[1])) if last else 1
        return SyntaxProblem(
            "truncated",
            f"the file ends before this game's result; expected {expected}",
            line,
            column,
            lines.get(line, ""),
            file,
        )
    found = _shown(value)
    if kind == "GARBAGE":
        message = f"found {found}, which is {_garbage_kind(value)}; expected {expected}"
    else:
        message = f"found {found} ({_describe(kind)}); expected {expected}"
    return SyntaxProblem("syntax", message, line, column, lines.get(line, ""), file)


def refused(
    tokens: Sequence[TokenT], lines: Mapping[int, str], start_line: int, file: str
) -> SyntaxProblem:
    """The problem of a game whose tokens so far end in one the grammar cannot take
    (a ')' that closes no variation): the grammar's own, as if the game were read."""
    try:
        parse_tokens(tokens)
    except ParseError as exc:
        return explain(exc, tokens, lines, start_line, file)
    raise AssertionError("the grammar took a token it cannot take")


def _garbage_kind(text: str) -> str:
    if text.startswith("["):
        return 'not a well-formed tag pair [Name "value"]'
    if text.startswith("}"):
        return "a '}' with no comment open"
    return "not a move, a move number, a comment, a NAG or a result"


def _shown(value: str) -> str:
    if len(value) > 40:
        value = value[:37] + "..."
    # characters one cannot see are named, e.g. \u00a0 for a no-break space
    shown = "".join(c if _visible(c) else f"\\u{ord(c):04x}" for c in value)
    return f"'{shown}'"


def _visible(c: str) -> bool:
    return c == " " or (c.isprintable() and not c.isspace())


def _describe(kind: str) -> str:
    return DESCRIPTIONS.get(kind, kind.lower())


def _expected_words(names: Iterable[str]) -> str:
    words: list[str] = []
    for name in sorted(
        names, key=lambda n: list(DESCRIPTIONS).index(n) if n in DESCRIPTIONS else 99
    ):
        word = _describe(name)
        if word not in words:
            words.append(word)
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]
