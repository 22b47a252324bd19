"""Commands that draw records: ``diagram`` (SVG) and ``html`` (a replay page)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from zrec.cli._app import (
    EXIT_INVALID,
    InputArg,
    OutputOpt,
    app,
    fail,
    nth_record,
    open_input,
    report_broken,
    write_to,
)
from zrec.notation.reader import read_records


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
        except OSError as exc:
            fail(f"cannot read {css}: {exc.strerror or exc}")
        except UnicodeDecodeError as exc:
            fail(f"cannot read {css}: {exc}")
    with open_input(file) as stream:
        record = nth_record(read_records(stream, file), game)
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
                with write_to(target.with_name(name)) as out:
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
    with write_to(output) as out:
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
        records = [nth_record(iter(records), game)]
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
    with write_to(output) as out:
        out.write(page)
