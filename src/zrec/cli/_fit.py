"""``zrec readings --fit``: rank the readings of the rules by how well they explain the
games recorded in files or an archive (the measures are :mod:`zrec.research.fit`'s)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from zrec.cli._app import Found, fail, open_input, progress_bar, write_to
from zrec.errors import ZrecError
from zrec.notation.inputs import display_name, read_input

if TYPE_CHECKING:
    from zrec.notation.model import Game
    from zrec.research.fit import ReadingFit

__all__ = ["fit_command", "is_archive"]


def is_archive(source: str) -> bool:
    """A PostgreSQL address, or a file that is a SQLite database."""
    if source.startswith(("postgresql://", "postgres://")):
        return True
    path = Path(source)
    try:
        with path.open("rb") as handle:
            return handle.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _archive_games(db: str) -> Iterator[Game]:
    from zrec.cli._archive_open import opened
    from zrec.notation.reader import read_records

    with opened(db, write=False) as archive:
        for gid in list(archive.all_ids()):
            text = archive.text_of(gid)
            if text is None:
                continue
            for record in read_records(io.BytesIO(text.encode("utf-8")), f"game #{gid}"):
                if record.game is not None:
                    yield record.game


def _archive_count(db: str) -> int:
    from zrec.cli._archive_open import opened

    with opened(db, write=False) as archive:
        return archive.count()


def _file_games(files: Sequence[str], found: Found, left_out: list[str]) -> Iterator[Game]:
    for file in files:
        name = display_name(file)
        with open_input(file) as stream:
            for record in found.of(read_input(stream, file, name), file):
                if record.game is not None:
                    yield record.game
                elif record.problem is not None:
                    left_out.append(f"{name}: {record.problem.format()}")
                else:
                    left_out.append(f"{name}, game {record.number}: cannot be read")


def _model_line(model: str, beta: float) -> str:
    name, _, depth = model.partition(":")
    if name == "alphabeta":
        value = f"the alphabeta values at depth {depth} of the legal moves"
    else:
        value = "the pieces each legal move takes"
    return f"player model: softmax over {value}, beta = {beta:g}"


def _table(fits: Sequence[ReadingFit], beta: float, model: str) -> str:
    lines = [_model_line(model, beta)]
    for game in dict.fromkeys(f.game for f in fits):
        mine = sorted((f for f in fits if f.game == game), key=lambda f: f.rank)
        count = len(mine[0].legal)
        lines += ["", f"{game}: {count} record{'s' if count != 1 else ''}",
                  "rank  legal  share [95%]           log-lik/move [95%]        reading"]
        for f in mine:
            share = f"{f.share[0]:.3f} [{f.share[1]:.3f}, {f.share[2]:.3f}]"
            per = ("-" if f.per_move is None else
                   f"{f.per_move[0]:.3f} [{f.per_move[1]:.3f}, {f.per_move[2]:.3f}]")
            reading = " ".join(f"{k}={v}" for k, v in f.options.items()) or "(no options)"
            lines.append(f"{f.rank:>4}  {sum(f.legal):>5}  {share:<20}  {per:<24}  {reading}")
    return "\n".join(lines) + "\n"


def fit_command(
    sources: Sequence[str], as_json: bool, beta: float, seed: int, model: str = "greedy",
    jobs: int = 1, cluster: str | None = None, quiet: bool = True, output: str | None = None,
) -> None:
    """Print the fit of every reading to the records of ``sources`` under ``model``
    (``greedy`` or ``alphabeta[:D]``), in ``jobs`` processes or on ``cluster``; a
    progress bar unless ``quiet``; to ``output`` (a file written whole, or, ``None``,
    standard output)."""
    from zrec.research.fit import fit_records, model_spec

    found = Found()
    archives = [s for s in sources if is_archive(s)]
    if archives and len(sources) > 1:
        fail("--fit reads one archive, or record files: not both, not two archives")
    left_out: list[str] = []
    try:
        model = model_spec(model)
        games = (_archive_games(archives[0]) if archives
                 else _file_games(sources, found, left_out))
        # the records are read as they are fitted: an archive's count is known first
        bar = progress_bar(quiet, "fit", " records",
                           lambda: _archive_count(archives[0]) if archives else None)
        try:
            fits = fit_records(games, beta, seed, left_out, model, jobs, cluster,
                               bar.update if bar is not None else None)
        finally:
            if bar is not None:
                bar.close()
    except ZrecError as exc:
        fail(str(exc))
    for reason in left_out:
        typer.echo(f"zrec: warning: left out: {reason}", err=True)
    if not fits:
        fail("no record of a game zrec knows to fit the readings to")
    with write_to(output) as out:
        if as_json:
            model_json = {"model": model, "beta": beta}  # what the log-likelihoods are under
            out.write(json.dumps([{**f.to_json(), **model_json} for f in fits],
                                 ensure_ascii=False, indent=2) + "\n")
        else:
            out.write(_table(fits, beta, model))
