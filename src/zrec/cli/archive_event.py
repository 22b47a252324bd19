"""``zrec archive standings``, ``crosstable``, ``roster`` and ``bye``: an event's table.

``standings`` ranks the players by points and the chosen FIDE tie-breaks (a table,
CSV, JSON, HTML, or a TRF-16 report); ``crosstable`` shows every round (the round
robin and the Swiss forms); ``roster`` reads a TRF file's players and rounds into an
event; ``bye`` records one bye.  ``standings`` and ``crosstable`` warn of a stored game
that its round's stored pairings do not have.  docs/tournaments.md is the guide.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from zrec.cli._app import OutputOpt, check_format, fail, write_to
from zrec.cli.archive import DEFAULT_DB, DbOpt, archive_app, opened

if TYPE_CHECKING:
    from zrec.archive import Archive
    from zrec.tournament.event import Tournament
    from zrec.tournament.tiebreaks import Ranked

EventArg = Annotated[str, typer.Argument(help="The event (its Event tag).", metavar="EVENT")]
RoundOpt = Annotated[
    Optional[int],  # noqa: UP045 - typer reads the annotation at run time
    typer.Option("--round", min=1, help="The table after this round (default: the last)."),
]
TiebreakOpt = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--tiebreaks",
        metavar="DE,BH,…",
        help="Tie-breaks in order, by FIDE code: DE (direct encounter), BH (Buchholz), "
        "BH-C1 (cut 1), BH-M1 (median 1), SB (Sonneborn-Berger), WIN (wins), PS "
        "(progressive score). Default: DE,SB,WIN for a round robin; BH-C1,BH,DE,WIN for "
        "a Swiss event; WIN,PS for games of more than two seats.",
    ),
]
RulesOpt = Annotated[
    str,
    typer.Option(
        "--regulations",
        metavar="2026|2024",
        help="The FIDE Tie-Break Regulations: 2026 (in force from 1 March 2026) or 2024 "
        "(1 August 2024 to 28 February 2026; the dummy opponent of an unplayed round "
        "is not capped).",
    ),
]
FormOpt = Annotated[
    str,
    typer.Option(
        "--form",
        metavar="auto|rr|swiss",
        help="rr: player against player; swiss: every round's opponent, seat and result; "
        "auto: rr when everybody met everybody equally often.",
    ),
]


def _ranked(
    archive: Archive, name: str, last: int | None, tiebreaks: str | None, rules: str = "2026"
) -> tuple[Tournament, list[Ranked], list[str], bool]:
    from zrec.archive.events.loading import load_event
    from zrec.archive.events.pairstore import stored_boards
    from zrec.tournament import paired
    from zrec.tournament.tiebreaks import (
        default_tiebreaks,
        parse_tiebreaks,
        rank,
        round_robin,
    )

    event = load_event(archive, name)
    if event.rounds == 0:
        fail(f"{event.name!r} has no game with a round and a result yet")
    for said in paired.mismatches(event, stored_boards(archive.db, event.id)):
        typer.echo(f"zrec: warning: {said}", err=True)
    robin = round_robin(event)  # (of the whole event: an early round shows too few games)
    if last is not None:
        event = event.upto(last)
    chosen = parse_tiebreaks(tiebreaks, event) if tiebreaks is not None else None
    codes = chosen or default_tiebreaks(event, robin)
    for gid, why in event.left_out:
        typer.echo(f"zrec: game #{gid} does not count: {why}", err=True)
    return event, rank(event, codes, rules, robin), codes, robin


def _after(archive: Archive, event: Tournament) -> str:
    """``after round 5``, and the rounds it counts that are not complete: ``after round 5
    (1 of 4 games in; 3 pending)``."""
    from zrec.archive.events.pairstore import stored_boards
    from zrec.tournament.progress import round_progress, standings_title

    title = standings_title(event.rounds, round_progress(event, stored_boards(archive.db,
                                                                                event.id)))
    return "a" + title[1:]


def _form(event: Tournament, robin: bool, form: str) -> str:
    if form == "auto":
        return "round robin" if robin else "swiss"
    if form == "rr":
        if not event.two_player:
            fail(f"a round-robin table needs two-player games; {event.name!r} has more seats")
        return "round robin"
    if form == "swiss":
        return "swiss"
    fail(f"--form is auto, rr or swiss, not {form!r}")


@archive_app.command()
def standings(
    event_name: EventArg,
    db: DbOpt = DEFAULT_DB,
    last: RoundOpt = None,
    tiebreaks: TiebreakOpt = None,
    regulations: RulesOpt = "2026",
    output_format: Annotated[
        str, typer.Option("--format", metavar="text|csv|json|html|trf")
    ] = "text",
    output: OutputOpt = None,
) -> None:
    """The standings of an event: rank, player, points, games and tie-breaks."""
    from zrec.tournament import tables
    from zrec.tournament.trf import write_trf

    output_format = check_format(output_format, ("text", "csv", "json", "html", "trf"))
    with opened(db, write=False) as archive:  # (its errors are messages, exit 2)
        event, lines, codes, robin = _ranked(archive, event_name, last, tiebreaks, regulations)
        after = _after(archive, event)
        if output_format == "text":
            text = tables.standings_text(event, lines, codes, after)
        elif output_format == "csv":
            text = tables.standings_csv(lines, codes)
        elif output_format == "json":
            document = tables.standings_json(lines, codes)
            text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
        elif output_format == "html":
            title = f"{event.name}: standings {after}"
            text = tables.html_page(title, tables.standings_html(lines, codes))
        else:
            text = write_trf(event, lines, _form(event, robin, "auto"))
    with write_to(output) as stream:
        stream.write(text)


@archive_app.command()
def crosstable(
    event_name: EventArg,
    db: DbOpt = DEFAULT_DB,
    last: RoundOpt = None,
    tiebreaks: TiebreakOpt = None,
    regulations: RulesOpt = "2026",
    form: FormOpt = "auto",
    output_format: Annotated[str, typer.Option("--format", metavar="text|html")] = "text",
    output: OutputOpt = None,
) -> None:
    """The crosstable of an event, in rank order."""
    from zrec.tournament import tables
    output_format = check_format(output_format, ("text", "html"))
    with opened(db, write=False) as archive:
        event, lines, _, robin = _ranked(archive, event_name, last, tiebreaks, regulations)
    shape = _form(event, robin, form)
    if output_format == "text":
        text = tables.crosstable_text(event, lines, shape)
    else:
        title = f"{event.name}: crosstable after round {event.rounds}"
        text = tables.html_page(title, tables.crosstable_html(event, lines, shape))
    with write_to(output) as stream:
        stream.write(text)


@archive_app.command()
def roster(
    file: Annotated[str, typer.Argument(help="A TRF-16 file (- for standard input).")],
    db: DbOpt = DEFAULT_DB,
    event_name: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--event", help="The event to fill (default: the file's 012 line)."),
    ] = None,
) -> None:
    """Read an event's roster from a TRF file.

    It holds the players, their pairing numbers, and the rounds no stored game holds
    (byes, absences, forfeits, results without a record)."""
    from zrec.archive.events.roster import import_roster
    from zrec.cli._app import open_input
    from zrec.tournament.trf import TrfError, read_trf

    with open_input(file) as stream:
        data = stream.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # older pairing programs write Latin-1
    try:
        trf = read_trf(text, "standard input" if file == "-" else file)
    except TrfError as exc:
        fail(str(exc))
    with opened(db, create=True) as archive:
        counts = import_roster(archive, trf, event_name)
    typer.echo(
        f"{counts.event}: {counts.players} players ({counts.new_players} new), "
        f"{counts.rounds} rounds from the roster, {counts.games} rounds held by stored "
        "games (checked)"
    )


@archive_app.command()
def bye(
    event_name: EventArg,
    number: Annotated[int, typer.Argument(help="The round.", metavar="ROUND", min=1)],
    player: Annotated[str, typer.Argument(help="The player.", metavar="PLAYER")],
    kind: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--kind",
            metavar="pab|full|half|zero",
            help="pab: the pairing-allocated bye (a win's points); full, half, zero: a "
            "requested bye of 1, 1/2 or 0 points (zero: also an absence).",
        ),
    ] = None,
    remove: Annotated[
        bool, typer.Option("--remove", help="Take back the player's bye in that round.")
    ] = False,
    extend: Annotated[
        bool,
        typer.Option(
            "--extend-rounds",
            help="Allow a round past the event's last round (its roster's rounds, else "
            "the last round of its games and byes): the event gets longer.",
        ),
    ] = False,
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Record a bye: a round a player has no opponent in (or take one back)."""
    from zrec.archive.events.byes import BYE_KINDS, add_bye, remove_bye

    if remove:
        if kind is not None:
            fail("--remove takes back whatever bye the player has: give no --kind")
        with opened(db) as archive:
            name, was = remove_bye(archive, event_name, number, player)
        typer.echo(f"{event_name}, round {number}: {name}'s {was} bye is taken back")
        return
    if kind is None:
        fail(f"--kind is one of {', '.join(BYE_KINDS)} (or --remove takes a bye back)")
    if kind not in BYE_KINDS:
        fail(f"--kind is one of {', '.join(BYE_KINDS)}, not {kind!r}")
    with opened(db) as archive:
        added = add_bye(archive, event_name, number, player, kind, extend)
    longer = f" (the event now has {added.rounds} rounds)" if added.rounds else ""
    typer.echo(f"{event_name}, round {number}: {added.name} has a {kind} bye{longer}")
