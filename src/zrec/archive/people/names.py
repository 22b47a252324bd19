"""Player names as the archive matches them, and as it compares them for likely duplicates.

Two spellings are the same player when their *normal forms* agree: letters compared
without case and without accents, runs of spaces and dots folded, and "Last, First"
read as "First Last".  ``Culin, Stewart``, ``stewart  culin`` and ``Stéwart Culin``
are one name.  The archive keeps the first spelling it met as the player's name.

The normal form is stored (``players.norm``, ``aliases.norm``, ``games.seats``), so it
stays as strict as it is: a hyphen, an apostrophe or a letter that Unicode does not take
apart (``ł``, ``ø``, ``æ``) still makes another name.  ``Jean-Paul Sartre`` and ``Jean Paul
Sartre`` are two players until someone merges them; :func:`name_words`, which reads those
as the same words, only suggests it (``zrec archive players --suggest-merges``).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "UNKNOWN_NAMES",
    "compatible_given",
    "edits_within",
    "name_words",
    "normal_name",
    "sort_key",
]

_SPACES = re.compile(r"[\s.]+")
#: a comma with the spaces (and dots) around it
_COMMA = re.compile(r"[\s.]*,[\s.]*")
#: what a seat tag holds when nobody is named
UNKNOWN_NAMES = frozenset({"", "?", "-"})

#: letters that NFKD leaves whole, as the Latin letters they are read as
_LETTERS = str.maketrans(
    {
        "ł": "l",
        "ø": "o",
        "đ": "d",
        "ð": "d",
        "ħ": "h",
        "ı": "i",
        "ŀ": "l",
        "þ": "th",
        "æ": "ae",
        "œ": "oe",
    }
)
#: what separates words for the suggestions: anything but letters and digits
_NOT_WORD = re.compile(r"[\W_]+")


def _plain(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).casefold()


def normal_name(name: str) -> str:
    """The form two spellings of one name share."""
    text = _plain(name)
    if text.count(",") == 1:
        last, first = text.split(",")
        text = f"{first} {last}"
    return _SPACES.sub(" ", _COMMA.sub(", ", text)).strip()


def sort_key(name: str) -> tuple[str, str]:
    """The order players are listed in: by the name as kept, without case or accents."""
    return _plain(name).translate(_LETTERS), name


def name_words(norm: str) -> tuple[str, ...]:
    """The words of a normal form as the suggestions compare them: hyphens, apostrophes
    and other punctuation separate words, and the letters NFKD keeps whole are read as
    plain Latin ones (``ł`` as ``l``, ``æ`` as ``ae``).  The last word is the surname."""
    return tuple(word for word in _NOT_WORD.split(norm.translate(_LETTERS)) if word)


def compatible_given(mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """Whether two lists of given names may be one person's: word by word the same, or
    an initial and a name that starts with it (``s`` and ``stewart``), as far as the
    shorter list goes.  Neither may be empty: a bare surname fits anyone."""
    if not mine or not theirs:
        return False
    for one, other in zip(mine, theirs, strict=False):
        if one == other:
            continue
        if len(one) == 1 and other.startswith(one):
            continue
        if len(other) == 1 and one.startswith(other):
            continue
        return False
    return True


def edits_within(one: str, other: str, limit: int) -> int | None:
    """The edit distance of two strings when it is at most ``limit`` (``None`` when it is
    more): letters inserted, deleted or changed, and two neighbours swapped, one edit
    each (the optimal string alignment distance)."""
    if abs(len(one) - len(other)) > limit:
        return None
    if one == other:
        return 0
    width = len(other) + 1
    before: list[int] = []
    row = list(range(width))
    for i in range(1, len(one) + 1):
        earlier, before, row = before, row, [i] + [0] * len(other)
        for j in range(1, width):
            cost = one[i - 1] != other[j - 1]
            best = min(before[j] + 1, row[j - 1] + 1, before[j - 1] + cost)
            if i > 1 and j > 1 and one[i - 1] == other[j - 2] and one[i - 2] == other[j - 1]:
                best = min(best, earlier[j - 2] + 1)
            row[j] = best
        if min(row) > limit:
            return None
    return row[-1] if row[-1] <= limit else None
