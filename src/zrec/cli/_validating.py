"""What ``validate`` reports for one input, in this process or in worker processes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from zrec.check.diagnostics import ShownProblem, Totals, shown_of
from zrec.check.inputs import validate_input
from zrec.check.parallel import Validators
from zrec.notation.inputs import display_name, tell

__all__ = ["checked"]


def checked(
    stream: BinaryIO, file: str, validators: Validators, totals: Totals
) -> Iterator[tuple[list[ShownProblem], int]]:
    """The problems of one input, a game at a time (with ``--jobs``, a piece of zrec
    text at a time, checked by the workers), each with the number of the input's games
    before it: the problems' game numbers count from there.  Each game is counted in
    ``totals`` before its problems are given."""
    name = display_name(file)
    is_json: bool | None = None  # (told here only for the workers)
    if validators.jobs > 1:
        is_json, stream = tell(stream, file)
        if not is_json:
            games = 0
            for part, shown in validators.pieces(stream, name):
                totals.merge(part)
                yield shown, games
                games += part.games
            return
    for game in validate_input(stream, file, name, validators.reading, is_json):
        totals.add(game.report)
        yield shown_of(game.report, validators.as_json, validators.errors_only), 0
