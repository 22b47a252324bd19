"""Read games from a file of any size, one at a time, and go on after a broken one.

The reader decodes the file line by line (so memory holds one game, not the file),
makes tokens with the grammar's terminals, splits the token stream into games at
their result tokens, and parses each game with the LALR parser.  A game with a
syntax error becomes a :class:`Record` holding the first problem; reading goes on
with the next game.  Recovery rules (documented in docs/notation.md):

* a tag pair after the movetext has begun starts a new game: the previous game has
  no result;
* a comment never closed is reported where it opens, and reading resumes at the
  first line inside it that begins with a tag pair;
* bytes that are not UTF-8 break the game they are in.
"""

from __future__ import annotations

import codecs
import io
import os
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from zrec.notation.errors import SyntaxProblem, ZrecSyntaxError
from zrec.notation.model import MAX_VARIATION_DEPTH, Game
from zrec.notation.syntax import DESCRIPTIONS, ParseError, TokenT, parse_tokens, token_regex

_TAG_START = "["


@dataclass(frozen=True, slots=True)
class Record:
    """One game as read from a file: the game, or the problem that broke it."""

    number: int  # 1-based position of the game in its file
    line: int  # the line the game starts on
    game: Game | None
    problem: SyntaxProblem | None = None

    @property
    def ok(self) -> bool:
        return self.game is not None


class _Pending:
    """The tokens and source lines of the game being read."""

    def __init__(self) -> None:
        self.tokens: list[TokenT] = []
        self.lines: dict[int, str] = {}
        self.problem: SyntaxProblem | None = None
        self.moves_started = False
        self.start_line = 0
        self.depth = 0  # variations open

    def add_problem(self, problem: SyntaxProblem) -> None:
        if self.problem is None:
            self.problem = problem


def read_records(
    source: str | os.PathLike[str] | BinaryIO, name: str | None = None
) -> Iterator[Record]:
    """Yield every game of a file (a path, ``-`` for standard input, or a binary stream)."""
    if isinstance(source, (str, os.PathLike)):
        if str(source) == "-":
            yield from _Reader(sys.stdin.buffer, name or "<stdin>").records()
            return
        with open(source, "rb") as stream:
            yield from _Reader(stream, name or str(source)).records()
        return
    yield from _Reader(source, name or str(getattr(source, "name", "<input>"))).records()


def read_text(text: str, name: str = "<input>") -> Iterator[Record]:
    """Yield every game of a string."""
    return _Reader(io.BytesIO(text.encode("utf-8")), name).records()


def read_games(
    source: str | os.PathLike[str] | BinaryIO, name: str | None = None
) -> Iterator[Game]:
    """Yield every game of a file; raises :class:`ZrecSyntaxError` at the first broken game."""
    for record in read_records(source, name):
        if record.problem is not None:
            raise ZrecSyntaxError(record.problem)
        assert record.game is not None
        yield record.game


def read_game(text: str, name: str = "<input>") -> Game:
    """The one game in ``text``; raises :class:`ZrecSyntaxError`."""
    records = list(read_text(text, name))
    if not records:
        raise ZrecSyntaxError(SyntaxProblem("syntax", "no game found", 1, 1, "", name))
    if len(records) > 1:
        second = records[1]
        raise ZrecSyntaxError(
            SyntaxProblem("syntax", "more than one game found", second.line, 1, "", name)
        )
    record = records[0]
    if record.problem is not None:
        raise ZrecSyntaxError(record.problem)
    assert record.game is not None
    return record.game


class _Reader:
    def __init__(self, stream: BinaryIO, name: str) -> None:
        self.stream = stream
        self.name = name
        self.regex = token_regex()
        self.count = 0
        self.game = _Pending()
        self.replay: deque[tuple[int, bytes]] = deque()
        self.line_number = 0

    # ------------------------------------------------------------ line source

    def _next_line(self, stream_lines: Iterator[bytes]) -> tuple[int, bytes] | None:
        if self.replay:
            return self.replay.popleft()
        raw = next(stream_lines, None)
        if raw is None:
            return None
        self.line_number += 1
        if self.line_number == 1 and raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8) :]
        return self.line_number, raw

    def _decode(self, number: int, raw: bytes) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            column = len(raw[: exc.start].decode("utf-8", "replace")) + 1
            text = raw.decode("utf-8", "replace")
            if not self.game.tokens and self.game.problem is None:
                self.game.start_line = number
            self.game.lines.setdefault(number, text)
            self.game.add_problem(
                self._problem(
                    "encoding",
                    f"the file is not valid UTF-8 here (byte 0x{raw[exc.start]:02x})",
                    number,
                    column,
                )
            )
            return text

    # ------------------------------------------------------------ records

    def records(self) -> Iterator[Record]:
        match = self.regex.match
        in_comment: tuple[int, int, list[str]] | None = None  # start line, column, parts
        saved: list[tuple[int, bytes]] = []  # lines to read again if a comment never closes
        stream_lines = iter(self.stream)
        done: list[Record] = []
        while True:
            item = self._next_line(stream_lines)
            if item is None:
                if in_comment is None:
                    break
                start_line, start_col, _ = in_comment
                in_comment = None
                self.game.add_problem(
                    self._problem(
                        "unclosed-comment",
                        "this comment is never closed: '{' has no matching '}'",
                        start_line,
                        start_col,
                    )
                )
                yield self._finish()
                # read again, as ordinary text, the lines the open comment swallowed
                self.replay.extend(saved)
                saved = []
                continue
            number, raw = item
            text = self._decode(number, raw)
            pos = 0
            game = self.game
            if in_comment is not None:
                end = text.find("}")
                if end < 0:
                    in_comment[2].append(text)
                    if saved or text.lstrip().startswith(_TAG_START):
                        saved.append((number, raw))
                    continue
                start_line, start_col, parts = in_comment
                parts.append(text[: end + 1])
                in_comment = None
                saved = []
                game.lines.setdefault(number, text)
                self._feed(("BRACE_COMMENT", "".join(parts), start_line, start_col), done)
                pos = end + 1
            length = len(text)
            tokens = game.tokens
            while pos < length:
                found = match(text, pos)
                if found is None:
                    if text[pos] == "{":
                        game.lines.setdefault(number, text)
                        in_comment = (number, pos + 1, [text[pos:]])
                        break
                    bad = _bad_token(text, pos)
                    token: TokenT = ("GARBAGE", bad, number, pos + 1)
                    pos += len(bad)
                else:
                    kind = found.lastgroup
                    pos = found.end()
                    if kind == "WHITESPACE":
                        continue
                    token = (kind, found.group(), number, found.start() + 1)  # type: ignore[assignment]
                    if kind == "ACTION" or kind == "MOVE_NUMBER":
                        # the common case, kept short: nothing can end or split the game
                        if not tokens:
                            game.start_line = number
                            game.lines[number] = text
                        elif number not in game.lines:
                            game.lines[number] = text
                        tokens.append(token)
                        game.moves_started = True
                        continue
                game.lines.setdefault(number, text)
                self._feed(token, done)
                if done:
                    yield from done
                    done.clear()
                    game = self.game
                    tokens = game.tokens
                    game.lines.setdefault(number, text)
        if self.game.tokens or self.game.problem is not None:
            yield self._finish()

    # ------------------------------------------------------------ game splitting

    def _feed(self, token: TokenT, done: list[Record]) -> None:
        game = self.game
        kind = token[0]
        if kind == "TAG_PAIR" and game.moves_started:
            last = game.tokens[-1]
            game.add_problem(
                self._problem(
                    "missing-result",
                    "the game has no result: a result (1-0, 0-1, 1/2-1/2 or *) must end it "
                    "before the next game's tags",
                    last[2],
                    last[3] + len(last[1]),
                )
            )
            done.append(self._finish())
            lines = game.lines
            game = self.game
            if token[2] in lines:
                game.lines[token[2]] = lines[token[2]]
        if not game.tokens and game.start_line == 0:
            game.start_line = token[2]
        game.tokens.append(token)
        if kind != "TAG_PAIR":
            game.moves_started = True
        if kind == "LPAR":
            game.depth += 1
            if game.depth > MAX_VARIATION_DEPTH:
                game.add_problem(
                    self._problem(
                        "syntax",
                        f"variations are nested more than {MAX_VARIATION_DEPTH} deep here",
                        token[2],
                        token[3],
                    )
                )
        elif kind == "RPAR":
            game.depth -= 1
        if kind == "RESULT":
            done.append(self._finish())

    def _finish(self) -> Record:
        game = self.game
        self.game = _Pending()
        self.count += 1
        start = game.start_line or (game.tokens[0][2] if game.tokens else 1)
        if game.problem is None:
            try:
                parsed = parse_tokens(game.tokens)
            except ParseError as exc:
                game.problem = self._explain(exc, game)
            else:
                if not (parsed.tag("Game") or "").strip():
                    game.problem = self._problem(
                        "missing-tag",
                        'the game has no [Game "..."] tag naming what game it records',
                        start,
                        1,
                        game.lines.get(start, ""),
                    )
                else:
                    return Record(self.count, start, parsed)
        problem = game.problem
        if problem is not None and not problem.source_line:
            problem = SyntaxProblem(
                problem.code,
                problem.message,
                problem.line,
                problem.column,
                game.lines.get(problem.line, ""),
                problem.file,
            )
        return Record(self.count, start, None, problem)

    # ------------------------------------------------------------ messages

    def _problem(
        self, code: str, message: str, line: int, column: int, source: str = ""
    ) -> SyntaxProblem:
        return SyntaxProblem(
            code, message, line, column, source or self.game.lines.get(line, ""), self.name
        )

    def _explain(self, exc: ParseError, game: _Pending) -> SyntaxProblem:
        kind, value, line, column = exc.token
        names = set(exc.expected)
        depth = 0
        for token in game.tokens:
            if token is exc.token:
                break
            depth += (token[0] == "LPAR") - (token[0] == "RPAR")
        if depth <= 0:  # LALR shares states between lines and variations
            names.discard("RPAR")
        expected = _expected_words(names)
        if kind == "$END":
            last = game.tokens[-1] if game.tokens else None
            line = last[2] if last else game.start_line
            column = (last[3] + len(last[1])) if last else 1
            return SyntaxProblem(
                "truncated",
                f"the file ends before this game's result; expected {expected}",
                line,
                column,
                game.lines.get(line, ""),
                self.name,
            )
        found = _shown(value)
        if kind == "GARBAGE":
            message = f"found {found}, which is {_garbage_kind(value)}; expected {expected}"
        else:
            message = f"found {found} ({_describe(kind)}); expected {expected}"
        return SyntaxProblem("syntax", message, line, column, game.lines.get(line, ""), self.name)


def _bad_token(text: str, pos: int) -> str:
    """The run of text that failed to lex: up to white space, a comment or a brace."""
    end = pos + 1
    length = len(text)
    while end < length and not text[end].isspace() and text[end] not in "{};":
        end += 1
    return text[pos:end]


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
