"""``zrec puzzles``: positions of played games where one move is clearly best, each a
record with the solution as its main line (:mod:`zrec.research.puzzles`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from zrec.cli._app import EXIT_INVALID, OutputOpt, app, fail, open_input, write_to
from zrec.cli._inputs import problem_of, unique
from zrec.notation.inputs import display_name, read_input

if TYPE_CHECKING:
    from zrec.notation.model import Game


#: the tags of a puzzle that are not its position (two games' puzzles alike but these)
_NOT_THE_POSITION = {"Event", "Date", "White", "Black", "Result"}


def _is_archive(source: str) -> bool:
    if source.startswith(("postgresql://", "postgres://")):
        return True
    try:
        with open(source, "rb") as stream:
            return stream.read(16) == b"SQLite format 3\0"
    except OSError:
        return False


def _from_archive(db: str) -> Iterator[tuple[Game, str, int | None]]:
    """The games an ``alphabeta`` analysis is stored for, with its depth (the deepest)."""
    from zrec.archive.analyses import analyses_of
    from zrec.cli.archive import opened
    from zrec.notation.reader import read_game

    with opened(db, write=False) as archive:
        rows = archive.db.rows(
            "SELECT game, max(CAST(budget AS INTEGER)) FROM analyses "
            "WHERE player = 'alphabeta' GROUP BY game ORDER BY game")
        for gid, depth in rows:
            stored = next(iter(archive.games([int(gid)])), None)
            if stored is None or not stored.valid or not analyses_of(archive, int(gid)):
                continue
            yield read_game(stored.text, f"game #{gid}"), f"game #{gid}", int(depth)


def _from_files(files: list[str], broken: list[str]) -> Iterator[tuple[Game, str, int | None]]:
    """The games of the files; a record that cannot be read is said on standard error
    (the place and the reason) and added to ``broken``."""
    for file in files:
        with open_input(file) as stream:
            for record in read_input(stream, file, display_name(file)):
                if record.game is not None:
                    yield record.game, f"{display_name(file)}, game {record.number}", None
                else:
                    broken.append(problem_of(record, display_name(file)))
                    typer.echo(broken[-1], err=True)


@app.command()
def puzzles(
    sources: Annotated[
        list[str],
        typer.Argument(metavar="ARCHIVE_OR_FILES...",
                       help="An archive (a SQLite file or a PostgreSQL URL) whose games "
                       "zrec archive analyse judged with alphabeta, or .zrec/JSON files."),
    ],
    output: OutputOpt = None,
) -> None:
    """Positions of played games where one move is clearly best, as puzzles.

    A position before a move of a game's main line is a puzzle when, searched by the
    alphabeta player (at the depth of the game's analysis, else 4), one move wins
    material or the game and every other move does not.  Each puzzle is a record: the
    position as its Setup, a comment saying where it comes from, and the solution as
    its main line; a position met in an earlier game is given once.  Games alphabeta
    does not play (dice, more than two seats) give none.  A record that cannot be read
    or replayed is said on standard error, and the exit code is then 1 (the puzzles of
    the others are written).  See docs/analysis.md."""
    from zrec.notation.writer import games_text
    from zrec.research.puzzles import PuzzleError, UnplayableError, find_puzzles, puzzle_record

    broken: list[str] = []  # records that cannot be read, or replayed
    if len(sources) == 1 and _is_archive(sources[0]):
        games = _from_archive(sources[0])
    else:
        games = _from_files(unique(sources), broken)
    found: list[Game] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    read = left = again = 0
    for game, source, depth in games:
        read += 1
        try:
            for puzzle in find_puzzles(game, depth):
                record = puzzle_record(game, puzzle, source)
                # a position met before (the same game, options and Setup) is given once
                key = tuple(t for t in record.tags if t[0] not in _NOT_THE_POSITION)
                if key in seen:
                    again += 1
                    continue
                seen.add(key)
                found.append(record)
        except UnplayableError as exc:
            broken.append(f"zrec: {source}: {exc}")
            typer.echo(broken[-1], err=True)
        except PuzzleError:
            left += 1
    if not read:
        fail("no game to take puzzles from" + (" (the games above cannot be read)"
                                               if broken else ""))
    with write_to(output) as out:
        for text in games_text(found):
            out.write(text)
    line = f"{len(found)} puzzle{'' if len(found) == 1 else 's'} from {read} game" \
        f"{'' if read == 1 else 's'}"
    if again:
        line += f" ({again} more the same as one before)"
    if left:
        line += f" ({left} left out: alphabeta does not play them)"
    if broken:
        line += f" ({len(broken)} that cannot be read or replayed, said above)"
    typer.echo(line, err=True)
    if broken:
        raise typer.Exit(EXIT_INVALID)
