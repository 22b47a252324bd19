"""``-O Tag=value`` on the commands that replay a record (validate, show, diagram,
html): read the record under another reading of the rules.

The record's own tag is overridden (or added), each value is checked against the
game's rule options, and the command says so on standard error: ``zrec: game 1: read
with Jumps "bent" (the record says "line")``.  The overriding itself is
:mod:`zrec.play.overrides`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from zrec.cli._app import fail

if TYPE_CHECKING:
    from zrec.notation.model import Game

__all__ = ["ReadingOpt", "check_option_values", "read_under", "reading_of"]

ReadingOpt = Annotated[
    Optional[list[str]],  # noqa: UP045 - typer reads the annotation at run time
    typer.Option(
        "--option",
        "-O",
        metavar="TAG=VALUE",
        help="Read the record under this rule option (repeatable), e.g. -O Jumps=bent, "
        "or a named reading, -O Reading=ludii: the record's own tags are overridden, and "
        "the command says so.",
    ),
]


def reading_of(items: list[str] | None, games: Iterable[str] = ()) -> dict[str, str]:
    """The ``-O`` items as tag -> value, checked against ``games`` (their names; none:
    every game zrec knows) as the command line is read: a malformed item, a tag no
    game has or a value none of them takes is a usage error (exit 2)."""
    from zrec.play.overrides import OverrideError, check_for_any, parse_assignments
    from zrec.rules import all_games, find_game
    from zrec.rules.base import UnknownGameError

    try:
        values = parse_assignments(items or [])
        if values:
            check_for_any(values, [find_game(g) for g in games] or all_games())
    except (OverrideError, UnknownGameError) as exc:
        fail(str(exc))
    return values


def check_option_values(game: str, pairs: Iterable[tuple[str, str]]) -> None:
    """Check the values that ``-O`` gives the rule options and setup tags of ``game``
    (other tags are the record's own, such as Event) as the command line is read: a
    value the option does not take is a usage error (exit 2)."""
    from zrec.play.overrides import OverrideError, check_overrides
    from zrec.rules import find_game
    from zrec.rules.base import READING, UnknownGameError

    try:
        rules = find_game(game)
        for tag, value in pairs:
            if tag in rules.options or tag in rules.inputs or tag == READING:
                check_overrides(rules, {tag: value})
    except (OverrideError, UnknownGameError) as exc:
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
