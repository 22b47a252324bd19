"""What ``validate`` reports for one input, in this process or in worker processes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import BinaryIO

from zrec.check.diagnostics import ShownProblem, Totals, shown_of
from zrec.check.parallel import Validators, read_with
from zrec.check.validate import report_of
from zrec.cli._inputs import display_name, is_json_name, records_of, sniff
from zrec.notation.reader import Record
from zrec.play.overrides import with_tags

__all__ = ["checked"]


def checked(
    stream: BinaryIO, file: str, validators: Validators, totals: Totals
) -> Iterator[tuple[list[ShownProblem], int]]:
    """The problems of one input, a game at a time (with ``--jobs``, a piece of zrec
    text at a time, checked by the workers), each with the number of the input's games
    before it: the problems' game numbers count from there.  Each game is counted in
    ``totals`` before its problems are given."""
    name = display_name(file)
    if validators.jobs > 1 and not is_json_name(file):
        looks_json, stream = sniff(stream)
        if not looks_json:
            games = 0
            for part, shown in validators.pieces(stream, name):
                totals.merge(part)
                yield shown, games
                games += part.games
            return
    for record in records_of(stream, file, name):
        if isinstance(record, Record):
            record = read_with(record, validators.reading)
        elif validators.reading and record.game is not None:
            record = replace(record, game=with_tags(record.game, validators.reading))
        report = report_of(record, name)
        totals.add(report)
        yield shown_of(report, validators.as_json, validators.errors_only), 0
