"""``zrec archive pair``, ``schedule`` and ``seat``: an event's rounds drawn and stored.

``pair`` pairs a Swiss round by the FIDE Dutch system, ``schedule --round-robin`` writes
a round-robin table (the Berger tables), ``seat`` seats the tables of a game of more
seats by score groups; each stores the pairings and prints them.  docs/tournaments.md
is the guide (:mod:`zrec.archive.events.drawing` does the work).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from zrec.cli._app import check_format, fail
from zrec.cli.archive import DEFAULT_DB, DbOpt, archive_app, opened

if TYPE_CHECKING:
    from zrec.archive.events.drawing import Drawn

EventArg = Annotated[str, typer.Argument(help="The event (its Event tag).", metavar="EVENT")]
RoundOpt = Annotated[
    Optional[int],  # noqa: UP045 - typer reads the annotation at run time
    typer.Option(
        "--round",
        min=1,
        max=999,
        help="The round to draw (default: one past the last round with games, byes or "
        "stored pairings; with --replace, the last round with stored pairings).",
    ),
]
FormatOpt = Annotated[
    str,
    typer.Option("--format", metavar="text|json", help="text: a table; json: an array."),
]
ReplaceOpt = Annotated[
    bool,
    typer.Option("--replace", help="Draw again, in place of the stored pairings."),
]
ExtendOpt = Annotated[
    bool,
    typer.Option(
        "--extend-rounds",
        help="Allow a round past the event's last round (its roster's rounds, else the "
        "last round of its games and byes): the event gets longer.",
    ),
]


def _show(drawn: Drawn, output_format: str) -> None:
    """Print the rounds drawn: text, or JSON (one round: its array; several: an object
    of arrays by round)."""
    from zrec.tournament.pairing_tables import (
        pairings_json,
        pairings_text,
        round_boards,
    )

    event, boards = drawn.event, drawn.boards
    if output_format == "json":
        arrays = {n: pairings_json(event, round_boards(boards, n)) for n in drawn.rounds}
        shown = arrays[drawn.rounds[0]] if len(arrays) == 1 else {
            str(n): rows for n, rows in arrays.items()}
        typer.echo(json.dumps(shown, ensure_ascii=False, indent=2))
        return
    texts = [pairings_text(event, round_boards(boards, n)) for n in drawn.rounds]
    typer.echo("\n".join(texts), nl=False)


@archive_app.command()
def pair(
    event_name: EventArg,
    db: DbOpt = DEFAULT_DB,
    number: RoundOpt = None,
    output_format: FormatOpt = "text",
    replace: ReplaceOpt = False,
    extend: ExtendOpt = False,
    first: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--first-colour",
            metavar="white|black",
            help="The top seed's colour in round 1 (default: as round 1 was paired, else "
            "white).",
        ),
    ] = None,
) -> None:
    """Pair a Swiss round by the FIDE Dutch system, store the pairings and print them."""
    from zrec.archive.events.drawing import pair_event

    output_format = check_format(output_format, ("text", "json"))
    if first not in (None, "white", "black"):
        fail(f"--first-colour is white or black, not {first!r}")
    colour = {"white": "w", "black": "b"}.get(first or "", "")
    with opened(db) as archive:
        drawn = pair_event(archive, event_name, number, replace, extend, colour)
    _show(drawn, output_format)


@archive_app.command()
def schedule(
    event_name: EventArg,
    db: DbOpt = DEFAULT_DB,
    round_robin: Annotated[
        bool,
        typer.Option("--round-robin", help="A round robin by the Berger tables (FIDE C.05)."),
    ] = False,
    double: Annotated[
        bool, typer.Option("--double", help="Twice, the colours reversed the second time.")
    ] = False,
    output_format: FormatOpt = "text",
    replace: ReplaceOpt = False,
) -> None:
    """Write every round of a round robin as the event's pairings, and print them."""
    from zrec.archive.events.drawing import schedule_event

    if not round_robin:
        fail("schedule writes a round robin: give --round-robin")
    output_format = check_format(output_format, ("text", "json"))
    with opened(db) as archive:
        drawn = schedule_event(archive, event_name, double, replace)
    _show(drawn, output_format)


@archive_app.command()
def seat(
    event_name: EventArg,
    db: DbOpt = DEFAULT_DB,
    seats: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(
            "--seats",
            min=2,
            max=8,
            help="Seats a table (default: the seats of the event's game).",
        ),
    ] = None,
    number: RoundOpt = None,
    output_format: FormatOpt = "text",
    replace: ReplaceOpt = False,
    extend: ExtendOpt = False,
) -> None:
    """Seat a round's tables by score groups, the seats rotated; store and print them."""
    from zrec.archive.events.drawing import seat_event

    output_format = check_format(output_format, ("text", "json"))
    with opened(db) as archive:
        drawn = seat_event(archive, event_name, seats, number, replace, extend)
    _show(drawn, output_format)
