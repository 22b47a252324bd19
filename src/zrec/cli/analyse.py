"""``zrec analyse``: every move of each game judged by a search player, mistakes marked."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from zrec.cli._app import (
    EXIT_INVALID,
    FilesArg,
    JobsOpt,
    OutputOpt,
    QuietOpt,
    app,
    check_format,
    fail,
    open_input,
    progress_bar,
    write_to,
)
from zrec.cli._inputs import problem_of, unique
from zrec.notation.inputs import display_name, read_input

if TYPE_CHECKING:
    from zrec.notation.model import Game
    from zrec.research.analysis import Analysis

#: what a worker needs to analyse one game: its number among every input's games, the
#: game, the player (``None``: the game's default) and the seed
Task = tuple[int, "Game", "str | None", int]


def _work(task: Task) -> Analysis:
    from zrec.research.analysis import analyse_game

    number, game, player, seed = task
    return analyse_game(game, player, seed, number)


@app.command()
def analyse(
    files: FilesArg,
    player: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--player",
            metavar="NAME[:budget]",
            help="The search player that judges the moves: alphabeta[:depth] (two seats, "
            "no dice) or mcts[:playouts[:moves]].  Default: alphabeta:4 where it plays the "
            "game, else mcts:200.",
        ),
    ] = None,
    seed: Annotated[
        int,
        typer.Option(
            "--seed", min=0, max=2**63 - 1, help="The same seed gives the same analysis."
        ),
    ] = 0,
    jobs: JobsOpt = 1,
    output_format: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--format",
            metavar="zrec|json",
            help="zrec: the records with marks, comments, best lines and a summary; json: "
            "the values of every move.  Default: json for an OUT ending in .json, else zrec.",
        ),
    ] = None,
    quiet: QuietOpt = False,
    output: OutputOpt = None,
) -> None:
    """Judge every move of the main line of each game with a search player.

    Each move gets the position's value for each seat before and after it (a win
    probability), the best move found and its loss; a loss of 0.10, 0.20 or 0.30 marks
    it ?!, ? or ??, with a comment and the best line as a variation.  Each game gets a
    summary per seat (average loss, accuracy, marks) and, with dice, each roll's luck.
    See docs/analysis.md."""
    from zrec.errors import ZrecError
    from zrec.notation.writer import games_text
    from zrec.research.analysis import AnalysisError, analysis_player, check_game
    from zrec.research.annotate import annotated
    from zrec.research.pieces import run_pieces

    if output_format is None:
        output_format = "json" if output is not None and output.endswith(".json") else "zrec"
    output_format = check_format(output_format, ("zrec", "json"))
    try:
        spec = analysis_player(player)
    except AnalysisError as exc:
        fail(str(exc))
    games, names = _games(unique(files))
    problems = []
    for game, name in zip(games, names, strict=True):
        try:  # every game checked first: its moves, and the player's refusal
            check_game(game, spec)
        except ZrecError as exc:
            problems.append(f"zrec: {name}: {exc}")
    if problems:
        for problem in problems:
            typer.echo(problem, err=True)
        fail("nothing written: fix the games above first", EXIT_INVALID)
    tasks: list[Task] = [(n, game, spec, seed) for n, game in enumerate(games, 1)]
    bar = progress_bar(quiet, "analyse", "move", lambda: sum(len(g.line.moves) for g in games))

    def tick(task: Task) -> None:
        if bar is not None:
            bar.update(len(task[1].line.moves))

    try:
        done = run_pieces(_work, tasks, jobs, None, tick)
    finally:
        if bar is not None:
            bar.close()
    with write_to(output) as out:
        if output_format == "zrec":
            for text in games_text(annotated(g, a) for g, a in zip(games, done, strict=True)):
                out.write(text)
        else:
            body = [
                _json(name, n, game, a)
                for (n, game), name, a in zip(enumerate(games, 1), names, done, strict=True)
            ]
            out.write(json.dumps(body, indent=2, ensure_ascii=False) + "\n")


def _games(files: list[str]) -> tuple[list[Game], list[str]]:
    """Every game of every input (their moves as a tuple), with the name of its input
    and its number there; exit 1 at a game that cannot be read, or when there is none."""
    games: list[Game] = []
    names: list[str] = []
    broken = []
    for file in files:
        count = 0
        with open_input(file) as stream:
            for record in read_input(stream, file, display_name(file)):
                count += 1
                if record.game is None:
                    broken.append(problem_of(record, display_name(file)))
                    continue
                game = record.game
                if not isinstance(game.line.moves, tuple):
                    from dataclasses import replace

                    game = replace(game, line=replace(game.line, moves=tuple(game.line.moves)))
                games.append(game)
                names.append(f"{display_name(file)}: game {record.number}")
        if not count:
            typer.echo(f"zrec: {display_name(file)}: no game in the file", err=True)
    if broken:
        for message in broken:
            typer.echo(message, err=True)
        fail("nothing written: fix the games above first", EXIT_INVALID)
    if not games:
        raise typer.Exit(EXIT_INVALID)
    return games, names


def _json(name: str, number: int, game: Game, analysis: Analysis) -> dict[str, Any]:
    return {
        "file": name.rsplit(": game ", 1)[0],
        "game": int(name.rsplit(": game ", 1)[1]),
        "tags": dict(game.tags),
        **analysis.to_json(),
    }

