"""Read games from a file of any size, one at a time, and go on after a broken one.

The reader decodes the file line by line (so memory holds one game, not the file),
makes tokens with the grammar's terminals, splits the token stream into games at
their result tokens, and parses each game: the common line and the common game (tag
pairs, plain numbered moves, the result) on the one fast path of
:mod:`zrec.notation.fastpath`, everything else with the grammar as Lark builds it
(:mod:`zrec.notation.grammar`), which gives the same games.  A game with a
syntax error becomes a :class:`Record` holding the first problem; reading goes on
with the next game.  Recovery rules (documented in docs/notation.md):

* a tag pair after the movetext has begun starts a new game: the previous game has
  no result;
* a comment never closed is reported where it opens, and reading resumes at the
  first line inside it that begins with a tag pair;
* a tag pair whose string is not closed before the end of its line breaks its game,
  but still counts as a tag pair;
* bytes that are not UTF-8 break the game they are in.

Typographic characters outside comments and tag values (an en dash for ``-``, curly
quotes around a value, ...) are read as ASCII (:mod:`zrec.notation.typography`); each
game that has any gets one ``typography`` note.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import sys
from collections import deque
from collections.abc import Iterator
from functools import cache
from typing import BinaryIO

from zrec.notation import fastpath, longtext
from zrec.notation.errors import SyntaxProblem, ZrecSyntaxError
from zrec.notation.grammar import ParseError, TokenT, parse_tokens, token_regex
from zrec.notation.messages import (
    bad_token,
    explain,
    refused,
    unclosed_tag,
    unclosed_tag_message,
)
from zrec.notation.model import MAX_VARIATION_DEPTH, Game
from zrec.notation.records import Pending, Record
from zrec.notation.typography import Marks, has_typography

_TAG_START = "["
# A tag pair, or a tag pair whose string is not closed (which breaks its game)
_TAGS = frozenset(("TAG_PAIR", "BAD_TAG"))


def read_records(
    source: str | os.PathLike[str] | BinaryIO, name: str | None = None, first_line: int = 1
) -> Iterator[Record]:
    """Yield every game of a file (a path, ``-`` for standard input, or a binary stream).

    ``first_line``: the line number of the stream's first line, for a piece of a larger
    file read on its own (the places in records and problems are the file's).
    """
    if isinstance(source, (str, os.PathLike)):
        if str(source) == "-":
            yield from _Reader(sys.stdin.buffer, name or "<stdin>").records()
            return
        with open(source, "rb") as stream:
            yield from _Reader(stream, name or str(source)).records()
        return
    yield from _Reader(
        source, name or str(getattr(source, "name", "<input>")), first_line
    ).records()


def read_string(text: str, name: str = "<input>") -> Iterator[Record]:
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
    records = list(read_string(text, name))
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


#: white space, as the grammar's WHITESPACE terminal has it
_SPACE = re.compile(r"[ \t\r\n]*")
#: a run of parentheses and white space
_PARENS = re.compile(r"[() \t\r\n]*")


@cache
def _folded() -> re.Pattern[str]:
    """The lexer's expression with the white space before a token folded into its
    match: one match a token instead of two.  The token's own group gives its text and
    column; white space alone (at the end of a line) still matches as WHITESPACE."""
    return re.compile(r"[ \t\r\n]*(?:" + token_regex().pattern + ")")


class _Reader:
    def __init__(self, stream: BinaryIO, name: str, first_line: int = 1) -> None:
        self.stream = stream
        self.name = name
        self.first_line = first_line
        self.count = 0
        self.game = Pending()
        self.replay: deque[tuple[int, bytes]] = deque()
        self.line_number = first_line - 1
        self.marks = Marks()  # characters read as ASCII, not yet given to a game
        self.common = fastpath.CommonPath()  # the fast path, with what it learns

    # ------------------------------------------------------------ line source

    def _next_line(self, stream_lines: Iterator[bytes]) -> tuple[int, bytes] | None:
        if self.replay:
            return self.replay.popleft()
        raw = next(stream_lines, None)
        if raw is None:
            return None
        self.line_number += 1
        if self.line_number == 1 == self.first_line and raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8) :]
        return self.line_number, raw

    def _decode(self, number: int, raw: bytes) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            longtext.whole(self.game, self.common)
            return self.game.not_utf8(number, raw, exc.start, self.name)

    # ------------------------------------------------------------ records

    def records(self) -> Iterator[Record]:
        match = None  # the lexer's, made when a line first needs it (Lark builds it)
        common = self.common
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
            if in_comment is None and (
                game.deferred or len(text) >= longtext.LINE or len(game.tokens) >= longtext.TOKENS
            ):  # a long game: its plain lines kept as text
                ends = longtext.defer(game, common, number, text)
                if ends is not None:
                    for ending in ends:
                        self._feed(ending, done)
                        yield from done
                        done.clear()
                        self.game.lines.setdefault(number, text)
                    continue
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
            shown = text  # the line as written; text is what is read
            if not text.isascii():
                if has_typography(text):
                    text = self.marks.read(number, text, pos)
            elif pos == 0:
                if text[:1] == _TAG_START:
                    pair = fastpath.plain_tag(text)
                    if pair is not None and not game.moves_started:
                        # one of the game's tag pairs: what _feed does with it, at once
                        game.lines.setdefault(number, shown)
                        if not game.tokens and game.start_line == 0:
                            game.start_line = number
                        game.tokens.append(("TAG_PAIR", pair, number, 1))
                        continue
                    if pair is not None:  # one tag pair, the whole line: as below
                        game.lines.setdefault(number, shown)
                        self._feed(("TAG_PAIR", pair, number, 1), done)
                        if done:
                            yield from done
                            done.clear()
                            self.game.lines.setdefault(number, shown)
                        continue
                plain = common.plain_line(text, number)
                if plain is not None:  # moves and move numbers, maybe the result
                    moves, result = plain
                    if moves:  # nothing in them can end or split the game
                        if not game.tokens:
                            game.start_line = number
                            game.lines[number] = shown
                        elif number not in game.lines:
                            game.lines[number] = shown
                        game.tokens.extend(moves)
                        game.moves_started = True
                    if result is not None:
                        game.lines.setdefault(number, shown)
                        self._feed(result, done)
                        yield from done
                        done.clear()
                        self.game.lines.setdefault(number, shown)
                    continue
            length = len(text)
            tokens = game.tokens
            if match is None:
                match = _folded().match
            while pos < length:
                found = match(text, pos)
                if found is None:
                    pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
                    if pos == length:
                        break
                    if text[pos] == "{":
                        game.lines.setdefault(number, shown)
                        in_comment = (number, pos + 1, [shown[pos:]])
                        break
                    if text[pos] == "[" and unclosed_tag(text, pos) is not None:
                        token: TokenT = ("BAD_TAG", text[pos:].rstrip("\r\n"), number, pos + 1)
                        pos = length
                    else:
                        bad = bad_token(text, pos)
                        token = ("GARBAGE", shown[pos : pos + len(bad)], number, pos + 1)
                        pos += len(bad)
                else:
                    kind = found.lastgroup
                    pos = found.end()
                    if kind == "WHITESPACE":
                        continue
                    start = found.start(kind or 0)  # after the white space the match took
                    token = (kind, text[start:pos], number, start + 1)  # type: ignore[assignment]
                    if kind == "ACTION" or kind == "MOVE_NUMBER":
                        # the common case, kept short: nothing can end or split the game
                        if not tokens:
                            game.start_line = number
                            game.lines[number] = shown
                        elif number not in game.lines:
                            game.lines[number] = shown
                        tokens.append(token)
                        game.moves_started = True
                        continue
                    if (kind == "LPAR" or kind == "RPAR") and game.problem is not None:
                        # a broken game is not parsed: a run of parentheses is skipped
                        pos = _PARENS.match(text, pos).end()  # type: ignore[union-attr]
                        continue
                game.lines.setdefault(number, shown)
                self._feed(token, done)
                if done:
                    yield from done
                    done.clear()
                    game = self.game
                    game.lines.setdefault(number, shown)
                tokens = game.tokens  # a broken game keeps only its last token
        if self.game.tokens or self.game.deferred or self.game.problem is not None:
            yield self._finish()

    # ------------------------------------------------------------ game splitting

    def _feed(self, token: TokenT, done: list[Record]) -> None:
        game = self.game
        kind = token[0]
        if kind in _TAGS and game.moves_started:
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
            done.append(self._finish((token[2], token[3])))
            lines = game.lines
            game = self.game
            if token[2] in lines:
                game.lines[token[2]] = lines[token[2]]
        if not game.tokens and game.start_line == 0:
            game.start_line = token[2]
        game.tokens.append(token)
        if kind not in _TAGS:
            game.moves_started = True
        elif kind == "BAD_TAG":
            quote = token[3] + token[1].index('"')
            end = token[3] + len(token[1])
            message = unclosed_tag_message(token[2], quote)
            game.add_problem(self._problem("unclosed-string", message, token[2], end))
        if kind == "LPAR":
            game.depth += 1
            if game.depth > MAX_VARIATION_DEPTH and game.problem is None:
                game.add_problem(
                    self._problem(
                        "syntax",
                        f"variations are nested more than {MAX_VARIATION_DEPTH} deep here",
                        token[2],
                        token[3],
                    )
                )
        elif kind == "RPAR":
            if game.depth == 0 and game.problem is None:
                # no variation is open: the grammar refuses the game here or before,
                # so say so now, and hold no more of its tokens
                game.add_problem(refused(game.tokens, game.lines, game.start_line, self.name))
            game.depth -= 1
        if kind == "RESULT":
            done.append(self._finish((token[2], token[3] + len(token[1]))))

    def _finish(self, upto: tuple[int, int] | None = None) -> Record:
        """The record of the game read so far; ``upto`` is where the game ends (the
        characters read as ASCII before it are the game's), ``None`` for all."""
        game = self.game
        self.game = Pending()
        self.count += 1
        start = game.start_line or (game.tokens[0][2] if game.tokens else 1)
        notes = self.marks.notes(upto, self.name) if self.marks else ()
        if game.problem is None:
            try:
                parsed = (
                    (longtext.finish(game, self.common) if game.deferred else None)
                    or self.common.direct_game(game.tokens)
                    or parse_tokens(game.tokens)
                )
            except ParseError as exc:
                game.problem = explain(exc, game.tokens, game.lines, game.start_line, self.name)
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
                    return Record(self.count, start, parsed, None, notes)
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
        return Record(self.count, start, None, problem, notes)

    # ------------------------------------------------------------ messages

    def _problem(
        self, code: str, message: str, line: int, column: int, source: str = ""
    ) -> SyntaxProblem:
        return SyntaxProblem(
            code, message, line, column, source or self.game.lines.get(line, ""), self.name
        )


__all__ = ["Record", "read_game", "read_games", "read_records", "read_string"]
