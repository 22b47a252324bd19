"""Checking an input: its games read as :mod:`zrec.notation.inputs` reads them (JSON
told from zrec text once), each validated as ``zrec validate`` validates it.

:func:`validate_input` is the one way in for ``zrec validate`` (in this process),
``POST /api/validate`` and the recording board: each game comes as a
:class:`Checked`, its record (the game, or the problem that stops it being read) and
its report, made when first asked for, so that a caller may refuse a record before
checking it (the board refuses a record too long).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, BinaryIO, TypeVar

from zrec.check.validate import validate_record
from zrec.notation.inputs import display_name, read_input

if TYPE_CHECKING:
    from zrec.check.diagnostics import GameReport
    from zrec.notation.json.convert import JsonRecord
    from zrec.notation.records import Record

__all__ = ["Checked", "read_with", "validate_input"]

_R = TypeVar("_R", bound="Record | JsonRecord")


class Checked:
    """One game of an input: its ``record`` and, when asked, its ``report``."""

    __slots__ = ("_report", "name", "record")

    def __init__(self, record: Record | JsonRecord, name: str) -> None:
        self.record = record
        self.name = name
        self._report: GameReport | None = None

    @property
    def report(self) -> GameReport:
        """The record's diagnostics (validated once, when first asked for)."""
        if self._report is None:
            self._report = validate_record(self.record, self.name)
        return self._report


def validate_input(
    source: bytes | BinaryIO,
    file: str,
    name: str | None = None,
    reading: Mapping[str, str] | None = None,
    is_json: bool | None = None,
) -> Iterator[Checked]:
    """Every game of one input with its report (``file``: the input's name, ``-`` for
    standard input; ``name``: how reports name it, ``<stdin>`` for ``-`` unless given;
    ``reading``: rule options (``-O``) that override each game's own tags, a game whose
    options do not include them being checked as written; ``is_json``: as
    :func:`~zrec.notation.inputs.read_input` takes it)."""
    name = display_name(file) if name is None else name
    for record in read_input(source, file, name, is_json):
        yield Checked(read_with(record, reading), name)


def read_with(record: _R, reading: Mapping[str, str] | None) -> _R:
    """The record read with these rule options (``-O``), its own tags overridden; a
    game whose options do not include them is checked as written (its report says
    what is wrong with the option, as for a bad tag)."""
    if not reading or record.game is None:
        return record
    from zrec.play.overrides import with_tags

    return replace(record, game=with_tags(record.game, reading))
