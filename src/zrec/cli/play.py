"""``zrec play``: a person plays one of the study's players in the terminal."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from zrec.cli._app import GameNameOpt, OutputOpt, SeatsOpt, app, fail, write_to
from zrec.cli._readings import check_option_values


@app.command("play")
def play_command(
    game: GameNameOpt,
    player: Annotated[
        str,
        typer.Option(
            "--player",
            metavar="NAME[:budget]",
            help="The opponent at every other seat: random, greedy, "
            "mcts[:playouts[:moves]] (default 200 playouts of 20 moves) or "
            "alphabeta[:depth] (default 3; two seats, no dice), as zrec study takes them.",
        ),
    ] = "mcts",
    seat: Annotated[
        int, typer.Option("--seat", min=1, help="Your seat, from 1 in seat order (1: White).")
    ] = 1,
    option: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--option", "-O", metavar="TAG=VALUE", help="A rule option or tag, e.g. -O Jumps=bent."
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="The same seed and moves give the same game.")
    ] = 0,
    seats: SeatsOpt = None,
    output: OutputOpt = None,
) -> None:
    """Play a game against a study player, typing moves in the notation.

    Type ? for the legal moves, help for the commands and quit to stop; a move the
    rules refuse is asked again with the reason.  The record is printed at the end (or
    written with -o).  See docs/study.md."""
    from zrec.errors import ZrecError
    from zrec.notation.json.convert import write_text
    from zrec.research.playing import play_against
    from zrec.rules import find_game

    tags: dict[str, str] = {}
    for item in option or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            fail(f"--option takes Tag=value, not {item!r}")
        tags[name.strip()] = value
    check_option_values(game, tags.items())

    def ask(prompt: str) -> str | None:
        typer.echo(prompt, nl=False)
        try:
            return input()
        except EOFError:
            typer.echo()
            return None

    try:
        record = play_against(
            find_game(game), tags, player, seat - 1, seed, ask, typer.echo, seats
        )
    except ZrecError as exc:
        fail(str(exc))
    with write_to(output) as out:
        write_text(iter([record]), out)
