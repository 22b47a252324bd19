"""Commands on records as text and JSON: ``fmt``, ``convert`` and ``schema``.

``fmt`` and ``convert`` take several inputs; ``-`` is standard input, read once.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterator
from typing import Annotated, BinaryIO, Optional

import typer

from zrec.cli._app import (
    EXIT_INVALID,
    EXIT_OK,
    Abort,
    FilesArg,
    Found,
    OutputOpt,
    app,
    fail,
    open_input,
    readable,
    report_broken,
    write_to,
)
from zrec.cli._inputs import Format, Source, unique
from zrec.notation.inputs import is_json_name, sniff
from zrec.notation.model import Game
from zrec.notation.reader import Record, read_records
from zrec.notation.writer import games_text
from zrec.resources import data_text

NOTHING_WRITTEN = "zrec: nothing written: fix the games above first"


@app.command()
def fmt(
    files: FilesArg,
    output: OutputOpt = None,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Write nothing; exit 1 if a FILE is not in canonical form (each is named).",
        ),
    ] = False,
    in_place: Annotated[
        bool, typer.Option("--in-place", "-i", help="Rewrite each FILE itself in canonical form.")
    ] = False,
) -> None:
    """Print games in canonical form (tags, then movetext filled to 79 columns).

    Several files print as one text, their games in order.  With -i each FILE is
    rewritten (a symbolic link is written through, hard links are kept).  Nothing is
    written when a game cannot be read: the errors are listed and the exit code is 1,
    so a broken game is never dropped silently; with -i the other files are still
    rewritten.
    """
    files = unique(files)
    if in_place and ("-" in files or output):
        fail("--in-place rewrites FILE itself: give a file, not -, and no --output")
    found = Found()
    if check:
        raise typer.Exit(_each(files, lambda file: _check_one(file, found), found))
    if in_place:
        several = len(files) > 1
        raise typer.Exit(_each(files, lambda file: _write_one(file, file, several, found), found))
    if len(files) == 1:
        _write_one(files[0], output, False, found)
        found.check()
        return
    broken: list[Record] = []
    try:
        with write_to(output) as out:
            for text in games_text(readable(_all_records(files, found), broken)):
                out.write(text)  # a game at a time: the text is never held whole
            if broken or not found.games:
                raise Abort()
    except Abort:
        found.check()
        report_broken(broken)
        typer.echo(NOTHING_WRITTEN, err=True)
        raise typer.Exit(EXIT_INVALID) from None


def _each(files: list[str], one: Callable[[str], None], found: Found) -> int:
    """Run ``one`` on every file, going on after a failure; the worst exit code (1 when
    no file holds a game)."""
    worst = EXIT_OK
    for file in files:
        try:
            one(file)
        except typer.Exit as exc:
            if len(files) == 1:
                raise
            worst = max(worst, exc.exit_code)
    return worst if found.games else max(worst, EXIT_INVALID)


def _check_one(file: str, found: Found) -> None:
    broken: list[Record] = []
    with open_input(file) as stream:
        same = _Same(stream)  # compares the canonical text with the file as both come
        records = found.of(read_records(same.reader, file), file)
        for text in games_text(readable(records, broken)):
            same.wrote(text.encode("utf-8"))
        canonical = same.end()
    if broken:
        report_broken(broken)
        raise typer.Exit(EXIT_INVALID)
    if not canonical:
        typer.echo(f"{file}: not in canonical form", err=True)
        raise typer.Exit(EXIT_INVALID)


class _Same(io.RawIOBase):
    """A stream that reads another and compares what it reads with what the caller
    says it wrote, as both come: memory holds only what one is ahead of the other (a
    game or so), and nothing once they differ.  The bytes are compared: the file is in
    canonical form when they are equal (bytes that are not UTF-8 break a game, which
    ``fmt --check`` reports first)."""

    def __init__(self, stream: BinaryIO) -> None:
        super().__init__()
        self.stream = stream
        self.reader = io.BufferedReader(self)
        self.read_ahead = bytearray()
        self.written_ahead = bytearray()
        self.same = True

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.stream.read(len(buffer))
        buffer[: len(data)] = data
        if self.same:
            self.read_ahead += data
            self._compare()
        return len(data)

    def wrote(self, data: bytes) -> None:
        if self.same:
            self.written_ahead += data
            self._compare()

    def _compare(self) -> None:
        size = min(len(self.read_ahead), len(self.written_ahead))
        if self.read_ahead[:size] != self.written_ahead[:size]:
            self.same = False
            self.read_ahead.clear()
            self.written_ahead.clear()
            return
        del self.read_ahead[:size]
        del self.written_ahead[:size]

    def end(self) -> bool:
        """Whether what was written is what was read, to the end of the stream."""
        while self.reader.read(1 << 16):
            pass
        return self.same and not self.read_ahead and not self.written_ahead


def _write_one(file: str, target: str | None, several: bool, found: Found) -> None:
    """Format one file to ``target``; nothing is written if a game is broken, or if
    the file holds no game (``found`` says so)."""
    broken: list[Record] = []
    games = found.games
    try:
        with open_input(file) as stream, write_to(target) as out:
            records = found.of(read_records(stream, file), file)
            for text in games_text(readable(records, broken)):
                out.write(text)  # a game at a time, to the temporary file
            if broken or found.games == games:
                raise Abort()
    except Abort:
        if not broken:
            return  # no game: nothing written, and said
        report_broken(broken)
        if several:
            typer.echo(f"zrec: {file}: nothing written: fix the games above first", err=True)
        else:
            typer.echo(NOTHING_WRITTEN, err=True)
        raise typer.Exit(EXIT_INVALID) from None


def _all_records(files: list[str], found: Found) -> Iterator[Record]:
    """The games of every file in turn, each file opened when its turn comes."""
    for file in files:
        with open_input(file) as stream:
            yield from found.of(read_records(stream, file), file)


@app.command()
def convert(
    files: Annotated[
        list[str],
        typer.Argument(
            help="Files in zrec text, JSON or JSON Lines; - for standard input (read once, "
            "however often it is named).",
            metavar="FILE...",
        ),
    ],
    to: Annotated[Format, typer.Option("--to", help="The format to write.")],
    output: OutputOpt = None,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="JSON Lines: one game a line (in or out).")
    ] = False,
    source: Annotated[
        Optional[Source],  # noqa: UP045
        typer.Option(
            "--from",
            help="The input format.  Default: JSON for a .json or .jsonl file, or for input "
            "that starts like JSON ({ and a key, or [ not followed by a tag name); else zrec.  "
            "ludii: a trial file saved by Ludii, of a game zrec reads Ludii trials of.",
        ),
    ] = None,
) -> None:
    """Convert games between the text notation and JSON, losing nothing.

    zrec to JSON gives an array of games (or JSON Lines with --jsonl); JSON to zrec
    accepts one game, an array, or JSON Lines.  JSON input is checked against the
    schema (see zrec schema) and errors name the JSON path.  The games of every
    FILE go, in order, to one output.  --from ludii reads Ludii's trial files, one
    game each, with the tags of the game's Ludii reading.
    """
    from zrec.notation.json.convert import ConversionError, write_json, write_text
    from zrec.notation.ludii import LudiiTrialError

    files = unique(files)
    for file in files[1:]:
        with open_input(file):  # an input that cannot be read stops us before writing
            pass
    broken: list[Record] = []
    hints: list[str] = []
    found = Found()
    try:
        with open_input(files[0]) as first, write_to(output) as out:
            games = _games(files, first, source, jsonl, broken, hints, found)
            if to is Format.json:
                write_json(games, out, jsonl)
            else:
                write_text(games, out)
            if broken or not found.games:
                raise Abort()
    except (ConversionError, LudiiTrialError) as exc:
        fail(str(exc), EXIT_INVALID)
    except Abort:
        found.check()
        report_broken(broken)
        for hint in hints:
            typer.echo(f"zrec: {hint}", err=True)
        typer.echo(NOTHING_WRITTEN, err=True)
        raise typer.Exit(EXIT_INVALID) from None


def _games(
    files: list[str],
    first: BinaryIO,
    source: Source | None,
    jsonl: bool,
    broken: list[Record],
    hints: list[str],
    found: Found,
) -> Iterator[Game]:
    """The games of every file in turn (the first one already open)."""
    from zrec.notation.json.convert import ConversionError, read_json_games

    for i, file in enumerate(files):
        with contextlib.ExitStack() as stack:
            stream = first if i == 0 else stack.enter_context(open_input(file))
            called = "standard input" if file == "-" else file
            if source is Source.ludii:
                yield from readable(found.of(_ludii_records(stream, called), file), broken)
                continue
            looks_json, stream = sniff(stream)
            kind = source or (Source.json if is_json_name(file) or looks_json else Source.zrec)
            if kind is Source.zrec:
                before = len(broken)
                yield from readable(found.of(read_records(stream, file), file), broken)
                if len(broken) > before and looks_json:
                    hints.append(
                        f"{called} looks like JSON, not zrec text: "
                        "read it with --from json (or leave out --from)"
                    )
                continue
            try:
                yield from found.of(read_json_games(stream, file, True if jsonl else None), file)
            except ConversionError as exc:
                if source is Source.json and not looks_json and not is_json_name(file):
                    raise ConversionError(
                        f"{exc}\nzrec: {called} looks like zrec text, not JSON: "
                        "read it with --from zrec (or leave out --from)"
                    ) from None
                raise


def _ludii_records(stream: BinaryIO, called: str) -> Iterator[Record]:
    """The one game of a Ludii trial file, as a record read from zrec text."""
    from zrec.notation.ludii import LudiiTrialError, read_trial
    from zrec.notation.reader import read_string
    from zrec.play.ludii import trial_text

    data = stream.read()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LudiiTrialError(f"{called}: not UTF-8 text (byte {exc.start})") from None
    yield from read_string(trial_text(read_trial(text, called), called), called)


@app.command()
def schema() -> None:
    """Print the JSON Schema (2020-12) of one game in JSON form."""
    typer.echo(data_text("zrec-game.schema.json"), nl=False)
