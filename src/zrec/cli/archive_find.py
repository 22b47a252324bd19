"""``zrec archive search`` and ``zrec archive export``: the same filters, two outputs.

``search`` lists the games found (a table, JSON objects with id and tags, ids, or the
records); ``export`` writes them as records to a file (zrec text, JSON or JSON Lines,
as ``zrec convert`` writes them), to import elsewhere.  Both commands are made by
:func:`_finder`, so their filters cannot drift apart.
"""

from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from zrec.cli._app import OutputOpt, check_format, fail, nth_record, write_to
from zrec.cli._readings import reading_of
from zrec.cli.archive import DEFAULT_DB, DbOpt, archive_app, opened

# (no ``from __future__ import annotations``: the commands are made in a function, and
# typer must read their annotations there)

if TYPE_CHECKING:
    from zrec.archive import Archive, StoredGame
    from zrec.archive.store.search import Query


Names = Annotated[
    Optional[list[str]],  # noqa: UP045 - typer reads the annotation at run time
    typer.Option("--player", help="A player in any seat (repeat: all of them).", metavar="NAME"),
]
Text = Optional[str]  # noqa: UP045


def _pairs(items: list[str] | None, option: str) -> list[tuple[str, str]]:
    out = []
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            fail(f"{option} takes Tag=value, not {item!r}")
        out.append((name.strip(), value.strip()))
    return out


def _reading_options(values: dict[str, str], game: str | None) -> dict[str, str]:
    """The options a ``-O Reading=NAME`` of a search stands for (with the others given);
    a usage error without ``--game``, or with an option that says otherwise."""
    from zrec.play.overrides import OverrideError, expand_reading
    from zrec.rules import find_game

    try:
        return expand_reading(values, [find_game(game)] if game else [])
    except OverrideError as exc:
        fail(str(exc))


def _position_of(value: str) -> tuple[Any, int]:
    """``FILE:PLY`` or ``FILE:GAME:PLY``: a record of a file and a ply."""
    from zrec.notation.reader import read_records

    parts = value.rsplit(":", 2)
    numbers = [p for p in parts[1:] if p.isdigit()]
    if len(parts) == 3 and len(numbers) == 2:
        file, number, ply = parts[0], int(parts[1]), int(parts[2])
    elif len(parts) >= 2 and parts[-1].isdigit():
        file, number, ply = value.rsplit(":", 1)[0], 1, int(parts[-1])
    else:
        fail(f"--position-after takes FILE:PLY or FILE:GAME:PLY, not {value!r}")
    try:
        record = nth_record(read_records(file), number, file)
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}")
    if record.game is None:
        assert record.problem is not None
        fail(f"--position-after: {record.problem.format()}")
    return record.game, ply


#: games shown by a search by moves or position when --limit is not given
PAGE = 50


def _ids(archive: "Archive", query: "Query") -> Iterator[int]:
    from zrec.archive.store.search import search

    return search(archive, query)


def _page(archive: "Archive", query: "Query") -> tuple[list[int], int]:
    from zrec.archive.store.search import search_page

    return search_page(archive, query)


def _summary(shown: int, total: int, offset: int) -> str:
    """The line under a page of games: which games of how many."""
    games = "game" if total == 1 else "games"
    if offset == 0 and shown == total:
        return f"{total} {games} found"
    if not shown:
        return f"{total} {games} found: none from {offset + 1} on"
    line = f"games {offset + 1}-{offset + shown} of {total} found"
    if offset + shown < total:
        line += f" (--offset {offset + shown} for the next {min(shown, total - offset - shown)})"
    return line


def _finder(export: bool) -> Any:
    formats = ("zrec", "json", "jsonl") if export else ("text", "json", "ids", "zrec")
    limit_help = (
        "At most this many games."
        if export
        else f"At most this many games (default: {PAGE} with --moves, --position or "
        "--position-after, which say how many match in all; every game otherwise)."
    )

    def command(
        db: DbOpt = DEFAULT_DB,
        player: Names = None,
        white: Annotated[Text, typer.Option("--white", help="The player of White.")] = None,
        black: Annotated[Text, typer.Option("--black", help="The player of Black.")] = None,
        seat: Annotated[
            Optional[list[str]],  # noqa: UP045
            typer.Option(
                "--seat", help="A seat's player: --seat Shepherd2=NAME.", metavar="SEAT=NAME"
            ),
        ] = None,
        event: Annotated[Text, typer.Option("--event", help="The Event tag, exactly.")] = None,
        site: Annotated[Text, typer.Option("--site", help="The Site tag, exactly.")] = None,
        round_: Annotated[Text, typer.Option("--round", help="The Round tag, exactly.")] = None,
        date_from: Annotated[
            Text, typer.Option("--date-from", help="Played on or after (YYYY[.MM[.DD]]).")
        ] = None,
        date_to: Annotated[
            Text, typer.Option("--date-to", help="Played on or before (YYYY[.MM[.DD]]).")
        ] = None,
        result: Annotated[Text, typer.Option("--result", help="The result, e.g. 1-0.")] = None,
        termination: Annotated[
            Text, typer.Option("--termination", help="How it ended, e.g. resignation.")
        ] = None,
        game: Annotated[Text, typer.Option("--game", help="The game (as its Game tag).")] = None,
        option: Annotated[
            Optional[list[str]],  # noqa: UP045
            typer.Option(
                "--option", "-O", help="A rule option, e.g. -O Jumps=bent.", metavar="TAG=VALUE"
            ),
        ] = None,
        moves: Annotated[
            Text,
            typer.Option("--moves", help='Games that open with these moves: "1. b6-b5 b4xb6".'),
        ] = None,
        position: Annotated[
            Text,
            typer.Option("--position", help="Games that reach this position (a Setup string)."),
        ] = None,
        position_after: Annotated[
            Text,
            typer.Option(
                "--position-after",
                help="Games that reach the position after ply PLY of a record: FILE:PLY "
                "(its first game) or FILE:GAME:PLY.",
            ),
        ] = None,
        material: Annotated[
            Text, typer.Option("--material", help="Games that reach these pieces per seat: 12:9.")
        ] = None,
        mark: Annotated[
            Text,
            typer.Option("--mark", metavar="?!|?|??",
                         help="Games a stored computer analysis marks so (zrec archive analyse)."),
        ] = None,
        max_ply: Annotated[
            Optional[int],  # noqa: UP045
            typer.Option("--max-ply", min=1, max=10**9,
                         help="With --mark: the marked move at this ply or before."),
        ] = None,
        ids: Annotated[
            Optional[list[int]],  # noqa: UP045
            typer.Option("--id", help="Only this archive id (repeat for more)."),
        ] = None,
        limit: Annotated[
            Optional[int],  # noqa: UP045
            typer.Option("--limit", min=1, help=limit_help),
        ] = None,
        offset: Annotated[
            int,
            typer.Option("--offset", min=0, help="Leave out the first N games found (a page on)."),
        ] = 0,
        output_format: Annotated[
            str, typer.Option("--format", metavar="|".join(formats), help="What to print.")
        ] = formats[0],
        output: OutputOpt = None,
    ) -> None:
        from zrec.archive.store.search import Query, SearchError

        output_format = check_format(output_format, formats)
        values = {}
        if option:  # checked as the command line is read (the rules imported only then)
            values = reading_of(option, [game] if game else [])
        options = _pairs(option, "-O")
        if "Reading" in values:  # stored games keep their options, not its name
            options = list(_reading_options(values, game).items())
        seats = _pairs(seat, "--seat")
        seats += [("White", white)] if white is not None else []
        seats += [("Black", black)] if black is not None else []
        query = Query(
            players=list(player or []),
            seats=seats,
            event=event,
            site=site,
            round=round_,
            date_from=date_from,
            date_to=date_to,
            result=result,
            termination=termination,
            game=game,
            options=options,
            moves=moves,
            position=position,
            position_of=_position_of(position_after) if position_after else None,
            material=material,
            mark=mark,
            max_ply=max_ply,
            ids=ids,
            limit=limit,
            offset=offset,
        )
        by_moves = bool(moves or position or position_after)
        # a search cut by --limit or --offset says how many games match in all
        paged = not export and (by_moves or limit is not None or offset > 0)
        if by_moves and limit is None:
            query.limit = PAGE
        with opened(db, write=False) as archive:
            try:
                if paged:
                    page, total = _page(archive, query)
                    found: Iterator[int] = iter(page)
                else:
                    found = _ids(archive, query)
                line = _summary(len(page), total, offset) if paged else None
                with write_to(output) as out:
                    _write(archive, found, output_format, export, out)
                    if line is not None and output_format == "text":
                        out.write(line + "\n")
                if line is not None and output_format != "text":
                    typer.echo(line, err=True)  # after what standard output shows
            except SearchError as exc:
                fail(str(exc))

    command.__doc__ = (
        """Write the games that match every filter to a file, as records to import again.

        zrec (canonical text), json (an array, as zrec convert writes it) or jsonl (a
        game a line).  Filters as for search; none: every game.
        """
        if export
        else """List the games that match every filter.

        A player is matched by name whatever its case, accents or spacing and through the
        aliases.  --moves finds the games that open with these moves; --position and
        --position-after the games that pass through a position, by any order of moves
        (each hit confirmed by replay); --material the games that reach that count of
        pieces per seat.  Dates with ?? parts count when they may fall in the range.
        Output: table, json (an array of objects with id and tags), ids, or zrec (the
        records).
        """
    )
    return command


def _write(archive: "Archive", ids: Iterator[int], kind: str, export: bool, out: Any) -> None:
    def games() -> Iterator["StoredGame"]:
        batch: list[int] = []
        for gid in ids:
            batch.append(gid)
            if len(batch) >= 200:
                yield from archive.games(batch)
                batch = []
        yield from archive.games(batch)

    if kind == "ids":
        for gid in ids:
            out.write(f"{gid}\n")
    elif kind == "zrec":
        for i, game in enumerate(games()):
            out.write(("\n" if i else "") + game.text)
    elif kind == "text":
        from zrec.cli._table import fit

        rows = (
            [
                str(game.id),
                game.game,
                game.tag("Date", "?"),
                game.tag("Event", "?"),
                game.tag("Round", "?"),
                game.result,
                str(game.plies),
                " - ".join(name for _, name in game.players) or "?",
            ]
            for game in games()
        )
        for line in fit(rows):
            out.write(line + "\n")
    elif kind == "jsonl" or (kind == "json" and export):
        import json

        from zrec.notation.json.values import game_to_json
        from zrec.notation.reader import read_game

        if kind == "json":
            out.write("[")
        for i, game in enumerate(games()):
            value = json.dumps(game_to_json(read_game(game.text)), ensure_ascii=False)
            if kind == "jsonl":
                out.write(value + "\n")
            else:
                out.write(("," if i else "") + "\n" + value)
        if kind == "json":
            out.write("\n]\n")
    else:
        import json

        out.write("[")
        for i, game in enumerate(games()):
            out.write(("," if i else "") + "\n" + json.dumps(game.to_json(), ensure_ascii=False))
        out.write("\n]\n")


archive_app.command("search")(_finder(export=False))
archive_app.command("export")(_finder(export=True))
