"""``zrec archive publish``: a static website of events, to read offline or put online.

The site (see :mod:`zrec.publish` and docs/publish.md) holds an index of the
events, and per event its standings, crosstable, rounds and a replay page per game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from zrec.cli._app import QuietOpt, progress_bar, shows_progress
from zrec.cli.archive import DEFAULT_DB, DbOpt, archive_app, opened

if TYPE_CHECKING:
    from zrec.publish import Progress


def _progress(quiet: bool) -> tuple[Progress | None, list[Any]]:
    """A progress bar on standard error when it is a terminal (made at the first page,
    when the number of pages is known), and the list that holds it once made."""
    if not shows_progress(quiet):
        return None, []
    bars: list[Any] = []

    def tick(done: int, total: int) -> None:
        if not bars:
            bars.append(progress_bar(False, "publish", "page", lambda: total))
        bars[0].update(done - bars[0].n)

    return tick, bars


@archive_app.command()
def publish(
    output: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            metavar="DIR",
            help="The site's folder: new, empty, or a site published before (replaced).",
        ),
    ],
    event_names: Annotated[
        Optional[list[str]],  # noqa: UP045 - typer reads the annotation at run time
        typer.Argument(
            help="The events (their Event tags).", metavar="EVENT...", show_default=False
        ),
    ] = None,
    db: DbOpt = DEFAULT_DB,
    every: Annotated[
        bool, typer.Option("--all", help="Every event with rounds or stored pairings.")
    ] = False,
    quiet: QuietOpt = False,
    ratings: Annotated[
        bool,
        typer.Option("--ratings", help="Add the ratings of the games the events are played "
                     "in (as zrec archive ratings gives them) and each player's history."),
    ] = False,
) -> None:
    """Write a static website of events.

    It holds the standings, crosstable and rounds of each event and a replay page per
    game, with relative links only (it works offline, from any folder).

    The site is built beside DIR and put in place at the end: a failure leaves the old
    site as it was.  A folder that is not a site zrec made is never replaced.
    """
    from zrec.cli._app import fail
    from zrec.publish import publish as run

    if every and event_names:
        fail("give events or --all, not both")
    if not every and not event_names:
        fail("name an event to publish, or give --all for every event with rounds")
    tick, bars = _progress(quiet)
    try:
        with opened(db, write=False) as archive:
            done = run(archive, None if every else event_names, output, tick, ratings)
    finally:
        for bar in bars:
            bar.close()
    events = len(done.events)
    typer.echo(
        f"published {events} event{'s' * (events != 1)}, {done.game_pages} game "
        f"page{'s' * (done.game_pages != 1)}, {done.pages} pages in {output} "
        f"(largest {round(done.largest / 1024)} KB)"
    )
