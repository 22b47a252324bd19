"""Commands that replay records through the rules: ``validate``, ``show``, ``random``."""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import Annotated, Optional

import typer

from zrec.cli._app import (
    EXIT_INVALID,
    EXIT_USAGE,
    InputArg,
    OutputOpt,
    app,
    fail,
    nth_record,
    open_input,
    write_to,
)
from zrec.notation.reader import read_records
from zrec.outputs.convert import write_text


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
    unreadable = 0
    for file in files:
        try:
            stream = sys.stdin.buffer if file == "-" else open(file, "rb")  # noqa: SIM115
        except OSError as exc:
            typer.echo(f"zrec: cannot read {file}: {exc.strerror or exc}", err=True)
            unreadable += 1
            continue
        with stream:
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
    if unreadable:
        raise typer.Exit(EXIT_USAGE)
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
        record = nth_record(read_records(stream, file), game)
    if record.game is None:
        assert record.problem is not None
        fail(record.problem.format(), EXIT_INVALID)
    try:
        shown = position_at(record.game, ply)
    except PositionError as exc:
        fail(str(exc), EXIT_INVALID)
    typer.echo(shown.text())


@app.command("random")
def random_command(
    game: Annotated[
        str,
        typer.Option(
            "--game",
            help="The game, as its Game tag names it (an unknown name "
            "lists the games zrec knows).",
        ),
    ],
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
    from zrec.errors import ZrecError
    from zrec.play.selfplay import random_games
    from zrec.rules import find_game

    tags: dict[str, str] = {}
    for item in option or []:
        name, sep, value = item.partition("=")
        if not sep or not name:
            fail(f"--option takes Tag=value, not {item!r}")
        tags[name] = value
    try:
        rules = find_game(game)
        with write_to(output) as out:
            write_text(random_games(rules, tags, count, seed, max_plies), out)
    except ZrecError as exc:
        fail(str(exc))
