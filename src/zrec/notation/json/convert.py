"""Converting between the text notation and JSON, game by game.

Text to JSON gives an array of games (or JSON Lines, one game a line); JSON to
text accepts one game, an array of games, or JSON Lines.  Every JSON game is
checked against the schema, and a bad one is reported with its JSON path.
"""

from __future__ import annotations

import codecs
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, TextIO

from zrec.errors import ZrecError
from zrec.notation.errors import SyntaxProblem
from zrec.notation.json.long import long_game
from zrec.notation.json.schema import SchemaError, check_game
from zrec.notation.json.stream import LongObject, Values, read_document
from zrec.notation.json.values import JsonGameError, check_depth, game_from_json, game_json_text
from zrec.notation.model import Game
from zrec.notation.writer import game_text


class ConversionError(ZrecError, ValueError):
    """A JSON input that cannot be read as games; the message names the place."""


def write_json(games: Iterator[Game], out: TextIO, jsonl: bool = False) -> int:
    """Write games as a JSON array (or JSON Lines); return how many."""
    count = 0
    if not jsonl:
        out.write("[")
    for game in games:
        if not jsonl:
            out.write("\n  " if count == 0 else ",\n  ")
        for text in game_json_text(game):  # a long game a part at a time
            out.write(text)
        if jsonl:
            out.write("\n")
        count += 1
    if not jsonl:
        out.write("\n]\n" if count else "]\n")
    return count


def _game(value: Any, path: str) -> Game:
    if isinstance(value, LongObject):  # a game too long to be read whole
        game = long_game(value, path)
        if game is not None:
            return game
        value = value.whole()  # it has a problem: reported as when read whole
    try:
        check_depth(value, path)
        check_game(value, path)
        return game_from_json(value, path)
    except (SchemaError, JsonGameError) as exc:
        raise ConversionError(str(exc)) from None


@dataclass(frozen=True)
class JsonRecord:
    """One game of a JSON input, or the problem that stops it being read: a ``syntax``
    :class:`~zrec.notation.errors.SyntaxProblem`, as in a
    :class:`~zrec.notation.records.Record` (text), so that a caller reads both alike.

    The problem's line and column are where the JSON itself is malformed, or the line of
    a JSON Lines game; otherwise 1 (JSON values carry no places); it shows no source
    line.  ``line`` is where the game starts as far as JSON tells it.  ``in_lines``
    tells that the game is a line of JSON Lines.  ``notes``: always none (as a text
    record's reader notes).
    """

    number: int
    line: int
    game: Game | None
    problem: SyntaxProblem | None = None
    in_lines: bool = False
    notes: tuple[SyntaxProblem, ...] = ()

    def message(self, name: str) -> str:
        """The problem, headed by the file name (and the line, for JSON Lines)."""
        where = f"line {self.line}: " if self.in_lines else ""
        said = self.problem.message if self.problem is not None else "cannot be read"
        return f"{name}: {where}{said}"


def _problem(name: str, message: str, line: int = 1, column: int = 1) -> SyntaxProblem:
    """A problem of a JSON input (the code ``syntax``, as in ``zrec validate``)."""
    return SyntaxProblem("syntax", message, line, column, file=name)


def read_json_records(
    stream: BinaryIO, name: str, jsonl: bool | None = None
) -> Iterator[JsonRecord]:
    """Every game of a JSON document (one game or an array) or of JSON Lines, each
    checked against the schema; a bad game becomes a record with its problem and
    reading goes on with the next one.

    ``jsonl=None`` decides by the name (``.jsonl``) and, failing that, by the content:
    a document that is several JSON objects one after another is read as JSON Lines.
    """
    if jsonl is None:
        jsonl = os.fspath(name).endswith(".jsonl")
    if jsonl:
        yield from _json_lines(iter(stream), name)
        return
    document = read_document(stream)  # a value at a time when it is well-formed
    if isinstance(document, Values):
        for i, (line, value) in enumerate(document.items):
            if document.kind == "array":
                yield _record(name, i + 1, 1, value, f"$[{i}]", False)
            else:
                yield _record(name, i + 1, line, value, "$", document.kind == "sequence")
        return
    data = document
    if not data.removeprefix(codecs.BOM_UTF8).strip():
        return  # no game (nothing, or only white space)
    try:
        document = json.loads(data)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and exc.doc.lstrip("\ufeff \t\r\n").startswith("{"):
            yield from _json_sequence(exc.doc, name)
            return
        problem = _problem(name, f"not valid JSON: {_why(exc)}", exc.lineno, exc.colno)
        yield JsonRecord(1, exc.lineno, None, problem)
        return
    except (ValueError, RecursionError) as exc:
        yield JsonRecord(1, 1, None, _problem(name, f"not valid JSON: {_why(exc)}"))
        return
    if isinstance(document, list):
        for i, value in enumerate(document):
            yield _record(name, i + 1, 1, value, f"$[{i}]", False)
    else:
        yield _record(name, 1, 1, document, "$", False)


def _json_lines(lines: Iterator[bytes], name: str) -> Iterator[JsonRecord]:
    count = 0
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        count += 1
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            column = exc.colno if isinstance(exc, json.JSONDecodeError) else 1
            problem = _problem(name, f"not valid JSON: {_why(exc)}", number, column)
            yield JsonRecord(count, number, None, problem, True)
            continue
        yield _record(name, count, number, value, "$", True)


def _json_sequence(text: str, name: str) -> Iterator[JsonRecord]:
    """Games written as JSON values one after another (JSON Lines, or objects spread
    over several lines each); a malformed value ends the reading."""
    decoder = json.JSONDecoder()
    pos, line, count = 0, 1, 0
    while True:
        start = pos
        while pos < len(text) and text[pos] in "\ufeff \t\r\n":
            pos += 1
        line += text.count("\n", start, pos)
        if pos == len(text):
            return
        count += 1
        try:
            value, end = decoder.raw_decode(text, pos)
        except (ValueError, RecursionError) as exc:
            where = (exc.lineno, exc.colno) if isinstance(exc, json.JSONDecodeError) else (line, 1)
            problem = _problem(name, f"not valid JSON: {_why(exc)}", *where)
            yield JsonRecord(count, where[0], None, problem)
            return
        yield _record(name, count, line, value, "$", True)
        line += text.count("\n", pos, end)
        pos = end


def _record(
    name: str, number: int, line: int, value: Any, path: str, in_lines: bool
) -> JsonRecord:
    try:
        return JsonRecord(number, line, _game(value, path), in_lines=in_lines)
    except ConversionError as exc:
        return JsonRecord(number, line, None, _problem(name, str(exc), line), in_lines=in_lines)


def read_json_games(stream: BinaryIO, name: str, jsonl: bool | None = None) -> Iterator[Game]:
    """Games from a JSON document (one game or an array) or from JSON Lines.

    ``jsonl=None`` decides as :func:`read_json_records` does.  Raises
    :class:`ConversionError` at the first game that cannot be read.
    """
    for record in read_json_records(stream, name, jsonl):
        if record.game is None:
            raise ConversionError(record.message(name))
        yield record.game


def _why(exc: Exception) -> str:
    """What is wrong with a JSON text, in words (UnicodeDecodeError is a ValueError)."""
    if isinstance(exc, RecursionError):
        return "it is nested too deeply"
    return str(exc)


def write_text(games: Iterator[Game], out: TextIO) -> int:
    """Write games as canonical text; return how many."""
    count = 0
    for game in games:
        if count:
            out.write("\n")
        for text in game_text(game):  # a long game a few lines at a time
            out.write(text)
        count += 1
    return count
