"""``zrec archive``: import games into an archive, look after it (show, stats, check,
remove).  Searching and exporting are in :mod:`zrec.cli.archive_find`.

Every command takes ``--db PATH|URL``: a SQLite file, or a ``postgresql://`` URL;
by default the ``ZREC_DB`` environment variable, else ``zrec.sqlite`` here.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Annotated, Any, BinaryIO

import typer

from zrec.cli._app import (
    EXIT_INVALID,
    EXIT_USAGE,
    app,
    check_format,
    progress_bar,
    say_no_game,
)
from zrec.cli._archive_open import DbOpt as DbOpt  # (the archive modules import them here)
from zrec.cli._archive_open import opened as opened
from zrec.cli._inputs import unique

if TYPE_CHECKING:
    from zrec.archive.store import Archive
    from zrec.archive.store.facts import Facts
    from zrec.archive.store.ingest import Importer
    from zrec.archive.store.outcome import FileResult, ImportCounts, Notice

archive_app = typer.Typer(
    name="archive",
    help="Keep games in an archive (SQLite, or PostgreSQL when shared): import, search, "
    "export, show, stats, check, remove; players and aliases; an event's standings, "
    "crosstable, roster and byes, and its published site.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(archive_app)

DEFAULT_DB = "zrec.sqlite"


class _Counting(io.RawIOBase):
    """A stream that counts the bytes read through it (for the progress bar)."""

    def __init__(self, inner: BinaryIO, seen: Callable[[int], None]) -> None:
        self.inner = inner
        self.seen = seen

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.inner.read(len(buffer))
        buffer[: len(data)] = data
        self.seen(len(data))
        return len(data)


def _summary(counts: ImportCounts, files: int) -> str:
    parts = [f"{counts.added} added"]
    for n, word in (
        (counts.duplicates, "duplicate"),
        (counts.truncated, "truncated cop{}"),
        (counts.conflicts, "conflict"),
        (counts.continued, "continuation"),
        (counts.invalid, "invalid"),
    ):
        plural = "ies" if n != 1 else "y"
        label = (
            word.format(plural) if "{}" in word else word + ("s" * (n != 1 and word != "invalid"))
        )
        parts.append(f"{n} {label}")
    if counts.already:
        parts.append(f"{counts.already} imported before")
    head = (
        f"{counts.read} game{'s' * (counts.read != 1)} read from {files} file{'s' * (files != 1)}"
    )
    return f"{head}: " + ", ".join(parts)


@archive_app.command("import")
def import_command(
    files: Annotated[
        list[str],
        typer.Argument(
            help="Files of games (zrec text or JSON); - for standard input.", metavar="FILE..."
        ),
    ],
    db: DbOpt = DEFAULT_DB,
    keep_invalid: Annotated[
        bool,
        typer.Option("--keep-invalid", help="Store invalid games too, flagged (not indexed)."),
    ] = False,
    reread: Annotated[
        bool,
        typer.Option("--reread", help="Read a file again even if it was imported before."),
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar and no per-game reports.")
    ] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Validate in N processes (the archive and the reports are the same as with 1).",
        ),
    ] = 1,
    batch: Annotated[
        int,
        typer.Option(
            "--batch",
            min=1,
            help="Games committed in one transaction: a stopped import loses at most "
            "these (the next import redoes them).",
        ),
    ] = 20_000,
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="text|json",
            help="text: a line per report and a summary; "
            "json: one object with the counts, files and reports.",
        ),
    ] = "text",
) -> None:
    """Validate games and store the valid ones; report duplicates and conflicts.

    Every game is checked as zrec validate checks it; an invalid game is refused and
    reported in the same words (--keep-invalid stores it, flagged).  The same game
    (same game, options, setup and moves, however written) is stored once; a
    truncated copy of a stored game is reported and not stored; a game with the
    event, round and players of a stored game but other moves is a conflict: stored,
    and reported; a game its round's stored pairings do not have is stored, and
    said on standard error even with -q.  Games are committed in batches: an import
    that is stopped keeps what it committed, and importing the same file again goes
    on where it stopped.
    A file imported before is not read again (unless --reread).  Exit code 0, or 1
    when a game was invalid, not in its round's pairings, or no FILE holds a game, 2
    when a file or the archive cannot be used.
    """
    from zrec.archive.store.ingest import Importer
    from zrec.archive.store.outcome import ImportCounts, sha256_of

    output_format = check_format(output_format, ("text", "json"))
    as_json = output_format == "json"
    notices: list[Notice] = []

    def notify(notice: Notice) -> None:
        if as_json:
            notices.append(notice)
        elif not quiet:
            bar_write(notice.format())

    inputs = unique(files)
    sizes = {f: os.path.getsize(f) for f in inputs if f != "-" and os.path.isfile(f)}
    bar = progress_bar(quiet, "import", "B", lambda: sum(sizes.values()) or None, unit_scale=True)

    def bar_write(line: str) -> None:
        if bar is not None:
            bar.write(line)
        else:
            typer.echo(line)

    total = ImportCounts()
    results = []
    unreadable = 0
    with opened(db, create=True) as archive:
        from zrec.archive.events.loading import archive_mismatches
        from zrec.notation.inputs import display_name

        # the stored games that contradicted their pairings already (said by their import)
        before = {gid for gid, _ in archive_mismatches(archive)}
        importer = Importer(archive, keep_invalid, notify, batch)
        for file in inputs:
            name = display_name(file)
            sha = size = None
            try:
                if file != "-":
                    sha, size = sha256_of(file)
                stream = sys.stdin.buffer if file == "-" else open(file, "rb")  # noqa: SIM115
            except OSError as exc:
                typer.echo(f"zrec: cannot read {file}: {exc.strerror or exc}", err=True)
                unreadable += 1
                continue
            if reread:
                sha = None
            seen = bar.update if bar is not None else (lambda n: None)
            counted = io.BufferedReader(_Counting(stream, seen), 1 << 16)
            with contextlib.nullcontext(stream) if file == "-" else stream:
                result = _import_one(importer, counted, file, name, sha, size, jobs)
            if result.status == "already imported" and not as_json and not quiet:
                bar_write(f"{name}: imported before (same SHA-256): not read again")
            if bar is not None and file in sizes and result.status == "already imported":
                bar.update(sizes[file])
            total.merge(result.counts)
            results.append(result)
            if not result.counts.read and not result.counts.already:
                say_no_game(file)
        unpaired = 0
        for gid, said in archive_mismatches(archive) if total.added else []:
            if gid not in before:
                unpaired += 1
                typer.echo(_where(archive, gid) + said, err=True)
    if bar is not None:
        bar.close()
    if as_json:
        document = {
            **total.to_json(),
            "files": [
                {"file": r.file, "sha256": r.sha256, "status": r.status, **r.counts.to_json()}
                for r in results
            ],
            "reports": [n.to_json() for n in notices],
        }
        typer.echo(json.dumps(document, ensure_ascii=False, indent=2))
    else:
        typer.echo(_summary(total, len(results)))
    if unreadable:
        raise typer.Exit(EXIT_USAGE)
    if total.invalid or unpaired or not (total.read or total.already):
        raise typer.Exit(EXIT_INVALID)


def _where(archive: Archive, gid: int) -> str:
    """The start of the warning about a stored game that its round's pairings do not
    have: the file and game it was last read from."""
    found = archive.sources_of(gid)
    if not found:
        return "zrec: warning: "
    file, number, line = found[-1]
    return f"{file}:{line}: warning: game {number}: "


def _import_one(
    importer: Importer,
    stream: BinaryIO,
    file: str,
    name: str,
    sha: str | None,
    size: int | None,
    jobs: int,
) -> FileResult:
    """Import one input, in ``jobs`` processes when it is zrec text."""
    from zrec.notation.inputs import read_input, tell

    is_json: bool | None = None  # (told here only for jobs)
    if jobs > 1:
        is_json, stream = tell(stream, file)
        if not is_json:
            from zrec.archive.store.jobs import parallel_facts

            def facts(done: int) -> Iterator[Facts]:
                return parallel_facts(stream, name, done, jobs)

            return importer.import_records((), name, sha, size, facts)
    records = read_input(stream, file, name, is_json)
    return importer.import_records(records, name, sha, size)


@archive_app.command()
def show(
    ids: Annotated[
        list[int], typer.Argument(help="Archive ids (as search lists them).", metavar="ID...")
    ],
    db: DbOpt = DEFAULT_DB,
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="zrec|json",
            help="zrec: the record (where it came from goes to standard error); json: "
            "for programs.",
        ),
    ] = "zrec",
) -> None:
    """Print stored games: the record and where it came from."""
    check_format(output_format, ("zrec", "json"))
    with opened(db, write=False) as archive:
        shown = []
        for gid in ids:
            game = archive.game(gid)
            sources = archive.sources_of(gid)
            if output_format == "json":
                shown.append(
                    {
                        **game.to_json(),
                        "sources": [{"file": f, "game": n, "line": ln} for f, n, ln in sources],
                    }
                )
                continue
            where = "; ".join(f"{f} game {n} line {ln}" for f, n, ln in sources)
            flag = "" if game.valid else f" INVALID: {game.problem}"
            typer.echo(f"#{game.id} {game.game} {game.options} from {where}{flag}", err=True)
            typer.echo(game.text)
    if output_format == "json":
        typer.echo(json.dumps(shown, ensure_ascii=False, indent=2))


@archive_app.command()
def stats(
    db: DbOpt = DEFAULT_DB,
    output_format: Annotated[str, typer.Option("--format", metavar="text|json")] = "text",
    top: Annotated[int, typer.Option("--top", min=1, help="How many events to list.")] = 20,
) -> None:
    """Count the games by game, by game and options, by result and by event."""
    from zrec.archive.store.upkeep import stats as compute

    output_format = check_format(output_format, ("text", "json"))
    with opened(db, write=False) as archive:
        found = compute(archive, top)
    if output_format == "json":
        typer.echo(json.dumps(found, ensure_ascii=False, indent=2))
        return
    typer.echo(
        f"{found['games']} games ({found['valid']} valid), {found['players']} players, "
        f"{found['events']} events, {found['sources']} files, {found['positions']} positions"
    )
    for key, title in (
        ("by_game", "game"),
        ("by_options", "game and options"),
        ("by_result", "result"),
        ("by_event", "event"),
    ):
        typer.echo(f"\nby {title}:")
        for item in found[key]:
            typer.echo(
                f"  {item['games']:>8}  {item['value'] if item['value'] is not None else '?'}"
            )


@archive_app.command()
def check(
    db: DbOpt = DEFAULT_DB,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Replay the games in N processes (the report is the same as with 1).",
        ),
    ] = 1,
) -> None:
    """Replay every stored game and check it against its rows and the indexes.

    Exit code 0 when all agree, 1 when something does not (each problem is listed).
    """
    from zrec.archive.store.db import DamagedArchiveError
    from zrec.archive.store.upkeep import check as run

    with opened(db, write=False, hint="; nothing in it can be read") as archive:

        def total() -> int | None:
            try:
                return archive.count()
            except DamagedArchiveError:
                return None

        bar = progress_bar(quiet, "check", "game", total)
        tick = None
        if bar is not None:

            def tick() -> None:
                bar.update(1)

        result = run(archive, tick, jobs)
        if bar is not None:
            bar.close()
    for problem in result.problems:
        typer.echo(problem)
    n = len(result.problems)
    summary = f"{n} problem{'s' * (n != 1)}" if n else "all agree with the indexes"
    if result.damaged:
        summary += (
            f"; the archive is damaged: {result.games - len(result.unreadable)} of its "
            f"{result.games} games can still be read in full"
        )
    typer.echo(f"{result.games} games checked: {summary}")
    if not result.ok:
        raise typer.Exit(EXIT_INVALID)


@archive_app.command()
def remove(
    ids: Annotated[list[int], typer.Argument(help="Archive ids to remove.", metavar="ID...")],
    db: DbOpt = DEFAULT_DB,
) -> None:
    """Remove games and every row of theirs, in one transaction."""
    from zrec.archive.store.upkeep import remove as run

    with opened(db) as archive:
        gone = run(archive, ids)
    missing = [i for i in ids if i not in gone]
    if gone:
        typer.echo("removed " + ", ".join(f"#{i}" for i in gone))
    for gid in missing:
        typer.echo(f"zrec: there is no game #{gid}", err=True)
    if missing:
        raise typer.Exit(EXIT_INVALID)
