"""``zrec archive tree``: the opening explorer in the terminal.

From the start of a game, after some moves or from a position, the moves the archive's
games played next, each with its number of games and each seat's score
(:mod:`zrec.archive.store.tree`): a table, or JSON for programs.
"""

from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from zrec.cli._app import check_format, fail, write_to
from zrec.cli.archive import DEFAULT_DB, DbOpt, archive_app, opened

# (no ``from __future__ import annotations``: typer reads the annotations at run time)

if TYPE_CHECKING:
    from zrec.archive.store.tree import Branch

Text = Optional[str]  # noqa: UP045
FORMATS = ("text", "json")


def _points(value: float) -> str:
    """A score as players write it: ``3``, ``2½``, ``½``."""
    whole, half = divmod(round(value * 2), 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def table(branches: "list[Branch]") -> list[str]:
    """The branches as lines: move, games, their share, each seat's points and its
    share of the points."""
    if not branches:
        return ["no stored game plays a move from here"]
    seats: list[str] = []
    for branch in branches:
        seats += [s for s in branch.score if s not in seats]
    total = sum(b.games for b in branches)
    rows = [["move", "games", "share", *seats]]
    for branch in branches:
        given = sum(branch.score.values()) or 1
        cells = [
            f"{_points(branch.score[s])} ({round(100 * branch.score[s] / given)}%)"
            if s in branch.score
            else ""
            for s in seats
        ]
        share = f"{100 * branch.games / total:.1f}"
        rows.append([branch.move, str(branch.games), share, *cells])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    games = "game" if total == 1 else "games"
    lines.append(f"{len(branches)} {'move' if len(branches) == 1 else 'moves'}, {total} {games}")
    return lines


@archive_app.command("tree")
def tree_command(
    db: DbOpt = DEFAULT_DB,
    game: Annotated[Text, typer.Option("--game", help="The game (as its Game tag).")] = None,
    option: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--option", "-O", help="A rule option, e.g. -O Jumps=bent.", metavar="TAG=VALUE"
        ),
    ] = None,
    moves: Annotated[
        Text,
        typer.Option("--moves", help='The moves played so far: "1. b6-b5 b4xb6".'),
    ] = None,
    position: Annotated[
        Text, typer.Option("--position", help="From this position (a Setup string).")
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", metavar="text|json", help="What to print.")
    ] = "text",
) -> None:
    """The moves played next in the archive's games, with their games and scores.

    From the start of the games (of --game, under the -O rule options), after --moves,
    or from --position: each move played there, how many stored games played it, and
    the points each seat got in those games (1 a win, ½ a draw), most played first.
    JSON: [{"move": ..., "games": N, "score": {"White": x, ...}}].

    Example: zrec archive tree --moves "1. b6-b5 b4xb6" --format json
    """
    from zrec.archive.store.query import SearchError
    from zrec.archive.store.tree import tree

    output_format = check_format(output_format, FORMATS)
    if moves is not None and position is not None:
        fail("give --moves or --position, not both")
    options: dict[str, str] = {}
    for item in option or []:
        tag, sep, value = item.partition("=")
        if not sep or not tag.strip():
            fail(f"-O takes Tag=value, not {item!r}")
        options[tag.strip()] = value.strip()
    with opened(db, write=False) as archive:
        try:
            branches = tree(archive, game, options, moves, position)
        except SearchError as exc:
            fail(str(exc))
    with write_to(None) as out:
        if output_format == "json":
            import json

            found: list[dict[str, Any]] = [b.to_json() for b in branches]
            items = [json.dumps(b, ensure_ascii=False) for b in found]
            out.write("[" + ",".join(f"\n{item}" for item in items) + "\n]\n")
        else:
            for line in table(branches):
                out.write(line + "\n")
