"""Converting between the text notation and JSON, game by game.

Text to JSON gives an array of games (or JSON Lines, one game a line); JSON to
text accepts one game, an array of games, or JSON Lines.  Every JSON game is
checked against the schema, and a bad one is reported with its JSON path.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any, BinaryIO, TextIO

from zrec.errors import ZrecError
from zrec.notation.jsonio import JsonGameError, check_depth, game_from_json, game_to_json
from zrec.notation.model import Game
from zrec.notation.writer import write_game
from zrec.schema import SchemaError, check_game


class ConversionError(ZrecError, ValueError):
    """A JSON input that cannot be read as games; the message names the place."""


def write_json(games: Iterator[Game], out: TextIO, jsonl: bool = False) -> int:
    """Write games as a JSON array (or JSON Lines); return how many."""
    count = 0
    if not jsonl:
        out.write("[")
    for game in games:
        text = json.dumps(game_to_json(game), ensure_ascii=False)
        if jsonl:
            out.write(text + "\n")
        else:
            out.write(("\n  " if count == 0 else ",\n  ") + text)
        count += 1
    if not jsonl:
        out.write("\n]\n" if count else "]\n")
    return count


def _game(value: Any, path: str) -> Game:
    try:
        check_depth(value, path)
        check_game(value, path)
        return game_from_json(value, path)
    except (SchemaError, JsonGameError) as exc:
        raise ConversionError(str(exc)) from None


def read_json_games(stream: BinaryIO, name: str, jsonl: bool | None = None) -> Iterator[Game]:
    """Games from a JSON document (one game or an array) or from JSON Lines.

    ``jsonl=None`` decides by the name (``.jsonl``).  Raises :class:`ConversionError`.
    """
    if jsonl is None:
        jsonl = os.fspath(name).endswith(".jsonl")
    if jsonl:
        for number, raw in enumerate(stream, 1):
            if not raw.strip():
                continue
            try:
                value = json.loads(raw)
            except (ValueError, RecursionError) as exc:
                why = _why(exc)
                raise ConversionError(f"{name}: line {number}: not valid JSON: {why}") from None
            try:
                yield _game(value, "$")
            except ConversionError as exc:
                raise ConversionError(f"{name}: line {number}: {exc}") from None
        return
    try:
        document = json.load(stream)
    except (ValueError, RecursionError) as exc:
        raise ConversionError(f"{name}: not valid JSON: {_why(exc)}") from None
    if isinstance(document, list):
        for i, value in enumerate(document):
            try:
                yield _game(value, f"$[{i}]")
            except ConversionError as exc:
                raise ConversionError(f"{name}: {exc}") from None
    else:
        try:
            yield _game(document, "$")
        except ConversionError as exc:
            raise ConversionError(f"{name}: {exc}") from None


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
        out.write(write_game(game))
        count += 1
    return count
