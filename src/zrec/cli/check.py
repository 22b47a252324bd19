"""Commands that replay records through the rules: ``validate``, ``show``, ``random``.

``validate`` and ``show`` take several inputs; ``-`` is standard input, read once.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from zrec.cli._app import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    FilesArg,
    GameNameOpt,
    OutputOpt,
    SeatsOpt,
    ShowNodeOpt,
    app,
    check_format,
    fail,
    nth_record,
    open_input,
    say_no_game,
    write_to,
)
from zrec.cli._inputs import unique
from zrec.cli._readings import ReadingOpt, check_option_values, read_under, reading_of
from zrec.notation.inputs import display_name
from zrec.notation.reader import Record, read_records

if TYPE_CHECKING:
    from zrec.render.positions import Shown


@app.command()
def validate(
    files: Annotated[
        list[str],
        typer.Argument(
            help="Files to check: zrec text or JSON; - for standard input (read once, "
            "however often it is named).",
            metavar="FILE...",
        ),
    ],
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="text|json",
            help="text: one line a problem; json: for programs (human: the old name of text).",
        ),
    ] = "text",
    output: OutputOpt = None,
    no_warnings: Annotated[
        bool, typer.Option("--no-warnings", help="Show errors only (warnings still counted).")
    ] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=0,
            help="Check the games of zrec text in N processes (0: one for each processor). "
            "The report is the same, byte for byte; JSON inputs are read in one process.",
            metavar="N",
        ),
    ] = 1,
    option: ReadingOpt = None,
) -> None:
    """Replay every game through its rules and report every problem.

    Each problem names file, line, column, game and ply, with a stable code
    (e.g. illegal-move, wrong-result, short-chain).  Exit code 0 when every game is
    valid, 1 when one is not (or when no FILE holds a game), 2 when a file cannot be
    read.

    A FILE is zrec text or JSON (one game or an array of games, as zrec convert
    writes them, or JSON Lines): JSON when its name ends in .json or .jsonl or its
    content starts like JSON.  JSON that is malformed or fails the schema is an error
    (code syntax) naming the JSON path; games read from JSON get the same diagnostics
    as in text, at line 1, column 1 (JSON Lines: the game's line), as JSON carries no
    places for moves.
    """
    from zrec.check.diagnostics import ReportWriter, Totals
    from zrec.check.parallel import Validators, all_cores

    as_json = check_format(output_format, ("text", "json")) == "json"
    summary = Totals()
    unreadable = 0
    reading = reading_of(option)
    if reading:
        said = ", ".join(f'{tag} "{value}"' for tag, value in reading.items())
        typer.echo(f"zrec: every game is read with {said} (its own tags overridden)", err=True)
    # to standard output the problems go as they are found; to -o FILE, all at once
    with (
        write_to(output) if output is not None else contextlib.nullcontext(None) as out,
        Validators(jobs or all_cores(), as_json, no_warnings, reading) as validators,
    ):
        writer = ReportWriter(
            (lambda text: typer.echo(text, nl=False)) if out is None else out.write, as_json
        )
        for file in unique(files):
            try:
                stream = sys.stdin.buffer if file == "-" else open(file, "rb")  # noqa: SIM115
            except OSError as exc:
                typer.echo(f"zrec: cannot read {file}: {exc.strerror or exc}", err=True)
                unreadable += 1
                continue
            # standard input is left open
            with contextlib.nullcontext(stream) if file == "-" else stream:
                before = summary.games
                for shown, games_before in validators.problems(stream, file, summary):
                    writer.problems(shown, games_before)
                if summary.games == before:
                    say_no_game(file)
        writer.end(summary)  # the problems are written as they are found; the summary last
    if unreadable:
        raise typer.Exit(EXIT_USAGE)
    if summary.invalid or not summary.games:
        raise typer.Exit(EXIT_INVALID)


@app.command()
def show(
    files: FilesArg,
    game: Annotated[int, typer.Option("--game", min=1, help="Which game of the file.")] = 1,
    ply: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(
            "--ply", min=0, help="Show the position after this many turns of the main line."
        ),
    ] = None,
    node: ShowNodeOpt = None,
    option: ReadingOpt = None,
) -> None:
    """Show a position of a record: the board, whose turn it is and the legal moves.

    By default the position at the end of the main line; --ply N after N moves of the
    main line; --node N after the N-th move written, counting every move of every
    variation in the order the file gives them (give --ply or --node, not both).  With
    several files, each file's position follows a line "==> FILE <==".  Exit code 1
    when the record cannot be replayed that far (or the file holds no game), 2 for a
    game, ply or node the record does not have.
    """
    if ply is not None and node is not None:
        fail("--ply and --node each choose a position: give one of them")
    files = unique(files)
    several = len(files) > 1
    worst = EXIT_OK
    for i, file in enumerate(files):
        if several:
            typer.echo(("\n" if i else "") + f"==> {display_name(file)} <==")
        try:
            typer.echo(_position(file, game, ply, node, several, option).text())
        except typer.Exit as exc:
            if not several:
                raise
            worst = max(worst, exc.exit_code)
    if worst:
        raise typer.Exit(worst)


def _position(
    file: str,
    game: int,
    ply: int | None,
    node: int | None,
    several: bool,
    option: list[str] | None = None,
) -> Shown:
    """The position ``show`` prints for one file; exits with a message when there is none."""
    from zrec.play import GameSetupError, ReplayError, path_to, prepare
    from zrec.play.places import check_node
    from zrec.render.positions import PositionError, Shown, position_at

    where = f"{file}: " if several else ""
    with open_input(file) as stream:
        record = nth_record(read_records(stream, file), game, file)
    if record.game is None:
        assert record.problem is not None
        fail(record.problem.format(), EXIT_INVALID)
    record = replace(record, game=read_under(record.game, reading_of(option), where))
    assert record.game is not None
    if node is None:
        total = len(record.game.line.moves)
        if ply is not None and ply > total:
            fail(f"{where}the main line has only {total} moves; --ply must be 0 to {total}")
        try:
            return position_at(record.game, ply)
        except PositionError as exc:
            fail(_located(record, file) or f"{where}{exc}", EXIT_INVALID)
    check_node(record.game.line, node, lambda total: fail(
        f"{where}the record has {total} moves, variations included; --node must be 0 to {total}"
    ))
    try:
        replay = prepare(record.game)
        if node == 0:
            return Shown(replay, replay.start, 0, None)
        last = path_to(replay, record.game.line, node)[-1]
    except (GameSetupError, ReplayError) as exc:
        fail(_located(record, file) or f"{where}{exc}", EXIT_INVALID)
    return Shown(replay, last.after, last.ply, last)


def _located(record: Record, file: str) -> str | None:
    """Why a record cannot be replayed, as validate says it: ``FILE:LINE:COLUMN:
    error[code] game N, ply P: ...``: its first error at a move (else its first
    error); ``None`` if the validator finds none."""
    from zrec.check.validate import validate_game

    assert record.game is not None
    report = validate_game(record.game, display_name(file), record.number, record.line)
    errors = [d for d in report.diagnostics if d.severity == "error"]
    at_a_move = [d for d in errors if d.ply is not None] or errors
    return at_a_move[0].format() if at_a_move else None


@app.command("random")
def random_command(
    game: GameNameOpt,
    count: Annotated[int, typer.Option("--count", min=1, help="How many games.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="The same seed gives the same games.")] = 0,
    option: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--option", "-O", metavar="TAG=VALUE", help="A rule option or tag, e.g. -O Jumps=bent."
        ),
    ] = None,
    seats: SeatsOpt = None,
    max_plies: Annotated[
        int, typer.Option("--max-plies", min=1, help="Stop an unfinished game here (result *).")
    ] = 300,
    output: OutputOpt = None,
) -> None:
    """Write random legal games (deterministic by --seed), for tests and benchmarks."""
    from zrec.errors import ZrecError
    from zrec.notation.json.convert import write_text
    from zrec.play.selfplay import random_games
    from zrec.rules import find_game

    tags: dict[str, str] = {}
    for item in option or []:
        name, sep, value = item.partition("=")
        if not sep or not name:
            fail(f"--option takes Tag=value, not {item!r}")
        tags[name] = value
    check_option_values(game, tags.items())
    try:
        rules = find_game(game)
        with write_to(output) as out:
            write_text(random_games(rules, tags, count, seed, max_plies, seats), out)
    except ZrecError as exc:
        fail(str(exc))
