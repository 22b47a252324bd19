"""``-O Tag=value`` on the commands that replay a record (validate, show, diagram,
html): read the record under another reading of the rules.

The record's own tag is overridden (or added), each value is checked against the
game's rule options, and the command says so on standard error: ``zrec: game 1: read
with Jumps "bent" (the record says "line")``.  The overriding itself is
:mod:`zrec.play.overrides`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Optional

import typer

from zrec.cli._app import fail
from zrec.notation.model import Game

__all__ = ["ReadingOpt", "read_under", "reading_of"]

ReadingOpt = Annotated[
    Optional[list[str]],  # noqa: UP045 - typer reads the annotation at run time
    typer.Option(
        "--option",
        "-O",
        metavar="TAG=VALUE",
        help="Read the record under this rule option (repeatable), e.g. -O Jumps=bent: "
        "the record's own tag is overridden, and the command says so.",
    ),
]


def reading_of(items: list[str] | None) -> dict[str, str]:
    """The ``-O`` items as tag -> value; a malformed one is a usage error (exit 2)."""
    from zrec.play.overrides import OverrideError, parse_assignments

    try:
        return parse_assignments(items or [])
    except OverrideError as exc:
        fail(str(exc))


def read_under(game: Game, values: Mapping[str, str], where: str = "") -> Game:
    """``game`` read under ``values``, said on standard error when it changes the
    reading; an option the game does not have is a usage error (exit 2)."""
    if not values:
        return game
    from zrec.play.overrides import OverrideError, changes, describe, override

    try:
        found = changes(game, values)
        read = override(game, values)
    except OverrideError as exc:
        fail(f"{where}{exc}")
    if found:
        typer.echo(f"zrec: {where}{describe(found)}", err=True)
    return read
