"""CSV as zrec writes it, safe to open in a spreadsheet.

A spreadsheet takes a cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or
a carriage return, which some strip first) for a formula: a player named
``=cmd|' /C calc'!A0`` would run when the file is opened (formula injection).  As
OWASP's "CSV Injection" page recommends, such a cell is written with a ``'`` before
it, which the spreadsheet shows as text.  A cell holding a comma, a quote, a line feed
or a carriage return is quoted (RFC 4180; :mod:`csv` leaves a carriage return bare
when lines end in a line feed).  Every CSV zrec writes goes through :func:`csv_text` (a
test checks that no module imports :mod:`csv`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["csv_text", "inert"]

#: the first characters that make a spreadsheet cell a formula
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def inert(cell: str) -> str:
    """The cell as text a spreadsheet does not evaluate."""
    return "'" + cell if cell.startswith(_FORMULA) else cell


def _quoted(cell: str) -> str:
    if any(c in cell for c in ',"\n\r'):
        return '"' + cell.replace('"', '""') + '"'
    return cell


def csv_text(rows: Iterable[Sequence[str]]) -> str:
    """The rows as CSV (lines end in a line feed), each cell made :func:`inert`."""
    return "".join(",".join(_quoted(inert(cell)) for cell in row) + "\n" for row in rows)
