"""``zrec archive players`` and ``zrec archive alias``: an archive's player names.

``players`` lists the players with their games and aliases, or (``--suggest-merges``)
the groups of players that are probably one person; ``alias`` merges one player into
another.  The work is done by :mod:`zrec.archive.people.players`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from zrec.cli._app import check_format
from zrec.cli.archive import DEFAULT_DB, DbOpt, archive_app, opened

if TYPE_CHECKING:
    from zrec.archive.people.players import Player, Suggestion

HINT = 'zrec archive alias "Old" "Canonical"'


def _games(n: int) -> str:
    return f"{n} game{'s' * (n != 1)}"


@archive_app.command("players")
def players_command(
    part: Annotated[
        str | None,
        typer.Argument(
            metavar="[NAME-PART]",
            help="Only the players whose name holds this (compared as names are: without "
            "case, accents or extra spaces).",
            show_default=False,
        ),
    ] = None,
    db: DbOpt = DEFAULT_DB,
    output_format: Annotated[
        str, typer.Option("--format", metavar="text|json", help="What to print.")
    ] = "text",
    suggest: Annotated[
        bool,
        typer.Option(
            "--suggest-merges",
            help="List the groups of players that are probably one person, and why.",
        ),
    ] = False,
) -> None:
    """List the players: name, games and aliases, sorted by name.

    A player's name is the first spelling the archive met; its aliases are the other
    spellings merged into it (zrec archive alias), in their normal form.
    --suggest-merges lists instead the players that are probably one person under
    spellings the archive does not join by itself: other punctuation, the same words
    in another order, initials, a letter or two apart.  It only suggests: zrec archive
    alias merges.
    """
    from zrec.archive.people.players import players, suggest_merges

    output_format = check_format(output_format, ("text", "json"))
    with opened(db, write=False) as archive:
        if suggest:
            groups = suggest_merges(archive, part)
        else:
            found = players(archive, part)
    if suggest:
        _show_groups(groups, output_format)
        return
    if output_format == "json":
        typer.echo(json.dumps([p.to_json() for p in found], ensure_ascii=False, indent=2))
        return
    _show_players(found)


def _show_players(found: list[Player]) -> None:
    width = max([len("player"), *(len(p.name) for p in found)])
    typer.echo(f"{'games':>5}  {'player':<{width}}  aliases".rstrip())
    for player in found:
        line = f"{player.games:>5}  {player.name:<{width}}  {', '.join(player.aliases)}"
        typer.echo(line.rstrip())


def _show_groups(groups: list[Suggestion], output_format: str) -> None:
    if output_format == "json":
        typer.echo(json.dumps([g.to_json() for g in groups], ensure_ascii=False, indent=2))
        return
    for group in groups:
        names = ", ".join(f'"{p.name}" ({_games(p.games)})' for p in group.names)
        typer.echo(f"{names}: {group.reason}")
    if not groups:
        typer.echo("no likely duplicates")
        return
    count = f"{len(groups)} group{'s' * (len(groups) != 1)}"
    typer.echo(f"{count} of likely duplicates; to merge one name into another: {HINT}")


@archive_app.command("alias")
def alias_command(
    old: Annotated[
        str, typer.Argument(metavar="OLD", help="The name to merge (it becomes an alias).")
    ],
    canonical: Annotated[
        str, typer.Argument(metavar="CANONICAL", help="The player it is merged into.")
    ],
    db: DbOpt = DEFAULT_DB,
    output_format: Annotated[
        str, typer.Option("--format", metavar="text|json", help="What to print.")
    ] = "text",
) -> None:
    """Merge the player OLD into the player CANONICAL, in one transaction.

    Both names are looked up as searches look them up (normal form, aliases).  OLD's
    games, event entries and rounds go to CANONICAL, and OLD's name becomes an alias:
    searches by either name, and games imported later under either, find CANONICAL.
    Refused (exit code 2): a name that is no player, an OLD that is an alias already,
    two names of one player, two players who sat at one game.
    """
    from zrec.archive.people.merging import merge

    output_format = check_format(output_format, ("text", "json"))
    with opened(db) as archive:
        done = merge(archive, old, canonical)
    if output_format == "json":
        typer.echo(json.dumps(done.to_json(), ensure_ascii=False, indent=2))
        return
    typer.echo(f'merged "{done.old}" ({_games(done.games)}) into "{done.canonical}"')
