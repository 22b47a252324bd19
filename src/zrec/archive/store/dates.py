"""Dates with unknown parts, as ranges of days.

A ``Date`` tag is ``YYYY.MM.DD`` with ``??`` for an unknown part (``2024.??.??``,
``????.??.??``).  The archive stores each date as its earliest and latest possible day
(``2024.01.01`` .. ``2024.12.31``); a date whose year is unknown has no range.  A search
from D1 to D2 finds the games whose range meets [D1, D2]: a game of ``2024.??.??`` is
found by a search for March 2024, since it may have been played then.  The bounds of a
search may have unknown parts too: ``--date-from 2024`` starts on 2024.01.01 and
``--date-to 2024.03`` ends on 2024.03.31.
"""

from __future__ import annotations

import calendar
import re

__all__ = ["DateError", "date_range"]

_DATE = re.compile(r"^(\d{4}|\?{4})(?:[.\-/](\d{2}|\?\?)(?:[.\-/](\d{2}|\?\?))?)?$")


class DateError(ValueError):
    """A date that is not ``YYYY[.MM[.DD]]`` (with ``??`` parts)."""


def date_range(text: str) -> tuple[str, str] | None:
    """The first and last day a date may be (``YYYY.MM.DD`` strings), ``None`` when its
    year is unknown; raises :class:`DateError` for a malformed date."""
    match = _DATE.match(text.strip())
    if match is None:
        raise DateError(f"{text!r} is not a date: write YYYY.MM.DD, with ?? for unknown parts")
    year, month, day = match.groups()
    if "?" in year:
        return None
    y = int(year)
    if month is None or "?" in month:
        return f"{y:04d}.01.01", f"{y:04d}.12.31"
    m = int(month)
    if not 1 <= m <= 12:
        raise DateError(f"{text!r} is not a date: there is no month {m}")
    last = calendar.monthrange(y, m)[1]
    if day is None or "?" in day:
        return f"{y:04d}.{m:02d}.01", f"{y:04d}.{m:02d}.{last:02d}"
    d = int(day)
    if not 1 <= d <= last:
        raise DateError(f"{text!r} is not a date: {y:04d}.{m:02d} has no day {d}")
    return f"{y:04d}.{m:02d}.{d:02d}", f"{y:04d}.{m:02d}.{d:02d}"
