"""The commands' inputs: files or standard input, and the forms a record takes.

- ``-`` names standard input.  It is read once: when ``-`` is named more than once,
  the later ones are left out (:func:`unique`), and standard input is never closed.
- Whether an input is JSON or zrec text is told, and its games read, by
  :mod:`zrec.notation.inputs` (the server reads its bodies the same way); ``--from``
  forces one.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zrec.notation.json.convert import JsonRecord
    from zrec.notation.reader import Record

__all__ = ["Format", "Source", "problem_of", "unique"]


class Format(str, Enum):
    """The two forms of a record."""

    json = "json"
    zrec = "zrec"


class Source(str, Enum):
    """What ``convert`` reads: the two forms of a record, or a Ludii trial file."""

    json = "json"
    zrec = "zrec"
    ludii = "ludii"


def unique(files: Iterable[str]) -> list[str]:
    """The inputs in order, ``-`` (standard input) kept only where it first appears."""
    out: list[str] = []
    for file in files:
        if file != "-" or "-" not in out:
            out.append(file)
    return out


def problem_of(record: Record | JsonRecord, name: str) -> str:
    """Why a record of the input ``name`` cannot be read, as the commands say it: the
    place and the reason, and the game's number in its file."""
    from zrec.notation.reader import Record

    if isinstance(record, Record):
        assert record.problem is not None
        return f"{record.problem.format()}\n  (game {record.number})"
    return f"zrec: {record.message(name)}"
