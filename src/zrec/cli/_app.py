"""The ``zrec`` application object and what every command shares.

Helpers here turn library errors into messages and exit codes:
0 all good, 1 a record is invalid, 2 bad usage or a file that cannot be read.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, BinaryIO, NoReturn, Optional, TextIO

import typer

from zrec import __version__
from zrec.notation.model import Game
from zrec.notation.reader import Record

app = typer.Typer(
    name="zrec",
    help="Record, check and publish game records: the Zuni board games and a dice game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print ``zrec: message`` to standard error and exit."""
    typer.echo(f"zrec: {message}", err=True)
    raise typer.Exit(code)


@contextlib.contextmanager
def open_input(path: str) -> Iterator[BinaryIO]:
    """A binary stream for a path, ``-`` meaning standard input; exit 2 if unreadable."""
    if path == "-":
        yield sys.stdin.buffer
        return
    try:
        stream = open(path, "rb")  # noqa: SIM115
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc}")
    with stream:
        yield stream


def report_broken(records: list[Record]) -> None:
    for record in records:
        assert record.problem is not None
        typer.echo(f"{record.problem.format()}\n  (game {record.number})", err=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"zrec {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Record, check and publish game records: the Zuni board games and a dice game."""


InputArg = Annotated[
    str, typer.Argument(help="A .zrec file, or - for standard input.", metavar="FILE")
]
FilesArg = Annotated[
    list[str],
    typer.Argument(
        help=".zrec files; - for standard input (read once, however often it is named).",
        metavar="FILE...",
    ),
]
OutputOpt = Annotated[
    Optional[str],  # noqa: UP045 - typer reads the annotation at run time
    typer.Option("-o", "--output", help="Write here instead of standard output.", metavar="OUT"),
]


@contextlib.contextmanager
def write_to(target: str | Path | None) -> Iterator[TextIO]:
    """:func:`zrec.fileio.atomic_output`, with a target that cannot be written
    reported as ``zrec: cannot write ...`` and exit code 2."""
    from zrec.fileio import OutputError, atomic_output

    try:
        with atomic_output(target) as stream:
            yield stream
    except OutputError as exc:
        fail(str(exc), EXIT_USAGE)


class Abort(Exception):
    """Leave an atomic output block without writing."""


def readable(records: Iterator[Record], broken: list[Record]) -> Iterator[Game]:
    """The games that could be read; the others are collected in ``broken``.  The
    reader's notes on a game (such as ``typography``) go to standard error."""
    for record in records:
        for note in record.notes:
            typer.echo(f"{note.format()}\n  (warning, game {record.number})", err=True)
        if record.game is None:
            broken.append(record)
        else:
            yield record.game


def nth_record(records: Iterator[Record], number: int, file: str | None = None) -> Record:
    """The game numbered ``number`` (from 1) of a file; exit 2 if there is none (the
    message names ``file`` when it is given)."""
    for record in records:
        if record.number == number:
            return record
    fail(f"there is no game {number} in {file or 'the file'}", EXIT_USAGE)
