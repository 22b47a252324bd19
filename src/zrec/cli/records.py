"""Commands on records as text and JSON: ``fmt``, ``convert`` and ``schema``."""

from __future__ import annotations

import io
from collections.abc import Iterator
from enum import Enum
from typing import Annotated, Optional

import typer

from zrec.cli._app import (
    EXIT_INVALID,
    Abort,
    InputArg,
    OutputOpt,
    app,
    fail,
    open_input,
    readable,
    report_broken,
    write_to,
)
from zrec.notation.model import Game
from zrec.notation.reader import Record, read_records
from zrec.notation.writer import write_games
from zrec.outputs.convert import ConversionError, read_json_games, write_json, write_text
from zrec.resources import read_text


@app.command()
def fmt(
    file: InputArg,
    output: OutputOpt = None,
    check: Annotated[
        bool,
        typer.Option("--check", help="Write nothing; exit 1 if FILE is not in canonical form."),
    ] = False,
    in_place: Annotated[
        bool, typer.Option("--in-place", "-i", help="Rewrite FILE itself in canonical form.")
    ] = False,
) -> None:
    """Print games in canonical form (tags, then movetext filled to 79 columns).

    Nothing is written when a game cannot be read: the errors are listed and the
    exit code is 1, so a broken game is never dropped silently.
    """
    if in_place and (file == "-" or output):
        fail("--in-place rewrites FILE itself: give a file, not -, and no --output")
    broken: list[Record] = []
    target = file if in_place else output
    try:
        with open_input(file) as stream:
            if check:
                original = stream.read()  # compared with the canonical text below
                text = _format_all(read_records(io.BytesIO(original), file), broken)
                if broken:
                    report_broken(broken)
                    raise typer.Exit(EXIT_INVALID)
                if original.decode("utf-8", "replace") != text:
                    typer.echo(f"{file}: not in canonical form", err=True)
                    raise typer.Exit(EXIT_INVALID)
                return
            records = read_records(stream, file)
            with write_to(target) as out:
                out.write(_format_all(records, broken))
                if broken:
                    raise Abort()
    except Abort:
        report_broken(broken)
        typer.echo("zrec: nothing written: fix the games above first", err=True)
        raise typer.Exit(EXIT_INVALID) from None


def _format_all(records: Iterator[Record], broken: list[Record]) -> str:
    return "".join(write_games(readable(records, broken)))


class Format(str, Enum):
    json = "json"
    zrec = "zrec"


@app.command()
def convert(
    file: Annotated[
        str,
        typer.Argument(
            help="A .zrec, .json or .jsonl file, or - for standard input.", metavar="FILE"
        ),
    ],
    to: Annotated[Format, typer.Option("--to", help="The format to write.")],
    output: OutputOpt = None,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="JSON Lines: one game a line (in or out).")
    ] = False,
    source: Annotated[
        Optional[Format],  # noqa: UP045
        typer.Option("--from", help="The input format (default: by the file's extension)."),
    ] = None,
) -> None:
    """Convert games between the text notation and JSON, losing nothing.

    zrec to JSON gives an array of games (or JSON Lines with --jsonl); JSON to zrec
    accepts one game, an array, or JSON Lines.  JSON input is checked against the
    schema (see ``zrec schema``) and errors name the JSON path.
    """
    kind = source or (Format.json if file.endswith((".json", ".jsonl")) else Format.zrec)
    broken: list[Record] = []
    try:
        with open_input(file) as stream, write_to(output) as out:
            if kind is Format.zrec:
                games: Iterator[Game] = readable(read_records(stream, file), broken)
            else:
                games = read_json_games(stream, file, True if jsonl else None)
            if to is Format.json:
                write_json(games, out, jsonl)
            else:
                write_text(games, out)
            if broken:
                raise Abort()
    except ConversionError as exc:
        fail(str(exc), EXIT_INVALID)
    except Abort:
        report_broken(broken)
        typer.echo("zrec: nothing written: fix the games above first", err=True)
        raise typer.Exit(EXIT_INVALID) from None


@app.command()
def schema() -> None:
    """Print the JSON Schema (2020-12) of one game in JSON form."""
    typer.echo(read_text("zrec-game.schema.json"), nl=False)
