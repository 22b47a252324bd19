"""Commands that draw records: ``diagram`` (SVG) and ``html`` (a replay page).

Both take several inputs (``-`` is standard input, read once).  ``diagram`` with
several inputs, or with ``-o`` naming a folder, writes ``<stem>.svg`` for each input
(``<stem>-000.svg``, ... with ``--all``) into the folder; every file it writes is
written whole, and none at all when one of them fails.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from zrec.cli._app import (
    EXIT_INVALID,
    EXIT_USAGE,
    DrawNodeOpt,
    FilesArg,
    Found,
    OutputOpt,
    app,
    fail,
    nth_record,
    open_input,
    output_failed,
    report_broken,
    write_to,
)
from zrec.cli._inputs import unique
from zrec.cli._readings import ReadingOpt, read_under, reading_of
from zrec.notation.inputs import display_name
from zrec.notation.model import Game
from zrec.notation.reader import Record, read_records


def _is_folder(output: str | None) -> bool:
    """Whether ``-o`` names a folder: one that exists, or any name ending in ``/``."""
    if output is None or output == "-":
        return False
    return output.endswith(("/", os.sep)) or Path(output).is_dir()


def _stem(file: str) -> str:
    """The name an input gives its pictures: its file name without the suffix."""
    return "game" if file == "-" else Path(file).stem


def _read_game(file: str, number: int) -> Game:
    """Game ``number`` of one input; exits 2 when there is none, 1 when it cannot be read
    (or the input holds no game at all)."""
    with open_input(file) as stream:
        record = nth_record(read_records(stream, file), number, file)
    if record.game is None:
        assert record.problem is not None
        fail(record.problem.format(), EXIT_INVALID)
    return record.game


@app.command("diagram")
def diagram_command(
    files: FilesArg,
    output: OutputOpt = None,
    game: Annotated[int, typer.Option("--game", min=1, help="Which game of each file.")] = 1,
    ply: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--ply", min=0, help="Draw the position after this many plies."),
    ] = None,
    node: DrawNodeOpt = None,
    all_plies: Annotated[
        bool,
        typer.Option(
            "--all",
            help="One SVG per position: OUT-000.svg (the start), OUT-001.svg... (needs -o; "
            "into a folder, STEM-000.svg...).",
        ),
    ] = False,
    strip: Annotated[
        bool,
        typer.Option(
            "--strip",
            help="Every position of the main line in one SVG, side by side (at most 1,000; "
            "--from/--to choose which).",
        ),
    ] = False,
    first: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--from", min=0, help="A --strip from the position after this ply."),
    ] = None,
    last: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--to", min=0, help="A --strip to the position after this ply."),
    ] = None,
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
    option: ReadingOpt = None,
) -> None:
    """Draw a position of a record as SVG: the board, its pieces and the last move.

    By default the position at the end of the main line; --ply N after N plies (0 is
    the start), --node N after the N-th move written, variations included; --all every
    position (one file each), --strip every position in one picture (--from/--to: only
    the plies from one to the other, both included).  With several files, or with -o
    naming a folder (one that exists, or a name ending in /), each file's picture is
    FOLDER/STEM.svg.  Exit code 1 when a record cannot be replayed (or zrec has no
    engine for it, or a file holds no game), 2 for a game, ply or move the record does
    not have.
    """
    from zrec.render.diagram import DiagramError, PlyRangeError

    chosen = (ply is not None) + (node is not None) + all_plies + strip
    if chosen > 1:
        fail("--ply, --node, --all and --strip each choose what to draw: give one of them")
    if (first is not None or last is not None) and not strip:
        fail("--from and --to choose the plies of a --strip: give them with --strip")
    if first is not None and last is not None and first > last:
        fail(f"--from {first} comes after --to {last}: the strip would be empty")
    if columns is not None and not strip:
        fail("--columns goes with --strip")
    files = unique(files)
    several, folder = len(files) > 1, _is_folder(output)
    if several and not folder:
        fail("with several files, -o must name a folder to write their pictures into (FOLDER/)")
    if all_plies and (output is None or output == "-"):
        fail("--all writes one file per position, named after -o: give -o OUT.svg or -o FOLDER/")
    options: dict[str, Any] = {
        "flip": flip,
        "coordinates": coordinates,
        "size": size,
        "caption": caption,
        "css": _stylesheet(css),
    }
    written: list[tuple[Path | None, str]] = []
    reading = reading_of(option)
    for file in files:
        where = f"{display_name(file)}: " if several else ""
        record = read_under(_read_game(file, game), reading, f"{where}game {game}: ")
        try:
            pictures = _pictures(
                record, ply, node, all_plies, strip, first, last, columns, options
            )
        except PlyRangeError as exc:
            fail(f"{where}{exc}", EXIT_USAGE)
        except DiagramError as exc:
            fail(f"{where}{exc}", EXIT_INVALID)
        written += _targets(file, output, folder, all_plies, pictures)
    if len(written) == 1 and not folder:
        with write_to(written[0][0]) as out:
            out.write(written[0][1])
        return
    _write_all(written, output if folder else None)


def _stylesheet(css: str | None) -> str | None:
    """The text of ``--css``; exits 2 when it cannot be read."""
    if css is None:
        return None
    try:
        return Path(css).read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {css}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        fail(f"cannot read {css}: {exc}")


def _pictures(
    record: Game,
    ply: int | None,
    node: int | None,
    all_plies: bool,
    strip: bool,
    first: int | None,
    last: int | None,
    columns: int | None,
    options: dict[str, Any],
) -> list[str]:
    """The SVG documents ``diagram`` draws for one game (several only with --all)."""
    from zrec.render.diagram import all_diagrams, diagram_for_node, diagram_for_record
    from zrec.render.strip import strip_for_record

    if all_plies:
        return list(all_diagrams(record, **options))
    if strip:
        return [strip_for_record(record, first=first, last=last, columns=columns, **options)]
    if node is not None:
        return [diagram_for_node(record, node, **options)]
    return [diagram_for_record(record, ply, **options)]


def _targets(
    file: str, output: str | None, folder: bool, all_plies: bool, pictures: list[str]
) -> list[tuple[Path | None, str]]:
    """Where each picture of one input goes (``None``: standard output)."""
    if not all_plies:
        if folder:
            assert output is not None
            return [(Path(output) / f"{_stem(file)}.svg", pictures[0])]
        return [(None if output in (None, "-") else Path(str(output)), pictures[0])]
    assert output is not None
    digits = max(3, len(str(len(pictures) - 1)))
    if folder:
        base, suffix = Path(output) / _stem(file), ".svg"
    else:
        target = Path(output)
        base, suffix = target.with_name(target.stem), target.suffix or ".svg"
    return [
        (base.with_name(f"{base.name}-{i:0{digits}d}{suffix}"), p) for i, p in enumerate(pictures)
    ]


def _write_all(written: list[tuple[Path | None, str]], folder: str | None) -> None:
    """Write every picture, all or none; a folder named with a final ``/`` is made."""
    from zrec.fileio import OutputError, atomic_files

    if folder is not None and not Path(folder).is_dir():
        try:
            Path(folder).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(f"cannot write {folder}: {exc.strerror or exc}")
    try:
        with atomic_files() as group:
            for path, text in written:
                assert path is not None
                group.write(path, text)
    except OutputError as exc:
        output_failed(exc)


@app.command("html")
def html_command(
    files: FilesArg,
    output: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "-o",
            "--output",
            help="Output file (default: standard output); a folder (one that exists, or a "
            "name ending in /) gets index.html and one file per game.",
            metavar="PATH",
        ),
    ] = None,
    game: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--game", min=1, help="Only this game of each file (default: all)."),
    ] = None,
    option: ReadingOpt = None,
) -> None:
    """Write a replay page: one self-contained HTML file that works offline.

    The board, the tags and the moves with their comments and variations; step with
    the buttons or the keys (left, right, Home, End), click a move to jump to it, flip
    the board.  With several games (of one file or of several), a selector picks one.
    With -o naming a folder (one that exists, or a name ending in /), the page is
    FOLDER/index.html and each game FOLDER/games/game-N.js, loaded when it is chosen:
    for a season of thousands of games, the page opens at once.  Games are walked and
    written one at a time, so memory does not grow with their number.  Exit code 1
    when a game cannot be read or replayed, or no FILE holds a game (nothing is
    written then).
    """
    from zrec.render.replay_page import PageError, write_page

    files = unique(files)
    games = _PageGames(files, game, reading_of(option))
    try:
        if _is_folder(output):
            assert output is not None
            count = _html_folder(games, output)
        else:
            with write_to(output) as out:
                count = write_page(games, out)
                games.check()
    except PageError as exc:
        games.drain()
        games.check()
        fail(str(exc), EXIT_INVALID)
    assert count


class _PageGames:
    """The games of the inputs for a page, read as they are shown: a game that cannot
    be read is kept aside (and nothing written), the others handed on."""

    def __init__(self, files: list[str], game: int | None, reading: Any) -> None:
        self.files, self.game, self.reading = files, game, reading
        self.broken: list[Record] = []
        self.counted = Found()
        self.walked = self._walk()

    def __iter__(self) -> Iterator[tuple[Game, int, str | None]]:
        return self.walked

    def _walk(self) -> Iterator[tuple[Game, int, str | None]]:
        several = len(self.files) > 1
        for file in self.files:
            with open_input(file) as stream:
                records: Iterable[Record]
                if self.game is not None:
                    records = [nth_record(read_records(stream, file), self.game, file)]
                else:
                    records = self.counted.of(read_records(stream, file), file)
                source = display_name(file) if several else None
                for record in records:
                    if record.game is None:
                        self.broken.append(record)
                    elif not self.broken:  # else nothing is written: only look further
                        where = f"{source}: " if several else ""
                        name = f"{where}game {record.number}: "
                        yield read_under(record.game, self.reading, name), record.number, source

    def drain(self) -> None:
        """Read the rest of the inputs (for the games that cannot be read)."""
        for _ in self.walked:
            pass

    def check(self) -> None:
        """Exit 1 when a game could not be read (each is reported) or there was none."""
        if self.broken:
            report_broken(self.broken)
            fail("nothing written: fix the games above first", EXIT_INVALID)
        if self.game is None:
            self.counted.check()


def _html_folder(games: _PageGames, output: str) -> int:
    """Write the page as a folder, all its files or none."""
    from zrec.fileio import OutputError, atomic_files
    from zrec.render.replay_page import write_folder

    folder = Path(output)
    try:
        (folder / "games").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot write {output}: {exc.strerror or exc}")
    try:
        with atomic_files() as group:
            count = write_folder(games, lambda name, text: group.write(folder / name, text))
            games.check()
    except OutputError as exc:
        output_failed(exc)
    return count
