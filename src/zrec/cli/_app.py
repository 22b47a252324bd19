"""The ``zrec`` application object and what every command shares.

Helpers here turn library errors into messages and exit codes:
0 all good, 1 a record is invalid, 2 bad usage or a file that cannot be read.  The
arguments and options that several commands take are defined here once, with the
check of a ``--format`` value and the progress bar of the long commands.  It imports
nothing of the notation at start-up: commands that read no record (``zrec archive
users``) load none of it.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, BinaryIO, NoReturn, Optional, TextIO, TypeVar

import typer

from zrec import __version__
from zrec.cli._coerce import install
from zrec.cli._help import plain_labels

if TYPE_CHECKING:
    from zrec.notation.model import Game
    from zrec.notation.reader import Record

install()  # plain values checked without importing pydantic (start-up)
plain_labels()  # FILE, N, TAG=VALUE in the help: no <list[str]>, <int range>, <bool>
app = typer.Typer(
    name="zrec",
    help="Record, check and publish game records: the Zuni board games and a dice game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
T = TypeVar("T")


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print ``zrec: message`` to standard error and exit."""
    typer.echo(f"zrec: {message}", err=True)
    raise typer.Exit(code)


def file_text(file: Path, unreadable: str | None = None) -> tuple[bytes, str]:
    """A file's bytes and its text (UTF-8, a BOM dropped); exit 2 if it cannot be read.
    Text that is not UTF-8 is read as Latin-1, or (``unreadable``: why UTF-8 is
    needed) refused."""
    try:
        body = file.read_bytes()
    except OSError as exc:
        fail(f"{file}: cannot read it: {exc.strerror or exc}", EXIT_USAGE)
    try:
        return body, body.decode("utf-8-sig")
    except UnicodeDecodeError:
        if unreadable is not None:
            fail(f"{file}: not UTF-8 text: {unreadable}", EXIT_USAGE)
        return body, body.decode("latin-1")


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
        from zrec.rules.kernel import describe

        typer.echo(f"zrec {__version__} ({describe()})")
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
GameNameOpt = Annotated[
    str,
    typer.Option(
        "--game",
        metavar="GAME",
        help="The game, as its Game tag names it (an unknown name lists the games zrec knows).",
    ),
]
SeatsOpt = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option("--seats", min=1, help="How many seats play (default: the game's usual number)."),
]
#: ``--format`` of the commands that write for people or for programs
TextJsonOpt = Annotated[
    str,
    typer.Option(
        "--format",
        metavar="text|json",
        help="text: for people; json: for programs (human and table: old names of text).",
    ),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
#: ``--jobs`` and ``--cluster`` of the commands that cut their work into pieces
#: (:mod:`zrec.research.pieces`): study and readings --fit
JobsOpt = Annotated[
    int, typer.Option("--jobs", "-j", min=1, help="Worker processes (same numbers for any N).")
]
ClusterOpt = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--cluster",
        metavar="tcp://HOST:PORT",
        help="Do the work on the workers of this Dask scheduler (started with the command "
        "dask scheduler), with the same numbers as --jobs 1; not with --jobs above 1.",
    ),
]
#: ``--node`` of show and diagram, after the verb
_NODE = (
    " the position after the N-th move of the record in file order, variations included "
    "(the replay page's numbering; 0 is the start)."
)
ShowNodeOpt = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option("--node", min=0, help="Show" + _NODE),
]
DrawNodeOpt = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option("--node", min=0, help="Draw" + _NODE),
]


def shows_progress(quiet: bool) -> bool:
    """Whether a long command shows a progress bar: on standard error, when it is a
    terminal, unless ``--quiet``."""
    return not quiet and sys.stderr.isatty()


def progress_bar(
    quiet: bool, desc: str, unit: str, total: Callable[[], int | None], **options: Any
) -> Any:
    """A tqdm progress bar (:func:`shows_progress`), else ``None``; ``total`` is asked
    only for a bar shown, ``options`` go to tqdm."""
    if not shows_progress(quiet):
        return None
    from tqdm import tqdm

    return tqdm(total=total(), unit=unit, desc=desc, leave=False, **options)


def one_way_of_working(jobs: int, cluster: str | None, work: str) -> None:
    """Exit 2 for ``--cluster`` with ``--jobs`` above 1 (``work``: what the cluster's
    workers do, for the message)."""
    if cluster is not None and jobs > 1:
        fail(f"--cluster and --jobs: give one (the cluster's workers {work})")


#: the words ``--format`` once took for ``text`` (output for people) in some commands,
#: still taken so that scripts written for them keep working
FORMAT_ALIASES = {"human": "text", "table": "text"}


def check_format(value: str, formats: Sequence[str]) -> str:
    """``value`` of ``--format``, the old words for ``text`` (:data:`FORMAT_ALIASES`)
    read as ``text``; exit 2 unless it is one of ``formats``."""
    if "text" in formats:
        value = FORMAT_ALIASES.get(value, value)
    if value not in formats:
        words = " or ".join(formats) if len(formats) == 2 else f"one of {', '.join(formats)}"
        fail(f"--format is {words}, not {value!r}")
    return value


def output_failed(exc: Exception) -> NoReturn:
    """Exit with the message of an output that cannot be written: code 1 for a full
    disk (``zrec: no space left on device: PATH``), else 2."""
    from zrec.fileio import NoSpaceError

    fail(str(exc), EXIT_INVALID if isinstance(exc, NoSpaceError) else EXIT_USAGE)


@contextlib.contextmanager
def write_to(target: str | Path | None) -> Iterator[TextIO]:
    """:func:`zrec.fileio.atomic_output`, with a target that cannot be written
    reported as ``zrec: cannot write ...`` and exit code 2 (a full disk: exit 1)."""
    from zrec.fileio import OutputError, atomic_output

    try:
        with atomic_output(target) as stream:
            yield stream
    except OutputError as exc:
        output_failed(exc)


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


#: what every command says of an input that holds no game (docs/validate.md, "Files
#: with no game")
NO_GAME = "no game in the file"


def say_no_game(file: str) -> None:
    """``zrec: FILE: no game in the file``, on standard error."""
    from zrec.notation.inputs import display_name  # (not at start-up)

    typer.echo(f"zrec: {display_name(file)}: {NO_GAME}", err=True)


class Found:
    """How many games a command's inputs gave, saying of each input that gives none
    that it has no game (:func:`say_no_game`).  The rule, the same in every command: a
    file with no game is a warning when other inputs give games, and when none does
    the command has nothing to work on: exit code 1, nothing written."""

    def __init__(self) -> None:
        self.games = 0

    def of(self, records: Iterable[T], file: str) -> Iterator[T]:
        """The records (or games) of one input, counted."""
        count = 0
        for record in records:
            count += 1
            yield record
        self.games += count
        if not count:
            say_no_game(file)

    def check(self) -> None:
        """Exit 1 when no input gave a game (each was named already)."""
        if not self.games:
            raise typer.Exit(EXIT_INVALID)


def nth_record(records: Iterator[Record], number: int, file: str) -> Record:
    """The game numbered ``number`` (from 1) of a file.  Exits 1 when the file has no
    game at all (:func:`say_no_game`), 2 when it has fewer."""
    count = 0
    for record in records:
        if record.number == number:
            return record
        count = record.number
    if not count:
        say_no_game(file)
        raise typer.Exit(EXIT_INVALID)
    from zrec.notation.inputs import display_name

    fail(
        f"{display_name(file)}: there is no game {number} in the file (it has {count})",
        EXIT_USAGE,
    )
