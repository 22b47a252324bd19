"""Player names as the archive matches them.

Two spellings are the same player when their *normal forms* agree: letters compared
without case and without accents, runs of spaces and dots folded, and "Last, First"
read as "First Last".  ``Culin, Stewart``, ``stewart  culin`` and ``Stéwart Culin``
are one name.  The archive keeps the first spelling it met as the player's name.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["UNKNOWN_NAMES", "normal_name"]

_SPACES = re.compile(r"[\s.]+")
#: a comma with the spaces (and dots) around it
_COMMA = re.compile(r"[\s.]*,[\s.]*")
#: what a seat tag holds when nobody is named
UNKNOWN_NAMES = frozenset({"", "?", "-"})


def normal_name(name: str) -> str:
    """The form two spellings of one name share."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    if text.count(",") == 1:
        last, first = text.split(",")
        text = f"{first} {last}"
    return _SPACES.sub(" ", _COMMA.sub(", ", text)).strip()
