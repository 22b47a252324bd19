"""``zrec archive analyse``: the computer analysis of stored games, kept in the archive.

Each game chosen (every valid game, or an event's, or the ids given) is analysed as
``zrec analyse`` analyses its record alone (the same player, budget and seed give the
same values) and kept by :mod:`zrec.archive.analyses`, keyed by game, player and
budget; a game already analysed by that player and budget is left as it is unless
``--again``.  ``zrec archive search --mark`` then finds games by a mark, and a player's
page on ``zrec serve`` shows the player's accuracy over the games analysed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Optional

import typer

from zrec.cli._app import JobsOpt, QuietOpt, fail, progress_bar
from zrec.cli.archive import DEFAULT_DB, DbOpt, archive_app, opened

if TYPE_CHECKING:
    from zrec.notation.model import Game
    from zrec.research.analysis import Analysis

#: games analysed, then stored, at a time (each stored in a transaction of its own)
BATCH = 32

#: a game to analyse: its id, the game, the player (as spelt) and the seed
Task = tuple[int, "Game", str, int]


def _work(task: Task) -> Analysis:
    from zrec.research.analysis import analyse_game

    _, game, player, seed = task
    return analyse_game(game, player, seed, 1)  # (as zrec analyse of the record alone)


@archive_app.command("analyse")
def archive_analyse(
    db: DbOpt = DEFAULT_DB,
    event: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--event", help="Only the games of this event (its Event tag)."),
    ] = None,
    ids: Annotated[
        Optional[list[int]],  # noqa: UP045
        typer.Option("--id", help="Only this archive id (repeat for more)."),
    ] = None,
    player: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--player", metavar="NAME[:budget]",
            help="The search player that judges the moves, as zrec analyse takes it.  "
            "Default: alphabeta:4 where it plays the game, else mcts:200.",
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=2**63 - 1, help="The analysis's seed.")
    ] = 0,
    again: Annotated[
        bool, typer.Option("--again", help="Analyse again a game analysed by that player "
                           "and budget (its analysis replaced).")
    ] = False,
    jobs: JobsOpt = 1,
    quiet: QuietOpt = False,
) -> None:
    """Analyse stored games with a search player and keep each analysis in the archive.

    Every valid game (or --event's, or the --id given) is judged as zrec analyse judges
    its record, and kept by game, player and budget: zrec archive search --mark finds
    games by a mark, and zrec serve's player pages show each player's accuracy.  A game
    the player cannot analyse (alphabeta and dice) is named and left out.  See
    docs/analysis.md."""
    from zrec.archive.analyses import analysed, store
    from zrec.archive.store.search import Query, SearchError, search
    from zrec.errors import ZrecError
    from zrec.notation.reader import read_game
    from zrec.research.analysis import AnalysisError, analysis_player, check_game
    from zrec.research.pieces import run_pieces

    try:
        spec = analysis_player(player)
    except AnalysisError as exc:
        fail(str(exc))
    with opened(db) as archive:
        try:
            found = list(search(archive, Query(event=event, ids=ids)))
        except SearchError as exc:
            fail(str(exc))
        tasks: list[Task] = []
        skipped: list[str] = []
        for stored in archive.games(found):
            if not stored.valid:
                skipped.append(f"#{stored.id}: an invalid game ({stored.problem})")
                continue
            try:
                game = read_game(stored.text, f"game #{stored.id}")
                tasks.append((stored.id, game, check_game(game, spec), seed))
            except ZrecError as exc:
                skipped.append(f"#{stored.id}: {exc}")
        kept = 0
        if not again:
            done: set[tuple[int, str]] = set()
            for used in {t[2] for t in tasks}:
                ids_of = [t[0] for t in tasks if t[2] == used]
                done |= {(gid, used) for gid in analysed(archive, ids_of, used)}
            kept = sum((t[0], t[2]) in done for t in tasks)
            tasks = [t for t in tasks if (t[0], t[2]) not in done]
        bar = progress_bar(quiet, "analyse", "move",
                           lambda: sum(len(t[1].line.moves) for t in tasks))
        counts: dict[str, int] = {}
        try:
            for start in range(0, len(tasks), BATCH):
                part = tasks[start : start + BATCH]
                results = run_pieces(
                    _work, part, jobs, None,
                    (lambda t: bar.update(len(t[1].line.moves))) if bar is not None else None,
                )
                for task, analysis in zip(part, results, strict=True):
                    store(archive, task[0], analysis.player, seed, analysis.to_json())
                    counts[analysis.player] = counts.get(analysis.player, 0) + 1
        finally:
            if bar is not None:
                bar.close()
    for message in skipped:
        typer.echo(f"zrec: left out {message}", err=True)
    total = sum(counts.values())
    by = ", ".join(f"{p} {n}" for p, n in sorted(counts.items()))
    line = f"analysed {total} game{'' if total == 1 else 's'}" + (f" ({by})" if by else "")
    if kept:
        line += f"; {kept} analysed before (--again analyses them again)"
    if skipped:
        line += f"; {len(skipped)} left out"
    typer.echo(line)
