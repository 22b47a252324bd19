"""The ``zrec`` command line: a thin layer over the library (the only typer importer).

It turns library results and errors into messages and exit codes:
0 all good, 1 a record is invalid, 2 bad usage or a file that cannot be read.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import Annotated, BinaryIO, NoReturn, Optional

import typer

from zrec import __version__
from zrec.fileio import atomic_output
from zrec.notation.model import Game
from zrec.notation.reader import Record, read_records
from zrec.notation.writer import write_games
from zrec.outputs.convert import ConversionError, read_json_games, write_json, write_text
from zrec.resources import read_text

app = typer.Typer(
    name="zrec",
    help="Record, check and publish games of the Zuni board games and of Awéthi.",
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
    """Record, check and publish games of the Zuni board games and of Awéthi."""


InputArg = Annotated[
    str, typer.Argument(help="A .zrec file, or - for standard input.", metavar="FILE")
]
OutputOpt = Annotated[
    Optional[str],  # noqa: UP045 - typer reads the annotation at run time
    typer.Option("-o", "--output", help="Write here instead of standard output.", metavar="OUT"),
]


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
            records = read_records(stream, file)
            if check:
                original = Path(file).read_bytes() if file != "-" else None
                text = _format_all(records, broken)
                if broken:
                    report_broken(broken)
                    raise typer.Exit(EXIT_INVALID)
                if original is None or original.decode("utf-8", "replace") != text:
                    typer.echo(f"{file}: not in canonical form", err=True)
                    raise typer.Exit(EXIT_INVALID)
                return
            with atomic_output(target) as out:
                out.write(_format_all(records, broken))
                if broken:
                    raise _Abort()
    except _Abort:
        report_broken(broken)
        typer.echo("zrec: nothing written: fix the games above first", err=True)
        raise typer.Exit(EXIT_INVALID) from None


class _Abort(Exception):
    """Leave an atomic output block without writing."""


def _format_all(records: Iterator[Record], broken: list[Record]) -> str:
    return "".join(write_games(_readable(records, broken)))


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
        with open_input(file) as stream, atomic_output(output) as out:
            if kind is Format.zrec:
                games: Iterator[Game] = _readable(read_records(stream, file), broken)
            else:
                games = read_json_games(stream, file, True if jsonl else None)
            if to is Format.json:
                write_json(games, out, jsonl)
            else:
                write_text(games, out)
            if broken:
                raise _Abort()
    except ConversionError as exc:
        fail(str(exc), EXIT_INVALID)
    except _Abort:
        report_broken(broken)
        typer.echo("zrec: nothing written: fix the games above first", err=True)
        raise typer.Exit(EXIT_INVALID) from None


def _readable(records: Iterator[Record], broken: list[Record]) -> Iterator[Game]:
    """The games that could be read; the others are collected in ``broken``."""
    for record in records:
        if record.game is None:
            broken.append(record)
        else:
            yield record.game


@app.command()
def schema() -> None:
    """Print the JSON Schema (2020-12) of one game in JSON form."""
    typer.echo(read_text("zrec-game.schema.json"), nl=False)


class Report(str, Enum):
    human = "human"
    json = "json"


@app.command()
def validate(
    files: Annotated[
        list[str], typer.Argument(help="Files to check (- for standard input).", metavar="FILE...")
    ],
    output_format: Annotated[
        Report, typer.Option("--format", help="human: one line a problem; json: for programs.")
    ] = Report.human,
    no_warnings: Annotated[
        bool, typer.Option("--no-warnings", help="Show errors only (warnings still counted).")
    ] = False,
) -> None:
    """Replay every game through its rules and report every problem.

    Each problem names file, line, column, game and ply, with a stable code
    (e.g. illegal-move, wrong-result, short-chain).  Exit code 0 when every game is
    valid, 1 when one is not, 2 when a file cannot be read.
    """
    from zrec.outputs.validate import Summary, validate_records

    summary = Summary()
    found: list[dict[str, object]] = []
    for file in files:
        with open_input(file) as stream:
            name = "<stdin>" if file == "-" else file
            for report in validate_records(read_records(stream, name), name):
                summary.add(report)
                for diagnostic in report.diagnostics:
                    if no_warnings and diagnostic.severity == "warning":
                        continue
                    if output_format is Report.json:
                        found.append(diagnostic.to_json())
                    else:
                        typer.echo(diagnostic.format())
    if output_format is Report.json:
        document = {"diagnostics": found, "summary": summary.to_json()}
        typer.echo(json.dumps(document, ensure_ascii=False, indent=2))
    else:
        typer.echo(summary.line())
    if summary.invalid:
        raise typer.Exit(EXIT_INVALID)


@app.command()
def show(
    file: InputArg,
    game: Annotated[int, typer.Option("--game", min=1, help="Which game of the file.")] = 1,
    ply: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--ply", min=0, help="Show the position after this many moves."),
    ] = None,
) -> None:
    """Show a position of a record: the board, whose turn it is and the legal moves.

    By default the position at the end of the main line.
    """
    from zrec.outputs.positions import PositionError, position_at

    with open_input(file) as stream:
        record = _nth_record(read_records(stream, file), game)
    if record.game is None:
        assert record.problem is not None
        fail(record.problem.format(), EXIT_INVALID)
    try:
        shown = position_at(record.game, ply)
    except PositionError as exc:
        fail(str(exc), EXIT_INVALID)
    typer.echo(shown.text())


def _nth_record(records: Iterator[Record], number: int) -> Record:
    for record in records:
        if record.number == number:
            return record
    fail(f"there is no game {number} in the file", EXIT_USAGE)


@app.command("random")
def random_command(
    game: Annotated[str, typer.Option("--game", help="mosona, kolowis or stone-warriors.")],
    count: Annotated[int, typer.Option("--count", min=1, help="How many games.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="The same seed gives the same games.")] = 0,
    option: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option("--option", "-O", help="A rule option or tag, e.g. -O Jumps=bent."),
    ] = None,
    max_plies: Annotated[
        int, typer.Option("--max-plies", min=1, help="Stop an unfinished game here (result *).")
    ] = 300,
    output: OutputOpt = None,
) -> None:
    """Write random legal games (deterministic by --seed), for tests and benchmarks."""
    from zrec.outputs.randomgames import random_games
    from zrec.rules import UnknownGame, find_game
    from zrec.rules.base import RulesError

    tags: dict[str, str] = {}
    for item in option or []:
        name, sep, value = item.partition("=")
        if not sep or not name:
            fail(f"--option takes Tag=value, not {item!r}")
        tags[name] = value
    try:
        rules = find_game(game)
        with atomic_output(output) as out:
            write_text(random_games(rules, tags, count, seed, max_plies), out)
    except UnknownGame as exc:
        fail(str(exc))
    except (RulesError, ValueError) as exc:
        fail(str(exc))


@app.command("diagram")
def diagram_command(
    file: InputArg,
    output: OutputOpt = None,
    game: Annotated[int, typer.Option("--game", min=1, help="Which game of the file.")] = 1,
    ply: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--ply", min=0, help="Draw the position after this many moves."),
    ] = None,
    all_plies: Annotated[
        bool,
        typer.Option(
            "--all",
            help="One SVG per position: OUT-000.svg (the start), OUT-001.svg... (needs -o).",
        ),
    ] = False,
    strip: Annotated[
        bool,
        typer.Option("--strip", help="Every position of the main line in one SVG, side by side."),
    ] = False,
    flip: Annotated[
        bool, typer.Option("--flip", help="Show the board from Black's side.")
    ] = False,
    coordinates: Annotated[
        bool,
        typer.Option("--coordinates/--no-coordinates", help="Name the points along the edges."),
    ] = True,
    size: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--size", min=16, help="Width in px (default: the natural size)."),
    ] = None,
    css: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--css", help="A stylesheet added after the default one.", metavar="FILE"),
    ] = None,
    caption: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--caption", help="Caption instead of the default (game and move)."),
    ] = None,
    columns: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--columns", min=1, help="Boards per row of a --strip."),
    ] = None,
) -> None:
    """Draw a position of a record as SVG: the board, its pieces and the last move.

    By default the position at the end of the main line; --ply N after N moves,
    --all every position (one file each), --strip every position in one picture.
    Exit code 1 when the record cannot be replayed (or zrec has no engine for it).
    """
    from zrec.outputs.diagram import (
        DiagramError,
        all_diagrams,
        diagram_for_record,
        strip_for_record,
    )

    if (ply is not None) + all_plies + strip > 1:
        fail("--ply, --all and --strip each choose what to draw: give one of them")
    if columns is not None and not strip:
        fail("--columns goes with --strip")
    if all_plies and (output is None or output == "-"):
        fail("--all writes one file per position, named after -o: give -o OUT.svg")
    stylesheet = None
    if css is not None:
        try:
            stylesheet = Path(css).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"cannot read {css}: {getattr(exc, 'strerror', None) or exc}")
    with open_input(file) as stream:
        record = _nth_record(read_records(stream, file), game)
    if record.game is None:
        assert record.problem is not None
        fail(record.problem.format(), EXIT_INVALID)
    total = len(record.game.line.moves)
    if ply is not None and ply > total:
        fail(f"the main line has only {total} moves; --ply must be 0 to {total}")
    try:
        if all_plies:
            assert output is not None
            pictures = list(
                all_diagrams(
                    record.game,
                    flip=flip,
                    coordinates=coordinates,
                    size=size,
                    caption=caption,
                    css=stylesheet,
                )
            )
            target = Path(output)
            digits = max(3, len(str(len(pictures) - 1)))
            for i, picture in enumerate(pictures):
                name = f"{target.stem}-{i:0{digits}d}{target.suffix or '.svg'}"
                with atomic_output(target.with_name(name)) as out:
                    out.write(picture)
            return
        if strip:
            picture = strip_for_record(
                record.game,
                flip=flip,
                coordinates=coordinates,
                size=size,
                caption=caption,
                css=stylesheet,
                columns=columns,
            )
        else:
            picture = diagram_for_record(
                record.game,
                ply,
                flip=flip,
                coordinates=coordinates,
                size=size,
                caption=caption,
                css=stylesheet,
            )
    except DiagramError as exc:
        fail(str(exc), EXIT_INVALID)
    with atomic_output(output) as out:
        out.write(picture)


@app.command("html")
def html_command(
    file: InputArg,
    output: OutputOpt = None,
    game: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--game", min=1, help="Only this game of the file (default: all)."),
    ] = None,
) -> None:
    """Write a replay page: one self-contained HTML file that works offline.

    The board, the tags and the moves with their comments and variations; step with
    the buttons or the keys (left, right, Home, End), click a move to jump to it, flip
    the board.  With several games, a selector picks one.  Exit code 1 when a game
    cannot be read or replayed (nothing is written then).
    """
    from zrec.outputs.replay_page import PageError, replay_page

    with open_input(file) as stream:
        records = list(read_records(stream, file))
    if game is not None:
        records = [_nth_record(iter(records), game)]
    broken = [r for r in records if r.game is None]
    if broken:
        report_broken(broken)
        fail("nothing written: fix the games above first", EXIT_INVALID)
    if not records:
        fail(f"there is no game in {file}", EXIT_INVALID)
    try:
        page = replay_page(
            [r.game for r in records if r.game is not None], numbers=[r.number for r in records]
        )
    except PageError as exc:
        fail(str(exc), EXIT_INVALID)
    with atomic_output(output) as out:
        out.write(page)


def main() -> None:
    """Entry point of the ``zrec`` console script."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("zrec: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
