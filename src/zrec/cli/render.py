"""Commands that draw records: ``diagram`` (SVG) and ``html`` (a replay page).

Both take several inputs (``-`` is standard input, read once).  ``diagram`` with
several inputs, or with ``-o`` naming a folder, writes ``<stem>.svg`` for each input
(``<stem>-000.svg``, ... with ``--all``) into the folder; every file it writes is
written whole, and none at all when one of them fails.
"""

from __future__ import annotations

import os
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
from zrec.cli._inputs import display_name, unique
from zrec.cli._readings import ReadingOpt, read_under, reading_of
from zrec.notation.model import Game
from zrec.notation.reader import read_records


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
        typer.Option("--strip", help="Every position of the main line in one SVG, side by side."),
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
    from zrec.render.diagram import (
        all_diagrams,
        diagram_for_node,
        diagram_for_record,
        strip_for_record,
    )

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
    output: OutputOpt = None,
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
    Exit code 1 when a game cannot be read or replayed, or no FILE holds a game
    (nothing is written then).
    """
    from zrec.notation.reader import Record
    from zrec.render.replay_page import PageError, replay_page

    files = unique(files)
    several = len(files) > 1
    records: list[Record] = []
    sources: list[str] = []
    counted = Found()
    for file in files:
        with open_input(file) as stream:
            if game is not None:
                found = [nth_record(read_records(stream, file), game, file)]
            else:
                found = list(counted.of(read_records(stream, file), file))
        records += found
        sources += [display_name(file)] * len(found)
    broken = [r for r in records if r.game is None]
    if broken:
        report_broken(broken)
        fail("nothing written: fix the games above first", EXIT_INVALID)
    if not records:
        counted.check()
    reading = reading_of(option)
    games = [
        read_under(r.game, reading, f"{where}game {r.number}: ")
        for r, where in zip(records, [f"{s}: " if several else "" for s in sources],
                            strict=True)
        if r.game is not None
    ]
    try:
        page = replay_page(
            games,
            numbers=[r.number for r in records],
            sources=sources if several else None,
        )
    except PageError as exc:
        fail(str(exc), EXIT_INVALID)
    with write_to(output) as out:
        out.write(page)
