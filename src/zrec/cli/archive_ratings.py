"""``zrec archive ratings``: the players' ratings, computed from the archive's games
(Glicko-2 for games of two seats, Plackett-Luce for games of more), a list per game
and rule options, or one player's rating after each period.  docs/tournaments.md,
"Ratings", is the guide.
"""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from zrec.cli._app import check_format, fail
from zrec.cli.archive import DEFAULT_DB, DbOpt, archive_app, opened


@archive_app.command()
def ratings(
    db: DbOpt = DEFAULT_DB,
    game: Annotated[
        Optional[str],  # noqa: UP045 - typer reads the annotation at run time
        typer.Option("--game", help="Only this game (its name or an alias).", metavar="GAME"),
    ] = None,
    as_of: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--as-of",
            metavar="DATE",
            help="Count only the games certainly played by this day (YYYY.MM.DD; "
            "YYYY.MM and YYYY mean the month's or year's last day).",
        ),
    ] = None,
    player: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--player", metavar="NAME",
                     help="This player's rating after each rating period played."),
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", metavar="text|json", help="A table, or JSON.")
    ] = "text",
) -> None:
    """Rate the players: Glicko-2 for games of two seats, Plackett-Luce (openskill) for
    games of more; one list per game and rule options, rating periods in date order."""
    from zrec.archive.rated import rate
    from zrec.archive.store.dates import DateError, date_range
    from zrec.rules import find_game
    from zrec.rules.base import UnknownGameError
    from zrec.tournament.ratings import shown

    output_format = check_format(output_format, ("text", "json"))
    name = None
    if game is not None:
        try:
            name = find_game(game).name
        except UnknownGameError as exc:
            fail(f"--game: {exc}")
    day = None
    if as_of is not None:
        try:
            bounds = date_range(as_of)
        except DateError as exc:
            fail(f"--as-of: {exc}")
        if bounds is None:
            fail(f"--as-of: {as_of!r} has no year: give a day, YYYY.MM.DD")
        day = bounds[1]
    with opened(db, write=False) as archive:
        pools, reading = rate(archive, name, day)
        wanted: set[int] = set()
        if player is not None:
            wanted = set(archive.player_ids(player))
            if not wanted:
                fail(f"--player: there is no player {player!r} in {archive.db.target} "
                     "(zrec archive players lists them)")
    for why, count in sorted(reading.left_out.items()):
        typer.echo(f"zrec: {count} game{'' if count == 1 else 's'} not rated: {why}", err=True)
    if player is not None:
        if output_format == "json":
            text = json.dumps(shown.history_json(pools, wanted), ensure_ascii=False, indent=2)
            typer.echo(text)
        elif any(r.player in wanted for p in pools for r in p.players):
            typer.echo(shown.history_text(pools, wanted), nl=False)
        else:
            typer.echo(f"{player} has no rated game")
        return
    if output_format == "json":
        typer.echo(json.dumps(shown.pools_json(pools), ensure_ascii=False, indent=2))
    elif pools:
        typer.echo(shown.pools_text(pools), nl=False)
    else:
        typer.echo("no rated game")
